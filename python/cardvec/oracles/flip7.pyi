"""Types of ``cardvec.oracles.flip7``: cardvec's Flip 7 against game-room's ``flip7_v0``."""

from collections import deque
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PLAYERS", "Report", "StubRandom", "compare", "options", "play", "replay_range"]

PLAYERS: tuple[int, ...]

class StubRandom:
    orders: deque[list[int]]
    def __init__(self) -> None: ...
    def shuffle(self, items: Any) -> None: ...

def options(g: int) -> tuple[int, int | None]: ...
def compare(ref: Any, cv: Any, step: int, all_seats: bool) -> None: ...
def play(num_players: int, g: int, seed: int = 0) -> tuple[int, int]: ...
@dataclass
class Report:
    games: int = 0
    steps: int = 0
    recycled: int = 0
    players: dict[int, int] = field(default_factory=dict)
    mismatches: list[dict[str, Any]] = field(default_factory=list)

def replay_range(seed: int, first: int, count: int) -> Report: ...
