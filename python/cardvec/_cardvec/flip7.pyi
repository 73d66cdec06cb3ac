"""Flip 7 constants (``cardvec._cardvec.flip7``)."""

__all__ = [
    "HIT",
    "STAY",
    "TARGET_OFFSET",
    "CARD_IDS",
    "DECK_SIZE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "TIMES_2",
    "FREEZE",
    "FLIP_THREE",
    "SECOND_CHANCE",
    "ACTIVE",
    "STAYED",
    "BUSTED",
    "FROZEN",
    "MAKE_DECK",
]

HIT: int
STAY: int
TARGET_OFFSET: int
CARD_IDS: int
DECK_SIZE: int
MIN_PLAYERS: int
MAX_PLAYERS: int
TIMES_2: int
FREEZE: int
FLIP_THREE: int
SECOND_CHANCE: int
ACTIVE: int
STAYED: int
BUSTED: int
FROZEN: int
MAKE_DECK: bytes
