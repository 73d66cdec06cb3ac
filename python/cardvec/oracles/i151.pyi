"""Types of ``cardvec.oracles.i151``: ``cardvec trace 151`` replayed in i151-engine 0.2.4."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import require as require

DECK: list[Any]
CARD_ID: dict[Any, int]
SUITS: list[Any]
ROOT: Path

def action_id(action: Any) -> int: ...
def action_from_id(a: int) -> Any: ...
@dataclass
class Report:
    matches: int = 0
    decisions: int = 0
    rounds: int = 0
    defect_refills: int = 0
    defect_seeds: list[int] = field(default_factory=list)
    players: dict[int, int] = field(default_factory=dict)
    mismatches: list[dict[str, Any]] = field(default_factory=list)
    python_seconds: float = 0.0
    def merge(self, other: Report) -> None: ...

def official_snapshot(match: Any, rs: Any) -> dict[str, Any]: ...
def official_step(match: Any, a: int, fix: bool = True) -> tuple[Any, bool]: ...
def replay(lines: Iterable[str], fix: bool = True, stop_after: int = 20) -> Report: ...
def cardvec_bin() -> str: ...
def run_chunk(args: tuple[Any, ...]) -> Report: ...
def run(
    matches: int,
    seed: int = 0,
    jobs: int = 1,
    players: int | None = None,
    fix: bool = True,
    binary: str | None = None,
    chunk: int = 500,
) -> Report: ...
def main() -> int: ...
