"""cardvec.holdem's hand evaluator against phevaluator, hand by hand.

Game ``g`` of a run of ``seed`` is one random hand of ``5 + g % 3`` distinct cards (5, 6
and 7 cards in turn) drawn from ``numpy.random.default_rng([seed, g])``. Its rank by
``cardvec.holdem.evaluate_batch`` (1..7462, higher wins) must be ``7463 -`` phevaluator's
(1..7462, lower wins), so the two order every pair of hands alike; the category must be the
one of the rank. Card ids: cardvec's ``13 * suit + rank``, phevaluator's ``4 * rank + suit``
(``TO_PH``). ``replay_range(seed, first, count)`` compares the games ``first..first +
count`` (``cardvec.campaign``'s ``oracle`` kind, game id ``holdem-eval``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from . import require

require("holdem-eval")

from phevaluator import _pheval  # noqa: E402  (the C functions, without per-call wrapping)

from .. import holdem  # noqa: E402

if TYPE_CHECKING:
    from numpy import int64, uint8
    from numpy.typing import NDArray

#: cardvec card id -> phevaluator card id.
TO_PH: NDArray[uint8] = np.array([4 * (c % 13) + c // 13 for c in range(52)], dtype=np.uint8)

#: The first rank of each category (high card .. straight flush), cardvec's ranks.
CATEGORY_STARTS: NDArray[int64] = np.cumsum([1, 1277, 2860, 858, 858, 10, 1277, 156, 156])

_PH_EVAL = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}


def hand(seed: int, g: int) -> list[int]:
    """Game ``g``'s hand: ``5 + g % 3`` distinct cardvec card ids."""
    rng = np.random.default_rng([seed, g])
    return [int(c) for c in rng.choice(52, 5 + g % 3, replace=False)]


def phevaluator_rank(cards: list[int]) -> int:
    """phevaluator's rank of cardvec card ids, turned to cardvec's scale (higher wins)."""
    return 7463 - int(_PH_EVAL[len(cards)](*(int(TO_PH[c]) for c in cards)))


@dataclass
class Report:
    """What a range of hands showed: hands, hands by card count (``cards``) and by
    category name (``categories``), and mismatches ``{"game", "hand", "what"}``."""

    hands: int = 0
    cards: dict[str, int] = field(default_factory=dict)
    categories: dict[str, int] = field(default_factory=dict)
    mismatches: list[dict[str, Any]] = field(default_factory=list)


def replay_range(seed: int, first: int, count: int) -> Report:
    """Hands ``first..first + count`` of ``seed``, each ranked by cardvec and phevaluator;
    a difference is a mismatch, not an exception."""
    report = Report()
    games = list(range(first, first + count))
    hands = [hand(seed, g) for g in games]
    for k in (5, 6, 7):
        at = [i for i, h in enumerate(hands) if len(h) == k]
        if not at:
            continue
        rows = np.array([hands[i] for i in at], dtype=np.uint8)
        ranks, cats = holdem.evaluate_batch(rows)
        for i, rank, cat in zip(at, ranks.tolist(), cats.tolist()):
            theirs = phevaluator_rank(hands[i])
            expected_cat = int(np.searchsorted(CATEGORY_STARTS, rank, side="right")) - 1
            what = None
            if rank != theirs:
                what = f"rank {rank} != phevaluator's {theirs}"
            elif cat != expected_cat:
                what = f"category {cat} is not the category {expected_cat} of rank {rank}"
            if what is not None:
                report.mismatches.append({"game": games[i], "hand": holdem.format_cards(hands[i]),
                                          "what": what})
            name = holdem.CATEGORIES[cat]
            report.categories[name] = report.categories.get(name, 0) + 1
        report.cards[str(k)] = report.cards.get(str(k), 0) + len(at)
    report.hands = len(games)
    report.mismatches.sort(key=lambda m: m["game"])
    return report


__all__ = ["CATEGORY_STARTS", "TO_PH", "Report", "hand", "phevaluator_rank", "replay_range"]
