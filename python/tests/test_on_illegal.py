"""``on_illegal`` (issue 27): a lane fed only illegal actions ends by the documented rule
under each mode, in every registered game's batch class, in the learner view and in the
Gymnasium vector env, whose ``info["illegal"]`` flags the lanes (docs/architecture.md,
"Illegal actions")."""

import numpy as np
import pytest

import cardvec

GAMES = [g["id"] for g in cardvec.games()]
N = 12
LIMIT = 5


def refused(env) -> np.ndarray:
    """An action each lane refuses: a masked-out id, else the first id past the space."""
    mask = np.asarray(env.legal_mask).astype(bool)
    out = np.full(len(mask), env.num_actions, dtype=np.int64)
    for i, row in enumerate(mask):
        off = np.flatnonzero(~row)
        if len(off):
            out[i] = off[0]
    return out


def live(env) -> np.ndarray:
    return np.flatnonzero(~(np.asarray(env.terminated) | np.asarray(env.truncated)))


def outputs(env):
    return [np.array(a, copy=True) for a in (env.obs, env.legal_mask, env.rewards,
                                              env.terminated, env.truncated, env.illegal)]


@pytest.mark.parametrize("game", GAMES)
def test_noop_counts_toward_max_steps(game):
    env = cardvec.make(game, N, seed=1, max_steps=LIMIT)
    assert env.on_illegal == "noop"
    lanes = live(env)
    states = [env.get_state(int(i)) for i in lanes]
    for t in range(1, LIMIT + 1):
        env.step(refused(env))
        assert (env.illegal[lanes] == cardvec.ACTION_ILLEGAL).all()
        assert (env.rewards[lanes] == 0).all()
        assert not env.terminated[lanes].any()
        assert (env.truncated[lanes] == (t == LIMIT)).all(), t
    assert [env.get_state(int(i)) for i in lanes] == states
    env.step(refused(env))
    assert (env.illegal[lanes] == cardvec.ACTION_FINISHED).all()


@pytest.mark.parametrize("game", GAMES)
def test_raise_names_the_lanes_and_changes_nothing(game):
    env = cardvec.make(game, N, seed=2, on_illegal="raise")
    lanes = live(env)
    assert len(lanes)
    before = outputs(env)
    states = [env.get_state(i) for i in range(N)]
    actions = refused(env)
    with pytest.raises(cardvec.IllegalActionError) as info:
        env.step(actions)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.lanes == [int(i) for i in lanes]
    assert err.actions == [int(actions[i]) for i in lanes]
    assert err.count == len(lanes)
    assert f"lane {lanes[0]} action {actions[lanes[0]]}" in str(err)
    for a, b in zip(before, outputs(env)):
        np.testing.assert_array_equal(a, b)
    assert [env.get_state(i) for i in range(N)] == states


@pytest.mark.parametrize("game", GAMES)
def test_lose_ends_the_lane_with_the_worst_result(game):
    env = cardvec.make(game, N, seed=3, on_illegal="lose")
    lanes = live(env)
    offenders = np.array(env.current_player)[lanes]
    env.step(refused(env))
    assert env.terminated[lanes].all() and not env.truncated[lanes].any()
    assert (env.illegal[lanes] == cardvec.ACTION_ILLEGAL).all()
    assert not np.asarray(env.legal_mask)[lanes].any()
    rows = np.asarray(env.rewards)[lanes]
    worst = rows[np.arange(len(lanes)), offenders]
    assert (worst[:, None] <= rows).all()
    if env.zero_sum:
        np.testing.assert_allclose(rows.sum(axis=1), 0.0, atol=1e-4)
    env.step(refused(env))
    assert (env.illegal[lanes] == cardvec.ACTION_FINISHED).all()


def test_known_forfeits_and_bad_values():
    env = cardvec.make("kuhn", 4, on_illegal="lose")
    env.step(np.full(4, 7))
    np.testing.assert_array_equal(env.rewards[np.arange(4), env.current_player], -2.0)
    with pytest.raises(ValueError, match="noop, raise, lose"):
        cardvec.make("kuhn", 2, on_illegal="ignore")
    with pytest.raises(ValueError, match="on_illegal must be one of"):
        cardvec.LostCities(2, on_illegal=1)
    assert cardvec.LostCities(2, on_illegal=None).on_illegal == "noop"


@pytest.mark.parametrize("game", GAMES)
def test_learner_view_modes(game):
    env = cardvec.make(game, N, opponents="random", seat="rotate", seed=4, max_steps=LIMIT)
    lanes = live(env)
    cut = np.zeros(N, dtype=bool)
    for _ in range(LIMIT):
        env.step(refused(env))
        on = lanes[~cut[lanes]]
        assert (env.illegal[on] == cardvec.ACTION_ILLEGAL).all()
        assert not env.terminated[on].any()
        cut[on] |= env.truncated[on]
    assert cut[lanes].all(), "every lane fed only illegal actions was truncated"

    env = cardvec.make(game, N, opponents="random", seed=4, on_illegal="raise")
    before = outputs(env)
    with pytest.raises(cardvec.IllegalActionError):
        env.step(refused(env))
    for a, b in zip(before, outputs(env)):
        np.testing.assert_array_equal(a, b)

    env = cardvec.LearnerEnv(game, N, seed=4, on_illegal="lose")
    assert env.on_illegal == "lose"
    lanes = live(env)
    env.step(refused(env))
    assert env.terminated[lanes].all()
    assert (env.illegal[lanes] == cardvec.ACTION_ILLEGAL).all()


def test_gym_vector_info_illegal():
    gym = pytest.importorskip("cardvec.gym")
    envs = gym.make_vec("lost-cities", 4, seed=0, max_steps=3)
    obs, info = envs.reset(seed=0)
    mask = info["action_mask"]
    actions = np.array([np.flatnonzero(m)[0] for m in mask])
    actions[1] = np.flatnonzero(~mask[1])[0]  # lane 1 illegal
    _, rewards, terminated, truncated, info = envs.step(actions)
    np.testing.assert_array_equal(info["illegal"], [False, True, False, False])
    assert info["_illegal"].all()
    assert rewards[1] == 0 and not terminated[1]
    # Only illegal actions from a fresh deal: every lane is truncated by max_steps (plies
    # of every seat, the illegal ones counted) within max_steps steps, never terminated.
    envs.reset(seed=1)
    seen = np.zeros(4, bool)
    for _ in range(3):
        _, _, terminated, truncated, info = envs.step(np.full(4, 10_000))
        assert not (terminated & ~seen).any()
        seen |= truncated
    assert seen.all()

    envs = gym.make_vec("kuhn", 3, seed=0, on_illegal="lose")
    envs.reset(seed=0)
    _, rewards, terminated, truncated, info = envs.step(np.full(3, 5))
    assert info["illegal"].all() and terminated.all()
    np.testing.assert_array_equal(rewards, -2.0)

    envs = gym.make_vec("kuhn", 3, seed=0, on_illegal="raise")
    envs.reset(seed=0)
    with pytest.raises(cardvec.IllegalActionError):
        envs.step(np.full(3, 5))

    env = gym.make("kuhn", on_illegal="lose")
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(9)
    assert info["illegal"] and terminated and reward == -2.0
