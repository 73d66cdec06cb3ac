"""Heads-up push/fold hold'em (``cardvec._cardvec.pushfold``; python/src/pushfold.rs)."""

import os
from typing import SupportsFloat, SupportsIndex, TypedDict, type_check_only

import numpy as np
import numpy.typing as npt

__all__ = [
    "CLASSES",
    "classes",
    "combos",
    "equity_table",
    "equity_counts",
    "compute_equity_table",
    "solve",
    "exploitability",
]

CLASSES: int

@type_check_only
class _Counts(TypedDict):
    wins: npt.NDArray[np.int64]
    ties: npt.NDArray[np.int64]
    deals: npt.NDArray[np.int64]
    combo_pairs: npt.NDArray[np.int64]
    equity: npt.NDArray[np.float64]
    checksum: str

@type_check_only
class _Solution(TypedDict):
    depth_bb: float
    push: npt.NDArray[np.float64]
    call: npt.NDArray[np.float64]
    exploitability: float
    sb_value: float
    iterations: int
    resumed_from: int
    converged: bool
    stop: str

def classes() -> list[str]: ...
def combos() -> npt.NDArray[np.int64]: ...
def equity_table() -> npt.NDArray[np.float64]: ...
def equity_counts() -> _Counts: ...
def compute_equity_table(time_limit: SupportsFloat | None = None) -> _Counts: ...
def solve(
    depth_bb: SupportsFloat,
    target: SupportsFloat | None = None,
    max_iterations: SupportsIndex | None = None,
    algorithm: str | None = None,
    *,
    time_limit: SupportsFloat | None = None,
    save: str | os.PathLike[str] | None = None,
    resume: str | os.PathLike[str] | None = None,
) -> _Solution: ...
def exploitability(depth_bb: SupportsFloat, push: npt.ArrayLike, call: npt.ArrayLike) -> float: ...
