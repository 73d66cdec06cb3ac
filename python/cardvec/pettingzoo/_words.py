"""The table as text, drawn from the game's own words (``view``, ``action_name``,
``outcome``: the engine's, the ones the web table shows): what every PettingZoo
environment's ``render`` returns, with no game-specific code here.

``words`` is anything with ``view(seat, reveal)`` (a dict: a ``kind``, the ``seats``, the
rest of the table), ``action_name(action)``, ``outcome()`` (a dict with a ``summary``, or
``None`` while the game runs) and ``legal_mask()``: a ``LaneGame`` or a single-game class
(``Flip7Game``, ``NoLimitHoldemGame``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol, Sequence

import numpy as np

from .._raster import table_lines

if TYPE_CHECKING:
    from numpy import ndarray


class GameWords(Protocol):
    """What ``render_table`` reads of a game."""

    def view(self, seat: int, reveal: bool = False) -> dict[str, Any]: ...
    def action_name(self, action: int) -> str: ...
    def outcome(self) -> dict[str, Any] | None: ...
    def legal_mask(self) -> ndarray: ...


def render_table(title: str, words: GameWords, agents: Sequence[str], to_act: str | None) -> str:
    """The whole table (every card shown, as at the end of a game): a header with the
    table's fields, a line per seat, then who acts and the names of the legal actions, or
    once over the outcome's summary. ``to_act`` is the agent to act (``None`` once over)."""
    lines = table_lines(title, words.view(0, True), agents)
    outcome = words.outcome()
    if outcome is not None:
        lines.append(str(outcome["summary"]))
    elif to_act is not None:
        legal = [words.action_name(int(a)) for a in np.flatnonzero(words.legal_mask())]
        lines.append(f"to act: {to_act} ({', '.join(legal)})")
    return "\n".join(lines)
