"""Every cardvec PettingZoo environment (Lost Cities, Flip 7, 151, hold'em, Kuhn, Leduc) against
PettingZoo's checkers (``api_test``, ``parallel_api_test``, ``seed_test``), random masked
games checked against the batch engine, the turn-based Parallel rules, the conversions
(``parallel_to_aec`` round trip; ``aec_to_parallel`` refused), pickling, and SuperSuit's
vector wrappers when SuperSuit is installed.

PettingZoo's ``parallel_seed_test`` is not used: it samples actions without the mask, so it
submits illegal actions, which these environments reject (``ValueError``) as their AEC
versions do; ``test_parallel_env_is_deterministic`` checks the same property with masked
actions over whole games."""

import copy
import pickle
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import data_equivalence  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, seed_test  # noqa: E402
from pettingzoo.utils import aec_to_parallel, parallel_to_aec  # noqa: E402

import cardvec  # noqa: E402
import cardvec.pettingzoo  # noqa: E402
from cardvec.pettingzoo import (  # noqa: E402
    flip7_v0,
    holdem_v0,
    i151_v0,
    kuhn_v0,
    leduc_v0,
    lost_cities_v0,
)

#: (test id, module, batch game id, keyword arguments).
CONFIGS = [
    ("lost_cities", lost_cities_v0, "lost-cities", {}),
    ("flip7-3", flip7_v0, "flip7", {"num_players": 3}),
    ("flip7-6", flip7_v0, "flip7", {"num_players": 6, "max_rounds": 3}),
    ("151-2", i151_v0, "151", {"num_players": 2}),
    ("151-4", i151_v0, "151", {"num_players": 4, "reward": "match-outcome"}),
    ("holdem-2", holdem_v0, "holdem", {"num_players": 2}),
    ("holdem-6", holdem_v0, "holdem", {"num_players": 6}),
    ("kuhn", kuhn_v0, "kuhn", {}),
    ("leduc", leduc_v0, "leduc", {}),
]
MODULES = [lost_cities_v0, flip7_v0, i151_v0, holdem_v0, kuhn_v0, leduc_v0]


class ById:
    """``cardvec.pettingzoo``'s environments of one registered game by its id, with a
    module's ``env`` / ``raw_env`` / ``parallel_env`` shape."""

    def __init__(self, game_id):
        self.game_id = game_id

    def env(self, **kwargs):
        return cardvec.pettingzoo.env(self.game_id, **kwargs)

    def raw_env(self, **kwargs):
        return cardvec.pettingzoo.raw_env(self.game_id, **kwargs)

    def parallel_env(self, **kwargs):
        return cardvec.pettingzoo.parallel_env(self.game_id, **kwargs)


# Every registered game by its id, at its defaults: a game added to the registry is checked
# by every test over CONFIGS with no line written for it.
CONFIGS += [(f"id-{g['id']}", ById(g["id"]), g["id"], {}) for g in cardvec.games()]


def configs():
    return pytest.mark.parametrize(
        "module, game_id, kwargs", [c[1:] for c in CONFIGS], ids=[c[0] for c in CONFIGS]
    )


@pytest.fixture(autouse=True)
def quiet_checker_warnings():
    """PettingZoo's checkers warn about dict observations (the action-mask convention)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def masked_choice(rng, mask):
    return int(rng.choice(np.flatnonzero(mask)))


def with_seed(env, seed):
    """`env`, reset with `seed`."""
    env.reset(seed=seed)
    return env


def play_aec(env, rng):
    """Plays `env` (reset) to the end with random legal actions. Returns the decisions
    (agent, mask, action) and every agent's summed rewards."""
    decisions = []
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        action = None
        if not (terminated or truncated):
            action = masked_choice(rng, observation["action_mask"])
            decisions.append((agent, observation["action_mask"], action))
        env.step(action)
    return decisions, totals


# PettingZoo's checkers


@configs()
def test_api(module, game_id, kwargs):
    api_test(module.env(**kwargs), num_cycles=400)


@configs()
def test_parallel_api(module, game_id, kwargs):
    parallel_api_test(module.parallel_env(**kwargs), num_cycles=400)


@configs()
def test_seed(module, game_id, kwargs):
    seed_test(lambda: module.env(**kwargs), num_cycles=300)


