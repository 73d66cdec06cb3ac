"""151 constants (``cardvec._cardvec.i151``)."""

__all__ = [
    "DECK_SIZE",
    "N_ACTIONS",
    "OBS_DIM",
    "ACTION_DRAW",
    "ACTION_PASS",
    "ACTION_CHOOSE_SUIT",
]

DECK_SIZE: int
N_ACTIONS: int
OBS_DIM: int
ACTION_DRAW: int
ACTION_PASS: int
ACTION_CHOOSE_SUIT: int
