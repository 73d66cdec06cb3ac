"""Heads-up push/fold no-limit hold'em, solved (see docs/pushfold.md).

Both players start with ``depth_bb`` big blinds; the small blind posts 0.5 and shoves or
folds, the big blind posts 1 and, facing the shove, calls or folds. Strategies are a
probability per hand class: 169 classes in the 13 x 13 chart order (``classes()``: row by
row, ace first; pairs on the diagonal, suited hands above it, offsuit below it), so
``grid(v)`` is just ``v.reshape(13, 13)``.

- ``classes()`` -> the 169 names (``"AA"``, ``"AKs"``, ..., ``"22"``); ``combos()`` -> their
  hole counts (6, 4, 12).
- ``equity_table()`` -> float64 (169, 169): the exact all-in equity of row against column,
  computed with cardvec's evaluator over every deal (built in, checksum verified);
  ``equity_counts()`` -> its integer win/tie/deal counts and checksum;
  ``compute_equity_table(time_limit=None)`` computes it again (about 10 s on 2 cores,
  Ctrl-C stops it).
- ``solve(depth_bb, target=0.001, max_iterations=1000000, algorithm="cfr+", *,
  time_limit=None, save=None, resume=None)`` (or ``"dcfr"``, ``"pcfr+"``) -> dict (``push``,
  ``call``, ``exploitability``, ``sb_value``, ``iterations``, ``resumed_from``,
  ``converged``, ``stop``, ``depth_bb``): CFR+ until the exploitability (NashConv / 2, big
  blinds per hand) is below ``target``. ``time_limit`` (seconds) returns the strategies
  reached (``stop == "time-limit"``); Ctrl-C raises ``KeyboardInterrupt`` after ``save`` is
  written; ``save`` (a path, checked first) keeps the solver's state, ``resume`` continues
  it exactly (N + M iterations in two calls are the bits of N + M in one).
- ``exploitability(depth_bb, push, call)`` -> float for any strategy pair.
- ``purify(strategy)`` -> float64 (169,): 1.0 where ``strategy`` plays with probability
  above 1/2, else 0.0 (the form of published charts; ``solve`` returns the raw averages).

Bad input raises ``ValueError`` (a depth below 1 big blind, a probability outside [0, 1],
a wrong length) or ``TypeError`` (not a number). The solver and the table run without the
GIL.

    from cardvec import pushfold
    s = pushfold.solve(10)
    pushfold.grid(s["push"])[0, 0]   # AA: 1.0
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as _np

from ._cardvec import pushfold as _pf

if TYPE_CHECKING:
    from typing import Any, SupportsFloat, SupportsIndex

    from numpy import float64, int64
    from numpy.typing import ArrayLike, NDArray

    from ._cardvec.pushfold import _Counts, _Solution

__all__ = [
    "CLASSES",
    "classes",
    "combos",
    "equity_table",
    "equity_counts",
    "compute_equity_table",
    "solve",
    "exploitability",
    "grid",
    "class_index",
    "purify",
]

CLASSES: int = _pf.CLASSES
classes = _pf.classes
combos = _pf.combos
equity_table = _pf.equity_table
equity_counts = _pf.equity_counts
compute_equity_table = _pf.compute_equity_table
solve = _pf.solve
exploitability = _pf.exploitability


def grid(values: ArrayLike) -> NDArray[Any]:
    """169 per-class values as the 13 x 13 chart (``[row, col]``, ace first)."""
    arr = _np.asarray(values)
    if arr.shape != (CLASSES,):
        raise ValueError(f"grid needs 169 values, got shape {arr.shape}")
    return arr.reshape(13, 13)


def class_index(name: str) -> int:
    """The index of a class name (``"AKs"``, ``"AKo"``, ``"AA"``; ``ValueError`` if unknown)."""
    if not isinstance(name, str):
        raise TypeError(f"a class name must be a string, got {name!r}")
    try:
        return _NAMES.index(name)
    except ValueError:
        raise ValueError(f"unknown hand class {name!r}; expected a name like AA, AKs or AKo") from None


_NAMES = classes()


def purify(strategy: ArrayLike) -> NDArray[float64]:
    """The pure chart of a strategy: 1.0 for every class played with probability above 1/2,
    else 0.0 (float64, 169 values; ``ValueError`` for another shape or a value outside
    [0, 1])."""
    arr = _np.asarray(strategy, dtype=_np.float64)
    if arr.shape != (CLASSES,):
        raise ValueError(f"purify needs 169 probabilities, got shape {arr.shape}")
    if not _np.all((arr >= 0.0) & (arr <= 1.0)):
        raise ValueError("purify needs probabilities in [0, 1]")
    return (arr > 0.5).astype(_np.float64)
