"""Fork safety: a batch environment, ``holdem.evaluate_batch`` and ``holdem.equity`` used in
a parent keep working in a child made by ``os.fork()`` or a ``multiprocessing`` "fork"
pool, with the results the parent computes.

Before, the child hung forever at its first parallel call (the worker threads of the
parent's thread pool do not exist in a forked child). Every test here bounds the child by a
deadline and kills it when it passes, so a regression fails instead of hanging CI; the
deadline is a hang guard, not a speed requirement.
"""

import hashlib
import multiprocessing
import os
import pickle
import select
import signal
import time
import traceback

import numpy as np
import pytest

import cardvec
from cardvec import holdem

pytestmark = [
    pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork"),
    # Python 3.12+ warns that forking a process with threads may deadlock: the point here.
    pytest.mark.filterwarnings("ignore:.*fork.*:DeprecationWarning"),
]

#: Seconds a child may take before it counts as hung (generous: a hang guard only).
DEADLINE = 120

GAMES = [info["id"] for info in cardvec.games()]


def run_in_child(work):
    """Runs ``work()`` in a forked child and returns what it returned (pickled through a
    pipe). A child that raises fails the test with its traceback; one that is still running
    after DEADLINE seconds is killed and fails the test."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        os.close(read_fd)
        code = 1
        try:
            payload = pickle.dumps(("ok", work()))
            code = 0
        except BaseException:
            payload = pickle.dumps(("error", traceback.format_exc()))
        finally:
            with os.fdopen(write_fd, "wb") as out:
                out.write(payload)
            os._exit(code)
    os.close(write_fd)
    chunks = []
    deadline = time.monotonic() + DEADLINE
    try:
        with os.fdopen(read_fd, "rb") as pipe:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    pytest.fail(f"the forked child hung (no answer within {DEADLINE} s)")
                ready, _, _ = select.select([pipe], [], [], left)
                if ready:
                    chunk = os.read(pipe.fileno(), 1 << 16)
                    if not chunk:
                        break
                    chunks.append(chunk)
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            if time.monotonic() > deadline:
                pytest.fail("the forked child did not exit")
            time.sleep(0.01)
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
    kind, value = pickle.loads(b"".join(chunks))
    if kind == "error":
        pytest.fail(f"the forked child raised:\n{value}")
    assert os.waitstatus_to_exitcode(status) == 0
    return value


def digest(env):
    """A digest of every output view and every lane state."""
    h = hashlib.sha256()
    for name in ("obs", "legal_mask", "rewards", "terminated", "truncated", "current_player", "illegal"):
        h.update(getattr(env, name).tobytes())
    for lane in range(env.num_envs):
        h.update(env.get_state(lane))
    return h.hexdigest()


def play(env, seed, steps=40):
    """Steps ``env`` with random legal actions drawn from ``seed``; the digest after each
    step."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        u = rng.random((env.num_envs, env.num_actions)) * env.legal_mask
        env.step(u.argmax(axis=1))
        out.append(digest(env))
    return out


def hand_batch(n=50_000, seed=3):
    """``n`` random 7-card hands as card ids (more rows than one parallel task)."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.uint8)


def holdem_results():
    ranks, cats = holdem.evaluate_batch(hand_batch())
    mc = holdem.equity(["AsAh", "random", "QQ+"], samples=40_000, seed=5)
    exact = holdem.equity(["AsKs", "QhQd"], board="2s7h9s", exact=True)
    return ranks.tobytes(), cats.tobytes(), mc["wins"], mc["ties"], exact["wins"], exact["ties"]


@pytest.mark.parametrize("num_threads", [1, 2, None])
@pytest.mark.parametrize("game_id", GAMES)
def test_forked_child_steps_an_env_made_in_the_parent(game_id, num_threads):
    env = cardvec.make(game_id, 64, seed=11, num_threads=num_threads, autoreset=True)
    play(env, seed=1, steps=10)  # the parent's pool has run work before the fork
    in_child = run_in_child(lambda: play(env, seed=2))
    assert in_child == play(env, seed=2)


def test_forked_child_runs_evaluate_batch_and_equity():
    in_parent = holdem_results()  # the shared pool has run work before the fork
    assert run_in_child(holdem_results) == in_parent


def test_a_grandchild_forked_from_a_child_steps_too():
    env = cardvec.make("lost-cities", 32, seed=4, num_threads=2)
    play(env, seed=1, steps=5)

    def child():
        play(env, seed=2, steps=5)  # the child rebuilds its pool, then forks again
        return run_in_child(lambda: play(env, seed=3)), play(env, seed=3)

    grandchild, child_own = run_in_child(child)
    assert grandchild == child_own
    play(env, seed=2, steps=5)
    assert grandchild == play(env, seed=3)


# -------------------------------------------------------------- multiprocessing "fork" pool

#: The environment the pool's workers inherit (set in the parent before the pool forks).
_INHERITED = {}


def _worker(task):
    env = _INHERITED["env"]
    env.reset(seed=100 + task)
    return play(env, seed=task, steps=20), holdem_results()


def test_fork_pool_workers_use_an_env_and_holdem_inherited_from_the_parent():
    env = cardvec.make("flip7", 48, seed=9, num_players=4, autoreset=True)
    play(env, seed=0, steps=5)
    expected_holdem = holdem_results()
    _INHERITED["env"] = env
    tasks = list(range(4))
    ctx = multiprocessing.get_context("fork")
    pool = ctx.Pool(2)
    try:
        results = pool.map_async(_worker, tasks).get(timeout=DEADLINE)
    except multiprocessing.TimeoutError:
        pytest.fail(f"the fork pool's workers hung (no result within {DEADLINE} s)")
    finally:
        pool.terminate()
        pool.join()
        _INHERITED.clear()
    for task, (trace, holdem_out) in zip(tasks, results):
        env.reset(seed=100 + task)
        assert trace == play(env, seed=task, steps=20), f"task {task}"
        assert holdem_out == expected_holdem, f"task {task}"
