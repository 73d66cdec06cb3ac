"""Kuhn poker (two players, OpenSpiel's ``kuhn_poker``; docs/kuhn.md) as PettingZoo
environments: ``env()`` / ``raw_env()`` (AEC) and ``parallel_env()`` (Parallel, turn-based:
see ``cardvec.pettingzoo._parallel``).

``env(render_mode=None)``: the game has no options; any other keyword is a ``ValueError``
naming the accepted options. Agents ``player_0`` (acts first) and ``player_1``.

- Actions: ``Discrete(2)``, ``0`` pass (check or fold), ``1`` bet (bet or call).
- Observations: ``{"observation": float32 [11], "action_mask": int8 [2]}``: OpenSpiel's
  information-state tensor of that player (seat one-hot, card one-hot, betting history);
  the mask is all zero except for the agent to act.
- Rewards: at the end of the hand, each player's chips won or lost (±1 or ±2, zero-sum);
  0 on every other step.
- An illegal action raises ``ValueError`` and changes nothing.
- ``reset(seed=S)`` deals what lane 0 of ``cardvec.make("kuhn", n, seed=S)`` deals.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ._aec import wrap
from ._lane import LaneAEC
from ._parallel import CardvecParallel

if TYPE_CHECKING:
    from typing import Any, ClassVar

    from typing_extensions import Unpack

    from .._game_classes import _KuhnPokerOptions
    from ._aec import _OrderEnforcing

GAME_ID: str = "kuhn"
#: Observation offsets (docs/kuhn.md): seat one-hot, card one-hot, betting history.
CARD, HISTORY = 2, 5


def env(*, render_mode: str | None = None, **options: Unpack[_KuhnPokerOptions]) -> _OrderEnforcing:
    """Create a wrapped AEC environment; illegal actions raise an exception."""
    return wrap(raw_env(render_mode=render_mode, **options))


def parallel_env(
    *,
    render_mode: str | None = None,
    **options: Unpack[_KuhnPokerOptions],
) -> CardvecParallel:
    """Create a Parallel environment (turn-based: only the agent to act's action is
    applied; see ``cardvec.pettingzoo._parallel``)."""
    return CardvecParallel(raw_env(render_mode=render_mode, **options))


class raw_env(LaneAEC):
    """The AEC environment of Kuhn poker (see the module documentation)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "kuhn_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        **options: Unpack[_KuhnPokerOptions],
    ) -> None:
        super().__init__()
        self._init_lane(GAME_ID, render_mode, options, 0.0, 1.0)
