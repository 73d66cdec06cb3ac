"""cardvec.solve.cfr(..., save=..., resume=...): a run saved when it stops (the iterations,
its time limit, Ctrl-C) and continued exactly; files of another run or damaged refused."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

import cardvec.solve as cs


@pytest.mark.parametrize("algorithm", ["cfr+", "dcfr", "pcfr+", "es-mccfr", "os-mccfr"])
def test_save_and_resume_equal_a_straight_run(tmp_path, algorithm):
    path = tmp_path / "leduc.cvsolve"
    kw = dict(algorithm=algorithm, seed=3, lanes=2)
    straight = cs.cfr("leduc", 30, **kw)
    first = cs.cfr("leduc", 17, save=path, **kw)
    assert first.iterations == 17 and first.resumed_from == 0 and path.exists()
    rest = cs.cfr("leduc", 13, resume=path, every=10, **kw)
    assert rest.iterations == 30 and rest.resumed_from == 17
    assert [p[0] for p in rest.curve] == [20, 30]
    # Bit for bit: the same floats, the same exploitability.
    assert rest.policy == straight.policy
    assert rest.exploitability == straight.exploitability
    assert rest.values == straight.values
    # Without the file, 13 iterations are another policy.
    assert cs.cfr("leduc", 13, **kw).policy != straight.policy


def test_another_run_or_a_damaged_file_is_refused(tmp_path):
    kuhn = tmp_path / "kuhn.cvsolve"
    cs.cfr("kuhn", 5, save=kuhn)
    es = tmp_path / "es.cvsolve"
    cs.cfr("kuhn", 5, "es-mccfr", seed=9, save=es)
    with pytest.raises(ValueError, match='of "kuhn", not of "leduc"'):
        cs.cfr("leduc", 5, resume=kuhn)
    with pytest.raises(ValueError, match="of cfr\\+, not of dcfr"):
        cs.cfr("kuhn", 5, "dcfr", resume=kuhn)
    with pytest.raises(ValueError, match="seed 9 and 1 lanes, not seed 8 and 1 lanes"):
        cs.cfr("kuhn", 5, "es-mccfr", seed=8, resume=es)
    good = kuhn.read_bytes()
    cut = tmp_path / "cut.cvsolve"
    cut.write_bytes(good[: len(good) // 2])
    with pytest.raises(ValueError, match="truncated"):
        cs.cfr("kuhn", 5, resume=cut)
    text = tmp_path / "policy.json"
    cs.save_policy(text, cs.cfr("kuhn", 5), "kuhn")
    with pytest.raises(ValueError, match="not a cardvec run file"):
        cs.cfr("kuhn", 5, resume=text)
    with pytest.raises(ValueError, match="missing.cvsolve"):
        cs.cfr("kuhn", 5, resume=tmp_path / "missing.cvsolve")
    # An unwritable save path is refused before the solve (which would run for ever).
    with pytest.raises(ValueError, match="save: cannot write"):
        cs.cfr("leduc", 10**12, save=tmp_path / "no" / "dir" / "x.cvsolve", time_limit=30)
    with pytest.raises(TypeError):
        cs.cfr("kuhn", 5, save=3)  # type: ignore[arg-type]


def test_a_time_limit_saves_the_state_reached(tmp_path):
    path = tmp_path / "tl.cvsolve"
    sol = cs.cfr("leduc", 10**12, time_limit=0.3, save=path)
    assert sol.stopped == "time-limit"
    rest = cs.cfr("leduc", 4, resume=path)
    assert rest.resumed_from == sol.iterations and rest.iterations == sol.iterations + 4
    assert rest.policy == cs.cfr("leduc", sol.iterations + 4).policy


INTERRUPTED_CHILD = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
import cardvec.solve as cs
print("started", flush=True)
try:
    cs.cfr("leduc", 10**12, save=sys.argv[1])
except KeyboardInterrupt:
    print("interrupted", flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child")
def test_ctrl_c_saves_the_state_before_keyboard_interrupt(tmp_path):
    path = tmp_path / "int.cvsolve"
    child = subprocess.Popen(
        [sys.executable, "-c", INTERRUPTED_CHILD, str(path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout.readline().strip() == "started", child.stderr.read()
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        assert child.stdout.readline().strip() == "interrupted", child.stderr.read()
        child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 0
    rest = cs.cfr("leduc", 2, resume=path)
    n = rest.resumed_from
    assert n > 0 and rest.iterations == n + 2
    assert rest.policy == cs.cfr("leduc", n + 2).policy
    assert json.dumps(rest.curve[-1][0]) == str(n + 2)
