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


def test_a_saved_solve_resumes_bit_for_bit(tmp_path):
    """40 iterations saved, resumed for 30 more (the file's algorithm), equal 70 at once,
    bit for bit; the run files are the same bytes."""
    for algorithm in ("cfr+", "dcfr"):
        a, b, c = (tmp_path / f"{n}-{algorithm}.cvpush" for n in "abc")
        first = pf.solve(7.5, target=1e-12, max_iterations=40, algorithm=algorithm, save=a)
        assert (first["iterations"], first["stop"], first["resumed_from"]) == (40, "iterations", 0)
        more = pf.solve(7.5, target=1e-12, max_iterations=30, resume=a, save=b)
        whole = pf.solve(7.5, target=1e-12, max_iterations=70, algorithm=algorithm, save=c)
        assert (more["iterations"], more["resumed_from"]) == (70, 40)
        assert more["push"].tobytes() == whole["push"].tobytes()
        assert more["call"].tobytes() == whole["call"].tobytes()
        assert more["exploitability"] == whole["exploitability"]
        assert b.read_bytes() == c.read_bytes()
        alone = pf.solve(7.5, target=1e-12, max_iterations=30, algorithm=algorithm)
        assert alone["push"].tobytes() != whole["push"].tobytes()


def test_a_time_limit_returns_the_strategies_reached():
    s = pf.solve(10, target=1e-15, max_iterations=10_000_000, time_limit=0.2)
    assert s["stop"] == "time-limit" and not s["converged"]
    assert s["iterations"] > 10 and s["exploitability"] < 1e-3
    assert pf.exploitability(10, s["push"], s["call"]) == s["exploitability"]
    assert pf.solve(10)["stop"] == "target"


def test_bad_resume_files_and_save_paths_are_refused_first(tmp_path):
    good = tmp_path / "good.cvpush"
    pf.solve(5, max_iterations=10, target=1e-12, save=good)
    data = good.read_bytes()
    (tmp_path / "text").write_text("{}")
    corrupt = bytearray(data)
    corrupt[len(corrupt) // 2] ^= 0x55
    (tmp_path / "corrupt").write_bytes(bytes(corrupt))
    (tmp_path / "short").write_bytes(data[:-3])
    for path, text in [
        ("text", "not a cardvec push/fold run file"),
        ("corrupt", "corrupt"),
        ("short", "truncated"),
        ("absent", "absent"),
    ]:
        with pytest.raises(ValueError, match=text):
            pf.solve(5, resume=tmp_path / path)
    with pytest.raises(ValueError, match="holds no state of depth 6"):
        pf.solve(6, resume=good)
    with pytest.raises(ValueError, match="solved with cfr\\+, not dcfr"):
        pf.solve(5, resume=good, algorithm="dcfr")
    missing = tmp_path / "no" / "dir" / "x.cvpush"
    with pytest.raises(ValueError, match="save: cannot write"):
        pf.solve(5, save=missing)
    for bad in (0, -1.0, float("nan"), True):
        with pytest.raises(ValueError, match="time_limit"):
            pf.solve(5, time_limit=bad)
    assert good.read_bytes() == data and not (tmp_path / "no").exists()


def test_ctrl_c_saves_the_state_reached_then_raises_keyboard_interrupt(tmp_path):
    import signal
    import subprocess
    import sys
    import textwrap
    import time

    saved = tmp_path / "run.cvpush"
    script = textwrap.dedent(
        f"""
        import signal
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from cardvec import pushfold as pf
        print("started", flush=True)
        pf.solve(10, target=1e-15, max_iterations=10_000_000, save={str(saved)!r})
        print("finished", flush=True)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "started", child.stderr.read()
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode != 0 and "finished" not in out
    assert err.rstrip().splitlines()[-1] == "KeyboardInterrupt", err
    more = pf.solve(10, target=1e-15, max_iterations=5, resume=saved)
    assert more["resumed_from"] > 0 and more["iterations"] == more["resumed_from"] + 5
