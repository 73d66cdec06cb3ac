"""Lost Cities (the classic two-player round, docs/lost-cities.md) as PettingZoo
environments: ``env()`` / ``raw_env()`` (AEC) and ``parallel_env()`` (Parallel, turn-based:
see ``cardvec.pettingzoo._parallel``).

``env(render_mode=None, **options)``: the game's one option is ``obs_layout``
(``"card-major"``, the default, or ``"channel-major"``); any other keyword is a
``ValueError`` naming the accepted options (the registry checks them, as for
``cardvec.make("lost-cities", ...)``). Agents ``player_0`` (moves first) and ``player_1``.

- Actions: ``Discrete(96)``, ``hand_slot * 12 + place_type * 6 + draw_source``
  (docs/lost-cities.md).
- Observations: ``{"observation": float32 [454], "action_mask": int8 [96]}``, the batch
  environment's observation as seen by that player; the mask is all zero except for the
  agent to act.
- Rewards: at the end of the round, each player's board score minus the other's
  (zero-sum); 0 on every other step.
- The round ends for both players at once: ``terminated`` when the last deck card is
  drawn, ``truncated`` after 400 plies (scored the same).
- An illegal action raises ``ValueError`` and changes nothing.
- ``reset(seed=S)`` deals what lane 0 of ``cardvec.make("lost-cities", n, seed=S)`` deals.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .. import lost_cities as _lc
from ._aec import wrap
from ._lane import LaneAEC
from ._parallel import CardvecParallel

if TYPE_CHECKING:
    from typing import Any, ClassVar

    from typing_extensions import Unpack

    from .._game_classes import _LostCitiesOptions
    from ._aec import _OrderEnforcing

GAME_ID: str = "lost-cities"
HANDSHAKE_SLOTS: int = 3
#: Observation channels and scalar offsets (docs/lost-cities.md): 7 one-hot channels of 60
#: cards (card-major or channel-major, the ``obs_layout`` option), then scalars.
HAND, BOARD, DISCARD_TOP, DISCARD_BELOW = 0, 1, 3, 4
DECK_LEFT, PLIES, SCORE_DIFF = 420, 422, 453


def env(
    *,
    render_mode: str | None = None,
    **options: Unpack[_LostCitiesOptions],
) -> _OrderEnforcing:
    """Create a wrapped AEC environment; illegal actions raise an exception."""
    return wrap(raw_env(render_mode=render_mode, **options))


def parallel_env(
    *,
    render_mode: str | None = None,
    **options: Unpack[_LostCitiesOptions],
) -> CardvecParallel:
    """Create a Parallel environment (turn-based: only the agent to act's action is
    applied; see ``cardvec.pettingzoo._parallel``)."""
    return CardvecParallel(raw_env(render_mode=render_mode, **options))


class raw_env(LaneAEC):
    """The AEC environment of Lost Cities (see the module documentation)."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "lost_cities_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        render_mode: str | None = None,
        **options: Unpack[_LostCitiesOptions],
    ) -> None:
        super().__init__()
        low = np.zeros(_lc.OBS_DIM, dtype=np.float32)
        low[SCORE_DIFF] = -1.0
        self._init_lane(GAME_ID, render_mode, options, low, 1.0)
