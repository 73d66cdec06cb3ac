"""The solvers (``cardvec._cardvec.solve``); ``cardvec.solve`` wraps it."""

from collections.abc import Mapping, Sequence
from typing import Any, Literal, SupportsIndex

from typing_extensions import TypeAlias

__all__ = ["solve", "evaluate", "tree_ids", "load_policy", "DEFAULT_MAX_NODES"]

# A policy: "uniform", or {info_state_string: probabilities over num_actions | {action: p}}.
_Policy: TypeAlias = (
    Literal["uniform"]
    | Mapping[str, Sequence[float] | Mapping[int, float]]
)

DEFAULT_MAX_NODES: int

def solve(
    game_id: str,
    iterations: SupportsIndex,
    algorithm: str = "cfr+",
    *,
    seed: SupportsIndex | None = None,
    every: SupportsIndex | None = None,
    lanes: SupportsIndex | None = None,
    epsilon: float = 0.6,
    max_nodes: SupportsIndex | None = None,
    options: dict[str, Any] | None = None,
    time_limit: float | None = None,
    save: str | None = None,
    resume: str | None = None,
) -> dict[str, Any]: ...
def evaluate(
    game_id: str,
    policy: _Policy,
    *,
    max_nodes: SupportsIndex | None = None,
    options: dict[str, Any] | None = None,
    time_limit: float | None = None,
) -> dict[str, Any]: ...
def tree_ids() -> list[str]: ...
def load_policy(
    text: str, game_id: str | None = None
) -> tuple[str, str, dict[str, dict[int, float]]]: ...
