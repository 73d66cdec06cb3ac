"""Integer arguments checked in Python as the compiled part checks them (``python/src/args.rs``):
a Python or numpy integer at its full value; a bool, or a value out of range, is a
``ValueError``; any other type a ``TypeError``."""
from __future__ import annotations

import numpy as np


def int_arg(value: object, what: str, lo: int, hi: int) -> int:
    """``value`` as an int in ``lo..=hi`` (see the module documentation)."""
    if isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{what} must be an integer, got {value!r} (a bool)")
    if not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer, got {value!r} ({type(value).__name__})")
    value = int(value)
    if not lo <= value <= hi:
        raise ValueError(f"{what} must be in {lo}..={hi}, got {value}")
    return value


def seed_arg(seed: object) -> int | None:
    """A seed: ``None`` or an int in ``0..=2**64-1`` (see the module documentation)."""
    return None if seed is None else int_arg(seed, "seed", 0, 2**64 - 1)
