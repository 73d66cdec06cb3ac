"""Weighted (``AKs:0.5``) and percentage (``15%``) ranges through ``cardvec.holdem``.

The weighted equities are checked against a brute force written here: every pair of
disjoint combos and every river of a turn board, ranked with ``evaluate_batch``, each deal
weighing the product of its combos' weights.
"""

from __future__ import annotations

import numpy as np
import pytest

from cardvec import holdem


def brute_force(texts: tuple[str, str], board: str) -> tuple[float, float]:
    """The weighted equity of two ranges on a four-card board, by explicit enumeration."""
    board_ids = holdem.parse_cards(board)
    assert len(board_ids) == 4
    ranges = [
        [(holdem.parse_cards(c), w) for c, w in holdem.range_combos(t)] for t in texts
    ]
    rows: list[list[int]] = []
    weights: list[float] = []
    for c1, w1 in ranges[0]:
        for c2, w2 in ranges[1]:
            used = set(board_ids) | set(c1) | set(c2)
            if len(used) != 8:
                continue
            for river in range(52):
                if river in used:
                    continue
                rows.append(board_ids + [river] + c1)
                rows.append(board_ids + [river] + c2)
                weights.append(w1 * w2)
    ranks, _ = holdem.evaluate_batch(np.array(rows, dtype=np.uint8))
    a, b = ranks[0::2].astype(np.int64), ranks[1::2].astype(np.int64)
    w = np.array(weights)
    share = np.where(a > b, 1.0, np.where(a == b, 0.5, 0.0))
    e0 = float((w * share).sum() / w.sum())
    return e0, 1.0 - e0


@pytest.mark.parametrize(
    "texts, board",
    [
        (("AKs:0.5,QQ:0.25,T9s,8h8d:0.75", "KdQd"), "Ks9h5c2d"),
        (("JJ+:0.3,AQs,76s:0.9", "TT:0.2,KQ,A5s:0.6"), "Qh7c6d2s"),
        (("KK+:0.5,QQ-88,AKs:0.4", "10%"), "AhKd8c3s"),
    ],
)
def test_weighted_equity_matches_a_brute_force(texts: tuple[str, str], board: str) -> None:
    r = holdem.equity(list(texts), board=board, exact=True)
    assert r["exact"]
    want = brute_force(texts, board)
    assert r["equity"] == pytest.approx(list(want), abs=1e-9)


def test_unit_weights_change_nothing() -> None:
    for kwargs in ({"exact": True, "board": "2c7d9h"}, {"exact": False, "samples": 20_000}):
        plain = holdem.equity(["AK,QQ", "random"], **kwargs)
        ones = holdem.equity(["AK:1,QQ", "random:1"], **kwargs)
        for key in ("equity", "win", "tie", "wins", "ties", "total"):
            assert plain[key] == ones[key], key


def test_weights_change_the_equity() -> None:
    flat = holdem.equity(["AA,43o", "KK"], board="2c7d9h")
    heavy = holdem.equity(["AA,43o:0.1", "KK"], board="2c7d9h")
    assert heavy["equity"][0] > flat["equity"][0] + 0.1


def test_weighted_monte_carlo_agrees_with_exact() -> None:
    players = ["AKs:0.5,QQ:0.25,T9s", "15%:0.5,72o"]
    exact = holdem.equity(players, board="2c7d9h", exact=True)
    sampled = holdem.equity(players, board="2c7d9h", exact=False, samples=200_000, seed=5)
    for e, s, se in zip(exact["equity"], sampled["equity"], sampled["stderr"]):
        assert abs(e - s) < 4 * se


def test_range_combos_lists_weights() -> None:
    combos = dict(holdem.range_combos("AKs:0.5,QQ+,T9s:0.25"))
    assert len(combos) == 4 + 18 + 4
    assert combos["AsKs"] == 0.5
    assert combos["AsAh"] == 1.0
    assert combos["Th9h"] == 0.25
    assert sum(combos.values()) == 21.0


def test_percentage_ranges() -> None:
    assert len(holdem.range_combos("100%")) == 1326
    assert {c for c, _ in holdem.range_combos("0.4%")} == {c for c, _ in holdem.range_combos("AA")}
    sizes = []
    previous: set[str] = set()
    for p in (1, 5, 10, 15, 25, 50, 75, 100):
        combos = {c for c, _ in holdem.range_combos(f"{p}%")}
        assert len(combos) >= p / 100 * 1326
        assert previous <= combos, p
        previous = combos
        sizes.append(len(combos))
    assert sizes == sorted(sizes)


@pytest.mark.parametrize(
    "text, message",
    [
        ("AKs:0", "0 < weight <= 1"),
        ("AKs:1.5", "0 < weight <= 1"),
        ("AKs:-1", "0 < weight <= 1"),
        ("AKs:nan", "0 < weight <= 1"),
        ("AKs:half", "0 < weight <= 1"),
        ("QQ+,AA:0.5", "one weight"),
        ("0%", "percentage"),
        ("100.5%", "percentage"),
        ("x%", "percentage"),
    ],
)
def test_bad_ranges_are_value_errors(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        holdem.range_combos(text)
    with pytest.raises(ValueError, match=message):
        holdem.equity([text, "KK"])


def test_a_range_emptied_by_the_board_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="board or dead"):
        holdem.equity(["AA:0.5", "QQ"], board="AsAhAd")
