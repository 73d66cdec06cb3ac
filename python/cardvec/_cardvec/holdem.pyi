"""The hold'em evaluator, equity and no-limit helpers (``cardvec._cardvec.holdem``)."""

from collections.abc import Callable, Sequence
from typing import Any, SupportsIndex, TypedDict, final, type_check_only

import numpy as np
import numpy.typing as npt
from typing_extensions import TypeAlias

from . import BatchEnv
from .spot import _Solver

# Cards: a string ("AsKd", "As Kd", "♠A") or a sequence of card strings or ids.
_Cards: TypeAlias = str | Sequence[str | SupportsIndex] | npt.NDArray[np.integer[Any]]

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
    "range_combos",
    "lbr_json",
    "HAND_CLASSES",
    "CATEGORIES",
    "legal_bounds",
    "FOLD",
    "CHECK_CALL",
    "RAISE_BASE",
    "EXACT_RAISE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
]

HAND_CLASSES: int
CATEGORIES: list[str]
FOLD: int
CHECK_CALL: int
RAISE_BASE: int
EXACT_RAISE: int
MIN_PLAYERS: int
MAX_PLAYERS: int

@final
class HandValue:
    """The value of a hand; values compare (and hash) by ``rank`` only."""

    @property
    def rank(self) -> int: ...
    @property
    def category(self) -> str: ...
    @property
    def category_index(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def best_five(self) -> list[str]: ...
    @property
    def best_five_ids(self) -> list[int]: ...
    def __lt__(self, other: HandValue, /) -> bool: ...
    def __le__(self, other: HandValue, /) -> bool: ...
    def __gt__(self, other: HandValue, /) -> bool: ...
    def __ge__(self, other: HandValue, /) -> bool: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    def __hash__(self) -> int: ...

@type_check_only
class EquityResult(TypedDict):
    """What ``equity`` returns: per-player lists and totals."""

    win: list[float]
    tie: list[float]
    equity: list[float]
    stderr: list[float]
    wins: list[int]
    ties: list[int]
    total: int
    exact: bool
    seconds: float

def parse_cards(text: str) -> list[int]: ...
def card_id(text: str) -> int: ...
def card_str(id: SupportsIndex) -> str: ...
def format_cards(cards: _Cards) -> str: ...
def evaluate(cards: _Cards) -> HandValue: ...
def hand_name(cards: _Cards) -> str: ...
def rank_name(rank: SupportsIndex) -> str: ...
def evaluate_batch(
    cards: npt.ArrayLike,
) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint8]]: ...
def equity(
    players: Sequence[str],
    board: _Cards = "",
    dead: _Cards = "",
    samples: SupportsIndex | None = None,
    seed: SupportsIndex | None = 0,
    exact: bool | None = None,
    max_work: SupportsIndex | None = None,
    time_limit: float | None = None,
) -> EquityResult: ...
def range_combos(text: str) -> list[tuple[str, float]]: ...
def lbr_json(
    policy: str
    | Callable[[npt.NDArray[np.float32], npt.NDArray[np.uint8]], npt.ArrayLike]
    | _Solver,
    hands: SupportsIndex | None = None,
    seed: SupportsIndex | None = None,
    bets: str | None = None,
    preflop: str | None = None,
    limp: bool | None = None,
    exact_limit: SupportsIndex | None = None,
    samples: SupportsIndex | None = None,
    estimator: str | None = None,
    control: bool | None = None,
    threads: SupportsIndex | None = None,
    time_limit: float | None = None,
    **game: Any,
) -> str: ...
def legal_bounds(env: BatchEnv) -> npt.NDArray[np.int64]: ...
