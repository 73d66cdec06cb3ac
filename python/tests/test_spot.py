"""cardvec.spot: the spot solver from Python (the solver itself is checked in Rust:
src/solve/spot/tests.rs, against the generic tree solvers and a closed form)."""

import json
import math
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from cardvec import spot

# A river spot: OOP holds the nuts or air, IP only bluff-catchers, one pot-sized bet.
BOARD = "2s3s8sTdKd"
NUTS_AIR = "AsQs,7s6s,5h4h,5c4c"  # two flushes, two five-highs
CATCHERS = "KhQh,KcQc,KhJc"  # a pair of kings each


def test_a_river_spot_reaches_its_target_and_its_numbers_agree():
    s = spot.solve(BOARD, 100, 100, NUTS_AIR, CATCHERS, bets="100%", raises="", target=0.05,
                   max_iterations=5000)
    assert s["stop"] == "target"
    assert s["exploitability_pct"] <= 0.05
    assert s["exploitability"] == pytest.approx(s["exploitability_pct"] * 100 / 100)
    assert sum(s["root_ev"]) == pytest.approx(100, abs=1e-3)
    assert sum(s["root_equity"]) == pytest.approx(1.0, abs=1e-6)
    assert [len(h) for h in s["hands"]] == [4, 3]
    assert s["root_player"] == 0
    assert s["root_actions"] == ["check", "bet:100"]
    strategy = s["root_strategy"]
    assert strategy.shape == (2, 4) and strategy.dtype == np.float32
    np.testing.assert_allclose(strategy.sum(axis=0), 1.0, atol=1e-5)
    # The nuts always bet; air bets b/(1+2b) of the betting range with b = 1: half as
    # often as the nuts, so each of the two air hands bets 1/2 of the time.
    hands = [frozenset((h[:2], h[2:])) for h in s["hands"][0]]
    bet = dict(zip(hands, strategy[1]))
    for nut in (("As", "Qs"), ("7s", "6s")):
        assert bet[frozenset(nut)] == pytest.approx(1.0, abs=0.02)
    air = [bet[frozenset(h)] for h in (("5h", "4h"), ("5c", "4c"))]
    assert sum(air) == pytest.approx(1.0, abs=0.1)
    # OOP's EV per hand; each root action's EV per hand, which the strategy mixes into it.
    ev = s["hand_ev"][0]
    assert ev.shape == (4,) and not np.isnan(ev).any()
    action_ev = s["root_action_ev"]
    assert action_ev.shape == (2, 4)
    np.testing.assert_allclose((strategy * action_ev).sum(axis=0), ev, atol=1e-3)
    # Betting with the nuts wins the pot and the calls (IP calls 1/(1+b) = 1/2); air is
    # indifferent at 0 (it folds to a bet after checking or loses the showdown). A check
    # with the nuts is not pinned down: IP's strategy after a check faces only air.
    for nut in (("As", "Qs"), ("7s", "6s")):
        assert action_ev[1, hands.index(frozenset(nut))] == pytest.approx(150, abs=1.0)
    for air_hand in (("5h", "4h"), ("5c", "4c")):
        i = hands.index(frozenset(air_hand))
        assert abs(action_ev[0, i]) < 1.0 and abs(action_ev[1, i]) < 1.0
    assert s["history"][-1][1] == pytest.approx(s["exploitability_pct"])


def test_the_algorithms_agree_on_the_value():
    values = []
    for algorithm in ("dcfr", "cfr+", "pcfr+"):
        s = spot.solve(BOARD, 100, 100, NUTS_AIR, CATCHERS, bets="100%", raises="",
                       target=0.01, max_iterations=20000, algorithm=algorithm)
        assert s["algorithm"] == algorithm and s["stop"] == "target"
        values.append(s["root_ev"][0])
    # Within the exploitability bound of each other (0.01% of a 100-chip pot, twice).
    assert max(values) - min(values) <= 0.03


