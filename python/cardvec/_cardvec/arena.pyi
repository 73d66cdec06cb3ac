"""The 151 arena runner (``cardvec._cardvec.arena``); ``cardvec.arena`` wraps it."""

from collections.abc import Callable
from typing import Any, SupportsIndex

__all__ = [
    "play_python_match",
    "play_catalog_match",
    "opponent_catalog",
    "check_replay",
]

def play_python_match(
    adapter: Callable[[dict[str, Any], list[int], int], int],
    opponent_id: str,
    seed: SupportsIndex,
    *,
    challenger_name: str = "Challenger",
    decision_timeout_ms: SupportsIndex | None = 1000,
    max_steps_per_round: SupportsIndex | None = 500,
    cards_per_player: SupportsIndex | None = 8,
    target_score: SupportsIndex | None = 151,
    bot_seed: SupportsIndex | None = 0,
) -> dict[str, Any]: ...
def play_catalog_match(
    challenger_id: str,
    opponent_id: str,
    seed: SupportsIndex,
    *,
    decision_timeout_ms: SupportsIndex | None = 1000,
    max_steps_per_round: SupportsIndex | None = 500,
    bot_seed: SupportsIndex | None = 0,
) -> dict[str, Any]: ...
def opponent_catalog() -> list[dict[str, Any]]: ...
def check_replay(text: str) -> str: ...
