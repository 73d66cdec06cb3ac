"""The Python API over the registry: the generic ``BatchEnv``, the per-game classes derived
from ``cardvec.games()``, ``cardvec.make``, option conversion from Python values, and the
deprecated 151 spellings. (Per-game behaviour is the conformance suite's.)"""

import warnings

import numpy as np
import pytest

import cardvec


def test_every_registered_game_has_its_class_and_make_builds_it():
    ids = [g["id"] for g in cardvec.games()]
    assert ids == ["lost-cities", "flip7", "151", "holdem", "kuhn", "leduc"]
    for info in cardvec.games():
        cls = getattr(cardvec, info["python_class"])
        assert cls.__name__ == info["python_class"] and cls.__module__ == "cardvec"
        assert issubclass(cls, cardvec.BatchEnv) and cls.GAME_ID == info["id"]
        assert info["python_class"] in cardvec.__all__
        env = cardvec.make(info["id"], 2)
        assert type(env) is cls and env.game_id == info["id"]
        assert info["title"] in cls.__doc__
    assert cardvec.i151.I151 is cardvec.I151 is cardvec.game_class("151")
    assert cardvec.flip7.Flip7 is cardvec.Flip7
    assert cardvec.holdem.NoLimitHoldem is cardvec.NoLimitHoldem


def test_batch_env_takes_the_game_id_directly():
    env = cardvec.BatchEnv("flip7", 3, seed=4, num_players=5)
    same = cardvec.Flip7(3, seed=4, num_players=5)
    assert type(env) is cardvec.BatchEnv and env.num_players == 5
    np.testing.assert_array_equal(env.obs, same.obs)
    assert repr(env).startswith("BatchEnv(num_envs=3")
    with pytest.raises(ValueError, match="unknown game"):
        cardvec.BatchEnv("chess", 3)
    with pytest.raises(ValueError, match="unknown game"):
        cardvec.make("chess", 3)


def test_games_gives_typed_options_and_configurations():
    holdem = {g["id"]: g for g in cardvec.games()}["holdem"]
    options = {o["name"]: o for o in holdem["options"]}
    assert options["raise_fractions"]["default"] == [0.5, 1.0, 2.0]
    assert options["raise_fractions"]["type"] == "float list"
    assert options["stack"]["default"] == "auto"
    assert options["button"]["default"] is None and options["button"]["type"] == "optional int"
    assert (options["num_players"]["min"], options["num_players"]["max"]) == (2, 10)
    assert holdem["players"] == (2, 10) and holdem["oracle"] == "pokerkit 0.7"
    assert holdem["configurations"][2] == {"num_players": 3, "ante": 1, "stacks": [50, 200, 1000]}
    i151 = {g["id"]: g for g in cardvec.games()}["151"]
    reward = {o["name"]: o for o in i151["options"]}["reward"]
    assert reward["type"] == "choice" and reward["default"] == "round-points"
    assert "match-outcome" in reward["choices"]
    lost = {g["id"]: g for g in cardvec.games()}["lost-cities"]
    assert [o["name"] for o in lost["options"]] == ["obs_layout"] and lost["oracle"] is None
    layout = lost["options"][0]
    assert layout["type"] == "choice" and layout["default"] == "card-major"
    assert layout["choices"] == ["card-major", "channel-major"]
    assert lost["configurations"] == [{}, {"obs_layout": "channel-major"}]
    # A fresh list every call: callers may change it.
    cardvec.games()[0]["id"] = "changed"
    assert cardvec.games()[0]["id"] == "lost-cities"


def test_options_accept_numpy_values_tuples_and_arrays():
    a = cardvec.NoLimitHoldem(
        2, num_players=np.int64(3), stacks=np.array([50, 60, 70]), raise_fractions=(1, 2.5)
    )
    assert a.config["num_players"] == 3 and a.config["stacks"] == [50, 60, 70]
    assert a.config["raise_fractions"] == [1.0, 2.5]
    b = cardvec.NoLimitHoldem(2, num_players=3, stacks=[50, 60, 70], raise_fractions=[1.0, 2.5])
    np.testing.assert_array_equal(a.obs, b.obs)
    c = cardvec.I151(2, reward="match-outcome", target_score=np.uint16(60))
    assert c.config["reward"] == "match-outcome" and c.zero_sum
    assert not cardvec.I151(2).zero_sum


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_players": np.bool_(True)},
        {"num_players": 2**70},
        {"num_players": "3"},
        {"num_players": 3.0},
        {"stacks": np.zeros((2, 2), dtype=np.int64)},
        {"stacks": {1: 2}},
        {"raise_fractions": [float("nan")]},
        {"button": object()},
    ],
)
def test_unconvertible_option_values_are_value_errors(kwargs):
    (name,) = kwargs
    with pytest.raises(ValueError, match=f"{name}="):
        cardvec.NoLimitHoldem(2, **kwargs)


