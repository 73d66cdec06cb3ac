"""Lost Cities constants (see docs/lost-cities.md) and the environment class."""


from __future__ import annotations

from ._cardvec import lost_cities as _c
from ._game_classes import LostCities

DECK_SIZE: int = _c.DECK_SIZE
N_COLORS: int = _c.N_COLORS
SLOTS_PER_COLOR: int = _c.SLOTS_PER_COLOR
HAND_SIZE: int = _c.HAND_SIZE
DECK_AFTER_DEAL: int = _c.DECK_AFTER_DEAL
N_ACTIONS: int = _c.N_ACTIONS
OBS_DIM: int = _c.OBS_DIM
N_CHANNELS: int = _c.N_CHANNELS
MAX_STEPS: int = _c.MAX_STEPS
MAX_BOARD_SCORE: int = _c.MAX_BOARD_SCORE
NUM_PLAYERS: int = _c.NUM_PLAYERS
#: The old name of ``DECK_SIZE`` (kept for compatibility).
N_CARDS: int = DECK_SIZE

__all__ = [
    "LostCities",
    "DECK_SIZE",
    "N_COLORS",
    "SLOTS_PER_COLOR",
    "HAND_SIZE",
    "DECK_AFTER_DEAL",
    "N_ACTIONS",
    "OBS_DIM",
    "N_CHANNELS",
    "MAX_STEPS",
    "MAX_BOARD_SCORE",
    "NUM_PLAYERS",
    "N_CARDS",
]
