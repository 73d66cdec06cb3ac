"""The external oracles cardvec is compared against, as importable replays (the Python
tests and ``cardvec.campaign``'s ``oracle`` job kind use them): ``cardvec.oracles.i151``
replays ``cardvec trace 151`` in i151-engine 0.2.4, ``cardvec.oracles.holdem`` replays
``cardvec trace holdem`` in pokerkit 0.7, ``cardvec.oracles.flip7`` plays Flip 7 step
for step against game-room 0.1.0's ``flip7_v0``, ``cardvec.oracles.openspiel`` plays
Kuhn and Leduc step for step against OpenSpiel's ``kuhn_poker`` and ``leduc_poker``,
``cardvec.oracles.holdem_eval`` ranks random 5-, 6- and 7-card hands with
``cardvec.holdem`` and phevaluator (id ``holdem-eval``, not a game). Each needs its engine installed (``ORACLES``
gives the pip command); ``require(game_id)`` raises an ``ImportError`` naming it when it is
missing. Importing this package imports no engine."""
from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any, Protocol, TypeVar

    class _Report(Protocol):
        def merge(self, other: Any, /) -> Any: ...

    _R = TypeVar("_R", bound=_Report)

#: game id (or ``holdem-eval``) -> (the oracle's module in this package, the engine's import name, the pip
#: command that installs it).
ORACLES: dict[str, tuple[str, str, str]] = {
    "151": (
        "cardvec.oracles.i151",
        "i151_engine",
        "pip install --no-deps --ignore-requires-python i151-engine==0.2.4",
    ),
    "holdem": ("cardvec.oracles.holdem", "pokerkit", 'pip install "pokerkit>=0.7,<0.8"'),
    "flip7": (
        "cardvec.oracles.flip7",
        "game_room",
        "pip install --no-deps --ignore-requires-python game-room==0.1.0",
    ),
    "kuhn": ("cardvec.oracles.openspiel", "pyspiel", 'pip install "open-spiel>=1.5,<3"'),
    "leduc": ("cardvec.oracles.openspiel", "pyspiel", 'pip install "open-spiel>=1.5,<3"'),
    # Not a game: cardvec.holdem's hand evaluator (only the oracle campaign kind takes it).
    "holdem-eval": ("cardvec.oracles.holdem_eval", "phevaluator", 'pip install "phevaluator>=0.6"'),
}


def require(game_id: str) -> str:
    """The module name of ``game_id``'s oracle; ``ValueError`` for a game without an
    oracle, ``ImportError`` naming the pip command when its engine is not installed."""
    if game_id not in ORACLES:
        raise ValueError(
            f"no oracle for game {game_id!r}; oracles: {', '.join(sorted(ORACLES))}"
        )
    module, engine, pip = ORACLES[game_id]
    if importlib.util.find_spec(engine) is None:
        raise ImportError(
            f"the {game_id} oracle needs the Python package {engine!r}, which is not "
            f"installed: {pip}"
        )
    return module


def merge_chunks(
    run_chunk: Callable[[Any], Any],
    tasks: Iterable[Any],
    total: _R,
    jobs: int = 1,
) -> _R:
    """Runs ``run_chunk`` (a module-level function, so worker processes can import it) on
    every task, on ``jobs`` worker processes when ``jobs > 1``, and merges each chunk's
    report into ``total`` (``total.merge(report)``) in completion order; returns ``total``.
    The oracles' reports are sums, so the order does not change the result."""
    if jobs <= 1:
        for task in tasks:
            total.merge(run_chunk(task))
    else:
        from multiprocessing import Pool

        with Pool(jobs) as pool:
            for report in pool.imap_unordered(run_chunk, tasks):
                total.merge(report)
    return total


__all__ = ["ORACLES", "merge_chunks", "require"]
