"""cardvec.pushfold: the exact preflop equity table against eval7's Monte Carlo (an
independent evaluator), the push/fold solver's exploitability and ranges, and bad input."""

import numpy as np
import pytest

from cardvec import pushfold as pf

eval7 = pytest.importorskip("eval7")

# eval7 parses ranges with a pyparsing call that newer pyparsing deprecates.
pytestmark = pytest.mark.filterwarnings("ignore:.*parseString.*:DeprecationWarning")

# eval7 trials per class pair. One trial's result is 0, 1/2 or 1 (variance <= 1/4), so the
# standard error is <= 0.5 / sqrt(TRIALS) = 0.00035 and the 0.2% bound is 5.7 standard
# errors: the chance that one of the pairs below misses it by bad luck is below 1e-6.
TRIALS = 2_000_000
BOUND = 0.002

RANKS = "AKQJT98765432"


def representative(name: str) -> list:
    """One hole of the class. Every hole of a class has the same equity against a class
    (suit relabeling maps one onto another and keeps the other class)."""
    hi, lo = name[0], name[1]
    if len(name) == 2:
        cards = [hi + "s", lo + "h"]
    elif name[2] == "s":
        cards = [hi + "s", lo + "s"]
    else:
        cards = [hi + "s", lo + "h"]
    return [eval7.Card(c) for c in cards]


def sample_pairs() -> list[tuple[str, str]]:
    names = pf.classes()
    chosen = [
        ("AA", "KK"),  # pair over pair
        ("AKs", "AQo"),  # shared ace (card removal)
        ("AKo", "AKs"),  # the same ranks
        ("22", "AKo"),  # the race
        ("72o", "32s"),
        ("T9s", "87s"),
        ("KK", "AA"),
    ]
    rng = np.random.default_rng(16)
    for _ in range(6):
        a, b = rng.choice(len(names), 2)
        chosen.append((names[a], names[b]))
    return chosen


@pytest.mark.parametrize("a,b", sample_pairs())
def test_the_table_matches_eval7_monte_carlo(a, b):
    table = pf.equity_table()
    exact = table[pf.class_index(a), pf.class_index(b)]
    sampled = eval7.py_hand_vs_range_monte_carlo(representative(a), eval7.HandRange(b), [], TRIALS)
    assert abs(exact - sampled) < BOUND, (a, b, exact, sampled)


def test_the_table_is_consistent_and_verified():
    t = pf.equity_table()
    assert t.shape == (169, 169) and t.dtype == np.float64
    np.testing.assert_allclose(t + t.T, 1.0, atol=1e-12)
    np.testing.assert_array_equal(np.diag(t), 0.5)
    c = pf.equity_counts()
    assert c["checksum"] == "fnv1a64:c71a40335574f35e"
    np.testing.assert_array_equal(c["deals"], c["combo_pairs"] * 1_712_304)
    np.testing.assert_array_equal(c["wins"] + c["ties"] + c["wins"].T, c["deals"])
    np.testing.assert_allclose(t, (c["wins"] + c["ties"] / 2) / c["deals"], rtol=0, atol=1e-15)
    assert int(c["combo_pairs"].sum()) == 1326 * 1225
    names = pf.classes()
    assert names[:2] == ["AA", "AKs"] and names[13] == "AKo" and names[168] == "22"
    assert int(pf.combos().sum()) == 1326
    assert pf.grid(np.arange(169))[1, 0] == pf.class_index("AKo")


def test_the_table_computation_stops_on_its_time_limit():
    with pytest.raises(TimeoutError):
        pf.compute_equity_table(time_limit=0.01)


