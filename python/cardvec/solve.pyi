import os
from collections.abc import Mapping, Sequence
from typing import Any, Literal, SupportsIndex

from typing_extensions import TypeAlias

__all__ = [
    "Solution",
    "ALGORITHMS",
    "tree_ids",
    "cfr",
    "evaluate",
    "exploitability",
    "nash_conv",
    "best_response_value",
    "policy_value",
    "save_policy",
    "load_policy",
]

# A policy table: {info_state_string: probabilities over num_actions | {action: p}}.
_Table: TypeAlias = Mapping[str, Sequence[float] | Mapping[int, float]]

ALGORITHMS: tuple[str, ...]

def tree_ids() -> list[str]:
    """The ids of the games the solvers accept."""

class Solution:
    """The average policy of a solver run and its exact evaluation."""

    game_id: str
    options: dict[str, Any]
    algorithm: str
    iterations: int
    policy: dict[str, dict[int, float]]
    exploitability: float
    nash_conv: float
    game_value: float
    values: list[float]
    best_response_values: list[float]
    curve: list[tuple[int, float, float]]
    seconds: float
    nodes: int
    infosets: int
    def __init__(self, game_id: str, options: Mapping[str, Any], raw: Mapping[str, Any]) -> None: ...

def cfr(
    game_id: str,
    iterations: SupportsIndex,
    algorithm: str = "cfr+",
    seed: SupportsIndex | None = 0,
    every: SupportsIndex | None = 0,
    *,
    lanes: SupportsIndex = 1,
    epsilon: float = 0.6,
    max_nodes: SupportsIndex | None = None,
    time_limit: float | None = None,
    **options: Any,
) -> Solution:
    """Runs a solver and returns the average policy with its evaluation."""

def evaluate(
    game_id: str,
    policy: Literal["uniform"] | _Table | Solution = "uniform",
    *,
    max_nodes: SupportsIndex | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Exploitability, NashConv, values and best-response values of ``policy``."""

def exploitability(
    game_id: str, policy: Literal["uniform"] | _Table | Solution = "uniform", **options: Any
) -> float:
    """NashConv / number of players (OpenSpiel's ``exploitability``)."""

def nash_conv(
    game_id: str, policy: Literal["uniform"] | _Table | Solution = "uniform", **options: Any
) -> float:
    """The sum over players of what a best response gains over ``policy``."""

def best_response_value(
    game_id: str, policy: Literal["uniform"] | _Table | Solution, player: SupportsIndex,
    **options: Any,
) -> float:
    """``player``'s return when it best-responds to the others' ``policy``."""

def policy_value(
    game_id: str, policy: Literal["uniform"] | _Table | Solution, player: SupportsIndex = 0,
    **options: Any,
) -> float:
    """``player``'s expected return when every player plays ``policy``."""

def save_policy(
    path: str | os.PathLike[str], policy: _Table | Solution, game_id: str
) -> None:
    """Writes a policy as JSON (the format of ``cardvec solve --policy-out``)."""

def load_policy(path: str | os.PathLike[str]) -> dict[str, dict[int, float]]:
    """Reads a policy JSON file."""
