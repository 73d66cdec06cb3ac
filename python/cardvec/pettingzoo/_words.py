"""The table as text, drawn from the game's own words (``view``, ``action_name``,
``outcome``: the engine's, the ones the web table shows): what every PettingZoo
environment's ``render`` returns, with no game-specific code here.

``words`` is anything with ``view(seat, reveal)`` (a dict: a ``kind``, the ``seats``, the
rest of the table), ``action_name(action)``, ``outcome()`` (a dict with a ``summary``, or
``None`` while the game runs) and ``legal_mask()``: a ``LaneGame`` or a single-game class
(``Flip7Game``, ``NoLimitHoldemGame``).
"""

from __future__ import annotations

from typing import Any, Protocol, Sequence

import numpy as np


class GameWords(Protocol):
    """What ``render_table`` reads of a game."""

    def view(self, seat: int, reveal: bool = False) -> dict[str, Any]: ...
    def action_name(self, action: int) -> str: ...
    def outcome(self) -> dict[str, Any] | None: ...
    def legal_mask(self) -> np.ndarray: ...


def _text(value: Any) -> str:
    """A value of a view as text: a card (a dict with ``text``) by its text, a list item by
    item, a dict key by key, ``-`` for nothing."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, dict):
        if "text" in value:
            return str(value["text"])
        return " ".join(f"{k} {_text(v)}" for k, v in value.items())
    if isinstance(value, list):
        inner = [f"[{_text(v)}]" if isinstance(v, list) else _text(v) for v in value]
        return ", ".join(inner) or "-"
    return str(value)


def _fields(items: dict[str, Any], skip: Sequence[str]) -> str:
    return " | ".join(f"{k} {_text(v)}" for k, v in items.items() if k not in skip)


def render_table(title: str, words: GameWords, agents: Sequence[str], to_act: str | None) -> str:
    """The whole table (every card shown, as at the end of a game): a header with the
    table's fields, a line per seat, then who acts and the names of the legal actions, or
    once over the outcome's summary. ``to_act`` is the agent to act (``None`` once over)."""
    view = words.view(0, True)
    lines = [" | ".join([title] + ([_fields(view, ("kind", "seats"))] if len(view) > 2 else []))]
    for agent, seat in zip(agents, view.get("seats", [])):
        lines.append(f"{agent}: {_fields(seat, ('seat',))}")
    outcome = words.outcome()
    if outcome is not None:
        lines.append(str(outcome["summary"]))
    elif to_act is not None:
        legal = [words.action_name(int(a)) for a in np.flatnonzero(words.legal_mask())]
        lines.append(f"to act: {to_act} ({', '.join(legal)})")
    return "\n".join(lines)
