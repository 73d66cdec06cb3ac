"""The PettingZoo wrapper ``cardvec.pettingzoo.holdem_v0``: PettingZoo's API and seed tests
heads-up and multiway, returns, illegal actions (ValueError, nothing changes), the exact
raise-to, rendering and bad configurations."""

import numpy as np
import pytest

from cardvec import holdem

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from cardvec.pettingzoo import holdem_v0  # noqa: E402


def play_randomly(env):
    """Plays `env` (already reset) to the end with random legal actions; returns each
    agent's summed rewards."""
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        action = None
        if not (terminated or truncated):
            action = env.action_space(agent).sample(observation["action_mask"])
        env.step(action)
    return totals


@pytest.mark.parametrize("num_players", [2, 3, 6, 10])
def test_api(num_players):
    api_test(holdem_v0.env(num_players=num_players), num_cycles=1000)


@pytest.mark.parametrize("num_players", [2, 6])
def test_seed(num_players):
    seed_test(lambda: holdem_v0.env(num_players=num_players), num_cycles=500)


@pytest.mark.parametrize("num_players", [2, 4, 9])
def test_returns_are_net_chips_in_big_blinds_and_zero_sum(num_players):
    for seed in range(30):
        env = holdem_v0.env(num_players=num_players, stacks=[50 + 37 * i for i in range(num_players)])
        env.reset(seed=seed)
        totals = play_randomly(env)
        game = env.unwrapped.game
        start = [50 + 37 * i for i in range(num_players)]
        net = [(s - s0) / game.big_blind for s, s0 in zip(game.stacks, start)]
        assert list(totals.values()) == pytest.approx(net)
        assert sum(totals.values()) == pytest.approx(0.0, abs=1e-6)


def test_illegal_action_raises_and_changes_nothing():
    env = holdem_v0.env(num_players=3, button=0)
    env.reset(seed=1)
    # Everyone calls to the big blind, who may check: fold is then masked out.
    for _ in range(2):
        env.step(holdem.CHECK_CALL)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    mask = env.observe(agent)["action_mask"]
    assert mask[holdem.FOLD] == 0
    with pytest.raises(ValueError):
        env.unwrapped.step(holdem.FOLD)
    np.testing.assert_array_equal(before, env.observe(agent)["observation"])
    assert env.agent_selection == agent
    with pytest.raises(ValueError):
        env.unwrapped.step_raise_to(3)  # below the minimum raise-to (4)
    np.testing.assert_array_equal(before, env.observe(agent)["observation"])


def test_exact_raise_to_in_the_wrapper():
    env = holdem_v0.env(num_players=2, button=0, stack=100)
    env.reset(seed=4)
    legal = env.unwrapped.legal()
    assert (legal["min_raise_to"], legal["max_raise_to"]) == (4, 100)
    env.unwrapped.step_raise_to(11)
    assert env.unwrapped.game.bets == [11, 2]
    assert env.agent_selection == "player_1"


