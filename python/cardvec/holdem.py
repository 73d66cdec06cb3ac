"""Hold'em hand evaluator and equity calculator (see docs/holdem-evaluator.md).

Cards are ids ``13 * suit + rank`` (suits c, d, h, s; ranks 2..A as 0..12) or strings such
as ``"As"``, ``"Td"`` or ``"♠A"``. Ranks are ordinals 1..7462, higher wins
(phevaluator's rank of the same hand is ``7463 - rank``). Bad input raises ``ValueError``.

- ``evaluate(cards)`` -> ``HandValue`` (``rank``, ``category``, ``category_index``, ``name``,
  ``best_five``, ``best_five_ids``); ``hand_name(cards)``; ``rank_name(rank)``.
- ``evaluate_batch(ids)`` -> ``(ranks uint16, categories uint8)`` for an (N, 5..7) integer
  array, in parallel without the GIL.
- ``equity(players, board="", dead="", samples=None, seed=0, exact=None)`` -> dict.
- ``parse_cards``, ``card_id``, ``card_str``, ``format_cards``.
"""

from ._cardvec import holdem as _h

HandValue = _h.HandValue
parse_cards = _h.parse_cards
card_id = _h.card_id
card_str = _h.card_str
format_cards = _h.format_cards
evaluate = _h.evaluate
hand_name = _h.hand_name
rank_name = _h.rank_name
evaluate_batch = _h.evaluate_batch
equity = _h.equity
HAND_CLASSES: int = _h.HAND_CLASSES
CATEGORIES: list = list(_h.CATEGORIES)

__all__ = [
    "HandValue",
    "parse_cards",
    "card_id",
    "card_str",
    "format_cards",
    "evaluate",
    "hand_name",
    "rank_name",
    "evaluate_batch",
    "equity",
    "HAND_CLASSES",
    "CATEGORIES",
]
