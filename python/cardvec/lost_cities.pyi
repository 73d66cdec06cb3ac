from ._games import LostCities as LostCities

DECK_SIZE: int
N_COLORS: int
SLOTS_PER_COLOR: int
HAND_SIZE: int
DECK_AFTER_DEAL: int
N_ACTIONS: int
OBS_DIM: int
N_CHANNELS: int
MAX_STEPS: int
MAX_BOARD_SCORE: int
NUM_PLAYERS: int
N_CARDS: int

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
