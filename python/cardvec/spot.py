"""Postflop hold'em spots solved range against range (see docs/spot.md).

A spot is a board (flop, turn or river: 3 to 5 cards), the pot and the effective stack in
chips, the out-of-position (OOP, acts first) and in-position (IP) ranges in the notation of
``cardvec.holdem`` (weights ``AKs:0.5`` and percentages ``15%`` included), and a bet tree
(``bets`` and ``raises``: ``60%`` of the pot, ``2.5x`` a bet faced, ``e`` geometric, ``a``
all-in). ``solve`` runs the range-vector solver of the Rust library
(``cardvec::solve::spot``: DCFR by default, ``"cfr+"`` or ``"pcfr+"``) until the exact
exploitability of the average strategy is at most ``target`` % of the pot, after
``max_iterations`` iterations, or at ``time_limit`` seconds (the strategy reached is
returned, ``stop == "time_limit"``), without the GIL; Ctrl-C raises ``KeyboardInterrupt``.

The result is a dict: ``exploitability`` (chips) and ``exploitability_pct``,
``iterations``, ``seconds``, ``memory_bytes``, ``nodes``, ``stop``, ``history`` (iteration,
exploitability %), ``root_ev`` and ``root_equity`` (per player, OOP first: the EVs sum to
the pot), ``hands`` (each player's combos after card removal), ``hand_ev`` (per player,
float64 per hand: its EV given that it holds the hand, NaN where no opponent hand can be
dealt), ``root_player``, ``root_actions`` (``"check"``, ``"bet:120"``, ...) and
``root_strategy`` (float32 ``actions x hands`` of the root player's average strategy, each
column a distribution) and ``root_action_ev`` (float64 ``actions x hands``: the EV of taking
each root action with each hand and playing the average strategy after it; mixed by
``root_strategy`` it gives ``hand_ev`` of the root player).

Bad input (overlapping cards, an unknown size word, an empty range, a spot above
``max_memory`` bytes) raises ``ValueError`` (``MemoryError`` is not used: the spot is
refused before anything is allocated).

    from cardvec import spot
    s = spot.solve("Td9d6hQc2s", 200, 900, "AA,KK,72o", "QQ,JJ", bets="75%", target=0.1)
    s["root_ev"]     # [oop, ip], summing to 200
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ._cardvec import spot as _spot

if TYPE_CHECKING:
    from typing import SupportsFloat, SupportsIndex

    from ._cardvec.spot import _Solution

__all__ = ["solve"]


def solve(
    board: str,
    pot: SupportsIndex,
    stack: SupportsIndex,
    oop_range: str,
    ip_range: str,
    bets: str = "60%,e,a",
    raises: str = "2.5x",
    target: SupportsFloat | None = 0.5,
    max_iterations: SupportsIndex | None = 1000,
    time_limit: SupportsFloat | None = None,
    algorithm: str = "dcfr",
    check_every: SupportsIndex | None = 10,
    max_memory: SupportsIndex | None = None,
) -> _Solution:
    """Solves a spot (see the module documentation); ``max_memory`` defaults to the
    library's limit."""
    return _spot.solve(
        board,
        pot,
        stack,
        oop_range,
        ip_range,
        bets,
        raises,
        target,
        max_iterations,
        time_limit,
        algorithm,
        check_every,
        max_memory,
    )
