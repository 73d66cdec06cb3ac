"""The seed-compatible batch surface (issue 20): the step limit per episode (max_steps) from
Python, on the issue's always-hit Flip 7 table (18 players, target 2**24, always Hit,
pending cards given to oneself) and on every game; the batched_* names of every batch class."""

import numpy as np
import pytest

import cardvec

PLAYERS = 18


def always_hit(env):
    mask = env.legal_mask.astype(bool)
    me = 2 + env.current_player.astype(np.int64)
    lanes = np.arange(env.num_envs)
    first = mask.argmax(axis=1)
    give_self = np.where(mask[lanes, me], me, first)
    return np.where(mask[:, 0], 0, give_self).astype(np.int64)


def table(n, max_steps=None, **kw):
    return cardvec.Flip7(
        n, num_players=PLAYERS, target_score=2**24, seed=3, max_steps=max_steps, **kw
    )


def test_always_hit_lane_truncated_by_max_steps_then_autoreset():
    env = table(4, max_steps=250, autoreset=True)
    assert env.max_steps == 250
    for step in range(1, 251):
        env.step(always_hit(env))
        assert (env.illegal == 0).all()
        assert not env.terminated.any()
        assert env.truncated.all() == (step == 250) and env.truncated.any() == (step == 250)
    env.step(always_hit(env))
    assert (env.illegal == 3).all() and not env.truncated.any()


def test_without_limit_the_table_does_not_end():
    env = table(2)
    assert env.max_steps is None
    for _ in range(3000):
        env.step(always_hit(env))
    assert not env.terminated.any() and not env.truncated.any()


def test_results_do_not_depend_on_threads():
    def run(threads, chunk):
        env = table(21, max_steps=61, autoreset=True, num_threads=threads, chunk_size=chunk)
        out = []
        for _ in range(200):
            env.step(always_hit(env))
            out.append(np.concatenate([env.obs.ravel(), env.rewards.ravel(),
                                       env.truncated, env.illegal]))
        return np.stack(out)

    base = run(1, 64)
    np.testing.assert_array_equal(base, run(2, 4))


@pytest.mark.parametrize("game_id", [g["id"] for g in cardvec.games()])
def test_every_game_takes_max_steps(game_id):
    env = cardvec.make(game_id, 3, max_steps=1, seed=1)
    rng = np.random.default_rng(0)
    mask = env.legal_mask.astype(bool)
    live = ~(env.terminated | env.truncated)
    actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
    env.step(actions)
    applied = live & (env.illegal == 0)
    assert (env.terminated | env.truncated)[applied].all()


@pytest.mark.parametrize("bad", [0, -1, 2**32, 1.5, True, "3"])
def test_bad_max_steps_is_refused(bad):
    with pytest.raises((ValueError, TypeError), match="max_steps"):
        cardvec.make("flip7", 2, max_steps=bad)


@pytest.mark.parametrize("game_id", [g["id"] for g in cardvec.games()])
def test_batched_names_are_reset_and_step(game_id):
    a = cardvec.make(game_id, 5, seed=2, autoreset=True)
    b = cardvec.make(game_id, 5, seed=2, autoreset=True)
    assert a.reset(9) is a.obs
    assert b.batched_reset(9) is b.obs
    rng = np.random.default_rng(1)
    for _ in range(30):
        assert b.batched_legal_mask() is b.legal_mask
        np.testing.assert_array_equal(a.legal_mask, b.batched_legal_mask())
        mask = a.legal_mask.astype(bool)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        ra, rb = a.step(actions), b.batched_step(actions)
        assert rb[0] is b.obs and rb[1] is b.rewards
        for x, y in zip(ra, rb):
            np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(a.illegal, b.illegal)
    a.observe_on_step = False
    a.step(actions)
    b.step(actions)
    np.testing.assert_array_equal(a.batched_obs(), b.obs)
    with pytest.raises(ValueError):
        b.batched_step(np.zeros(2, dtype=np.int64))


def test_learner_view_has_the_batched_names():
    a = cardvec.make("lost-cities", 3, opponents="random", seed=4)
    b = cardvec.make("lost-cities", 3, opponents="random", seed=4)
    a.reset(5)
    assert b.batched_reset(5) is b.obs
    for _ in range(20):
        np.testing.assert_array_equal(a.legal_mask, b.batched_legal_mask())
        actions = a.legal_mask.argmax(axis=1)
        for x, y in zip(a.step(actions), b.batched_step(actions)):
            np.testing.assert_array_equal(x, y)
    assert b.batched_obs() is b.obs