def test_solve_reaches_the_target_and_ranges_are_sane():
    shares = []
    aa, o72 = pf.class_index("AA"), pf.class_index("72o")
    weights = pf.combos() / 1326
    for depth in (2, 10, 20):
        s = pf.solve(depth)
        assert s["converged"] and s["exploitability"] < 1e-3
        assert s["push"].shape == (169,) and s["call"].shape == (169,)
        assert s["push"][aa] > 0.99 and s["call"][aa] > 0.99
        # The exploitability of the returned pair, computed again from scratch.
        again = pf.exploitability(depth, s["push"], s["call"])
        assert again == pytest.approx(s["exploitability"], abs=1e-12)
        shares.append(float(weights @ s["push"]))
        if depth == 20:
            assert s["push"][o72] < 0.01 and s["call"][o72] < 0.01
    assert shares[0] > shares[1] > shares[2], shares
    # Pure strategies far from the equilibrium are exploitable by a lot.
    assert pf.exploitability(10, np.ones(169), np.ones(169)) > 0.05
    assert pf.exploitability(10, np.zeros(169), np.zeros(169)) > 0.1
    # A lists of numbers works as well as an array.
    s = pf.solve(10, target=1e-4, max_iterations=100_000)
    assert s["exploitability"] < 1e-4
    assert pf.exploitability(10.0, list(s["push"]), list(s["call"])) < 1e-4
    short = pf.solve(20, target=1e-9, max_iterations=2)
    assert not short["converged"] and short["iterations"] == 2


@pytest.mark.parametrize(
    "call,error,text",
    [
        (lambda: pf.solve(0.5), ValueError, "0.5"),
        (lambda: pf.solve(-3), ValueError, "-3"),
        (lambda: pf.solve(float("inf")), ValueError, "inf"),
        (lambda: pf.solve(float("nan")), ValueError, "NaN"),
        (lambda: pf.solve(True), ValueError, "True"),
        (lambda: pf.solve("10"), TypeError, "'10'"),
        (lambda: pf.solve(10, target=0), ValueError, "0"),
        (lambda: pf.solve(10, target=-1.0), ValueError, "-1"),
        (lambda: pf.solve(10, max_iterations=0), ValueError, "0"),
        (lambda: pf.solve(10, max_iterations=1.5), TypeError, "1.5"),
        (lambda: pf.exploitability(10, np.full(168, 0.5), np.full(169, 0.5)), ValueError, "168"),
        (lambda: pf.exploitability(10, np.full(169, 1.5), np.full(169, 0.5)), ValueError, "1.5"),
        (lambda: pf.exploitability(10, np.full(169, 0.5), np.full(169, np.nan)), ValueError, "NaN"),
        (lambda: pf.exploitability(10, np.full((13, 13), 0.5), np.full(169, 0.5)), ValueError, "2"),
        (lambda: pf.exploitability(10, ["a"] * 169, np.full(169, 0.5)), TypeError, "push"),
        (lambda: pf.exploitability(0, np.full(169, 0.5), np.full(169, 0.5)), ValueError, "got 0"),
        (lambda: pf.class_index("AKx"), ValueError, "AKx"),
        (lambda: pf.grid(np.zeros(10)), ValueError, "10"),
        (lambda: pf.compute_equity_table(time_limit=0), ValueError, "0"),
    ],
)
def test_bad_input_is_a_clear_error(call, error, text):
    with pytest.raises(error, match=None) as info:
        call()
    assert text in str(info.value), str(info.value)


def test_purify_rounds_at_one_half_and_is_priced_by_exploitability():
    s = pf.solve(10, target=1e-4)
    push, call = pf.purify(s["push"]), pf.purify(s["call"])
    assert set(np.unique(push)) <= {0.0, 1.0} and set(np.unique(call)) <= {0.0, 1.0}
    np.testing.assert_array_equal(push, (np.asarray(s["push"]) > 0.5).astype(float))
    assert push[pf.class_index("AA")] == 1.0
    e = pf.exploitability(10, push, call)
    assert s["exploitability"] <= 1e-4 and 0.0 <= e < 0.05
    for bad in (np.zeros(168), np.full(169, 1.5)):
        with pytest.raises(ValueError, match="purify"):
            pf.purify(bad)


def test_dcfr_and_pcfr_plus_reach_the_same_equilibrium():
    """``algorithm="dcfr"`` / ``"pcfr+"``: the target reached, the SB value at 10 BB within
    1e-5 of the exact -0.045371 (docs/pushfold.md); an unknown name is a ValueError."""
    plus = pf.solve(10, target=1e-6)
    for algorithm in ["dcfr", "pcfr+"]:
        s = pf.solve(10, target=1e-6, algorithm=algorithm)
        assert s["converged"] and s["exploitability"] < 1e-6
        assert abs(s["sb_value"] + 0.045371) < 1e-5
        assert s["iterations"] < plus["iterations"]
        assert np.max(np.abs(s["push"] - plus["push"])) < 0.05
    with pytest.raises(ValueError, match="pcfr"):
        pf.solve(10, algorithm="pcfr")
