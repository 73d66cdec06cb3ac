"""Types of ``cardvec.oracles.openspiel``: cardvec's Kuhn and Leduc against OpenSpiel."""

import random
from dataclasses import dataclass, field
from typing import Any, Callable

__all__ = [
    "GAMES",
    "Report",
    "compare",
    "deal",
    "ending",
    "info_state_string",
    "kuhn_info_state_string",
    "leduc_info_state_string",
    "replay_range",
]

GAMES: dict[str, tuple[str, int, int]]

def kuhn_info_state_string(obs: Any, current_player: int = 0, returns: Any = None) -> str: ...
def leduc_info_state_string(obs: Any, current_player: int, returns: Any = None) -> str: ...
def info_state_string(game_id: str) -> Callable[[Any, int, Any], str]: ...
def compare(game_id: str, order: list[int], rng: random.Random) -> tuple[int, str, int]: ...
def deal(game_id: str, seed: int, g: int) -> tuple[list[int], random.Random]: ...
def ending(game_id: str, history: str, dealt: int) -> str: ...
@dataclass
class Report:
    games: int = 0
    steps: int = 0
    dealt: int = 0
    endings: dict[str, int] = field(default_factory=dict)
    mismatches: list[dict[str, Any]] = field(default_factory=list)

def replay_range(game_id: str, seed: int, first: int, count: int) -> Report: ...
