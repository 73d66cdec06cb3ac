"""The PettingZoo wrapper ``cardvec.pettingzoo.flip7_v0``: PettingZoo's API and seed tests,
game-room's README example, errors, and an AEC-level comparison with game-room 0.1.0
(same cards through a stub shuffle, same actions: every ``last()`` agrees)."""

from collections import deque

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

import cardvec  # noqa: E402
from cardvec.pettingzoo import flip7_v0  # noqa: E402


def test_api():
    api_test(flip7_v0.env(max_rounds=10), num_cycles=2000)


def test_seed():
    seed_test(lambda: flip7_v0.env(max_rounds=10), num_cycles=1000)


def test_readme_example_runs_with_only_the_import_changed():
    env = flip7_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=42)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            action = None
        else:
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)
    text = env.render()
    assert "Flip 7 | " in text and "round " in text and ("wins" in text or "tie" in text)
    env.close()


def test_returns_equal_final_scores():
    env = flip7_v0.env(num_players=5)
    env.reset(seed=3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        action = None
        if not (terminated or truncated):
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)
    assert list(totals.values()) == env.unwrapped.scores


def test_illegal_action_raises_and_changes_nothing():
    env = flip7_v0.env()
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    mask = env.observe(agent)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError):
        env.unwrapped.step(illegal)
    np.testing.assert_array_equal(before, env.observe(agent)["observation"])
    assert env.agent_selection == agent


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_players": 2},
        {"num_players": 19},
        {"target_score": 0},
        {"max_rounds": 0},
        {"render_mode": "video"},
    ],
)
def test_invalid_config(kwargs):
    with pytest.raises(ValueError):
        flip7_v0.raw_env(**kwargs)


class StubRandom:
    def __init__(self, orders):
        self.orders = deque(orders)

    def shuffle(self, items):
        items[:] = self.orders.popleft()


@pytest.mark.parametrize("num_players", [3, 6, 18])
def test_aec_matches_game_room(num_players):
    game_room = pytest.importorskip("game_room.flip7_v0")
    for g in range(15):
        ours = flip7_v0.env(num_players=num_players, max_rounds=3 if g % 3 == 0 else None)
        ref = game_room.env(num_players=num_players, max_rounds=3 if g % 3 == 0 else None)
        ours.reset(seed=g)
        game = ours.unwrapped.game
        stub = StubRandom(game.take_shuffles())
        ref.unwrapped.np_random = stub
        ref.reset()
        rng = np.random.default_rng(g)
        for agent, other in zip(ours.agent_iter(), ref.agent_iter()):
            assert agent == other
            a, b = ours.last(), ref.last()
            np.testing.assert_array_equal(a[0]["observation"], b[0]["observation"])
            np.testing.assert_array_equal(a[0]["action_mask"], b[0]["action_mask"])
            assert a[1:] == b[1:]
            if a[2] or a[3]:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(a[0]["action_mask"])))
            ours.step(action)
            stub.orders.extend(game.take_shuffles())
            ref.step(action)
        assert not ours.agents and not ref.agents


def test_batch_class_shapes_and_options():
    env = cardvec.Flip7(6, seed=2, num_players=8, target_score=120, max_rounds=4)
    assert (env.num_envs, env.num_actions, env.obs_dim, env.num_players) == (6, 10, 611, 8)
    assert env.obs.shape == (6, 611) and env.rewards.shape == (6, 8)
    assert np.all(env.obs[:, 5] == 120) and np.all(env.obs[:, 6] == 4)
    with pytest.raises(ValueError, match="accepted options: num_players"):
        cardvec.Flip7(2, colour="red")
    with pytest.raises(ValueError, match="accepted options: obs_layout"):
        cardvec.LostCities(2, num_players=3)
