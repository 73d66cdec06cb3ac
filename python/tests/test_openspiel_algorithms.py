"""OpenSpiel's own algorithms on cardvec games (``cardvec.openspiel``): CFR, CFR+ and
exploitability on ``cardvec_kuhn`` / ``cardvec_leduc`` (explicit chance nodes) give OpenSpiel's
``kuhn_poker`` / ``leduc_poker`` figures to 1e-9; the whole trees have OpenSpiel's information
states; OpenSpiel's IS-MCTS bot (on the engine's determinization,
``resample_from_infostate``) and ``evaluate_bots`` play ``cardvec_lost_cities`` and
``cardvec_151`` against cardvec's bots wrapped as ``pyspiel.Bot``s; a short NFSP run
(OpenSpiel's PyTorch NFSP) and outcome-sampling MCCFR on ``cardvec_leduc`` go through.

Needs OpenSpiel (``pip install open-spiel``); NFSP needs PyTorch and dm-tree (the test
extra has both; skipped without them, saying so). Budgets are tiny (the file runs in
about 40 s on 2 shared cores: Python walks of Leduc's tree; marked slow).
"""

import random

import numpy as np
import pytest

import cardvec

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel)")

from open_spiel.python.algorithms import (  # noqa: E402
    cfr,
    evaluate_bots,
    exploitability,
    ismcts,
    mcts,
    outcome_sampling_mccfr,
)

from cardvec import openspiel  # noqa: E402  (registers the games)

PAIRS = [("cardvec_kuhn", "kuhn_poker"), ("cardvec_leduc", "leduc_poker")]


def _solve(game, solver, iterations):
    s = solver(game)
    for _ in range(iterations):
        s.evaluate_and_update_policy()
    return s.average_policy()


def _table(game, policy):
    """{information state string: action probabilities} of a tabular policy."""
    return {
        key: list(policy.action_probability_array[i])
        for key, i in policy.state_lookup.items()
    }


@pytest.mark.parametrize("solver", [cfr.CFRSolver, cfr.CFRPlusSolver])
def test_cfr_on_cardvec_kuhn_gives_openspiels_figures(solver):
    mine, theirs = (pyspiel.load_game(n) for n in PAIRS[0])
    a = _solve(mine, solver, 25)
    b = _solve(theirs, solver, 25)
    assert _table(mine, a).keys() == _table(theirs, b).keys()
    for key, probs in _table(mine, a).items():
        assert probs == pytest.approx(_table(theirs, b)[key], abs=1e-12)
    for measure in (exploitability.exploitability, exploitability.nash_conv):
        assert measure(mine, a) == pytest.approx(measure(theirs, b), abs=1e-9)
    assert exploitability.exploitability(mine, a) < 0.05  # uniform: 0.458


def test_cfr_plus_and_exploitability_on_cardvec_leduc_give_openspiels_figures():
    mine, theirs = (pyspiel.load_game(n) for n in PAIRS[1])
    a = _solve(mine, cfr.CFRPlusSolver, 1)
    b = _solve(theirs, cfr.CFRPlusSolver, 1)
    expected = exploitability.nash_conv(theirs, b)
    assert exploitability.nash_conv(mine, a) == pytest.approx(expected, abs=1e-9)
    # The uniform policy: OpenSpiel's figure (C++ leduc_poker), and cardvec's own solver's.
    uniform = exploitability.exploitability(mine, _uniform(mine))
    expected = exploitability.exploitability(theirs, _uniform(theirs))
    assert uniform == pytest.approx(expected, abs=1e-9)
    assert uniform == pytest.approx(cardvec.solve.exploitability("leduc", "uniform"), abs=1e-9)


def _uniform(game):
    from open_spiel.python import policy

    return policy.UniformRandomPolicy(game)


def _all_info_states(game):
    """Every (information state string, tensor) of an explicit-chance game's tree."""
    seen = set()
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            actions = [a for a, _ in state.chance_outcomes()]
        else:
            player = state.current_player()
            seen.add(
                (
                    state.information_state_string(player),
                    tuple(state.information_state_tensor(player)),
                )
            )
            actions = state.legal_actions()
        stack.extend(state.child(a) for a in actions)
    return seen


