"""``cardvec.bots``: every game's built-in bots played on a whole batch (``bots.act``), the
lanes mask, ``-1`` for lanes not asked or finished, determinism (the seed and the states
only), and the errors that change nothing."""

import numpy as np
import pytest

import cardvec
from cardvec import bots

GAMES = cardvec.games()
IDS = [g["id"] for g in GAMES]

#: A concrete name for each family the registry writes as a pattern.
EXAMPLES = {
    "threshold-<K>": "threshold-23",
    "equity-<N>": "equity-16",
    "minmax_d<D>w<W>[t]": "minmax_d1w4",
}


def concrete(names):
    return [EXAMPLES.get(n, n) for n in names]


def every_bot():
    for info in GAMES:
        for name in concrete(info["bots"]):
            yield pytest.param(info["id"], name, id=f"{info['id']}-{name}")


def test_names_are_the_registrys():
    for info in GAMES:
        assert bots.names(info["id"]) == info["bots"]
    assert "safe-heuristic" in bots.names("lost-cities")
    assert "threshold-<K>" in bots.names("flip7")
    names = bots.names("holdem")
    names.append("mine")  # a new list every call
    assert "mine" not in bots.names("holdem")
    with pytest.raises(ValueError, match="unknown game 'chess'; expected one of: lost-cities"):
        bots.names("chess")
    with pytest.raises(TypeError):
        bots.names(3)


def legal(env, actions, asked=None):
    """Asserts that ``actions`` holds a legal action where a lane is asked and live, -1
    elsewhere."""
    live = ~(env.terminated | env.truncated)
    if asked is not None:
        live &= asked
    assert actions.dtype == np.int64 and actions.shape == (env.num_envs,)
    assert (actions[~live] == -1).all()
    rows = np.nonzero(live)[0]
    assert (actions[rows] >= 0).all()
    assert env.legal_mask[rows, actions[rows]].all()


@pytest.mark.parametrize("game_id,bot", list(every_bot()))
def test_every_bot_of_every_game_plays_a_batch(game_id, bot):
    search = bot.startswith("minmax")
    env = cardvec.make(game_id, 8 if search else 32, seed=3, autoreset=True)
    for t in range(2 if search else 40):
        actions = bots.act(env, bot, seed=t)
        legal(env, actions)
        env.step(np.where(actions < 0, 0, actions))


@pytest.mark.parametrize("game_id", IDS)
def test_lanes_mask_and_finished_lanes_get_minus_one(game_id):
    env = cardvec.make(game_id, 24, seed=1)  # autoreset off: finished lanes stay finished
    asked = np.arange(24) % 3 != 0
    seen_finished = False
    for t in range(3000):
        full = bots.act(env, "random", seed=t)
        part = bots.act(env, "random", lanes=asked, seed=t)
        legal(env, full)
        legal(env, part, asked)
        np.testing.assert_array_equal(part[asked], full[asked])
        done = env.terminated | env.truncated
        seen_finished |= bool(done.any())
        if done.all():
            break
        env.step(np.where(full < 0, 0, full))
    assert seen_finished
    assert (bots.act(env, "random", lanes=np.zeros(24, dtype=bool)) == -1).all()


@pytest.mark.parametrize("game_id", IDS)
def test_actions_depend_only_on_the_seed_and_the_states(game_id):
    name = concrete(bots.names(game_id))[-1]
    if name.startswith("minmax"):
        name = "medium"
    a = cardvec.make(game_id, 40, seed=8, num_threads=1, chunk_size=64, autoreset=True)
    b = cardvec.make(game_id, 40, seed=8, num_threads=2, chunk_size=3, autoreset=True)
    differs = False
    for t in range(25):
        x = bots.act(a, name, seed=t)
        np.testing.assert_array_equal(x, bots.act(b, name, seed=t))
        np.testing.assert_array_equal(x, bots.act(a, name, seed=t))  # no call history
        r = bots.act(a, "random", seed=t)
        differs |= not np.array_equal(r, bots.act(a, "random", seed=t + 1000))
        actions = np.where(x < 0, 0, x)
        a.step(actions)
        b.step(actions)
    assert differs  # the random bot's choices follow the seed


