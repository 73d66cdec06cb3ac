"""Opponent pools of ``cardvec.LearnerEnv`` (self-play, docs/python.md "Opponent pools"):
``set_pool`` between steps never changes the opponents of a game in progress, the
per-lane ``opponent_id`` names the entry that plays, draws follow the weights and the
thread count does not matter, a policy file is an entry like any bot, bad pools are
``ValueError``s that change nothing. (The bots that play are the drawn entry's: Rust,
tests/learner_pool.rs.)"""

import math
import os
import sys

import numpy as np
import pytest

import cardvec
from cardvec import bots


def play(env, pools, steps, seed=0):
    """Steps with random legal actions, replacing the pool before every step (cycling
    through ``pools``); checks that every lane keeps its opponent for a whole game.
    Returns the ids seen and the count of games started."""
    rng = np.random.default_rng(seed)
    current = env.opponent_id.copy()
    history = [current.copy()]
    starts = 0
    for t in range(steps):
        env.set_pool(*pools[t % len(pools)])
        pool_ids = {entry[0] for entry in env.pool}
        actions = bots.act(env, "random", seed=int(rng.integers(1 << 30)))
        env.step(np.where(actions < 0, 0, actions))
        new = env.illegal == 3
        ids = env.opponent_id
        assert all(int(i) in pool_ids for i in ids[new]), t
        assert (ids[~new] == current[~new]).all(), f"step {t}: an opponent changed mid-game"
        current[new] = ids[new]
        starts += int(new.sum())
        history.append(ids.copy())
    return np.array(history), starts


POOLS = [
    (["random"], None),
    (["safe-heuristic", "discard-only"], [1.0, 2.0]),
    (["random", "discard-only"], None),
    (["safe-heuristic"], [3]),
]


def test_a_game_in_progress_keeps_its_opponents_whatever_the_pool():
    one = cardvec.LearnerEnv("lost-cities", 32, seat="rotate", seed=4, num_threads=1)
    two = cardvec.LearnerEnv("lost-cities", 32, seat="rotate", seed=4, num_threads=2, chunk_size=3)
    assert one.pool == [(0, "random", 1.0)]
    assert one.opponent_id.dtype == np.int64 and one.opponent_id.shape == (32,)
    assert not one.opponent_id.flags.writeable
    h1, starts = play(one, POOLS, 250)
    h2, _ = play(two, POOLS, 250)
    assert starts > 80
    np.testing.assert_array_equal(h1, h2)
    assert one.opponent_names == ["random", "safe-heuristic", "discard-only"]
    assert one.pool == [(1, "safe-heuristic", 1.0), (2, "discard-only", 2.0)]  # step 249: POOLS[1]


def test_three_seats_and_per_seat_entries():
    env = cardvec.LearnerEnv("flip7", 24, seat="rotate", seed=1)
    pools = [(["random", ["threshold-20", "random"]], [1, 1]), (["threshold-25"], None)]
    _, starts = play(env, pools, 150)
    assert starts > 30
    assert env.opponent_names == ["random", "threshold-20 | random", "threshold-25"]


def test_draws_follow_the_weights_and_win_rates_tally_per_opponent():
    env = cardvec.LearnerEnv("kuhn", 4000, seed=0)
    env.set_pool(["random", "always-bet"], weights=[1.0, 3.0])
    env.reset(seed=1)
    share = float((env.opponent_id == 1).mean())
    assert abs(share - 0.75) < 0.03
    # A tally per opponent over whole games.
    wins = np.zeros(2)
    games = np.zeros(2)
    rng = np.random.default_rng(0)
    for _ in range(10):
        actions = bots.act(env, "random", seed=int(rng.integers(1 << 30)))
        env.step(np.where(actions < 0, 0, actions))
        done = env.terminated | env.truncated
        np.add.at(games, env.opponent_id[done], 1)
        np.add.at(wins, env.opponent_id[done], env.episode_return[done] > 0)
    assert games.sum() > 3000 and abs(games[1] / games.sum() - 0.75) < 0.05


def test_bad_pools_are_errors_that_change_nothing(tmp_path):
    env = cardvec.LearnerEnv("lost-cities", 8, seed=3)
    twin = cardvec.LearnerEnv("lost-cities", 8, seed=3)
    for e in (env, twin):
        e.set_pool(["random", "safe-heuristic"], [1, 2])
    before = (env.pool, env.opponent_names)
    cases = [
        ([], None, ValueError, "give 1..="),
        (["random"], [-1.0], ValueError, "at least 0"),
        (["random"], [math.nan], ValueError, "finite"),
        (["random"], [0.0], ValueError, "add up to 0"),
        (["no-such-bot"], None, ValueError, "no-such-bot"),
        (["random", "random"], None, ValueError, "given twice"),
        ([["random", "random"]], None, ValueError, "list of 1, got a list of 2"),
        (["random"], [1.0, 2.0], ValueError, "2 weights for 1 entries"),
        ([f"policy:{tmp_path / 'missing.safetensors'}"], None, ValueError, "cannot read"),
        ("random", None, TypeError, "list of bot names"),
        ([3], None, TypeError, "bot name"),
    ]
    for entries, weights, kind, match in cases:
        with pytest.raises(kind, match=match):
            env.set_pool(entries, weights)
        assert (env.pool, env.opponent_names) == before
    rng = np.random.default_rng(1)
    for _ in range(40):
        actions = bots.act(env, "random", seed=int(rng.integers(1 << 30)))
        actions = np.where(actions < 0, 0, actions)
        env.step(actions)
        twin.step(actions)
        np.testing.assert_array_equal(env.obs, twin.obs)
        np.testing.assert_array_equal(env.opponent_id, twin.opponent_id)


def test_a_policy_file_is_a_pool_entry(tmp_path):
    torch = pytest.importorskip("torch", reason="PyTorch is not installed")
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "examples"))
    from export_policy import export_policy

    env = cardvec.LearnerEnv("lost-cities", 16, seat="rotate", seed=5)
    torch.manual_seed(0)
    net = torch.nn.Sequential(
        torch.nn.Linear(env.obs_dim, 16), torch.nn.ReLU(), torch.nn.Linear(16, env.num_actions)
    )
    path = str(tmp_path / "ckpt.safetensors")
    export_policy(net, path, game="lost-cities")
    env.set_pool([f"policy:{path}", "random"], [1, 1])
    _, starts = play(env, [([f"policy:{path}", "random"], None)], 200)
    assert starts > 20
    assert f"policy:{path}" in env.opponent_names
    kuhn_path = str(tmp_path / "kuhn.safetensors")
    export_policy(torch.nn.Sequential(torch.nn.Linear(11, 2)), kuhn_path, game="kuhn")
    with pytest.raises(ValueError, match="trained on kuhn, not lost-cities"):
        env.set_pool([f"policy:{kuhn_path}"])
