"""The no-limit hold'em batch class ``cardvec.holdem.NoLimitHoldem``: views, options, exact
raise-to, legal random play at 2 to 10 seats, determinism across thread counts (the
PettingZoo wrapper is tested in test_holdem_pettingzoo.py)."""

import numpy as np
import pytest

import cardvec
from cardvec import holdem

def play_random(env, steps, rng):
    """Random legal actions for `steps` steps; returns the reward rows of finished hands."""
    finished = []
    for _ in range(steps):
        mask = env.legal_mask
        actions = np.array(
            [rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask]
        )
        env.step(actions)
        assert not np.any(env.illegal == cardvec.ACTION_ILLEGAL)
        done = env.terminated.copy()
        finished.extend(env.rewards[done].copy())
    return finished


def test_batch_shapes_and_defaults():
    env = holdem.NoLimitHoldem(8, seed=3)
    assert (env.num_envs, env.num_players, env.num_actions, env.obs_dim) == (8, 2, 6, 136)
    assert env.obs.shape == (8, 136) and env.legal_mask.shape == (8, 6)
    assert env.rewards.shape == (8, 2)
    assert holdem.observation_size(6) == 172
    env6 = cardvec.NoLimitHoldem(4, num_players=6, raise_fractions=[1.0], stack=500)
    assert (env6.num_actions, env6.obs_dim) == (4, 172)
    bounds = holdem.legal_bounds(env6)
    assert bounds.shape == (4, 5)
    # Blinds 1/2 posted, min raise-to 4, all-in 500.
    assert np.all(bounds[:, 1:] == [2, 4, 500, 3])


def test_views_are_read_only():
    env = holdem.NoLimitHoldem(2)
    with pytest.raises(ValueError):
        env.obs[0, 0] = 1.0
    with pytest.raises(ValueError):
        env.legal_mask[0, 0] = 0


@pytest.mark.parametrize("seats", [2, 3, 6, 10])
def test_random_play_is_legal_and_zero_sum(seats):
    env = holdem.NoLimitHoldem(64, seed=seats, num_players=seats, autoreset=True)
    env.reset()
    finished = play_random(env, 150, np.random.default_rng(seats))
    assert len(finished) > 50
    for row in finished:
        assert abs(row.sum()) < 1e-4


def test_results_do_not_depend_on_threads():
    outs = []
    for threads in (1, 2):
        env = holdem.NoLimitHoldem(
            200, seed=9, num_players=6, num_threads=threads, chunk_size=7, autoreset=True
        )
        env.reset()
        rng = np.random.default_rng(0)
        for _ in range(40):
            mask = env.legal_mask
            env.step(np.array([rng.choice(np.flatnonzero(r)) if r.any() else 0 for r in mask]))
        outs.append((env.obs.copy(), env.rewards.copy()))
    np.testing.assert_array_equal(outs[0][0], outs[1][0])
    np.testing.assert_array_equal(outs[0][1], outs[1][1])


def test_exact_raise_to_applies_and_bad_amounts_are_flagged_no_ops():
    env = holdem.NoLimitHoldem(3, seed=1, num_players=3, stack=300)
    bounds = holdem.legal_bounds(env)
    low, high = bounds[:, 2], bounds[:, 3]
    before = env.obs.copy()
    # Lane 0: one chip under the minimum; lane 1: one over the maximum; lane 2: legal.
    env.step(holdem.raise_to(np.array([low[0] - 1, high[1] + 1, 17])))
    assert list(env.illegal) == [1, 1, 0]
    np.testing.assert_array_equal(env.obs[:2], before[:2])
    after = holdem.legal_bounds(env)
    # Lane 2: the next seat faces a raise to 17 (call 17 minus its blind or nothing).
    assert after[2, 4] == 3 + 17
    assert after[2, 2] == 17 + 15  # the increment 15 (17 - 2) is the next minimum
    with pytest.raises(ValueError):
        holdem.raise_to(-1)
    assert holdem.raise_to(5) == holdem.EXACT_RAISE | 5


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_players": 1},
        {"num_players": 11},
        {"stacks": [100, 100, 100]},
        {"stacks": [100, 0]},
        {"stack": 10, "stacks": [10, 10]},
        {"big_blind": 0},
        {"small_blind": 3, "big_blind": 2},
        {"raise_fractions": [1.0, 0.5]},
        {"raise_fractions": [0.0]},
        {"button": 2},
        {"ante": -1},
        {"stack": True},
    ],
)
def test_bad_options_are_value_errors(kwargs):
    with pytest.raises(ValueError):
        holdem.NoLimitHoldem(2, **kwargs)
    with pytest.raises(ValueError):
        holdem.NoLimitHoldemGame(0, **kwargs)


def test_unknown_option_is_a_value_error_naming_the_accepted_options():
    with pytest.raises(ValueError, match="accepted options: num_players"):
        holdem.NoLimitHoldem(2, seats=3)
    with pytest.raises(ValueError, match="accepted options: num_players"):
        holdem.NoLimitHoldemGame(0, seats=3)


def test_none_means_the_default_for_options_that_have_one():
    """``stack=None`` is the computed default (100 big blinds), ``stacks=None`` and
    ``button=None`` the absent values, as holdem_v0 passes them."""
    env = holdem.NoLimitHoldem(2, stack=None, stacks=None, button=None, big_blind=4)
    assert env.config["stacks"] == [400, 400] and env.config["button"] is None
    game = holdem.NoLimitHoldemGame(0, stack=None, stacks=None, button=None, big_blind=4)
    assert sum(game.stacks) + game.pot == 800  # blinds posted from two stacks of 400


def test_legal_bounds_of_another_game_is_a_value_error():
    with pytest.raises(ValueError, match="hold'em"):
        holdem.legal_bounds(cardvec.LostCities(2))
    with pytest.raises(TypeError):
        holdem.legal_bounds("not an environment")
