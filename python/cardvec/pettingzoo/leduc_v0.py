"""Leduc hold'em (two players, OpenSpiel's ``leduc_poker``; docs/leduc.md) as PettingZoo
environments: ``env()`` / ``raw_env()`` (AEC) and ``parallel_env()`` (Parallel, turn-based:
see ``cardvec.pettingzoo._parallel``).

``env(render_mode=None)``: the game has no options; any other keyword is a ``ValueError``
naming the accepted options. Agents ``player_0`` (acts first in both rounds) and
``player_1``.

- Actions: ``Discrete(3)``, ``0`` fold (only when facing a bet), ``1`` call or check,
  ``2`` raise (2 chips in the first round, 4 in the second; at most 2 raises a round).
- Observations: ``{"observation": float32 [30], "action_mask": int8 [3]}``: OpenSpiel's
  information-state tensor of that player (seat one-hot, private card, public card once
  shown, the betting of both rounds); the mask is all zero except for the agent to act.
- Rewards: at the end of the hand, each player's chips won or lost (zero-sum, at most 13);
  0 on every other step.
- An illegal action raises ``ValueError`` and changes nothing.
- ``reset(seed=S)`` deals what lane 0 of ``cardvec.make("leduc", n, seed=S)`` deals.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ._aec import wrap
from ._lane import LaneAEC
from ._parallel import CardvecParallel

if TYPE_CHECKING:
    from typing import Any, ClassVar

    from typing_extensions import Unpack

    from .._game_classes import _LeducHoldemOptions
    from ._aec import _OrderEnforcing

GAME_ID: str = "leduc"
#: Observation offsets (docs/leduc.md): seat one-hot, private card, public card, betting.
PRIVATE, PUBLIC, BETTING = 2, 8, 14


def env(
    *,
    render_mode: str | None = None,
    **options: Unpack[_LeducHoldemOptions],
) -> _OrderEnforcing:
    """Create a wrapped AEC environment; illegal actions raise an exception."""
    return wrap(raw_env(render_mode=render_mode, **options))


def parallel_env(
    *,
    render_mode: str | None = None,
    **options: Unpack[_LeducHoldemOptions],
) -> CardvecParallel:
    """Create a Parallel environment (turn-based: only the agent to act's action is
    applied; see ``cardvec.pettingzoo._parallel``)."""
    return CardvecParallel(raw_env(render_mode=render_mode, **options))


def card_name(card: int) -> str:
    """A card as text: rank letter and suit, ``J0`` .. ``K1``."""
    return f"{'JQK'[card // 2]}{card % 2}"


class raw_env(LaneAEC):
    """The AEC environment of Leduc hold'em (see the module documentation)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "leduc_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        **options: Unpack[_LeducHoldemOptions],
    ) -> None:
        super().__init__()
        self._init_lane(GAME_ID, render_mode, options, 0.0, 1.0)
