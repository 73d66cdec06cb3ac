from collections.abc import Sequence
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt
from typing_extensions import overload

from ._cardvec import NoLimitHoldemGame as NoLimitHoldemGame
from ._cardvec.holdem import HandValue as HandValue
from ._cardvec.holdem import card_id as card_id
from ._cardvec.holdem import card_str as card_str
from ._cardvec.holdem import equity as equity
from ._cardvec.holdem import evaluate as evaluate
from ._cardvec.holdem import evaluate_batch as evaluate_batch
from ._cardvec.holdem import format_cards as format_cards
from ._cardvec.holdem import hand_name as hand_name
from ._cardvec.holdem import legal_bounds as legal_bounds
from ._cardvec.holdem import parse_cards as parse_cards
from ._cardvec.holdem import rank_name as rank_name
from ._games import NoLimitHoldem as NoLimitHoldem

HAND_CLASSES: int
CATEGORIES: list[str]
FOLD: int
CHECK_CALL: int
RAISE_BASE: int
EXACT_RAISE: int
MIN_PLAYERS: int
MAX_PLAYERS: int
MIN_SEATS: int
MAX_SEATS: int

# An array (of any shape; SupportsIndex too, through numpy's __index__) matches first.
@overload
def raise_to(  # type: ignore[overload-overlap]
    chips: Sequence[SupportsIndex] | npt.NDArray[np.integer[Any]],
) -> npt.NDArray[np.int64]: ...
@overload
def raise_to(chips: SupportsIndex) -> int: ...
def observation_size(num_players: SupportsIndex) -> int: ...

__all__ = [
    "HandValue",
    "parse_cards",
    "card_id",
    "card_str",
    "format_cards",
    "evaluate",
    "hand_name",
    "rank_name",
    "evaluate_batch",
    "equity",
    "HAND_CLASSES",
    "CATEGORIES",
    "NoLimitHoldem",
    "NoLimitHoldemGame",
    "legal_bounds",
    "raise_to",
    "observation_size",
    "FOLD",
    "CHECK_CALL",
    "RAISE_BASE",
    "EXACT_RAISE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "MIN_SEATS",
    "MAX_SEATS",
]