def test_a_time_limit_returns_the_strategy_reached():
    s = spot.solve("Td9d6hQc", 200, 900, "66+,A8s+,AJo+,K9s+,QTs+,JTs", "QQ-22,AQs-A2s,ATo+",
                   bets="60%,a", raises="2.5x", target=0.0, max_iterations=10_000_000,
                   time_limit=0.5)
    assert s["stop"] == "time_limit"
    assert s["iterations"] >= 1 and math.isfinite(s["exploitability_pct"])
    assert s["root_strategy"].ndim == 2


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        ({"board": "2s3s8sTdKd2s"}, ValueError, "2s"),
        ({"oop_range": "2s2c"}, ValueError, "empty"),
        ({"oop_range": "Kd"}, ValueError, "OOP range"),
        ({"bets": "60%,huge"}, ValueError, "huge"),
        ({"algorithm": "cfr++"}, ValueError, "cfr"),
        ({"target": -1.0}, ValueError, "target"),
        ({"max_iterations": 0}, ValueError, "max_iterations"),
        ({"time_limit": 0}, ValueError, "time_limit"),
        ({"pot": -5}, ValueError, "pot"),
        ({"max_memory": 10}, ValueError, "max memory"),
        ({"pot": "100"}, TypeError, "pot"),
    ],
)
def test_bad_input_is_a_clear_error(kwargs, error, message):
    args = {"board": BOARD, "pot": 100, "stack": 100, "oop_range": NUTS_AIR,
            "ip_range": CATCHERS, "bets": "100%", "raises": ""}
    args.update(kwargs)
    with pytest.raises(error, match=message):
        spot.solve(**args)


TURN = ("Td9d6hQc", 100, 300, "AA,KQs,J8s:0.5,76s", "QQ-JJ,AQs,T9s,87s:0.75")


def test_save_load_and_continue_equal_solving_straight(tmp_path):
    kwargs = dict(bets="60%,a", raises="2.5x", target=0.0, check_every=2, algorithm="pcfr+")
    straight = spot.solve(*TURN, max_iterations=9, **kwargs)
    first = spot.solve(*TURN, max_iterations=5, **kwargs)
    assert isinstance(first, spot.Solution) and first.iterations == 5
    path = tmp_path / "turn.cvspot"
    size = first.save(path)
    assert size == path.stat().st_size > 0
    loaded = spot.load(path)
    assert loaded.stop == "loaded" and loaded.iterations == 5
    assert loaded.algorithm == "pcfr+" and loaded.history == []
    assert loaded.exploitability == first.exploitability
    assert loaded.root_ev == first.root_ev
    np.testing.assert_array_equal(loaded.root_strategy, first.root_strategy)
    # The stored options (check_every=2, target 0) come back; 4 more iterations.
    resumed = loaded.solve(max_iterations=4)
    assert resumed is loaded and resumed.iterations == 9 and resumed.stop == "iterations"
    assert resumed.exploitability == straight.exploitability
    assert resumed.root_ev == straight.root_ev
    assert [h for h, _ in resumed.history] == [7, 9]
    np.testing.assert_array_equal(resumed.root_strategy, straight.root_strategy)
    np.testing.assert_array_equal(resumed.root_action_ev, straight.root_action_ev)
    for a, b in zip(resumed.hand_ev, straight.hand_ev):
        np.testing.assert_array_equal(a, b)
    # The dict of earlier versions reads the same values.
    assert resumed["root_ev"] == resumed.root_ev and "exploitability_pct" in resumed.keys()
    assert "9 iterations" in repr(resumed)


