"""Types of ``cardvec.oracles``: the external oracles as importable replays."""

from typing import Any, Callable, Iterable, TypeVar

__all__ = ["ORACLES", "merge_chunks", "require"]

_R = TypeVar("_R")

ORACLES: dict[str, tuple[str, str, str]]

def require(game_id: str) -> str: ...
def merge_chunks(
    run_chunk: Callable[[Any], Any], tasks: Iterable[Any], total: _R, jobs: int = 1
) -> _R: ...
