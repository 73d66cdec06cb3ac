"""cardvec's solvers against OpenSpiel (the oracle: ``pip install open-spiel``).

A policy goes both ways through its table keyed by OpenSpiel's information-state string:
a cardvec policy (uniform, a CFR iterate, a random one) is loaded into an OpenSpiel
``TabularPolicy`` and OpenSpiel's ``exploitability`` / ``nash_conv`` must equal cardvec's
(1e-9 on Kuhn, 1e-6 on Leduc); an OpenSpiel policy read into a table must get the same
numbers from cardvec. CFR and CFR+ must follow OpenSpiel's solvers iteration for iteration.
"""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import cardvec
import cardvec.solve as cs

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel) is the oracle")
from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import cfr as os_cfr  # noqa: E402
from open_spiel.python.algorithms import exploitability as os_exploitability  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OPENSPIEL = {"kuhn": "kuhn_poker", "leduc": "leduc_poker"}
TOLERANCE = {"kuhn": 1e-9, "leduc": 1e-6}


def to_openspiel(game, table):
    """A cardvec table as an OpenSpiel TabularPolicy (every state of the game in it)."""
    tp = os_policy.TabularPolicy(game)
    assert set(table) == set(tp.state_lookup), "the tables cover different information states"
    for key, dist in table.items():
        row = tp.action_probability_array[tp.state_lookup[key]]
        row[:] = 0.0
        for action, p in dist.items():
            row[action] = p
    return tp


def from_openspiel(tp):
    """An OpenSpiel TabularPolicy as a cardvec table (lists over num_actions)."""
    return {key: list(map(float, tp.action_probability_array[i]))
            for key, i in tp.state_lookup.items()}


def random_table(game_id, seed):
    """A random policy: Dirichlet weights over each information state's legal actions."""
    rng = np.random.default_rng(seed)
    uniform = cs.cfr(game_id, 1, "cfr").policy  # any policy: its keys and legal actions
    table = {}
    for key in sorted(uniform):
        actions = sorted(uniform[key])
        w = rng.dirichlet(np.ones(len(actions)))
        table[key] = {a: float(p) for a, p in zip(actions, w)}
    return table


def policies(game_id):
    yield "uniform", {k: {a: 1.0 / len(d) for a in d} for k, d in cs.cfr(game_id, 1, "cfr").policy.items()}
    yield "cfr iterate 3", cs.cfr(game_id, 3, "cfr").policy
    yield "cfr+ iterate 7", cs.cfr(game_id, 7, "cfr+").policy
    yield "mccfr iterate", cs.cfr(game_id, 50, "es-mccfr", seed=1, lanes=4).policy
    yield "random", random_table(game_id, 5)


@pytest.mark.parametrize("game_id", ["kuhn", "leduc"])
def test_exploitability_equals_openspiel_for_several_policies(game_id):
    game = pyspiel.load_game(OPENSPIEL[game_id])
    tol = TOLERANCE[game_id]
    for name, table in policies(game_id):
        tp = to_openspiel(game, table)
        theirs = os_exploitability.exploitability(game, tp)
        ours = cs.evaluate(game_id, table)
        assert abs(ours["exploitability"] - theirs) < tol, (name, ours, theirs)
        conv = os_exploitability.nash_conv(game, tp)
        assert abs(ours["nash_conv"] - conv) < 2 * tol, (name, ours, conv)
    assert abs(cs.exploitability(game_id, "uniform")
               - os_exploitability.exploitability(game, os_policy.UniformRandomPolicy(game))) < tol


@pytest.mark.parametrize("game_id", ["kuhn", "leduc"])
def test_an_openspiel_policy_is_evaluated_the_same(game_id):
    game = pyspiel.load_game(OPENSPIEL[game_id])
    solver = os_cfr.CFRSolver(game)
    for _ in range(2):
        solver.evaluate_and_update_policy()
    tp = solver.average_policy()
    table = from_openspiel(tp)
    assert abs(cs.exploitability(game_id, table)
               - os_exploitability.exploitability(game, tp)) < TOLERANCE[game_id]


@pytest.mark.parametrize("algorithm", ["cfr", "cfr+"])
def test_cfr_follows_openspiel_iteration_for_iteration(algorithm):
    game = pyspiel.load_game("kuhn_poker")
    solver = (os_cfr.CFRPlusSolver if algorithm == "cfr+" else os_cfr.CFRSolver)(game)
    ours = cs.cfr("kuhn", 12, algorithm, every=1)
    for i in range(12):
        solver.evaluate_and_update_policy()
        theirs = os_exploitability.exploitability(game, solver.average_policy())
        assert ours.curve[i][0] == i + 1
        assert abs(ours.curve[i][1] - theirs) < 1e-12, (i + 1, ours.curve[i], theirs)


