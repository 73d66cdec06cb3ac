from typing import Any, SupportsFloat, SupportsIndex

import numpy as np
import numpy.typing as npt

from ._cardvec.pushfold import _Counts, _Solution

__all__ = [
    "CLASSES",
    "classes",
    "combos",
    "equity_table",
    "equity_counts",
    "compute_equity_table",
    "solve",
    "exploitability",
    "grid",
    "class_index",
    "purify",
]

CLASSES: int

def classes() -> list[str]: ...
def combos() -> npt.NDArray[np.int64]: ...
def equity_table() -> npt.NDArray[np.float64]: ...
def equity_counts() -> _Counts: ...
def compute_equity_table(time_limit: SupportsFloat | None = None) -> _Counts: ...
def solve(
    depth_bb: SupportsFloat,
    target: SupportsFloat | None = None,
    max_iterations: SupportsIndex | None = None,
) -> _Solution: ...
def exploitability(depth_bb: SupportsFloat, push: npt.ArrayLike, call: npt.ArrayLike) -> float: ...
def grid(values: npt.ArrayLike) -> npt.NDArray[Any]: ...
def class_index(name: str) -> int: ...
def purify(strategy: npt.ArrayLike) -> npt.NDArray[np.float64]: ...
