"""Types of ``cardvec.oracles.holdem_eval``: cardvec.holdem's evaluator against phevaluator."""

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["CATEGORY_STARTS", "TO_PH", "Report", "hand", "phevaluator_rank", "replay_range"]

TO_PH: npt.NDArray[np.uint8]
CATEGORY_STARTS: npt.NDArray[np.int64]

def hand(seed: int, g: int) -> list[int]: ...
def phevaluator_rank(cards: list[int]) -> int: ...
@dataclass
class Report:
    hands: int = 0
    cards: dict[str, int] = field(default_factory=dict)
    categories: dict[str, int] = field(default_factory=dict)
    mismatches: list[dict[str, Any]] = field(default_factory=list)

def replay_range(seed: int, first: int, count: int) -> Report: ...