def test_render_and_bad_config():
    env = holdem_v0.env(num_players=3, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert "No-limit hold'em | " in text and "street preflop" in text and "player_2: " in text
    with pytest.raises(ValueError):
        holdem_v0.raw_env(render_mode="video")
    with pytest.raises(ValueError):
        holdem_v0.raw_env(num_players=11)


@pytest.mark.parametrize("num_players", [2, 3, 6, 10])
def test_wrapper_hands_replay_in_pokerkit(num_players):
    """Hands played through the wrapper (discrete actions and exact raise-tos) agree with
    pokerkit at every decision (actor, legal actions, call amount, min and max raise-to) and
    on the final stacks, through the replay of holdem_pokerkit_oracle.py. Equal stacks keep
    a single pot, so the final stacks compare exactly."""
    import json

    pytest.importorskip("pokerkit")
    import holdem_pokerkit_oracle as oracle

    rng = np.random.default_rng(num_players)
    lines = []
    for hand in range(60):
        # The raw environment: step_raise_to is outside the order-enforcing wrapper's API.
        env = raw = holdem_v0.raw_env(
            num_players=num_players, stack=150, small_blind=1, big_blind=3
        )
        env.reset(seed=hand)
        game = raw.game
        record = {
            "hand": hand, "seats": num_players, "button": game.button, "sb": 1, "bb": 3,
            "ante": 0, "stacks": [150] * num_players,
            "hole": ["".join(holdem.card_str(int(c)) for c in h) for h in game.hole_cards],
            "decisions": [], "showdown": False,
        }
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = raw.legal()
            decision = {
                "seat": legal["seat"], "fold": legal["fold"], "check": legal["check"],
                "call": legal["call_amount"], "raise": legal["raise"],
                "min": legal["min_raise_to"], "max": legal["max_raise_to"],
            }
            if legal["raise"] and rng.random() < 0.25:
                to = int(rng.integers(legal["min_raise_to"], legal["max_raise_to"] + 1))
                decision["action"] = f"r{to}"
                record["decisions"].append(decision)
                raw.step_raise_to(to)
                continue
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            kinds = {holdem.FOLD: "f", holdem.CHECK_CALL: "c" if legal["call_amount"] else "x"}
            decision["action"] = kinds.get(action)
            env.step(action)
            if decision["action"] is None:
                # A fraction raise or all-in: others still hold chips, so the street goes
                # on and the actor's bet is the raise-to.
                decision["action"] = f"r{game.bets[legal['seat']]}"
            record["decisions"].append(decision)
        record["board"] = "".join(holdem.card_str(int(c)) for c in game.board)
        record["final"] = game.stacks
        lines.append(json.dumps(record))
    report = oracle.replay(lines)
    assert report.mismatches == []
    assert report.hands == 60 and report.decisions > 60


@pytest.mark.parametrize(
    "kwargs",
    [
        {"stacks": [1, 1000]},
        {"ante": 500, "stack": 100},
        {"small_blind": 50, "big_blind": 100, "stacks": [40, 70]},
        {"num_players": 3, "ante": 1, "stacks": [1, 1000, 2], "button": 0},
    ],
)
def test_a_hand_decided_at_the_deal_ends_at_reset_with_its_rewards(kwargs):
    """Nobody has a decision: reset plays the hand out, every agent is terminated with its
    result (the stack change in big blinds) as reward, the masks are empty, a dead agent
    takes only None (anything else raises and changes nothing), and stepping None removes
    the agents until none is left; the next reset deals again."""
    paid = 0
    for seed in range(25):
        env = holdem_v0.env(**kwargs)
        env.reset(seed=seed)
        game = env.unwrapped.game
        start = holdem.NoLimitHoldem(1, **kwargs).config["stacks"]
        expected = {
            a: (s - s0) / game.big_blind for a, s, s0 in zip(env.possible_agents, game.stacks, start)
        }
        assert game.terminated and sum(game.stacks) == sum(start)
        assert all(env.terminations.values()) and not any(env.truncations.values())
        got = {}
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            assert terminated and not truncated
            assert not observation["action_mask"].any()
            assert info["stacks"] == game.stacks
            got[agent] = reward
            with pytest.raises(ValueError, match="None"):
                env.step(holdem.CHECK_CALL)
            assert env.agent_selection == agent and agent in env.agents
            env.step(None)
        assert env.agents == []
        assert got == pytest.approx(expected)
        assert sum(got.values()) == pytest.approx(0.0, abs=1e-6)
        paid += any(r != 0 for r in got.values())
        env.reset(seed=seed + 1000)
        assert env.agents == env.possible_agents
    assert paid >= 18


def test_returns_with_some_hands_decided_at_the_deal():
    """A short table mixing hands decided at the deal and hands with decisions: the AEC
    loop ends every hand, and the returns are the stack changes (zero-sum)."""
    start = [3, 4, 6, 1000]
    decided = 0
    for seed in range(60):
        env = holdem_v0.env(num_players=4, ante=5, stacks=start, render_mode="ansi")
        env.reset(seed=seed)
        decided += env.unwrapped.game.terminated
        assert "No-limit hold'em" in env.render()
        totals = play_randomly(env)
        game = env.unwrapped.game
        net = [(s - s0) / game.big_blind for s, s0 in zip(game.stacks, start)]
        assert list(totals.values()) == pytest.approx(net)
    assert 0 < decided < 60


def test_bool_and_float_actions_are_value_errors():
    env = holdem_v0.env(num_players=2, button=0, stack=100)
    env.reset(seed=4)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    for bad in (True, np.bool_(True)):
        with pytest.raises(ValueError):
            env.unwrapped.step(bad)
    for bad in (11.0, 11.5, True, "11"):
        with pytest.raises(ValueError, match="integer"):
            env.unwrapped.step_raise_to(bad)
    np.testing.assert_array_equal(before, env.observe(agent)["observation"])
    assert env.agent_selection == agent
