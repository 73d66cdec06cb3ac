"""Every registered cardvec game as an OpenSpiel game (``cardvec.openspiel``), checked by
OpenSpiel's own random simulation test (``pyspiel.random_sim_test``: clone equality after
the same action, legal actions sorted and empty for the other seats, the legal-action
mask, distinct action strings, the declared tensor shapes on every state, rewards adding up
to the returns, returns summing as the utility flag says, the utility bounds), plus the
names, the shapes, clone independence, serialization and the errors of bad parameters.

Needs OpenSpiel (``pip install open-spiel``, the test and openspiel extras).
"""

import random

import numpy as np
import pytest

import cardvec

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel)")

from cardvec import openspiel  # noqa: E402  (registers the games)

EXPECTED_NAMES = {
    "cardvec_lost_cities",
    "cardvec_flip7",
    "cardvec_151",
    "cardvec_holdem",
    "cardvec_kuhn",
    "cardvec_leduc",
}

# (game string, simulations). 151 at its defaults plays matches of thousands of steps, and
# the adapter's clone replays the actions (its cost grows with the game), which
# random_sim_test calls three times a step: 151 runs to a small target score here (its
# defaults are played below without the clone checks of every step).
CONFIGURATIONS = [
    ("cardvec_lost_cities", 3),
    ("cardvec_lost_cities(obs_layout=channel-major)", 2),
    ("cardvec_flip7", 3),
    ("cardvec_flip7(num_players=5)", 3),
    ("cardvec_flip7(num_players=18,max_rounds=2)", 2),
    ("cardvec_151(target_score=5)", 2),
    ("cardvec_151(num_players=3,cards_per_player=5,target_score=5,reward=match-outcome)", 2),
    ("cardvec_151(num_players=4,cards_per_player=5,target_score=5)", 2),
    ("cardvec_holdem", 20),
    ("cardvec_holdem(num_players=6,stack=50)", 20),
    ("cardvec_holdem(num_players=3,raise_fractions=0.5;1)", 20),
    ("cardvec_kuhn", 30),
    ("cardvec_leduc", 30),
]


def test_every_registered_game_is_registered_by_one_rule():
    names = openspiel.registered_games()
    assert set(names) == EXPECTED_NAMES
    assert set(names.values()) == {info["id"] for info in cardvec.games()}
    for name, game_id in names.items():
        assert name == "cardvec_" + game_id.replace("-", "_")
        assert name in pyspiel.registered_names()


@pytest.mark.parametrize("spec,sims", CONFIGURATIONS)
def test_openspiel_random_simulation(spec, sims):
    game = pyspiel.load_game(spec)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


@pytest.mark.xfail(
    strict=True,
    reason="known: the engine's rewards are float32; a 4-seat 151 match-outcome pays 1 and "
    "3 x float32(-1/3), whose sum (about -3e-8) is outside OpenSpiel's zero-sum epsilon",
)
def test_151_four_seat_match_outcome_is_zero_sum_only_to_float32():
    game = pyspiel.load_game(
        "cardvec_151(num_players=4,cards_per_player=5,target_score=5,reward=match-outcome)"
    )
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_the_parameters_are_the_registry_options():
    for info in cardvec.games():
        game = pyspiel.load_game(openspiel.game_name(info["id"]))
        params = game.get_parameters()
        assert set(params) == {o["name"] for o in info["options"]} | {"rng_seed"}
        for option in info["options"]:
            default = option["default"]
            if isinstance(default, int) and option["type"] == "int":
                assert params[option["name"]] == default
            elif option["type"] == "choice":
                assert params[option["name"]] == default
    game = pyspiel.load_game("cardvec_flip7(num_players=5)")
    assert game.num_players() == 5
    assert game.get_parameters()["num_players"] == 5
    state = game.new_initial_state()
    assert len(state.returns()) == 5


def test_shapes_are_the_engines():
    game = pyspiel.load_game("cardvec_lost_cities")
    assert game.num_distinct_actions() == 96
    assert game.information_state_tensor_shape() == [454]
    assert game.observation_tensor_shape() == [454]
    for info in cardvec.games():
        game = pyspiel.load_game(openspiel.game_name(info["id"]))
        env = cardvec.make(info["id"], 1)
        assert game.num_distinct_actions() == env.num_actions
        assert game.observation_tensor_shape() == [env.obs_dim]
        info_dim = env.info_state_dim if env.info_state_dim is not None else env.obs_dim
        assert game.information_state_tensor_shape() == [info_dim]
        assert game.num_players() == env.num_players