@configs()
def test_parallel_env_is_deterministic(module, game_id, kwargs):
    """Two parallel environments reset with the same seed and given the same (masked)
    actions return equal outputs at every step, over two whole games each."""
    envs = [module.parallel_env(**kwargs), module.parallel_env(**kwargs)]
    rng = np.random.default_rng(7)
    for seed in (11, None):
        first = [env.reset(seed=seed) for env in envs]
        assert data_equivalence(first[0], first[1])
        observations = first[0][0]
        while envs[0].agents:
            active = envs[0].active_agent
            actions = {
                agent: masked_choice(rng, observations[active]["action_mask"])
                if agent == active
                else 0
                for agent in envs[0].agents
            }
            outputs = [env.step(actions) for env in envs]
            assert data_equivalence(outputs[0], outputs[1])
            observations = outputs[0][0]
        assert envs[1].agents == []


# Random games against the batch engine


@configs()
def test_random_games_equal_the_batch_engine(module, game_id, kwargs):
    """Random masked games through the AEC environment (a seeded game, then the next one
    from `reset()`) and the same actions replayed in lane 0 of the batch environment
    built with the game's `episode_seed`: the same seat acts with the same mask at every
    decision, and each agent's summed rewards equal the batch rewards; zero-sum games sum
    to zero. The parallel environment gives the same rewards for the same actions."""
    env = module.env(**kwargs)
    rng = np.random.default_rng(3)
    for seed in (5, None):
        env.reset(seed=seed)
        episode_seed = env.unwrapped.episode_seed
        decisions, totals = play_aec(env, rng)
        batch = cardvec.make(game_id, 1, seed=episode_seed, **kwargs)
        summed = np.zeros(batch.num_players)
        for agent, mask, action in decisions:
            assert env.possible_agents[batch.current_player[0]] == agent
            np.testing.assert_array_equal(batch.legal_mask[0], mask)
            batch.step(np.array([action]))
            summed += batch.rewards[0]
        assert batch.terminated[0] or batch.truncated[0]
        assert list(totals.values()) == pytest.approx(summed.tolist(), abs=1e-5)
        if batch.zero_sum:
            assert sum(totals.values()) == pytest.approx(0.0, abs=1e-5)

        par = module.parallel_env(**kwargs)
        par.reset(seed=episode_seed)
        par_totals = dict.fromkeys(par.possible_agents, 0.0)
        for _, _, action in decisions:
            _, rewards, *_ = par.step({agent: action for agent in par.agents})
            for agent, reward in rewards.items():
                par_totals[agent] += reward
        assert par.agents == []
        assert par_totals == pytest.approx(totals)


def test_zero_sum_configurations_are_checked():
    """The zero-sum assertion above runs: these configurations are zero-sum."""
    zero_sum = {
        c[0] for c in CONFIGS if not c[0].startswith("id-") and cardvec.make(c[2], 1, **c[3]).zero_sum
    }
    assert zero_sum == {"lost_cities", "151-4", "holdem-2", "holdem-6", "kuhn", "leduc"}


# The turn-based Parallel rules


def test_only_the_active_agents_action_is_applied():
    """Every agent is observed, only the agent to act has a mask, infos name it; its
    action is applied as the AEC environment applies it, the others' are ignored."""
    par = i151_v0.parallel_env(num_players=3)
    aec = i151_v0.env(num_players=3)
    observations, infos = par.reset(seed=2)
    aec.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(30):
        active = par.active_agent
        assert active == aec.agent_selection
        assert all(info["active_agent"] == active for info in infos.values())
        for agent, observation in observations.items():
            assert observation["action_mask"].any() == (agent == active)
        action = masked_choice(rng, observations[active]["action_mask"])
        # The others' actions are ignored, whatever they are.
        actions = {agent: (action if agent == active else "anything") for agent in par.agents}
        observations, rewards, _, _, infos = par.step(actions)
        aec.step(action)
        assert set(observations) == set(rewards) == set(infos) == set(par.possible_agents)
        for agent in par.possible_agents:
            assert data_equivalence(observations[agent], aec.observe(agent))
            assert rewards[agent] == aec.rewards[agent]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_parallel_bad_actions_raise_and_change_nothing(module):
    par = module.parallel_env()
    observations, _ = par.reset(seed=4)
    active = par.active_agent
    mask = observations[active]["action_mask"]
    before = {a: par.unwrapped.aec.observe(a)["observation"].copy() for a in par.agents}
    others = {agent: 0 for agent in par.agents if agent != active}
    illegal = [len(mask), -1, True, None, *np.flatnonzero(mask == 0)[:1]]
    bad = [
        *(({**others, active: action}, ValueError, "Illegal action") for action in illegal),
        (others, ValueError, "no action for"),
        ({active: int(np.flatnonzero(mask)[0]), "player_99": 0}, ValueError, "unknown agent"),
        ([0] * len(par.agents), TypeError, "dict"),
    ]
    for actions, error, message in bad:
        with pytest.raises(error, match=message):
            par.step(actions)
        assert par.active_agent == active and par.agents == par.possible_agents
        for agent, observation in before.items():
            np.testing.assert_array_equal(
                observation, par.unwrapped.aec.observe(agent)["observation"]
            )


