"""Interrupts: Ctrl-C stops long calls, a bot's KeyboardInterrupt or SystemExit stops an
arena match instead of forfeiting the bot, and long equity calls take bounds.

Before, ``holdem.equity(["random"] * 10, exact=True)`` or ``samples=10**11`` ignored Ctrl-C
(only ``kill -9`` ended them) and a bot raising ``KeyboardInterrupt`` in ``decide`` was
recorded as a forfeit while the match went on. The signal tests run the call in a
subprocess that prints ``started`` first, send SIGINT once it has, and expect the child to
die of ``KeyboardInterrupt`` within a deadline that only guards against a hang (the child
is killed and the test fails when it passes). No result depends on how fast the machine is.
"""

import math
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from cardvec import arena, holdem

#: Seconds a signalled child may take to exit before it counts as hung (a hang guard).
DEADLINE = 30

LONG_CALLS = {
    "equity-exact": "holdem.equity(['random'] * 10, exact=True)",
    "equity-monte-carlo": "holdem.equity(['random'] * 10, samples=10**11)",
    "equity-exact-with-a-bound": "holdem.equity(['random'] * 3, exact=True, max_work=2**64 - 1)",
    "catalog-match": "arena.play_catalog_match('builtin:minmax_d6', 'builtin:minmax_d6', 1)",
}