def test_leduc_cfr_plus_equals_openspiel_cpp_after_many_iterations():
    """The same sums in the same order: equal long after regret matching+ has started to
    amplify rounding differences (30 iterations of OpenSpiel's C++ solver: about a second)."""
    if not hasattr(pyspiel, "CFRPlusSolver"):
        pytest.skip("this OpenSpiel has no C++ CFRPlusSolver binding")
    game = pyspiel.load_game("leduc_poker")
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(30):
        solver.evaluate_and_update_policy()
    theirs = pyspiel.exploitability(game, solver.average_policy())
    assert abs(cs.cfr("leduc", 30).exploitability - theirs) < 1e-12


def test_kuhn_cfr_plus_reaches_the_value_of_the_game():
    s = cs.cfr("kuhn", 1000)
    assert s.exploitability < 1e-3
    assert abs(s.game_value + 1.0 / 18.0) < 1e-3
    assert abs(cs.policy_value("kuhn", s.policy, 0) - s.game_value) < 1e-12
    assert abs(cs.exploitability("kuhn") - 0.4583333333333333) < 1e-12
    assert abs(cs.nash_conv("kuhn") - 0.9166666666666666) < 1e-12
    br = [cs.best_response_value("kuhn", "uniform", p) for p in (0, 1)]
    assert abs(sum(br) / 2 - 0.4583333333333333) < 1e-12


def test_mccfr_is_deterministic_for_a_seed():
    a = cs.cfr("kuhn", 300, "os-mccfr", seed=3, lanes=4)
    b = cs.cfr("kuhn", 300, "os-mccfr", seed=3, lanes=4)
    c = cs.cfr("kuhn", 300, "os-mccfr", seed=4, lanes=4)
    assert a.policy == b.policy and a.policy != c.policy


def test_a_policy_file_loads_back(tmp_path):
    s = cs.cfr("kuhn", 50)
    path = tmp_path / "kuhn.json"
    cs.save_policy(path, s, "kuhn")
    assert cs.load_policy(path) == s.policy
    assert cs.exploitability("kuhn", cs.load_policy(path)) == s.exploitability
    assert cs.load_policy(path, "kuhn") == s.policy
    with pytest.raises(ValueError, match='"kuhn", not of "leduc"'):
        cs.load_policy(path, "leduc")
    short = dict(s.policy)
    del short["1pb"]
    cs.save_policy(path, short, "kuhn")
    with pytest.raises(ValueError, match="missing.*1pb"):
        cs.load_policy(path)
    cs.save_policy(path, {**s.policy, "1pb": {0: 0.7, 1: 0.7}}, "kuhn")
    with pytest.raises(ValueError, match="1pb.*sum"):
        cs.load_policy(path)


def test_bad_tables_are_value_errors_naming_the_state():
    good = cs.cfr("kuhn", 10).policy
    cases = [
        ({**good, "0pb": [0.5, 0.6]}, '"0pb"', "sum"),
        ({**good, "0pb": {0: -0.5, 1: 1.5}}, '"0pb"', "-0.5"),
        ({**good, "0pb": [1.0]}, '"0pb"', "2 actions"),
        ({**good, "9zz": [0.5, 0.5]}, '"9zz"', "unknown"),
        ({k: v for k, v in good.items() if k != "1pb"}, '"1pb"', "missing"),
        ({**good, "0pb": {0: 0.5, 1: 0.5, 7: 0.1}}, '"0pb"', "7"),
    ]
    for table, key, word in cases:
        with pytest.raises(ValueError) as e:
            cs.exploitability("kuhn", table)
        assert key in str(e.value) and word in str(e.value), str(e.value)
    with pytest.raises(ValueError, match="uniformly"):
        cs.exploitability("kuhn", "uniformly")
    with pytest.raises(TypeError):
        cs.exploitability("kuhn", {"0pb": "ab"})
    with pytest.raises(ValueError, match="no game tree.*kuhn"):
        cs.cfr("lost-cities", 10)
    with pytest.raises(ValueError, match="cfr\\+\\+"):
        cs.cfr("kuhn", 10, "cfr++")
    with pytest.raises(ValueError, match="got 0"):
        cs.cfr("kuhn", 0)
    with pytest.raises(ValueError, match="more than 10 nodes"):
        cs.cfr("kuhn", 1, max_nodes=10)
    assert "kuhn" in cs.tree_ids() and "leduc" in cs.tree_ids()


def test_a_long_run_stops_at_its_time_limit_and_keeps_its_solution():
    sol = cs.cfr("leduc", 10**12, every=10**11, time_limit=0.2)
    assert sol.stopped == "time-limit"
    assert 1 <= sol.iterations < 10**12
    assert sol.curve[-1][0] == sol.iterations
    assert 0 <= sol.exploitability < 2.4  # better than one CFR+ iteration (2.3736...)
    assert cs.exploitability("leduc", sol.policy) == pytest.approx(sol.exploitability)


def test_the_example_runs():
    proc = subprocess.run(
        [sys.executable, os.path.join(ROOT, "examples", "cfr_leduc.py"), "--iterations", "100"],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    last = json.loads(proc.stdout.strip().splitlines()[-1])
    assert last["iterations"] == 100 and 0 < last["exploitability"] < 0.05