def test_parallel_step_after_the_end_is_an_error():
    par = lost_cities_v0.parallel_env()
    with pytest.raises(RuntimeError, match="reset"):
        par.step({})
    observations, _ = par.reset(seed=1)
    rng = np.random.default_rng(1)
    while par.agents:
        active = par.active_agent
        observations, *_ = par.step(
            {active: masked_choice(rng, observations[active]["action_mask"])}
        )
    assert par.active_agent is None
    with pytest.raises(RuntimeError, match="reset"):
        par.step({})


def test_parallel_hand_decided_at_the_deal_pays_on_the_first_step():
    """Nobody has a decision: reset shows every agent with an empty mask and no agent to
    act; the first step (with no actions) pays the results and ends the hand."""
    kwargs = {"stacks": [1, 1000]}
    paid = 0
    for seed in range(10):
        par = holdem_v0.parallel_env(**kwargs)
        observations, infos = par.reset(seed=seed)
        assert par.agents == par.possible_agents and par.active_agent is None
        assert all(info["active_agent"] is None for info in infos.values())
        assert not any(o["action_mask"].any() for o in observations.values())
        _, rewards, terminations, truncations, _ = par.step({})
        aec = holdem_v0.env(**kwargs)
        aec.reset(seed=seed)
        assert rewards == {a: aec.rewards[a] for a in aec.possible_agents}
        assert all(terminations.values()) and not any(truncations.values())
        assert par.agents == [] and sum(rewards.values()) == pytest.approx(0.0, abs=1e-6)
        paid += any(rewards.values())
    assert paid >= 5


# Conversions


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_parallel_to_aec_round_trip(module):
    par = module.parallel_env()
    assert aec_to_parallel(parallel_to_aec(par)) is par
    api_test(parallel_to_aec(module.parallel_env()), num_cycles=200)


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_aec_to_parallel_is_refused_for_turn_based_games(module):
    """PettingZoo's aec_to_parallel steps every agent once per cycle; these games have no
    such cycle, so the AEC environments say they are not parallelizable."""
    assert module.raw_env.metadata["is_parallelizable"] is False
    with pytest.raises(AssertionError, match="is_parallelizable"):
        aec_to_parallel(module.env())


# The new AEC environments


def test_i151_excluded_seat_stays_until_the_match_ends():
    """With 4 seats a seat reaching the target is excluded: it stays in `agents` with an
    empty mask, never acts again, and the match's end pays it (match-outcome)."""
    seen = 0
    for seed in range(4):
        env = i151_v0.env(num_players=4, reward="match-outcome", max_round_steps=0)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        excluded = set()
        totals = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            totals[agent] += reward
            if terminated or truncated:
                env.step(None)
                continue
            assert agent not in excluded
            for other in excluded:
                assert other in env.agents and not env.observe(other)["action_mask"].any()
            env.step(masked_choice(rng, observation["action_mask"]))
            if env.agents and not env.terminations[env.agent_selection]:
                for a in env.possible_agents:
                    # Seat slot 0 of an observation is the observer's own.
                    if env.observe(a)["observation"][i151_v0.SEATS + i151_v0.EXCLUDED]:
                        excluded.add(a)
        seen += bool(excluded)
        assert sorted(totals.values()) == pytest.approx([-1 / 3] * 3 + [1.0])
    assert seen == 4


