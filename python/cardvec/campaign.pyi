"""Types of ``cardvec.campaign``: long runs split into shards by game index, run in this
process or as Ray tasks, merged exactly (see the module documentation)."""

from collections.abc import Iterator, Sequence
from os import PathLike
from typing import Any

__all__ = ["FULL_LADDER", "Interrupted", "JobKind", "KINDS", "TIMING", "main", "read_rollouts",
           "run"]

FULL_LADDER: list[str]
TIMING: str

class Interrupted(KeyboardInterrupt):
    """A campaign stopped by Ctrl-C: ``saved`` of ``total`` shards finished, kept in ``out``."""

    saved: int
    total: int
    out: str | None
    def __init__(self, saved: int, total: int, out: str | None) -> None: ...

class JobKind:
    """A registered job kind: checks a campaign's options, runs one shard, merges."""

    name: str
    unit: str
    own_options: tuple[str, ...]
    single_core: bool
    def check(self, game_id: str, options: dict[str, Any]) -> dict[str, Any]: ...
    def plan(self, games: int, shard: int, options: dict[str, Any]) -> list[tuple[str, int, int]]: ...
    def run_shard(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
        threads: int | None,
        out: str | PathLike[str] | None,
    ) -> Any: ...
    def merge(
        self,
        game_id: str,
        seed: int,
        games: int,
        options: dict[str, Any],
        shards: list[tuple[str, int, int, Any]],
    ) -> dict[str, Any]: ...
    def reproduce(
        self, game_id: str, seed: int, label: str, first: int, count: int, options: dict[str, Any]
    ) -> str: ...
    def lines(self, summary: dict[str, Any]) -> list[str]: ...

KINDS: dict[str, JobKind]

def read_rollouts(
    out: str | PathLike[str], files: Sequence[str] | None = None
) -> Iterator[dict[str, Any]]: ...
def run(
    kind: str,
    game_id: str,
    games: int = 100_000,
    shard: int | None = None,
    seed: int = 0,
    address: str | None = None,
    out: str | PathLike[str] | None = None,
    max_retries: int = 3,
    progress: bool = True,
    threads: int | None = None,
    first: int = 0,
    connect_timeout: float = 10.0,
    **options: Any,
) -> dict[str, Any]: ...
def main(argv: Sequence[str] | None = None) -> int: ...
