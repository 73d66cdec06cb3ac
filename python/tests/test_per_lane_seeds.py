"""Per-lane seeds (issue 27, item 8): ``reset(seed=[s0, s1, ...])`` on the batch env, the
learner view and the Gymnasium vector adapter. Lane ``i`` plays exactly the games a
one-lane environment reset with ``s_i`` plays (across autoresets), at any thread count; a
scalar seed keeps its meaning; a wrong length, a negative or too large value, or a
non-integer is an error that changes nothing."""

from __future__ import annotations

import numpy as np
import pytest

import cardvec

SEEDS = [0, 7, 2**64 - 1, 7, 123456789]


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(rng.choice(legal)) if len(legal) else 0


@pytest.mark.parametrize("game", ["lost-cities", "flip7", "holdem", "kuhn", "leduc", "151"])
@pytest.mark.parametrize("threads", [1, 3])
def test_each_lane_plays_what_a_one_lane_env_with_its_seed_plays(game, threads):
    opts = {"target_score": 0} if game == "151" else {}
    batch = cardvec.make(game, len(SEEDS), num_threads=threads, chunk_size=2, autoreset=True, **opts)
    batch.reset(seed=SEEDS)
    singles = []
    for s in SEEDS:
        e = cardvec.make(game, 1, num_threads=1, autoreset=True, **opts)
        e.reset(seed=s)
        singles.append(e)
    rngs = [np.random.default_rng(s % 2**32) for s in SEEDS]
    ends = 0
    for _ in range(300):
        for i, e in enumerate(singles):
            np.testing.assert_array_equal(batch.obs[i], e.obs[0])
            np.testing.assert_array_equal(batch.rewards[i], e.rewards[0])
            assert batch.terminated[i] == e.terminated[0]
        actions = np.array([_pick(batch.legal_mask[i], rngs[i]) for i in range(len(SEEDS))], np.uint32)
        batch.step(actions)
        for i, e in enumerate(singles):
            e.step(actions[i : i + 1])
        ends += int(batch.terminated.sum())
    assert ends > 0
    # The numpy form of the seeds is the same call.
    again = cardvec.make(game, len(SEEDS), num_threads=threads, autoreset=True, **opts)
    again.reset(seed=np.array(SEEDS, dtype=np.uint64))
    fresh = cardvec.make(game, len(SEEDS), num_threads=threads, autoreset=True, **opts)
    fresh.reset(seed=SEEDS)
    np.testing.assert_array_equal(again.obs, fresh.obs)


def test_a_scalar_seed_keeps_its_meaning():
    a = cardvec.make("flip7", 4)
    b = cardvec.make("flip7", 4)
    a.reset(seed=[9, 9, 9, 9])
    a.reset(seed=5)
    b.reset(seed=5)
    np.testing.assert_array_equal(a.obs, b.obs)
    # Lanes differ under a scalar seed (each its own stream), not under equal per-lane ones.
    assert not all(np.array_equal(b.obs[0], b.obs[i]) for i in range(1, 4))
    a.reset(seed=[9, 9, 9, 9])
    assert all(np.array_equal(a.obs[0], a.obs[i]) for i in range(1, 4))


@pytest.mark.parametrize(
    ("seed", "error", "match"),
    [
        ([1, 2, 3], ValueError, "expected 4 seeds"),
        ([1, 2, 3, 4, 5], ValueError, "expected 4 seeds"),
        ([], ValueError, "expected 4 seeds"),
        ([1, 2, -3, 4], ValueError, r"seed\[2\] must be in 0..=18446744073709551615, got -3"),
        ([1, 2, 3, 2**64], ValueError, r"seed\[3\] must be in"),
        ([1, 2.5, 3, 4], TypeError, r"seed\[1\] must be an integer"),
        ("1234", TypeError, "seed must be an integer or a sequence of 4 integers"),
    ],
)
def test_bad_per_lane_seeds_are_errors_that_change_nothing(seed, error, match):
    env = cardvec.make("lost-cities", 4, seed=3)
    env.step(np.zeros(4, np.uint32))
    obs, mask, rewards = env.obs.copy(), env.legal_mask.copy(), env.rewards.copy()
    with pytest.raises(error, match=match):
        env.reset(seed=seed)
    np.testing.assert_array_equal(env.obs, obs)
    np.testing.assert_array_equal(env.legal_mask, mask)
    np.testing.assert_array_equal(env.rewards, rewards)
    learner = cardvec.LearnerEnv("lost-cities", 4, opponents="random", seed=3)
    before = learner.obs.copy()
    with pytest.raises(error, match=match):
        learner.reset(seed=seed)
    np.testing.assert_array_equal(learner.obs, before)


def test_the_gymnasium_vector_env_takes_a_seed_per_lane():
    cgym = pytest.importorskip("cardvec.gym")
    n = len(SEEDS)
    v = cgym.make_vec("flip7", n, opponents="random")
    obs, info = v.reset(seed=SEEDS)
    ones = [cgym.make_vec("flip7", 1, opponents="random") for _ in SEEDS]
    firsts = [o.reset(seed=s) for o, s in zip(ones, SEEDS)]
    rng = np.random.default_rng(0)
    for _ in range(200):
        for i, (o, i_info) in enumerate(firsts):
            np.testing.assert_array_equal(obs[i], o[0])
            np.testing.assert_array_equal(info["action_mask"][i], i_info["action_mask"][0])
        actions = np.array([_pick(info["action_mask"][i], rng) for i in range(n)])
        obs, rewards, terminated, truncated, info = v.step(actions)
        outs = [one.step(actions[i : i + 1]) for i, one in enumerate(ones)]
        for i, out in enumerate(outs):
            assert rewards[i] == out[1][0] and terminated[i] == out[2][0]
        firsts = [(out[0], out[4]) for out in outs]
    # Seeded per lane, reproducibly: the same list deals the same games again.
    again, _ = v.reset(seed=SEEDS)
    np.testing.assert_array_equal(again, v.reset(seed=list(SEEDS))[0])
    with pytest.raises(ValueError, match="expected 5 seeds"):
        v.reset(seed=SEEDS[:2])