INTERRUPTED_CHILD = """
import json, signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
from cardvec import spot
turn, path = json.loads(sys.argv[1]), sys.argv[2]
endless = dict(bets="60%,a", raises="2.5x", target=0.0, max_iterations=10_000_000,
               check_every=10_000_000)
print("started", flush=True)
try:
    spot.solve(*turn, **endless)
except spot.Interrupted as e:
    s = e.solution
    print(json.dumps(dict(stop=s.stop, iterations=s.iterations, exploitability=s.exploitability,
                          keyboard=isinstance(e, KeyboardInterrupt))), flush=True)
    s.save(path)
print("started", flush=True)
try:
    s.solve()
except spot.Interrupted as e:
    print(json.dumps(dict(stop=s.stop, iterations=s.iterations, same=e.solution is s,
                          exploitability=s.exploitability)), flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child")
def test_ctrl_c_keeps_the_strategy_reached(tmp_path):
    """Ctrl-C during ``spot.solve`` raises ``Interrupted`` (a KeyboardInterrupt) holding the
    solution reached, which saves and continues exactly; during ``Solution.solve`` it
    updates the solution itself. The child is signalled once it has started each solve; the
    deadline only guards against a hang."""
    path = tmp_path / "interrupted.cvspot"
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED_CHILD, json.dumps(TURN), str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    lines = []
    try:
        for _ in range(2):
            assert child.stdout.readline().strip() == "started", child.stderr.read()
            time.sleep(0.3)
            child.send_signal(signal.SIGINT)
            lines.append(json.loads(child.stdout.readline() or "null"))
        out, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 0, err
    first, second = lines
    n = first["iterations"]
    assert first["stop"] == "interrupted" and first["keyboard"] and 0 < n < 10_000_000
    assert second["stop"] == "interrupted" and second["same"]
    assert second["iterations"] >= n
    # The file is the strategy reached: as a straight solve of as many iterations, and
    # continuing it as continuing that.
    loaded = spot.load(path)
    assert loaded.iterations == n and loaded.exploitability == first["exploitability"]
    kwargs = dict(bets="60%,a", raises="2.5x", target=0.0, check_every=1000)
    straight = spot.solve(*TURN, max_iterations=n, **kwargs)
    assert straight.exploitability == first["exploitability"]
    loaded.solve(max_iterations=3, check_every=3)
    straight.solve(max_iterations=3, check_every=3)
    assert loaded.iterations == n + 3 and loaded.exploitability == straight.exploitability
    np.testing.assert_array_equal(loaded.root_strategy, straight.root_strategy)


def test_a_bad_spot_file_is_a_value_error(tmp_path):
    s = spot.solve(BOARD, 100, 100, NUTS_AIR, CATCHERS, bets="100%", raises="",
                   max_iterations=10)
    good = tmp_path / "good.cvspot"
    s.save(str(good))
    data = good.read_bytes()
    (tmp_path / "text.cvspot").write_text('{"game": "kuhn"}')
    with pytest.raises(ValueError, match="not a cardvec spot file"):
        spot.load(tmp_path / "text.cvspot")
    (tmp_path / "cut.cvspot").write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="truncated"):
        spot.load(tmp_path / "cut.cvspot")
    other = bytearray(data)
    other[8:12] = (7).to_bytes(4, "little")
    (tmp_path / "v7.cvspot").write_bytes(bytes(other))
    with pytest.raises(ValueError, match="format version 7"):
        spot.load(tmp_path / "v7.cvspot")
    bad = bytearray(data)
    bad[len(bad) // 2] ^= 0x55
    (tmp_path / "bad.cvspot").write_bytes(bytes(bad))
    with pytest.raises(ValueError, match="corrupt|truncated"):
        spot.load(tmp_path / "bad.cvspot")
    with pytest.raises(ValueError, match="missing.cvspot"):
        spot.load(tmp_path / "missing.cvspot")
    with pytest.raises(ValueError, match="max_iterations"):
        spot.load(good).solve(max_iterations=0)


def test_locking_ip_to_always_call_stops_oop_bluffing():
    # The same spot with IP locked to call the pot-sized bet: the air never bets (a bet is
    # always called and loses), the nuts always bet (and win the pot and the call).
    s = spot.solve(BOARD, 100, 100, NUTS_AIR, CATCHERS, bets="100%", raises="", target=0.01,
                   max_iterations=5000, locks=["ip:bet:100%=call:1"])
    assert s["stop"] == "target" and s["exploitability_pct"] <= 0.01
    assert s["locks"] == ["ip:bet:100%=call:1"] and s["locked_nodes"] == 1
    hands = [frozenset((h[:2], h[2:])) for h in s["hands"][0]]
    bet = dict(zip(hands, s["root_strategy"][1]))
    for nut in (("As", "Qs"), ("7s", "6s")):
        assert bet[frozenset(nut)] > 0.999
    for air in (("5h", "4h"), ("5c", "4c")):
        assert bet[frozenset(air)] < 1e-3
    # OOP: half its hands win 200 (the pot and the call), the air nothing.
    assert s["root_ev"][0] == pytest.approx(100, abs=0.1)
    # Only some hands locked (one catcher calls always, the others are free); a tuple works.
    s = spot.solve(BOARD, 100, 100, NUTS_AIR, CATCHERS, bets="100%", raises="", target=0.05,
                   max_iterations=5000, locks=("bet:100=call:1@KhQh",))
    assert s["locked_nodes"] == 1 and s["stop"] == "target"


@pytest.mark.parametrize(
    "locks, error, message",
    [
        (["bet:999=call:1"], ValueError, "no action"),
        (["bet:100=fold:0.5"], ValueError, "sum to 0.5"),
        (["bet:100=fold:-1,call:2"], ValueError, r"\[0, 1\]"),
        (["oop:bet:100=call:1"], ValueError, "not OOP's"),
        (["bet:100=call:1@2h2d"], ValueError, "no combo"),
        (["bet:100"], ValueError, "no '='"),
        ("bet:100=call:1", TypeError, "list of lock strings"),
        ([("bet:100", "call")], TypeError, "each lock is a string"),
        (5, TypeError, "list of lock strings"),
    ],
)
def test_bad_locks_are_clear_errors(locks, error, message):
    with pytest.raises(error, match=message):
        spot.solve(BOARD, 100, 100, NUTS_AIR, CATCHERS, bets="100%", raises="", locks=locks)


def test_locks_are_saved_replaced_and_removed(tmp_path):
    s = spot.solve(BOARD, 100, 100, NUTS_AIR, CATCHERS, bets="100%", raises="", target=0.01,
                   max_iterations=5000, locks=["ip:bet:100=call:1"])
    path = tmp_path / "locked.cvspot"
    s.save(path)
    t = spot.load(path)
    assert t.locks == ["ip:bet:100=call:1"] and t.locked_nodes == 1
    assert t.root_ev[0] == pytest.approx(s.root_ev[0], abs=1e-9)
    # Unlocked and solved on, OOP bluffs again (the closed form: each air hand half the time).
    t.set_locks([]).solve(target=0.01, max_iterations=20000)
    assert t.locks == [] and t.locked_nodes == 0
    hands = [frozenset((h[:2], h[2:])) for h in t.hands[0]]
    bet = dict(zip(hands, t.root_strategy[1]))
    assert sum(bet[frozenset(h)] for h in (("5h", "4h"), ("5c", "4c"))) == pytest.approx(1.0, abs=0.1)
    with pytest.raises(ValueError, match="sum to 0.5"):
        t.set_locks(["bet:100=fold:0.5"])
    assert t.solve(max_iterations=1).locks == []


def test_a_node_reads_as_numpy_arrays(tmp_path):
    s = spot.solve(BOARD, 100, 100, NUTS_AIR, CATCHERS, bets="100%", raises="", target=0.05,
                   max_iterations=5000)
    root = s.node()
    assert root["kind"] == "decision" and root["player"] == 0 and root["line"] == ""
    assert root["actions"] == ["check", "bet:100"] and root["action_pct"] == [None, 100.0]
    np.testing.assert_array_equal(root["strategy"], s.root_strategy)
    np.testing.assert_array_equal(root["action_ev"], s.root_action_ev)
    np.testing.assert_array_equal(root["ev"][0], s.hand_ev[0])
    np.testing.assert_array_equal(root["ev"][1], s.hand_ev[1])
    # After the bet: OOP's reach is its betting frequency, IP calls or folds.
    n = s.node("bet:100%")
    assert n["line"] == "bet:100" and n["player"] == 1 and n["pot"] == 200
    assert n["actions"] == ["fold", "call"] and n["spent"] == [100, 0]
    assert n["reach"][0].dtype == np.float32 and n["ev"][1].dtype == np.float64
    np.testing.assert_array_equal(n["reach"][0], s.root_strategy[1])
    strategy = n["strategy"]
    assert strategy is not None and strategy.shape == (2, 3)
    # IP's calls average 1/(1+b) = 1/2 over its range (a bluff-catcher is indifferent).
    w = n["weight"][1]
    assert float((w * strategy[1]).sum() / w.sum()) == pytest.approx(0.5, abs=0.05)
    # The classes' aggregates against numpy: KhQh and KcQc are KQs, KhJc is KJo.
    classes = n["classes"][1]
    assert classes["name"] == ["KQs", "KJo"] and classes["hands"] == [2, 1]
    kqs = [i for i, h in enumerate(s.hands[1]) if h in ("KhQh", "KcQc")]
    cs = classes["strategy"]
    assert cs is not None and cs.shape == (2, 2)
    np.testing.assert_allclose(cs[1, 0], (w[kqs] * strategy[1, kqs]).sum() / w[kqs].sum())
    np.testing.assert_allclose(classes["ev"][0],
                               (w[kqs] * n["ev"][1][kqs]).sum() / w[kqs].sum())
    np.testing.assert_allclose(classes["combos"], [n["reach"][1][kqs].sum(), 1.0])
    cats = n["categories"][1]
    assert cats["name"] == ["suited", "offsuit", "one pair"] and cats["hands"] == [2, 1, 3]
    assert n["classes"][0]["strategy"] is None
    # Bad lines say what is possible; the subtree export.
    with pytest.raises(ValueError, match="no action \"raise\" at the root.*check, bet:100"):
        s.node("raise")
    with pytest.raises(ValueError, match="Kh is left over"):
        s.node("check", cards="Kh")
    with pytest.raises(TypeError, match="cards"):
        s.node("check", cards=5)  # type: ignore[arg-type]
    t = s.subtree("bet:100", depth=1)
    assert t["line"] == "bet:100" and t["node"]["player"] == 1
    assert [c["kind"] for c in t["node"]["children"]] == ["fold", "showdown"]
    # The same from a loaded file.
    path = tmp_path / "river.cvspot"
    s.save(path)
    again = spot.load(path).node("bet:100")
    np.testing.assert_array_equal(again["weight"][1], w)


def test_per_player_per_street_and_donk_sizes():
    """``oop_bets``/``ip_bets``/``oop_raises``/``ip_raises`` replace the common sizes for one
    player (streets not named keep them); ``donk`` is OOP's lead on the river into IP's turn
    bet; bad specs are ValueErrors naming the option."""
    s = spot.solve("Td9d6hQc", 100, 1000, "AA,KQs", "JJ,T9s", bets="60%", raises="3x",
                   ip_bets="turn:75%", donk="river:40%", max_iterations=3, target=0.0)
    assert s.node("")["actions"] == ["check", "bet:60"]
    assert s.node("check")["actions"] == ["check", "bet:75"]
    # Pot 250 once IP's 75 is called: OOP's donk bet is 40% = 100.
    assert s.node("check,bet:75,call,2c")["actions"] == ["check", "bet:100"]
    assert s.node("check,check,2c")["actions"] == ["check", "bet:60"]
    s = spot.solve("Td9d6hQc", 100, 1000, "AA,KQs", "JJ,T9s", bets="flop:33%;turn:50%",
                   oop_raises="", max_iterations=1, target=0.0)
    assert s.node("")["actions"] == ["check", "bet:50"]
    assert s.node("bet:50")["actions"] == ["fold", "call", "raise:125"]
    # OOP has no raise; no street but the flop and the turn has bets.
    assert s.node("check,bet:50")["actions"] == ["fold", "call"]
    assert s.node("check,check,Kh")["actions"] == ["check"]
    for kwargs, message in [
        (dict(donk="flop:33%"), "--donk.*flop"),
        (dict(oop_bets="turn:2.5x"), "--oop-bets.*raise size"),
        (dict(ip_raises="street:3x"), "--ip-raises.*unknown street"),
        (dict(bets="turn:50%;turn:60%"), "--bets.*named twice"),
    ]:
        with pytest.raises(ValueError, match=message):
            spot.solve("Td9d6hQc", 100, 1000, "AA,KQs", "JJ,T9s", max_iterations=1, **kwargs)
    with pytest.raises(TypeError):
        spot.solve("Td9d6hQc", 100, 1000, "AA,KQs", "JJ,T9s", donk=0.5)  # type: ignore[arg-type]


def test_isomorphism_is_on_by_default_and_agrees_with_solving_every_card():
    # Diamonds and spades carry no board card: the spade rivers mirror the diamonds.
    args = dict(board="AhKh7c4c", pot=60, stack=120, oop_range="AK,77,QJs",
                ip_range="AQs,44,T9s", bets="75%", target=0, max_iterations=12)
    on = spot.solve(**args)
    off = spot.solve(**args, isomorphism=False)
    assert on.isomorphism and not off.isomorphism
    assert on.mirrors == off.mirrors > 0
    assert abs(on.exploitability - off.exploitability) < 1e-3
    assert np.allclose(on.root_ev, off.root_ev, atol=1e-3)
    # No two suits interchangeable on this board: nothing to mirror.
    plain = spot.solve(**{**args, "board": "AhKd7c4s"})
    assert plain.mirrors == 0 and not plain.isomorphism
