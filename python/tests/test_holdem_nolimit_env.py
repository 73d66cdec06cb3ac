"""The no-limit hold'em batch class ``cardvec.holdem.NoLimitHoldem``: views, options, exact
raise-to, legal random play at 2 to 10 seats, determinism across thread counts (the
PettingZoo wrapper is tested in test_holdem_pettingzoo.py)."""

import re

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


# ------------------------------------------------------------------ hands decided at the deal

#: Tables whose every hand is decided at the deal (nobody has a decision).
DECIDED = [
    {"ante": 500, "stack": 100},
    {"stacks": [1, 1000]},
    {"small_blind": 50, "big_blind": 100, "stacks": [40, 70]},
]


def results(stacks, start, bb):
    return np.array([(s - s0) / bb for s, s0 in zip(stacks, start)], dtype=np.float32)


@pytest.mark.parametrize("kwargs", DECIDED)
def test_a_hand_decided_at_the_deal_shows_its_rewards_at_once(kwargs):
    """The issue's cases: every lane starts terminated with the showdown's results as
    rewards (zero-sum, nonzero where chips moved); the next step is a no-op with code 2 and
    no reward; with autoreset, code 3 and the new deal's rewards."""
    env = holdem.NoLimitHoldem(32, seed=1, **kwargs)
    assert env.terminated.all() and not env.legal_mask.any()
    assert (env.illegal == cardvec.ACTION_APPLIED).all()
    np.testing.assert_allclose(env.rewards.sum(axis=1), 0.0, atol=1e-6)
    assert (env.rewards != 0).any(axis=1).sum() >= 24  # chips move, but for split pots
    env.step(np.ones(32, dtype=np.int64))
    assert (env.illegal == cardvec.ACTION_FINISHED).all() and (env.rewards == 0).all()
    auto = holdem.NoLimitHoldem(32, seed=1, autoreset=True, **kwargs)
    first = auto.rewards.copy()
    auto.step(np.ones(32, dtype=np.int64))
    assert (auto.illegal == cardvec.ACTION_RESET).all() and auto.terminated.all()
    assert (auto.rewards != 0).any(axis=1).sum() >= 24
    assert not np.array_equal(auto.rewards, first)  # new deals, new results
    # reset and reset_lanes show the deal's rewards again.
    env.reset(seed=1)
    np.testing.assert_array_equal(env.rewards, first)
    env.reset_lanes(np.ones(32, dtype=bool))
    np.testing.assert_array_equal(env.rewards, auto.rewards)


@pytest.mark.parametrize("kwargs", DECIDED)
def test_the_single_game_plays_a_decided_hand_out_and_pays_it(kwargs):
    config = holdem.NoLimitHoldem(1, **kwargs).config
    start = config["stacks"]
    paid = 0
    for seed in range(20):
        game = holdem.NoLimitHoldemGame(seed, **kwargs)
        assert game.terminated and game.legal() is None and not game.legal_mask().any()
        assert game.street == 4 and len(game.board) == 5
        assert sum(game.stacks) == sum(start)
        np.testing.assert_allclose(game.rewards, results(game.stacks, start, config["big_blind"]))
        paid += any(r != 0 for r in game.rewards)
        before = (game.stacks, game.rewards)
        assert game.step(1) is False  # the hand is over: nothing changes
        assert (game.stacks, game.rewards) == before
        game.reset()
        assert game.terminated
        np.testing.assert_allclose(game.rewards, results(game.stacks, start, config["big_blind"]))
    assert paid >= 15


def test_the_issue_example_pays_the_stacks_it_shows():
    game = holdem.NoLimitHoldemGame(seed=1, ante=500, stack=100)
    assert game.terminated and sorted(game.stacks) == [0, 200]
    assert sorted(game.rewards) == [-50.0, 50.0]
    np.testing.assert_allclose(game.rewards, results(game.stacks, [100, 100], 2))


def test_a_table_with_some_decided_hands_mixes_both():
    env = holdem.NoLimitHoldem(256, seed=4, num_players=4, ante=5, stacks=[3, 4, 6, 1000])
    over = env.terminated.copy()
    assert 0 < over.sum() < 256
    assert (env.rewards[~over] == 0).all() and env.legal_mask[~over].any(axis=1).all()
    assert (env.rewards[over] != 0).any(axis=1).mean() > 0.75
    finished = play_random(env, 10, np.random.default_rng(4))
    assert all(abs(row.sum()) < 1e-4 for row in finished)


# ------------------------------------------------------------------ numeric inputs


def test_explicit_stacks_are_checked_not_the_default_stack():
    """Blinds whose default stack (100 big blinds) would overflow the table do not matter
    when stacks are given; too many chips report the total of the stacks given."""
    kwargs = dict(num_players=2, small_blind=5_000_000, big_blind=10_000_000)
    game = holdem.NoLimitHoldemGame(**kwargs, stacks=[20_000_000, 20_000_000])
    assert sum(game.stacks) + game.pot == 40_000_000
    env = holdem.NoLimitHoldem(2, **kwargs, stack=20_000_000)
    assert env.config["stacks"] == [20_000_000, 20_000_000]
    with pytest.raises(ValueError, match="default stack.*1000000000 chips.*2000000000"):
        holdem.NoLimitHoldemGame(**kwargs)
    with pytest.raises(ValueError, match=r"\[600000000, 600000000\] make 1200000000 chips"):
        holdem.NoLimitHoldem(2, stacks=[600_000_000, 600_000_000])
    with pytest.raises(ValueError, match="1200000000 chips"):
        holdem.NoLimitHoldem(2, stack=600_000_000)