def test_nested_and_self_containing_lists_are_value_errors_not_crashes():
    # A list holding itself (read item by item, it never ends) and nested lists: a
    # ValueError, not a stack overflow.
    looped = [50, 60]
    looped.append(looped)
    deep = [50]
    for _ in range(200):
        deep = [deep]
    for value in (looped, deep, [[50, 60, 70]], [np.array([50, 60, 70])]):
        with pytest.raises(ValueError, match="stacks=.*list inside a list"):
            cardvec.NoLimitHoldem(2, num_players=3, stacks=value)


def test_config_is_a_fresh_dict_of_the_effective_options():
    env = cardvec.Flip7(2, num_players=4)
    assert env.config == {"num_players": 4, "target_score": 200, "max_rounds": None}
    env.config["num_players"] = 9
    assert env.config["num_players"] == 4
    nl = cardvec.NoLimitHoldem(2, big_blind=4)
    assert nl.config["stacks"] == [400, 400]  # stack's computed default: 100 big blinds


def test_state_size_and_get_state():
    env = cardvec.LostCities(3, seed=1)
    state = env.get_state(2)
    assert isinstance(state, bytes) and len(state) == env.state_size > 0
    env.set_state(0, bytearray(state))  # any bytes-like buffer of bytes
    assert env.get_state(0) == state
    with pytest.raises(TypeError):
        env.set_state(0, "not bytes")


def test_i151_deprecated_spellings_warn_and_build_num_players():
    for k, alias in ((2, cardvec.I151P2), (3, cardvec.I151P3), (4, cardvec.i151.I151P4)):
        with pytest.warns(DeprecationWarning, match=f"I151P{k}"):
            env = alias(3, seed=1)
        assert type(env) is cardvec.I151 and env.num_players == k
    with pytest.warns(DeprecationWarning, match="players"):
        env = cardvec.i151.I151(3, players=4, seed=1)
    assert env.num_players == 4
    np.testing.assert_array_equal(env.obs, cardvec.I151(3, num_players=4, seed=1).obs)
    with pytest.raises(TypeError), warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        cardvec.I151(3, players=3, num_players=3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cardvec.I151(3, num_players=3)  # the current spelling does not warn
        cardvec.make("151", 3, num_players=3)


def test_positional_arguments_keep_their_order():
    env = cardvec.Flip7(4, 9, 1, True, False, 2, num_players=6)
    assert (env.seed, env.autoreset, env.observe_on_step, env.num_players) == (9, True, False, 6)


def test_determinize_deals_the_hidden_cards_afresh_and_changes_nothing():
    """``BatchEnv.determinize(lane, seat, seed)``: a state the seat cannot tell from the
    lane's (its observation, mask and seat to act kept), as bytes for ``set_state``; the same
    seed gives the same bytes, the lane does not change, bad arguments are ValueErrors."""
    for info in cardvec.games():
        env = cardvec.make(info["id"], 2, seed=1)
        before = env.get_state(1)
        seat = int(env.current_player[1])
        obs = env.observe_as(1, seat).copy()
        mask = env.legal_mask[1].copy()
        samples = [env.determinize(1, seat, s) for s in (3, 3, 4)]
        assert samples[0] == samples[1] and len(samples[0]) == env.state_size
        assert env.get_state(1) == before
        other = cardvec.make(info["id"], 1, seed=9)
        for sample in samples:
            other.set_state(0, sample)
            assert np.array_equal(other.observe_as(0, seat), obs)
            assert np.array_equal(other.legal_mask[0], mask)
    env = cardvec.make("lost-cities", 2, seed=1)
    for args, message in [((2, 0, 1), "lane"), ((0, 2, 1), "seat"), ((0, 0, -1), "seed")]:
        with pytest.raises(ValueError, match=message):
            env.determinize(*args)
