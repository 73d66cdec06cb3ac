"""Thread pools are shared by worker count across the process (issue 27): many
environments start at most one pool per distinct ``num_threads``; the single-lane adapters
(PettingZoo ``env()``, ``cardvec.gym.make``) default to one worker; a count above
``cardvec``'s bound is a ``ValueError`` naming it. Counted in a fresh interpreter, so that
no other test's pools are counted."""

import os
import subprocess
import sys
import textwrap

import pytest

import cardvec

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="Linux /proc needed")

SCRIPT = textwrap.dedent(
    """
    import os, json
    import cardvec
    from cardvec.pettingzoo import kuhn_v0
    def threads():
        return len(os.listdir("/proc/self/task"))
    before = threads()
    keep = []
    counts = [None, 1, 2]
    for i in range(200):
        env = cardvec.make("kuhn", 4, seed=i, num_threads=counts[i % 3])
        env.reset(i)
        keep.append(env)
    after_batch = threads()
    for i in range(50):
        aec = kuhn_v0.env()
        aec.reset(seed=i)
        keep.append(aec)
    after_aec = threads()
    try:
        import gymnasium  # noqa: F401
        import cardvec.gym
        for i in range(50):
            g = cardvec.gym.make("kuhn")
            g.reset(seed=i)
            keep.append(g)
    except ImportError:
        pass
    after_gym = threads()
    print(json.dumps({"before": before, "after_batch": after_batch,
                      "after_aec": after_aec, "after_gym": after_gym,
                      "cores": len(os.sched_getaffinity(0))}))
    """
)


def test_two_hundred_envs_start_one_pool_per_thread_count():
    env = dict(os.environ)
    env.pop("RAYON_NUM_THREADS", None)
    out = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    import json

    r = json.loads(out.stdout.strip().splitlines()[-1])
    cores = os.cpu_count() or 1
    distinct = sorted({cores, 1, 2})
    bound = sum(distinct)
    started = r["after_batch"] - r["before"]
    assert started <= bound, (r, distinct)
    # The single-lane adapters use the pool of one worker already started.
    assert r["after_aec"] == r["after_batch"], r
    assert r["after_gym"] == r["after_aec"], r


@pytest.mark.parametrize("bad", [0, cardvec.MAX_THREADS + 1, 1000])
def test_num_threads_out_of_range_is_a_value_error_naming_the_bound(bad):
    with pytest.raises(ValueError, match="num_threads") as e:
        cardvec.make("kuhn", 4, num_threads=bad)
    assert str(cardvec.MAX_THREADS) in str(e.value)