def run_and_interrupt(call):
    """Starts a Python child that prints ``started`` and then runs ``call``; sends it SIGINT
    once it has started (and had a moment to get into the call). Returns the child's exit
    code, stdout and stderr; fails the test if the child does not exit within DEADLINE."""
    script = textwrap.dedent(
        f"""
        import signal
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from cardvec import arena, holdem
        print("started", flush=True)
        {call}
        print("finished", flush=True)
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = child.stdout.readline()
        assert first.strip() == "started", child.stderr.read()
        time.sleep(0.3)
        child.send_signal(signal.SIGINT)
        try:
            out, err = child.communicate(timeout=DEADLINE)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{call}: still running {DEADLINE} s after Ctrl-C")
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    return child.returncode, out, err


@pytest.mark.parametrize("call", list(LONG_CALLS.values()), ids=list(LONG_CALLS))
def test_ctrl_c_stops_a_long_call_with_keyboard_interrupt(call):
    code, out, err = run_and_interrupt(call)
    assert code != 0
    assert "finished" not in out
    assert err.rstrip().splitlines()[-1] == "KeyboardInterrupt", err


# ------------------------------------------------------------------ bounds


@pytest.mark.parametrize(
    "kwargs",
    [{"exact": True}, {"samples": 10**11}],
    ids=["exact", "monte-carlo"],
)
def test_time_limit_stops_a_call_that_would_never_finish(kwargs):
    with pytest.raises(TimeoutError, match="equity stopped at its time limit of 0.2 s"):
        holdem.equity(["random"] * 10, time_limit=0.2, **kwargs)


def test_bounds_that_are_not_reached_change_nothing():
    players = ["AsAh", "KdKc", "QQ+"]
    plain = holdem.equity(players, board="2c7d9h", exact=True)
    bounded = holdem.equity(players, board="2c7d9h", exact=True, max_work=10**9, time_limit=600)
    assert bounded["wins"] == plain["wins"] and bounded["ties"] == plain["ties"]
    mc = dict(samples=20_000, seed=3, exact=False)
    assert holdem.equity(players, **mc, max_work=60_000)["wins"] == holdem.equity(players, **mc)["wins"]


def test_max_work_refuses_a_computation_above_it_up_front():
    with pytest.raises(ValueError, match=r"exact enumeration needs about .* more than max_work=1000000"):
        holdem.equity(["random"] * 10, exact=True, max_work=10**6)
    with pytest.raises(ValueError, match=r"300 hands, more than max_work=299"):
        holdem.equity(["AA", "KK", "QQ"], samples=100, max_work=299)
    # exact=None samples when the enumeration is above max_work.
    assert holdem.equity(["AA", "KK"], samples=1000, max_work=2000)["exact"] is False


@pytest.mark.parametrize("bad", [0, -1, 2**64, True])
def test_bad_max_work_is_a_value_error_showing_the_value(bad):
    with pytest.raises(ValueError, match=r"max_work must be .* got " + repr(bad)[:4]):
        holdem.equity(["AA", "KK"], max_work=bad)


@pytest.mark.parametrize("bad", [1.5, "10", float("nan")])
def test_max_work_of_another_type_is_a_type_error_as_every_integer_argument(bad):
    with pytest.raises(TypeError, match=r"max_work must be an integer, got " + repr(bad)[:3]):
        holdem.equity(["AA", "KK"], max_work=bad)


@pytest.mark.parametrize("bad", [0, -0.5, math.nan, math.inf, True, 1e300])
def test_bad_time_limit_is_a_value_error_showing_the_value(bad):
    with pytest.raises(ValueError, match=r"time_limit must be a number of seconds > 0 .* got " + repr(bad)[:3]):
        holdem.equity(["AA", "KK"], time_limit=bad)


def test_time_limit_that_is_not_a_number_is_a_type_error():
    with pytest.raises(TypeError, match=r"time_limit must be a number of seconds > 0 .* got '1'"):
        holdem.equity(["AA", "KK"], time_limit="1")


def test_evaluate_batch_on_the_pool_equals_one_hand_at_a_time():
    """Batches larger than one task run on the interruptible pool path."""
    rng = np.random.default_rng(12)
    cards = np.argsort(rng.random((20_000, 52)), axis=1)[:, :7]
    ranks, cats = holdem.evaluate_batch(cards)
    for i in range(0, len(cards), 997):
        value = holdem.evaluate(cards[i].tolist())
        assert (ranks[i], cats[i]) == (value.rank, value.category_index)
    bad = cards.copy()
    bad[15_000, 3] = bad[15_000, 4]
    with pytest.raises(ValueError, match="row 15000: a card appears more than once"):
        holdem.evaluate_batch(bad)


# ------------------------------------------------------------------ arena bots


class Raiser:
    """Plays its first legal action, then raises ``exc`` at decision ``after``; records
    whether ``teardown`` ran."""

    def __init__(self, exc, after=3):
        self.exc, self.after, self.calls, self.torn_down = exc, after, 0, False

    def decide(self, view, legal, time_left_ms):
        self.calls += 1
        if self.calls >= self.after:
            raise self.exc
        return legal[0]

    def teardown(self):
        self.torn_down = True


@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit, GeneratorExit])
def test_a_bot_raising_a_base_exception_stops_the_match(exc):
    pytest.importorskip("i151_engine")
    bot = Raiser(exc("stop"))
    with pytest.raises(exc, match="stop"):
        arena.play_match(bot, "builtin:greedy", seed=3)
    assert bot.calls == bot.after, "no decision after the exception"
    assert bot.torn_down


def test_a_bot_raising_an_exception_still_forfeits():
    pytest.importorskip("i151_engine")
    bot = Raiser(LookupError("bad"))
    r = arena.play_match(bot, "builtin:greedy", seed=3)
    assert (r["reason"], r["forfeited_player_id"]) == ("forfeit", "p0")
    assert "bad" in r["detail"]


FIRST_ENV = textwrap.dedent(
    """
    import os, signal, threading, time
    # A child inherits an ignored SIGINT from a pytest-xdist worker; Python then keeps
    # ignoring it. The default handler, as run_and_interrupt's children set it.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    import cardvec
    # SIGINT lands while the first environment of the process is being built (the GIL
    # held by Rust): before, numpy's C API was loaded there and a pending KeyboardInterrupt
    # made rust-numpy panic (pyo3_runtime.PanicException).
    timer = threading.Timer(0.02, os.kill, (os.getpid(), signal.SIGINT))
    try:
        timer.start()
        env = cardvec.make("lost-cities", 300_000, seed=1)
        # Short sleeps, so that the handler runs between them whichever thread the kernel
        # delivered the signal to (one long sleep is cut short only when it is the main
        # thread, which a loaded machine does not guarantee once the pool's threads exist).
        for _ in range(1000):
            time.sleep(0.01)
        print("NOT INTERRUPTED")
    except KeyboardInterrupt:
        print("KEYBOARD INTERRUPT")
    except BaseException as e:
        print("OTHER", type(e).__module__, type(e).__name__)
    """
)


def test_ctrl_c_during_the_first_environment_is_a_keyboard_interrupt():
    out = subprocess.run([sys.executable, "-c", FIRST_ENV], capture_output=True, text=True,
                         timeout=120)
    assert out.stdout.strip().splitlines()[-1] == "KEYBOARD INTERRUPT", (out.stdout, out.stderr)
