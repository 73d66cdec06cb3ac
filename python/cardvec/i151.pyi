from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt
from typing_extensions import deprecated

from ._games import I151 as I151

DECK_SIZE: int
N_ACTIONS: int
OBS_DIM: int
ACTION_DRAW: int
ACTION_PASS: int
ACTION_CHOOSE_SUIT: int
N_CARDS: int
MATCH_SEED_BITS: int

@deprecated("use cardvec.I151(num_envs, num_players=2)")
def I151P2(num_envs: SupportsIndex, **kwargs: Any) -> I151: ...
@deprecated("use cardvec.I151(num_envs, num_players=3)")
def I151P3(num_envs: SupportsIndex, **kwargs: Any) -> I151: ...
@deprecated("use cardvec.I151(num_envs, num_players=4)")
def I151P4(num_envs: SupportsIndex, **kwargs: Any) -> I151: ...
def official_order(match_seed: SupportsIndex) -> npt.NDArray[np.uint8]: ...

__all__ = [
    "I151",
    "I151P2",
    "I151P3",
    "I151P4",
    "official_order",
    "MATCH_SEED_BITS",
    "DECK_SIZE",
    "N_ACTIONS",
    "OBS_DIM",
    "ACTION_DRAW",
    "ACTION_PASS",
    "ACTION_CHOOSE_SUIT",
    "N_CARDS",
]