@pytest.mark.parametrize("name,reference", PAIRS)
def test_whole_trees_have_openspiels_information_states(name, reference):
    mine, theirs = (pyspiel.load_game(n) for n in (name, reference))
    assert mine.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert mine.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    for attr in ("max_chance_outcomes", "min_utility", "max_utility", "max_game_length"):
        assert getattr(mine, attr)() == getattr(theirs, attr)(), attr
    seen = _all_info_states(mine)
    assert seen == _all_info_states(theirs)
    assert len(seen) == {"cardvec_kuhn": 12, "cardvec_leduc": 936}[name]


@pytest.mark.parametrize("name", ["cardvec_kuhn", "cardvec_leduc"])
def test_explicit_chance_random_simulation_with_serialization(name):
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)
    state = game.new_initial_state()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    with pytest.raises(Exception, match="illegal action 9"):
        state.apply_action(9)
    assert state.history() == []
    text = pyspiel.serialize_game_and_state(game, state.child(outcomes[0][0]))
    _, restored = pyspiel.deserialize_game_and_state(text)
    assert restored.history() == [outcomes[0][0]]


def _ismcts(game, simulations, seed):
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    return ismcts.ISMCTSBot(
        game, evaluator, 2.0, simulations, random_state=np.random.RandomState(seed + 1)
    )


@pytest.mark.parametrize(
    "spec,cardvec_bot",
    [("cardvec_lost_cities", "safe-heuristic"), ("cardvec_151(target_score=20)", "greedy")],
)
def test_ismcts_and_evaluate_bots_play_cardvec_bots(spec, cardvec_bot):
    """OpenSpiel's IS-MCTS (its worlds from ``resample_from_infostate``, the engine's
    determinization) against a cardvec bot, through OpenSpiel's C++ ``evaluate_bots``; then
    the cardvec bot against itself twice with the same seeds: the same game."""
    game = pyspiel.load_game(spec)
    zero_sum = game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    returns = pyspiel.evaluate_bots(
        game.new_initial_state(), [_ismcts(game, 3, 1), openspiel.bot(cardvec_bot, game, 1)], 7
    )
    assert len(returns) == 2 and any(r != 0 for r in returns)
    if zero_sum:
        assert sum(returns) == pytest.approx(0.0)
    plays = []
    for _ in range(2):
        state = pyspiel.load_game(spec).new_initial_state()
        bots = [openspiel.bot(cardvec_bot, game, p, seed=3) for p in range(2)]
        plays.append((evaluate_bots.evaluate_bots(state, bots, np.random.RandomState(0)), state.history()))
    assert plays[0] == plays[1]


def test_resample_from_infostate_keeps_what_the_seat_sees():
    game = pyspiel.load_game("cardvec_lost_cities(rng_seed=4)")
    state = game.new_initial_state()
    rng = random.Random(0)
    for _ in range(9):
        state.apply_action(rng.choice(state.legal_actions()))
    player = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    samples = [state.resample_from_infostate(player, sampler) for _ in range(4)]
    for sample in samples:
        assert sample.information_state_string(player) == state.information_state_string(player)
        assert sample.observation_string(player) == state.observation_string(player)
        assert sample.legal_actions() == state.legal_actions()
        assert sample.history() == state.history()
        copy = sample.clone()
        assert str(copy) == str(sample)
        action = sample.legal_actions()[0]
        sample.apply_action(action)
        copy.apply_action(action)
        assert str(copy) == str(sample)
    # The other seat's hand (hidden from `player`) is dealt afresh.
    other = 1 - player
    hands = {s.information_state_string(other) for s in samples[:1]} | {
        state.information_state_string(other)
    }
    texts = {str(s) for s in samples}
    assert len(texts) > 1 and len(hands) >= 1
    with pytest.raises(ValueError, match="player must be"):
        state.resample_from_infostate(5, sampler)