@pytest.mark.parametrize(
    "module, kwargs, message",
    [
        (lost_cities_v0, {"num_players": 3}, "accepted options: obs_layout"),
        (lost_cities_v0, {"obs_layout": "row-major"}, "row-major"),
        (kuhn_v0, {"num_players": 3}, "takes no options"),
        (leduc_v0, {"num_players": 3}, "takes no options"),
        (i151_v0, {"num_players": 5}, "num_players"),
        (i151_v0, {"colour": "red"}, "accepted options"),
        (i151_v0, {"reward": "points"}, "reward"),
        (lost_cities_v0, {"render_mode": "video"}, "render_mode"),
        (i151_v0, {"render_mode": "video"}, "render_mode"),
    ],
)
def test_bad_configuration_is_a_value_error(module, kwargs, message):
    with pytest.raises(ValueError, match=message):
        module.raw_env(**kwargs)


@pytest.mark.parametrize("module", [lost_cities_v0, i151_v0], ids=["lost_cities", "i151"])
def test_illegal_action_and_bad_seed_raise_and_change_nothing(module):
    env = module.env()
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.observe(agent)["observation"].copy()
    mask = env.observe(agent)["action_mask"]
    legal = [int(a) for a in np.flatnonzero(mask)]
    for bad in (int(np.flatnonzero(mask == 0)[0]), len(mask), -1, True):
        # The wrapped environment (env()) and the raw one raise the same ValueError, naming
        # the agent and the legal actions.
        for target in (env, env.unwrapped):
            with pytest.raises(ValueError, match="Illegal action") as e:
                target.step(bad)
            assert agent in str(e.value) and str(legal) in str(e.value)
    for seed, error in (("1", TypeError), (1.0, TypeError), (-1, ValueError), (2**64, ValueError)):
        with pytest.raises(error, match="seed"):
            env.reset(seed=seed)
    np.testing.assert_array_equal(before, env.observe(agent)["observation"])
    assert env.agent_selection == agent


