import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, SupportsIndex

from typing_extensions import TypeAlias

# i151-engine's types (PlayerView, Action) are not typed; a bot sees them as Any.
_Decide: TypeAlias = Callable[[Any, list[Any], int], Any]

class _BotObject(Protocol):
    def decide(self, view: Any, legal_actions: list[Any], time_left_ms: int, /) -> Any: ...

class UnknownOpponentError(KeyError, ValueError):
    """An opponent id the catalog does not hold."""

def catalog() -> list[dict[str, Any]]: ...
def play_match(
    bot: _Decide | _BotObject,
    opponent_id: str,
    seed: SupportsIndex,
    *,
    challenger_name: str = "Challenger",
    decision_timeout_ms: SupportsIndex = 1000,
    max_steps_per_round: SupportsIndex = 500,
    cards_per_player: SupportsIndex = 8,
    target_score: SupportsIndex = 151,
    bot_seed: SupportsIndex = 0,
    submission_dir: Path | None = None,
) -> dict[str, Any]: ...
def play_catalog_match(
    challenger_id: str,
    opponent_id: str,
    seed: SupportsIndex,
    *,
    decision_timeout_ms: SupportsIndex = 1000,
    max_steps_per_round: SupportsIndex = 500,
    bot_seed: SupportsIndex = 0,
) -> dict[str, Any]: ...
def load_replay(path: str | os.PathLike[str]) -> dict[str, Any]: ...

__all__ = ["play_match", "play_catalog_match", "catalog", "load_replay", "UnknownOpponentError"]
