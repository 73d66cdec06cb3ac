"""Postflop spots solved range against range (``cardvec._cardvec.spot``; python/src/spot.rs)."""

from collections.abc import Iterable, Sequence
from typing import SupportsFloat, SupportsIndex, TypedDict, final, type_check_only

import numpy as np
import numpy.typing as npt

__all__ = ["_Solver"]

@type_check_only
class _Summary(TypedDict):
    algorithm: str
    iterations: int
    exploitability: float
    exploitability_pct: float
    root_ev: list[float]
    root_equity: list[float]
    seconds: float
    memory_bytes: int
    storage: str
    isomorphism: bool
    mirrors: int
    nodes: int
    stop: str
    history: list[tuple[int, float]]
    hands: list[list[str]]
    hand_ev: list[npt.NDArray[np.float64]]
    root_player: int | None
    root_actions: list[str]
    root_strategy: npt.NDArray[np.float32]
    root_action_ev: npt.NDArray[np.float64]
    locks: list[str]
    locked_nodes: int

@type_check_only
class _Aggregates(TypedDict):
    name: list[str]
    hands: list[int]
    combos: npt.NDArray[np.float64]
    weight: npt.NDArray[np.float64]
    ev: npt.NDArray[np.float64]
    equity: npt.NDArray[np.float64]
    strategy: npt.NDArray[np.float64] | None

@type_check_only
class _Node(TypedDict):
    line: str
    kind: str
    street: int
    board: str
    pot: int
    spent: list[int]
    player: int | None
    actions: list[str]
    action_pct: list[float | None]
    cards: list[str]
    hands: list[list[str]]
    reach: list[npt.NDArray[np.float32]]
    weight: list[npt.NDArray[np.float64]]
    ev: list[npt.NDArray[np.float64]]
    equity: list[npt.NDArray[np.float64]]
    strategy: npt.NDArray[np.float32] | None
    action_ev: npt.NDArray[np.float64] | None
    classes: list[_Aggregates]
    categories: list[_Aggregates]

@final
class _Solver:
    """A spot's solver and its options (python/src/spot.rs); ``cardvec.spot.Solution``
    wraps it."""

    def __new__(
        cls,
        board: str,
        pot: SupportsIndex,
        stack: SupportsIndex,
        oop_range: str,
        ip_range: str,
        bets: str = "60%,e,a",
        raises: str = "2.5x",
        target: SupportsFloat | None = None,
        max_iterations: SupportsIndex | None = None,
        time_limit: SupportsFloat | None = None,
        algorithm: str = "dcfr",
        check_every: SupportsIndex | None = None,
        max_memory: SupportsIndex | None = None,
        locks: Iterable[str] | None = None,
        *,
        oop_bets: str | None = None,
        ip_bets: str | None = None,
        oop_raises: str | None = None,
        ip_raises: str | None = None,
        donk: str | None = None,
        compress: bool = False,
        isomorphism: bool = True,
    ) -> _Solver: ...
    def set_locks(self, locks: Iterable[str] | None) -> None: ...
    def solve(
        self,
        target: SupportsFloat | None = None,
        max_iterations: SupportsIndex | None = None,
        time_limit: SupportsFloat | None = None,
        check_every: SupportsIndex | None = None,
    ) -> _Summary: ...
    def summary(self) -> _Summary: ...
    def node(self, line: str = "", cards: str | Sequence[str] | None = None) -> _Node: ...
    def subtree(
        self, line: str = "", cards: str | Sequence[str] | None = None, depth: int | None = None
    ) -> str: ...
    def save(self, path: str) -> int: ...
    @staticmethod
    def load(path: str) -> _Solver: ...