def test_cardvec_bots_on_explicit_chance_states_and_errors():
    game = pyspiel.load_game("cardvec_leduc")
    bots = [openspiel.bot("raise-with-king", game, 0), openspiel.bot("always-call", game, 1)]
    totals = np.zeros(2)
    for seed in range(20):
        totals += evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(seed))
    assert totals.sum() == 0.0
    state = game.new_initial_state()
    for outcome in (4, 0):  # seat 0 holds a king
        state.apply_action(outcome)
    assert bots[0].step(state) == 2  # raise
    with pytest.raises(ValueError, match="plays seat 1"):
        bots[1].step(state)
    with pytest.raises(ValueError, match="bot"):
        openspiel.bot("no-such-bot", game, 0)
    with pytest.raises(ValueError, match="player must be"):
        openspiel.bot("random", game, 2)
    with pytest.raises(ValueError, match="not a cardvec game"):
        openspiel.bot("random", pyspiel.load_game("leduc_poker"), 0)


def test_outcome_sampling_mccfr_on_cardvec_leduc_samples_as_on_leduc_poker():
    """The same sampled run (numpy's global stream, seeded alike) on both games: the same
    chance outcomes and probabilities in the same order, so the same average policy."""
    values = []
    for name in PAIRS[1]:
        game = pyspiel.load_game(name)
        solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
        np.random.seed(0)
        for _ in range(100):
            solver.iteration()
        values.append(exploitability.nash_conv(game, solver.average_policy()))
    assert values[0] == pytest.approx(values[1], abs=1e-9)
    assert values[0] > 0.0


def test_nfsp_runs_on_cardvec_leduc():
    torch = pytest.importorskip("torch", reason="OpenSpiel's NFSP here is its PyTorch one")
    pytest.importorskip("tree", reason="OpenSpiel's PyTorch NFSP imports dm-tree")
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import nfsp

    torch.manual_seed(0)
    env = rl_environment.Environment(
        pyspiel.load_game("cardvec_leduc"),
        chance_event_sampler=rl_environment.ChanceEventSampler(seed=0),
    )
    size = env.observation_spec()["info_state"][0]
    assert size == 30
    agents = [
        nfsp.NFSP(
            p,
            state_representation_size=size,
            num_actions=env.action_spec()["num_actions"],
            hidden_layers_sizes=[16],
            reservoir_buffer_capacity=100,
            anticipatory_param=0.1,
            batch_size=8,
            learn_every=8,
            min_buffer_size_to_learn=8,
        )
        for p in range(2)
    ]
    episodes = 0
    for _ in range(40):
        time_step = env.reset()
        while not time_step.last():
            agent = agents[time_step.observations["current_player"]]
            time_step = env.step([agent.step(time_step).action])
        for agent in agents:
            agent.step(time_step)
        assert sum(time_step.rewards) == 0.0
        episodes += 1
    assert episodes == 40
    assert all(len(agent._reservoir_buffer) > 0 for agent in agents)


@pytest.mark.parametrize("name,reference,moves,player", [
    ("cardvec_leduc", "leduc_poker", [4, 0, 2, 1, 3], 1),
    ("cardvec_leduc", "leduc_poker", [4, 0, 1, 2], 0),
    ("cardvec_kuhn", "kuhn_poker", [2, 0, 0], 1),
])
def test_explicit_chance_resampling_is_openspiels(name, reference, moves, player):
    """``resample_from_infostate`` on an explicit-chance state: the worlds OpenSpiel's own
    game resamples to (the same set of histories over 200 draws), each keeping
    the seat's information state; IS-MCTS plays on it."""
    worlds = {}
    for spec in (name, reference):
        state = pyspiel.load_game(spec).new_initial_state()
        for move in moves:
            state.apply_action(move)
        found = set()
        draw = random.Random(5).random  # (OpenSpiel's Kuhn redraws until a card fits)
        for _ in range(200):
            sample = state.resample_from_infostate(player, draw)
            assert sample.information_state_string(player) == state.information_state_string(player)
            found.add(tuple(sample.history()))
        worlds[spec] = found
    assert worlds[name] == worlds[reference] and len(worlds[name]) > 1
    game = pyspiel.load_game(name)
    returns = pyspiel.evaluate_bots(
        game.new_initial_state(), [_ismcts(game, 10, 1), openspiel.bot("random", game, 1)], 3
    )
    assert sum(returns) == 0.0
