"""Types of ``cardvec.oracles.holdem``: ``cardvec trace holdem`` replayed in pokerkit 0.7."""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import require as require

ROOT: Path
AUTOMATIONS: tuple[Any, ...]

@dataclass
class Report:
    hands: int = 0
    decisions: int = 0
    decided_at_deal: int = 0
    showdowns: int = 0
    pots_compared: int = 0
    side_pot_hands: int = 0
    raise_closed_with_chips: int = 0
    merged_pot_odd_chip: int = 0
    by_seats: dict[int, int] = field(default_factory=dict)
    mismatches: list[Any] = field(default_factory=list)
    python_seconds: float = 0.0
    def merge(self, other: Report) -> None: ...

class Mismatch(Exception): ...

def split(cards: str) -> list[str]: ...
def settlements(holes: Any, board: Any, pots: Any, n: int) -> tuple[Any, Any]: ...
def replay_hand(h: dict[str, Any], report: Report) -> None: ...

DEAL_TABLES: list[tuple[str, dict[str, Any]]]

@dataclass
class DealReport:
    deals: int = 0
    decided: int = 0
    live: int = 0
    merged_pot_odd_chip: int = 0
    by_table: dict[str, Any] = field(default_factory=dict)
    mismatches: list[Any] = field(default_factory=list)

def pokerkit_play_out(
    stacks: Any, ante: Any, sb: Any, bb: Any, button: int, holes: Any, board: Any
) -> tuple[Any, Any, Any]: ...
def compare_deal(
    report: DealReport,
    name: str,
    table: Any,
    button: int,
    holes: Any,
    board: Any,
    ours_actor: Any,
    ours_final: Any,
) -> None: ...
def run_deals(deals_per_table: int, seed: int = 0) -> DealReport: ...
def replay(lines: Iterable[str], report: Report | None = None) -> Report: ...
def cardvec_bin() -> str: ...
def run_chunk(args: tuple[Any, ...]) -> Report: ...
def run(
    hands: int,
    seed: int = 0,
    jobs: int = 1,
    seats: Sequence[int] = (2, 3, 6, 10),
    binary: str | None = None,
    chunk: int = 1000,
) -> Report: ...
def main() -> int: ...
