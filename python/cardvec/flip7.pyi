from typing import SupportsIndex

from ._cardvec import Flip7Game as Flip7Game
from ._games import Flip7 as Flip7

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

def make_deck() -> list[int]: ...
def observation_size(num_players: SupportsIndex) -> int: ...

__all__ = [
    "Flip7",
    "Flip7Game",
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
    "make_deck",
    "observation_size",
]