@pytest.mark.parametrize(
    "module, lines",
    [
        (lost_cities_v0, ["Lost Cities | ", "deck 44", "player_1: board_score 0", "draw from deck"]),
        (i151_v0, ["151 | ", "bank 16", "player_0: excluded no | hand ", "| score 0"]),
        (kuhn_v0, ["Kuhn poker | ", "pot 2", "player_1: cards ", "(check, bet 1)"]),
        (leduc_v0, ["Leduc hold'em | ", "round 0", "player_1: cards ", "(check, bet 2)"]),
    ],
    ids=["lost_cities", "i151", "kuhn", "leduc"],
)
def test_render(module, lines, capsys):
    env = module.env(render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert all(line in text for line in lines) and "to act: " in text
    play_aec(env, np.random.default_rng(0))
    assert "to act" not in env.render()
    human = module.env(render_mode="human")
    human.reset(seed=3)
    assert human.render() is None and capsys.readouterr().out.strip() == text
    quiet = module.env()
    quiet.reset(seed=3)
    assert quiet.render() is None


def test_next_games_come_from_the_seed():
    """reset(seed) then reset(): the same sequence of games in two environments, a
    different game each time."""
    a, b = i151_v0.env(), i151_v0.env()
    hands = []
    for seed in (8, None, None):
        a.reset(seed=seed)
        b.reset(seed=seed)
        assert a.unwrapped.episode_seed == b.unwrapped.episode_seed
        np.testing.assert_array_equal(
            a.observe("player_0")["observation"], b.observe("player_0")["observation"]
        )
        hands.append(a.observe("player_0")["observation"][:32].tobytes())
    assert len(set(hands)) == 3


# Pickling (what SuperSuit's vector environments do to copy an environment)


@configs()
def test_a_pickled_copy_goes_on_as_the_original(module, game_id, kwargs):
    env = module.env(**kwargs)
    assert pickle.loads(pickle.dumps(env)).unwrapped.episode_seed is None
    env.reset(seed=9)
    rng = np.random.default_rng(9)
    for _ in range(12):
        if not env.agents:
            break
        observation, _, terminated, truncated, _ = env.last()
        env.step(
            None if terminated or truncated else masked_choice(rng, observation["action_mask"])
        )
    runs = []
    for copy_ in (env, pickle.loads(pickle.dumps(env)), copy.deepcopy(env)):
        steps = []
        for _ in range(2):
            rng = np.random.default_rng(1)
            for agent in copy_.agent_iter():
                observation, reward, terminated, truncated, _ = copy_.last()
                steps.append((agent, observation["observation"].tobytes(), reward, terminated))
                done = terminated or truncated
                copy_.step(None if done else masked_choice(rng, observation["action_mask"]))
            copy_.reset()
        steps.append(copy_.action_space("player_0").sample())
        runs.append(steps)
    assert runs[0] == runs[1] == runs[2]


# SuperSuit


@pytest.mark.parametrize(
    "module, game_id, kwargs",
    [
        (lost_cities_v0, "lost-cities", {}),
        (flip7_v0, "flip7", {"num_players": 4, "target_score": 60}),
        (i151_v0, "151", {"num_players": 2, "target_score": 10}),
        (holdem_v0, "holdem", {"num_players": 3}),
    ],
    ids=["lost_cities", "flip7", "i151", "holdem"],
)
def test_supersuit_vector_env(module, game_id, kwargs):
    """SuperSuit's vector path for multi-agent training (one slot per agent, copies made
    by pickling, a new game when one ends): two copies play games through the autoreset,
    one slot per copy has a mask, and zero-sum games pay zero-sum rewards."""
    ss = pytest.importorskip("supersuit")
    par = module.parallel_env(**kwargs)
    vec = ss.concat_vec_envs_v1(ss.pettingzoo_env_to_vec_env_v1(par), 2)
    players = len(par.possible_agents)
    zero_sum = cardvec.make(game_id, 1, **kwargs).zero_sum
    observations, _ = vec.reset(seed=1)
    assert vec.num_envs == 2 * players
    assert observations["action_mask"].shape[0] == 2 * players
    rng = np.random.default_rng(2)
    ended = 0
    for _ in range(800):
        masks = observations["action_mask"]
        assert (masks.any(axis=1).reshape(2, players).sum(axis=1) == 1).all()
        actions = np.array([masked_choice(rng, m) if m.any() else 0 for m in masks])
        observations, rewards, terminations, truncations, _ = vec.step(actions)
        if zero_sum:
            assert np.abs(rewards.reshape(2, players).sum(axis=1)).max() < 1e-5
        ended += int((terminations | truncations).sum()) // players
    assert ended >= 2


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[1])
def test_supersuit_reward_wrappers(module):
    """SuperSuit's reward wrappers on the AEC and the parallel environments: the same game
    pays the unwrapped rewards transformed. (Through SuperSuit's parallel wrappers every
    live agent submits an action: the agent to act's is applied.)"""
    ss = pytest.importorskip("supersuit")
    _, plain = play_aec(with_seed(module.env(), 6), np.random.default_rng(6))
    _, scaled = play_aec(
        with_seed(ss.reward_lambda_v0(module.env(), lambda r: r / 10), 6),
        np.random.default_rng(6),
    )
    assert scaled == pytest.approx({a: r / 10 for a, r in plain.items()})

    par = ss.clip_reward_v0(module.parallel_env(), lower_bound=-1, upper_bound=1)
    observations, _ = par.reset(seed=6)
    clipped = []
    reference = module.parallel_env()
    reference.reset(seed=6)
    rng = np.random.default_rng(6)
    while par.agents:
        active = par.unwrapped.active_agent
        action = masked_choice(rng, observations[active]["action_mask"])
        observations, rewards, *_ = par.step({agent: action for agent in par.agents})
        _, expected, *_ = reference.step({active: action})
        clipped.append((rewards, {a: float(np.clip(r, -1, 1)) for a, r in expected.items()}))
    assert all(got == pytest.approx(want) for got, want in clipped)


def test_an_environment_by_id_checks_its_game_and_options():
    with pytest.raises(ValueError, match="unknown game"):
        cardvec.pettingzoo.env("chess")
    with pytest.raises(ValueError, match="takes no options"):
        cardvec.pettingzoo.env("kuhn", num_players=3)
    with pytest.raises(ValueError, match="num_players"):
        cardvec.pettingzoo.env("flip7", num_players=2)
    env = cardvec.pettingzoo.raw_env("flip7", num_players=4)
    assert env.possible_agents == [f"player_{i}" for i in range(4)]
    assert env.metadata["name"] == "flip7"
