"""Flip 7 constants (see docs/flip7.md), the batch environment ``Flip7`` and the single
game ``Flip7Game`` (with its shuffle log)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ._args import int_arg
from ._cardvec import Flip7Game
from ._cardvec import flip7 as _c
from ._game_classes import Flip7

if TYPE_CHECKING:
    from typing import SupportsIndex

HIT: int = _c.HIT
STAY: int = _c.STAY
TARGET_OFFSET: int = _c.TARGET_OFFSET
CARD_IDS: int = _c.CARD_IDS
DECK_SIZE: int = _c.DECK_SIZE
MIN_PLAYERS: int = _c.MIN_PLAYERS
MAX_PLAYERS: int = _c.MAX_PLAYERS
TIMES_2: int = _c.TIMES_2
FREEZE: int = _c.FREEZE
FLIP_THREE: int = _c.FLIP_THREE
SECOND_CHANCE: int = _c.SECOND_CHANCE
ACTIVE: int = _c.ACTIVE
STAYED: int = _c.STAYED
BUSTED: int = _c.BUSTED
FROZEN: int = _c.FROZEN


def make_deck() -> list[int]:
    """The unshuffled 94-card deck, ascending card ids (game-room's ``make_deck()``)."""
    return list(_c.MAKE_DECK)


def observation_size(num_players: SupportsIndex) -> int:
    """Length of an observation: 419 + 24 * num_players (``num_players`` from 3 to 18; a
    bool or another count is a ``ValueError``)."""
    num_players = int_arg(num_players, "num_players", MIN_PLAYERS, MAX_PLAYERS)
    return 419 + 24 * num_players


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
