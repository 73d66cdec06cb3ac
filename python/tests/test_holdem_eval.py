"""cardvec.holdem against phevaluator: ranks, names, batch evaluation, equity, bad input.

Card ids: ours are ``13 * suit + rank``, phevaluator's ``4 * rank + suit`` (same suit and
rank orders). Our ranks are ordinals 1..7462, higher wins; phevaluator's are 1..7462,
lower wins, so ``ours == 7463 - theirs`` hand by hand.
"""

import itertools
import math

import numpy as np
import pytest

from cardvec import holdem

ph = pytest.importorskip("phevaluator")
from phevaluator import _pheval  # noqa: E402  (the C functions, without per-call wrapping)

# ours -> phevaluator, and back
TO_PH = np.array([4 * (c % 13) + c // 13 for c in range(52)], dtype=np.uint8)
FROM_PH = np.argsort(TO_PH).astype(np.uint8)

PH_EVAL = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}


def ph_ranks(hands_ours: np.ndarray) -> np.ndarray:
    """phevaluator's ranks of rows of our card ids."""
    f = PH_EVAL[hands_ours.shape[1]]
    rows = TO_PH[hands_ours].tolist()
    return np.fromiter(itertools.starmap(f, rows), dtype=np.int32, count=len(rows))


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    """n rows of k distinct card ids (rejection sampling)."""
    rng = np.random.default_rng(seed)
    out = np.empty((0, k), dtype=np.uint8)
    while len(out) < n:
        cand = rng.integers(0, 52, size=(n, k), dtype=np.uint8)
        s = np.sort(cand, axis=1)
        ok = (np.diff(s, axis=1) != 0).all(axis=1)
        out = np.concatenate([out, cand[ok]])
    return out[:n]


def test_card_ids_and_parsing():
    assert holdem.parse_cards("AsKd") == [51, 24]
    assert holdem.parse_cards("2c 2d,2h ♠A") == [0, 13, 26, 51]
    assert holdem.card_id("Td") == 13 + 8
    assert holdem.card_str(0) == "2c" and holdem.card_str(51) == "As"
    assert holdem.format_cards([51, 24]) == "As Kd"
    assert holdem.HAND_CLASSES == 7462
    assert holdem.CATEGORIES[0] == "high card" and holdem.CATEGORIES[8] == "straight flush"


def test_all_five_card_hands_order_like_phevaluator():
    n = math.comb(52, 5)
    # enumerate in phevaluator ids so phevaluator's C functions take the tuples directly
    combos = itertools.combinations(range(52), 5)
    flat = np.fromiter(itertools.chain.from_iterable(combos), dtype=np.uint8, count=5 * n)
    hands_ph = flat.reshape(n, 5)
    theirs = np.fromiter(
        itertools.starmap(_pheval.evaluate_5cards, itertools.combinations(range(52), 5)),
        dtype=np.int32,
        count=n,
    )
    ranks, cats = holdem.evaluate_batch(FROM_PH[hands_ph])
    assert ranks.dtype == np.uint16 and cats.dtype == np.uint8 and ranks.shape == (n,)
    assert np.array_equal(ranks.astype(np.int32), 7463 - theirs)
    assert len(np.unique(ranks)) == 7462
    # five-card category counts
    counts = np.bincount(cats, minlength=9).tolist()
    assert counts == [1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 40]


def test_random_seven_card_hands_order_like_phevaluator():
    hands = random_hands(1_000_000, 7, seed=7)
    ranks, cats = holdem.evaluate_batch(hands)
    assert np.array_equal(ranks.astype(np.int32), 7463 - ph_ranks(hands))
    # the category is the one of the rank
    starts = np.cumsum([0, 1277, 2860, 858, 858, 10, 1277, 156, 156])
    assert np.array_equal(np.searchsorted(starts, ranks, side="left") - 1, cats)


def test_random_six_card_hands_and_dtypes():
    hands = random_hands(200_000, 6, seed=6)
    ranks, _ = holdem.evaluate_batch(hands)
    assert np.array_equal(ranks.astype(np.int32), 7463 - ph_ranks(hands))
    for dt in [np.int8, np.int16, np.int32, np.int64, np.uint32, np.uint64, ">i4"]:
        r, _ = holdem.evaluate_batch(hands[:1000].astype(dt))
        assert np.array_equal(r, ranks[:1000])
    # non-contiguous input and plain lists
    wide = np.zeros((1000, 12), dtype=np.int64)
    wide[:, ::2] = hands[:1000]
    assert np.array_equal(holdem.evaluate_batch(wide[:, ::2])[0], ranks[:1000])
    assert np.array_equal(holdem.evaluate_batch(hands[:10].tolist())[0], ranks[:10])
    empty = holdem.evaluate_batch(np.zeros((0, 7), dtype=np.int64))
    assert empty[0].shape == (0,)


def test_single_evaluate_matches_batch_and_phevaluator():
    hands = random_hands(2000, 7, seed=3)
    batch, cats = holdem.evaluate_batch(hands)
    for row, r, c in zip(hands.tolist(), batch, cats):
        v = holdem.evaluate(row)
        assert v.rank == r and v.category_index == c
        assert v.category == holdem.CATEGORIES[c]
        assert v.rank == 7463 - ph.evaluate_cards(*[holdem.card_str(x) for x in row])
        assert set(v.best_five_ids) <= set(row)
        assert holdem.evaluate(v.best_five_ids).rank == v.rank


@pytest.mark.parametrize(
    "cards, name, category",
    [
        ("As Ks Qs Js Ts 2h 3d", "royal flush", "straight flush"),
        ("9c 8c 7c 6c 5c", "straight flush, nine-high", "straight flush"),
        ("Ac Ad Ah As Kc", "four of a kind, aces", "four of a kind"),
        ("2c 2d 3h 3s 3c 8h Td", "full house, threes over twos", "full house"),
        ("2c 2d 2h 3s 3c 3h Td", "full house, threes over twos", "full house"),
        ("Ah Kh 7h 2h 9h", "flush, ace-high", "flush"),
        ("As 2d 3h 4s 5c", "straight, five-high", "straight"),
        ("Ac Ad Ah 4s 9c", "three of a kind, aces", "three of a kind"),
        ("Ac Ad Kh Ks 2c", "two pair, aces and kings", "two pair"),
        ("Ac Ad 3h 4s 9c", "one pair, aces", "one pair"),
        ("7c 5d 4h 3s 2c", "high card, seven-high", "high card"),
    ],
)
def test_hand_names(cards, name, category):
    v = holdem.evaluate(cards)
    assert v.name == name and v.category == category
    assert holdem.hand_name(cards) == name
    assert holdem.hand_name(cards.split()) == name
    assert holdem.hand_name(holdem.parse_cards(cards)) == name
    assert holdem.rank_name(v.rank) == name


def test_evaluate_details():
    v = holdem.evaluate("2c 2d 3h 3s 3c 8h Td")
    assert v.best_five == ["3s", "3h", "3c", "2d", "2c"]
    assert holdem.evaluate("7c5d4h3s2c").rank == 1
    assert holdem.evaluate("AsKsQsJsTs").rank == 7462
    # ties compare equal, higher wins
    assert holdem.evaluate("AcAdKhKs2c") == holdem.evaluate("AhAsKcKd2d")
    assert holdem.evaluate("2c2d3h3s3c") > holdem.evaluate("AcAdAhKcQs2s")
    assert "full house" in repr(v)


def brute_force(players, board, dead=()):
    """Integer wins and ties per player over every deal and every board completion, ranked by
    phevaluator; players are lists of combos (pairs of card strings)."""

    def ids(cards):
        return [ph.Card.to_id(c) for c in cards]

    board_ids = ids(board)
    used0 = set(board_ids) | set(ids(dead))
    n = len(players)
    wins, ties, total = [0] * n, [0] * n, 0
    for deal in itertools.product(*[[ids(c) for c in p] for p in players]):
        flat = [c for h in deal for c in h]
        if len(set(flat)) != len(flat) or used0 & set(flat):
            continue
        rest = [c for c in range(52) if c not in used0 and c not in flat]
        for extra in itertools.combinations(rest, 5 - len(board_ids)):
            b = board_ids + list(extra)
            r = [ph.evaluate_cards(*h, *b) for h in deal]
            best = min(r)
            who = [i for i in range(n) if r[i] == best]
            total += 1
            if len(who) == 1:
                wins[who[0]] += 1
            else:
                for i in who:
                    ties[i] += 1
    return wins, ties, total


@pytest.mark.parametrize(
    "players, board, dead",
    [
        (["AsKs", "QdQc", "8h7h"], "2s 7c 9s", ""),
        (["AhAd", "KsQs, KhQh, KdQd, KcQc", "Tc9c"], "Qc 7d 2s 3h", "4c"),
        (["5c5d", "5h5s", "AcKd"], "6c 7d 8h", ""),
    ],
)
def test_exact_equity_against_phevaluator_brute_force(players, board, dead):
    res = holdem.equity(players, board=board, dead=dead, exact=True)
    combos = [[tuple(map(holdem.card_str, holdem.parse_cards(x))) for x in p.split(",")]
              for p in players]
    wins, ties, total = brute_force(combos, board.split(), dead.split())
    assert res["exact"] and res["total"] == total
    assert res["wins"] == wins and res["ties"] == ties
    assert res["stderr"] == [0.0] * len(players)
    assert sum(res["equity"]) == pytest.approx(1.0)
    assert res["win"] == pytest.approx([w / total for w in wins])


def test_aces_against_kings_exact_fixture():
    res = holdem.equity(["AA", "KK"], exact=True)
    assert res["exact"]
    assert res["wins"] == [50_371_344, 10_986_372]
    assert res["ties"] == [285_228, 285_228]
    assert res["total"] == 36 * 1_712_304


def test_monte_carlo_within_three_standard_errors_and_seeded():
    players, board = ["AsAh", "KdKc", "8s9s"], "2c 7d 9h"
    exact = holdem.equity(players, board=board)
    assert exact["exact"]
    mc = holdem.equity(players, board=board, samples=200_000, seed=5, exact=False)
    assert not mc["exact"] and mc["total"] == 200_000
    for e, m, se in zip(exact["equity"], mc["equity"], mc["stderr"]):
        assert 0 < se < 0.01
        assert abs(e - m) <= 3 * se
    again = holdem.equity(players, board=board, samples=200_000, seed=5, exact=False)
    assert again["wins"] == mc["wins"] and again["ties"] == mc["ties"]
    # too big to enumerate by default: Monte Carlo
    auto = holdem.equity(["AsAh", "random"], samples=20_000)
    assert not auto["exact"] and auto["equity"][0] == pytest.approx(0.85, abs=0.02)


@pytest.mark.parametrize(
    "bad",
    [
        "AsKsQsJs",  # four cards
        "AsKsQsJsTs9s8s7s",  # eight cards
        "AsAsKsQsJs",  # duplicate
        "AsKsQsJsXx",  # unparsable
        [51, 50, 49, 48, 52],  # out-of-range id
        [51, 50, 49, 48, -1],
        [51, 50, 49, 48, 51],
        [51, 50, 49, 48, 1.5],
    ],
)
def test_evaluate_rejects_bad_input(bad):
    with pytest.raises(ValueError):
        holdem.evaluate(bad)
    with pytest.raises(ValueError):
        holdem.hand_name(bad)


def test_batch_rejects_bad_input():
    good = np.array([[0, 1, 2, 3, 4, 5, 6]])
    holdem.evaluate_batch(good)
    bad = [
        np.array([0, 1, 2, 3, 4]),  # 1-D
        np.zeros((3, 4), dtype=np.int64),  # 4 columns
        np.zeros((3, 8), dtype=np.int64),  # 8 columns
        good.astype(np.float64),  # float dtype
        good.astype(bool)[:, :5],  # bool dtype
        np.array([[0, 1, 2, 3, 52]]),  # out of range
        np.array([[0, 1, 2, 3, -1]], dtype=np.int8),  # negative
        np.array([[0, 1, 2, 3, 256 + 4]], dtype=np.int64),  # wraps to a valid u8: still bad
        np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]]),  # duplicate in row 1
    ]
    for arr in bad:
        with pytest.raises(ValueError):
            holdem.evaluate_batch(arr)


@pytest.mark.parametrize(
    "players, kwargs",
    [
        (["AsAh"], {}),  # one player
        (["AsAh", "AKx"], {}),  # unparsable range
        (["AsAh", "AsKd"], {}),  # the same card twice
        (["AsAh", "KdKc"], {"board": "As 2c 3d"}),  # board card in a hand
        (["AsAh", "KdKc"], {"board": "2c 3d 4h 5s 6c 7d"}),  # six board cards
        (["AsAh", "KdKc"], {"board": "2c 2c 3d"}),  # duplicate board card
        (["AsAh", "KdKc"], {"dead": "Xy"}),  # unparsable dead card
        (["AsAh", "KdKc"], {"samples": 0, "exact": False}),  # no trials
        (["AA", "AA", "AA"], {}),  # no deal possible
    ],
)
def test_equity_rejects_bad_input(players, kwargs):
    with pytest.raises(ValueError):
        holdem.equity(players, **kwargs)