@pytest.mark.parametrize("value", [1.5, 2.0, True, False, np.float64(3.0), np.bool_(True), "3",
                                   None, [1.5], np.array([2.0]), [True]])
def test_raise_to_takes_whole_chips_only(value):
    with pytest.raises(ValueError, match=re.escape(repr(value))):
        holdem.raise_to(value)


def test_raise_to_accepts_integers_and_reports_the_value_out_of_range():
    assert holdem.raise_to(np.int32(7)) == holdem.EXACT_RAISE | 7
    assert holdem.raise_to(np.uint64(7)) == holdem.EXACT_RAISE | 7
    np.testing.assert_array_equal(holdem.raise_to([1, 2]), [holdem.EXACT_RAISE | 1, holdem.EXACT_RAISE | 2])
    for bad in (-1, 2**31, 2**70, [3, 2**70]):
        shown = bad if isinstance(bad, int) else bad[1]
        with pytest.raises(ValueError, match=f"got {shown}$"):
            holdem.raise_to(bad)


@pytest.mark.parametrize(
    "name,value",
    [("small_blind", 1.5), ("big_blind", 2.0), ("ante", True), ("stack", 100.0),
     ("stacks", [100.5, 100]), ("stacks", [True, 100]), ("stack", 2**70), ("ante", 2**70),
     ("small_blind", np.float64(1.0)), ("button", 1.0), ("num_players", np.bool_(True))],
)
def test_numeric_options_must_be_integers_and_show_the_value(name, value):
    for make in (lambda: holdem.NoLimitHoldem(2, **{name: value}),
                 lambda: holdem.NoLimitHoldemGame(0, **{name: value})):
        with pytest.raises(ValueError, match=re.escape(f"{name}={value!r}")):
            make()


def test_single_game_arguments_are_integers():
    """The integer rules of the whole Python API (cardvec/_args.py): a bool is a
    ValueError, a float or another type a TypeError naming the parameter, an integer out of
    range a ValueError showing it; nothing changes."""
    game = holdem.NoLimitHoldemGame(3)
    before = (game.stacks, game.bets, game.current_player, game.rewards)
    with pytest.raises(ValueError, match="action must be an integer"):
        game.step(True)
    for bad in (1.5, 1.0, "1", None):
        with pytest.raises(TypeError, match="action must be an integer"):
            game.step(bad)
        assert (game.stacks, game.bets, game.current_player, game.rewards) == before
    assert game.step(np.int64(2**40)) is False and game.step(-1) is False  # ids: illegal
    with pytest.raises(ValueError, match="seat must be an integer"):
        game.observe(True)
    with pytest.raises(TypeError, match="seat must be an integer"):
        game.observe(0.0)
    with pytest.raises(ValueError, match="seat must be in 0..=1, got 2"):
        game.observe(2)
    for bad, error in ((True, ValueError), (1.5, TypeError), (-1, ValueError),
                       (2**64, ValueError)):
        with pytest.raises(error, match="seed"):
            game.reset(bad)
        with pytest.raises(error, match="seed"):
            holdem.NoLimitHoldemGame(bad)
    assert (game.stacks, game.bets, game.current_player, game.rewards) == before


def test_the_command_line_reports_the_chips_typed():
    """`cardvec match holdem`: the stack typed and the real total, never a clamped count;
    explicit stacks are checked, not the default stack of the blinds."""
    import os
    import subprocess

    binary = os.environ.get("CARDVEC_BIN")
    if not binary:
        import holdem_pokerkit_oracle

        binary = holdem_pokerkit_oracle.cardvec_bin()

    def match(*options):
        return subprocess.run([binary, "match", "holdem", "--games", "4", "--players", "2",
                               *[w for o in options for w in ("-o", o)]],
                              capture_output=True, text=True)

    out = match("stack=600000000")
    assert out.returncode != 0
    assert "[600000000, 600000000] make 1200000000 chips" in out.stderr, out.stderr
    out = match("small_blind=5000000,big_blind=10000000")
    assert out.returncode != 0
    assert "default stack" in out.stderr and "2000000000 chips" in out.stderr, out.stderr
    out = match("small_blind=5000000,big_blind=10000000,stacks=[20000000,20000000]")
    assert out.returncode == 0, out.stderr
    out = match("stack=2000000000")
    assert out.returncode != 0 and "2000000000" in out.stderr, out.stderr


def test_a_whole_float_for_an_integer_option_is_shown_as_typed():
    with pytest.raises(ValueError, match=r"ante=2\.0: .*ante must be integer .*got 2\.0;"):
        holdem.NoLimitHoldem(2, ante=2.0)
    with pytest.raises(ValueError, match=r"got \[100\.0,100\]"):
        holdem.NoLimitHoldemGame(0, stacks=[100.0, 100])