def test_a_learner_env_gets_the_learners_actions():
    env = cardvec.LearnerEnv("flip7", 16, opponents="threshold-20", seat="rotate", seed=2)
    for t in range(30):
        actions = bots.act(env, "expected-value", seed=t)
        legal(env, actions)
        env.step(np.where(actions < 0, 0, actions))


def test_bad_arguments_are_errors_that_change_nothing():
    env = cardvec.make("lost-cities", 6, seed=2)
    obs = env.obs.copy()
    with pytest.raises(ValueError, match='unknown lost-cities bot "greedy"; expected one of: '
                       "random, discard-only, safe-heuristic"):
        bots.act(env, "greedy")
    with pytest.raises(ValueError, match="lanes: expected length 6, got 5"):
        bots.act(env, "random", lanes=np.ones(5, dtype=bool))
    with pytest.raises(ValueError, match="lanes must be a bool array"):
        bots.act(env, "random", lanes=np.ones(6, dtype=np.int64))
    with pytest.raises(ValueError, match="lanes must be a 1-D array"):
        bots.act(env, "random", lanes=np.ones((6, 1), dtype=bool))
    with pytest.raises(ValueError, match="seed must be in 0..=18446744073709551615, got -1"):
        bots.act(env, "random", seed=-1)
    with pytest.raises(ValueError, match="a bool"):
        bots.act(env, "random", seed=True)
    with pytest.raises(TypeError, match="seed"):
        bots.act(env, "random", seed="1")
    with pytest.raises(TypeError, match="bot name"):
        bots.act(env, 3)
    with pytest.raises(TypeError, match="BatchEnv or LearnerEnv"):
        bots.act(object(), "random")
    np.testing.assert_array_equal(env.obs, obs)
    with pytest.raises(ValueError, match="remembers between its decisions"):
        bots.act(cardvec.make("151", 2), "minmax_d1w2t")
    with pytest.raises(ValueError, match="unknown flip7 bot"):
        bots.act(cardvec.make("flip7", 2), "threshold-x")


def test_action_values_are_pimcs_and_its_action_is_their_argmax():
    """``bots.action_values``: NaN exactly at the illegal actions and in the lanes not asked,
    the first highest value is the action ``bots.act`` returns for the same name and seed,
    the same values on one and two threads; a batch and a learner view alike."""
    name = "pimc:sims=3,playout=random"
    lanes = np.ones(8, dtype=bool)
    lanes[3] = False
    got = []
    for threads in (1, 2):
        for env in (cardvec.make("lost-cities", 8, seed=4, num_threads=threads),
                    cardvec.LearnerEnv("lost-cities", 8, opponents="safe-heuristic",
                                       seat="rotate", seed=4, num_threads=threads)):
            values = bots.action_values(env, name, lanes=lanes, seed=9)
            assert values.shape == (8, env.num_actions) and values.dtype == np.float32
            mask = env.legal_mask.astype(bool)
            assert np.isnan(values[3]).all()
            keep = lanes.copy()
            np.testing.assert_array_equal(np.isfinite(values[keep]), mask[keep])
            best = np.where(mask, values, -np.inf).argmax(axis=1)
            actions = bots.act(env, name, lanes=lanes, seed=9)
            np.testing.assert_array_equal(actions[keep], best[keep])
            got.append(values)
    np.testing.assert_array_equal(got[0], got[2])
    np.testing.assert_array_equal(got[1], got[3])
    assert not np.array_equal(np.nan_to_num(got[0]), np.nan_to_num(
        bots.action_values(cardvec.make("lost-cities", 8, seed=4), name, lanes=lanes, seed=10)))


def test_action_values_bad_arguments_are_errors():
    env = cardvec.make("lost-cities", 4, seed=2)
    with pytest.raises(ValueError, match="safe-heuristic"):
        bots.action_values(env, "safe-heuristic")
    with pytest.raises(ValueError, match="pimc option"):
        bots.action_values(env, "pimc:sims=0")
    with pytest.raises(ValueError, match="lanes: expected length 4, got 3"):
        bots.action_values(env, "pimc:sims=1", lanes=np.ones(3, dtype=bool))
    with pytest.raises(TypeError, match="pimc bot name"):
        bots.action_values(env, 3)
    with pytest.raises(TypeError, match="BatchEnv or LearnerEnv"):
        bots.action_values(object(), "pimc")
