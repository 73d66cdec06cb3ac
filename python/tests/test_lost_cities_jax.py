"""cardvec.lost_cities_jax, the drop-in for the seed's lost_cities_jax.

The program below is written from the seed's README alone (its "Public API" import list and
the documented signatures), as a user of the JAX engine would write it; it runs unchanged
here. Its results are then compared with cardvec's batch engine on the same deck orders."""

import numpy as np
import pytest

import cardvec

# ---- a program written against the seed's API (no cardvec name below this line) --------
from cardvec.lost_cities_jax import (
    N_ACTIONS,
    OBS_DIM,
    State,
    batched_legal_mask,
    batched_obs,
    batched_reset,
    batched_step,
    board_score,
    legal_action_mask,
    observation,
    reset,
    reset_from_order,
    score,
    step,
)


def play_one(deck_order, rng):
    """One round with a random legal policy; returns the trajectory."""
    state = reset_from_order(deck_order)
    traj = []
    done = False
    while not done:
        mask = legal_action_mask(state)
        assert mask.dtype == bool and mask.shape == (N_ACTIONS,)
        obs = observation(state, 0)
        assert obs.dtype == np.float32 and obs.shape == (OBS_DIM,)
        action = int(rng.choice(np.flatnonzero(mask)))
        state, reward, done = step(state, action)
        assert reward.dtype == np.float32 and reward.shape == (2,)
        traj.append((action, reward.copy(), done))
    return state, traj


def play_batch(keys, steps, rng):
    states = batched_reset(keys)
    for _ in range(steps):
        masks = batched_legal_mask(states)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])
        states, rewards, done = batched_step(states, actions)
        obs = batched_obs(states, np.zeros(len(keys), dtype=np.int32))
        assert obs.shape == (len(keys), OBS_DIM)
    return states, rewards, done
# -----------------------------------------------------------------------------------------


def orders(n, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.permutation(60) for _ in range(n)]


def test_seed_program_runs_and_matches_the_engine():
    decks = orders(6)
    rng = np.random.default_rng(1)
    env = cardvec.LostCities(1, num_threads=1)
    for deck in decks:
        final, traj = play_one(deck, rng)
        env.reset_lane_from_order(0, deck)
        for action, reward, done in traj:
            env.step(np.array([action]))
            np.testing.assert_array_equal(env.rewards[0], reward)
            assert bool(env.terminated[0] | env.truncated[0]) == done
        np.testing.assert_array_equal(observation(final, 1), env.observe_as(0, 1))
        # The terminal reward is the score pair; board scores give it.
        np.testing.assert_array_equal(score(final), traj[-1][1])
        b = board_score(final)
        assert score(final)[0] == b[0] - b[1]
        # Done-state steps are no-ops with zero reward.
        again, r, d = step(final, 0)
        assert d and not r.any() and again.tobytes() == final.tobytes()
        assert not legal_action_mask(final).any()


def test_functions_are_pure_and_states_stack():
    s0 = reset_from_order(np.arange(60))
    before = s0.tobytes()
    mask = legal_action_mask(s0)
    s1, _, _ = step(s0, int(np.flatnonzero(mask)[0]))
    assert s0.tobytes() == before and s1.tobytes() != before
    illegal = int(np.flatnonzero(~mask)[0])
    s2, r, d = step(s0, illegal)
    assert s2.tobytes() == before and not r.any() and not d
    batch = np.stack([s0, s1, s0])
    assert batch.dtype == State and batch.shape == (3,)
    np.testing.assert_array_equal(batched_legal_mask(batch)[1], legal_action_mask(batch[1]))
    np.testing.assert_array_equal(batched_obs(batch, [0, 1, 1])[1], observation(s1, 1))


def test_batched_matches_single_and_reset_is_deterministic():
    keys = np.array([[0, 1], [0, 2], [7, 7], [0, 1]], dtype=np.uint32)
    a = batched_reset(keys)
    assert a[0].tobytes() == a[3].tobytes() and a[0].tobytes() != a[1].tobytes()
    assert reset(keys[2]).tobytes() == a[2].tobytes()
    states, rewards, done = play_batch(keys, 400, np.random.default_rng(2))
    assert rewards.shape == (4, 2) and done.dtype == bool
    assert done.all()  # every round ends by the 400-ply limit


def test_bad_input_is_an_error():
    with pytest.raises(ValueError):
        reset_from_order(np.zeros(60, dtype=np.int64))
    with pytest.raises(TypeError):
        step(np.zeros(3), 0)
    with pytest.raises(ValueError):
        batched_step(batched_reset(np.arange(2)), [0])
