"""151 (the i151 competition game, docs/151.md) as PettingZoo environments: ``env()`` /
``raw_env()`` (AEC) and ``parallel_env()`` (Parallel, turn-based: see
``cardvec.pettingzoo._parallel``). One episode is one match.

``env(num_players=2, render_mode=None, **options)``: the options of
``cardvec.make("151", ...)`` as keywords (``num_players`` 2..4, ``cards_per_player``,
``target_score``, ``initial_dealer``, ``max_round_steps``, ``reward``), checked by the
registry (a bad one is a ``ValueError`` naming the accepted options). Agents ``player_0``
.. ``player_{n-1}`` are seats 0 .. n-1.

- Actions: ``Discrete(38)``: 0..32 play that card (``suit * 8 + rank``, suits S H D C,
  ranks A K Q J T 9 8 7), 32 draw, 33 pass, 34..38 announce suit S H D C.
- Observations: ``{"observation": float32 [142], "action_mask": int8 [38]}``, the batch
  environment's observation as seen by that seat; the mask is all zero except for the
  agent to act.
- Rewards: the batch environment's (``reward="round-points"``, the default: at each round's
  end minus each seat's score change, not zero-sum; ``"match-outcome"``: at the match's
  end +1 to the winner and -1/(n-1) to every other seat, zero-sum).
- A seat excluded by reaching the target stays in ``agents`` (never to act, mask all zero)
  until the match ends, so that the match's end pays it too; every agent is terminated
  at the match's end, or truncated by the step limit (``max_round_steps``).
- An illegal action raises ``ValueError`` and changes nothing.
- ``reset(seed=S)`` deals what lane 0 of ``cardvec.make("151", n, seed=S, ...)`` deals.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, overload

import numpy as np

from .._cardvec import i151 as _c
from ._aec import wrap
from ._lane import LaneAEC
from ._parallel import CardvecParallel

if TYPE_CHECKING:
    from typing import Any, ClassVar, SupportsIndex

    from typing_extensions import Unpack

    from .._game_classes import _I151Options
    from ._aec import _OrderEnforcing

GAME_ID: str = "151"
SUITS: str = "SHDC"
RANKS: str = "AKQJT987"
#: Observation offsets (docs/151.md, ``src/games/i151/view.rs``).
HAND, TOP, REQUIRED_SUIT, SCALARS, SEATS = 0, 32, 96, 106, 109
SEAT_WIDTH: int = 8
#: Offsets inside a seat slot: score / target, excluded, dealer.
SCORE, EXCLUDED, DEALER = 2, 3, 7


def env(*, render_mode: str | None = None, **options: Unpack[_I151Options]) -> _OrderEnforcing:
    """Create a wrapped AEC environment; illegal actions raise an exception."""
    return wrap(raw_env(render_mode=render_mode, **options))


def parallel_env(
    *,
    render_mode: str | None = None,
    **options: Unpack[_I151Options],
) -> CardvecParallel:
    """Create a Parallel environment (turn-based: only the agent to act's action is
    applied; see ``cardvec.pettingzoo._parallel``)."""
    return CardvecParallel(raw_env(render_mode=render_mode, **options))


def card_code(card: int) -> str:
    """The official code of a card id (``"AS"``, ``"TH"``, ``"8D"``)."""
    return RANKS[card % 8] + SUITS[card // 8]


class raw_env(LaneAEC):
    """The AEC environment of 151 (see the module documentation)."""

    target_score: int

    metadata: ClassVar[dict[str, Any]] = {
        "name": "i151_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    # The options by name (the registry's, num_players among them), or the seats alone by
    # position (the older spelling).
    @overload
    def __init__(
        self, *, render_mode: str | None = None, **options: Unpack[_I151Options]
    ) -> None: ...
    @overload
    def __init__(self, num_players: SupportsIndex, render_mode: str | None = None) -> None: ...
    def __init__(
        self,
        num_players: SupportsIndex = 2,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        # Scores may go below zero (the -10 of a third win in a row): no lower bound there.
        low = np.zeros(_c.OBS_DIM, dtype=np.float32)
        low[SEATS + SCORE : SEATS + 4 * SEAT_WIDTH : SEAT_WIDTH] = -np.inf
        self._init_lane(GAME_ID, render_mode, {"num_players": num_players, **options}, low, np.inf)
        self.target_score = self.game.config["target_score"]