def test_tensors_and_strings_are_the_engines():
    game = pyspiel.load_game("cardvec_leduc")
    state = game.new_initial_state()
    env = cardvec.make("leduc", 1, seed=7)
    order = np.array([4, 1, 3], dtype=np.uint8)  # seat 0, seat 1, the public card
    env.reset_lane_from_order(0, order)
    state.apply_action(4)
    state.apply_action(1)
    for action in (1, 1):  # raise, call: the public card is dealt
        for seat in range(2):
            assert state.information_state_tensor(seat) == pytest.approx(
                list(env.info_state_tensor(seat)[0])
            )
            assert state.information_state_string(seat) == env.info_state_string(0, seat)
            assert state.observation_tensor(seat) == pytest.approx(list(env.observe_as(0, seat)))
        assert state.action_to_string(action) == env.action_name(0, action)
        state.apply_action(action)
        env.step(np.array([action]))
    state.apply_action(3)  # the public card's chance node
    assert str(state) == env.state_text(0)
    assert state.information_state_string(1) == env.info_state_string(0, 1)


def _random_play(spec, games, seed):
    game = pyspiel.load_game(spec)
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        yield game, state


def test_returns_sum_as_the_utility_flag_says():
    for info in cardvec.games():
        name = openspiel.game_name(info["id"])
        spec = name if info["id"] != "151" else f"{name}(target_score=20)"
        zero_sum = cardvec.make(info["id"], 1).zero_sum
        expected = (
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        )
        for game, state in _random_play(spec, 5, 3):
            assert game.get_type().utility == expected
            chance = pyspiel.GameType.ChanceMode
            explicit = info["id"] in cardvec.solve.tree_ids()
            assert game.get_type().chance_mode == (
                chance.EXPLICIT_STOCHASTIC if explicit else chance.SAMPLED_STOCHASTIC
            )
            assert (
                game.get_type().information
                == pyspiel.GameType.Information.IMPERFECT_INFORMATION
            )
            if zero_sum:
                assert sum(state.returns()) == pytest.approx(0.0, abs=1e-6)
            assert state.current_player() == pyspiel.PlayerId.TERMINAL


def test_151_at_its_defaults_plays_to_the_end_with_exact_clones():
    game = pyspiel.load_game("cardvec_151")
    state = game.new_initial_state()
    rng = random.Random(5)
    steps = 0
    while not state.is_terminal():
        if steps % 500 == 0:
            copy = state.clone()
            assert str(copy) == str(state) and copy.history() == state.history()
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert steps > 100


def test_clone_is_independent_and_exact():
    # Flip 7 reshuffles within a game: the clone must draw what the original draws.
    game = pyspiel.load_game("cardvec_flip7(num_players=4)")
    state = game.new_initial_state()
    rng = random.Random(11)
    for _ in range(40):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    before = str(state)
    copy = state.clone()
    assert str(copy) == before
    while not copy.is_terminal():
        copy.apply_action(copy.legal_actions()[-1])
    assert str(state) == before  # the original did not move
    twin = state.clone()
    actions = []
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        actions.append(action)
        state.apply_action(action)
    for action in actions:
        twin.apply_action(action)
    assert str(twin) == str(state) and twin.returns() == state.returns()


def test_serialize_round_trip():
    for info in cardvec.games():
        game = pyspiel.load_game(openspiel.game_name(info["id"]))
        state = game.new_initial_state()
        rng = random.Random(2)
        for _ in range(6):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        restored = game.deserialize_state(state.serialize())
        assert str(restored) == str(state)
        assert restored.history() == state.history()
        assert restored.returns() == state.returns()


def test_illegal_action_raises_and_changes_nothing():
    game = pyspiel.load_game("cardvec_kuhn")
    state = game.new_initial_state()
    before = str(state)
    with pytest.raises(Exception, match="illegal action 5"):
        state.apply_action(5)
    assert str(state) == before and state.history() == []


def test_seeds_are_reproducible():
    a = [str(pyspiel.load_game("cardvec_lost_cities(rng_seed=3)").new_initial_state())]
    b = [str(pyspiel.load_game("cardvec_lost_cities(rng_seed=3)").new_initial_state())]
    c = [str(pyspiel.load_game("cardvec_lost_cities(rng_seed=4)").new_initial_state())]
    assert a == b != c
    env = cardvec.make("lost-cities", 1, seed=3)
    assert a[0] == env.state_text(0)


@pytest.mark.parametrize(
    "spec,message",
    [
        ("cardvec_flip7(num_players=40)", "num_players must be integer 1..=18"),
        ("cardvec_flip7(foo=1)", "Unknown parameter 'foo'"),
        ("cardvec_151(reward=nope)", "reward must be one of"),
        ("cardvec_holdem(raise_fractions=a)", "raise_fractions"),
        ("cardvec_lost_cities(obs_layout=diagonal)", "obs_layout"),
    ],
)
def test_bad_parameters_raise_clear_errors(spec, message):
    with pytest.raises(Exception, match=message):
        pyspiel.load_game(spec)
