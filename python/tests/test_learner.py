"""``cardvec.LearnerEnv`` (and ``cardvec.make(..., opponents=...)``): the learner view of
every game and configuration, with lists of opponents and rotating seats; the views
(types, shapes, the same read-only objects), the reward and episode bookkeeping, next-step
autoreset, illegal actions as no-ops, determinism across threads and chunk sizes, and the
errors that change nothing. (The exact crediting, ply by ply, is replayed in Rust:
tests/learner.rs.)"""

import numpy as np
import pytest

import cardvec
from cardvec import bots

GAMES = cardvec.games()

EXAMPLES = {
    "threshold-<K>": "threshold-23",
    "equity-<N>": "equity-8",
    "minmax_d<D>w<W>[t]": "minmax_d1w2",
}


def cheap_bots(game_id):
    """The game's bots with families filled in, the slow search bots left out."""
    names = [EXAMPLES.get(n, n) for n in bots.names(game_id)]
    return [n for n in names if not n.startswith("minmax_d") or n == "minmax_d1w2"]


def configurations():
    for info in GAMES:
        for i, config in enumerate(info["configurations"]):
            yield pytest.param(info["id"], config, id=f"{info['id']}-{i}")


def opponents_list(game_id, num_players):
    """One opponent per other seat, cycling through the game's bots."""
    names = cheap_bots(game_id)
    return [names[i % len(names)] for i in range(num_players - 1)]


def random_legal(env, rng):
    mask = env.legal_mask.astype(bool)
    scores = rng.random(mask.shape) * mask
    actions = scores.argmax(axis=1).astype(np.int64)
    return actions


VIEWS = {
    "obs": (np.float32, 2),
    "legal_mask": (np.uint8, 2),
    "rewards": (np.float32, 1),
    "terminated": (np.bool_, 1),
    "truncated": (np.bool_, 1),
    "illegal": (np.uint8, 1),
    "seat": (np.int32, 1),
    "episode_return": (np.float32, 1),
    "seat_returns": (np.float32, 2),
    "episode_length": (np.int32, 1),
    "episodes": (np.uint64, 1),
    "skipped": (np.uint64, 1),
    "skipped_return": (np.float64, 1),
}


@pytest.mark.parametrize("game_id,config", list(configurations()))
def test_learner_view_of_every_game_with_opponents_and_rotating_seats(game_id, config):
    n = 24
    probe = cardvec.make(game_id, 1, **config)
    p = probe.num_players
    opponents = opponents_list(game_id, p)
    env = cardvec.make(game_id, n, opponents=opponents, seat="rotate", seed=5, **config)
    assert isinstance(env, cardvec.LearnerEnv)
    assert (env.game_id, env.num_envs, env.num_players) == (game_id, n, p)
    assert (env.num_actions, env.obs_dim) == (probe.num_actions, probe.obs_dim)
    assert env.opponents == opponents and env.learner_seat == "rotate"
    assert env.config == probe.config and len(env) == n
    views = {name: getattr(env, name) for name in VIEWS}
    for name, (dtype, ndim) in VIEWS.items():
        arr = views[name]
        assert arr.dtype == dtype and arr.ndim == ndim and arr.shape[0] == n, name
        assert not arr.flags.writeable, name
    assert env.obs.shape == (n, env.obs_dim) and env.legal_mask.shape == (n, env.num_actions)

    rng = np.random.default_rng(0)
    running = np.zeros(n)  # the rewards of the current episode, summed here
    decisions = np.zeros(n, dtype=np.int64)
    finished = 0
    for t in range(250):
        was_done = (env.terminated | env.truncated).copy()
        before_obs, before_mask = env.obs.copy(), env.legal_mask.copy()
        before_eps = env.episodes.copy()
        actions = random_legal(env, rng)
        probe_illegal = (np.arange(n) % 5 == t % 5) & ~was_done
        actions[probe_illegal] = env.num_actions + 7
        obs, rewards, terminated, truncated = env.step(actions)
        assert obs is views["obs"] and rewards is views["rewards"]
        assert terminated is views["terminated"] and truncated is views["truncated"]
        for name in VIEWS:
            assert getattr(env, name) is views[name]
        done = terminated | truncated
        # Autoreset: the step after a finished lane deals a new game, reward 0.
        assert (env.illegal[was_done] == cardvec.ACTION_RESET).all()
        assert (rewards[was_done] == 0).all()
        # An illegal action: a flagged no-op.
        assert (env.illegal[probe_illegal] == cardvec.ACTION_ILLEGAL).all()
        assert (rewards[probe_illegal] == 0).all()
        np.testing.assert_array_equal(obs[probe_illegal], before_obs[probe_illegal])
        np.testing.assert_array_equal(env.legal_mask[probe_illegal], before_mask[probe_illegal])
        assert not done[probe_illegal].any()
        applied = ~was_done & ~probe_illegal
        assert (env.illegal[applied] == cardvec.ACTION_APPLIED).all()
        # Bookkeeping: returns and lengths of the episode, seats by rotation.
        running[was_done] = 0
        decisions[was_done] = 0
        running += rewards
        decisions += applied
        np.testing.assert_allclose(env.episode_return, running, rtol=1e-5, atol=1e-3)
        assert env.seat_returns.shape == (n, p)
        # The learner's column is its return once it has played (before its first
        # decision, rewards it already received wait for its first step's reward).
        played = env.episode_length > 0
        learner_column = env.seat_returns[np.arange(n), env.seat]
        np.testing.assert_allclose(learner_column[played], env.episode_return[played],
                                   rtol=1e-5, atol=1e-3)
        np.testing.assert_array_equal(env.episode_length, decisions)
        assert (env.episodes >= before_eps).all()
        game_index = env.episodes.astype(np.int64) - done
        np.testing.assert_array_equal(env.seat, (np.arange(n) + game_index) % p)
        assert (env.legal_mask[done] == 0).all()
        assert env.legal_mask[~done].any(axis=1).all()
        finished += int(done.sum())
    assert finished + int(env.skipped.sum()) <= int(env.episodes.sum())
    if game_id != "151":  # 151 matches run to 151 points: longer than this test
        assert finished > 0


def test_zero_sum_returns_are_the_seats_results():
    env = cardvec.LearnerEnv("holdem", 64, opponents="call-station", seed=1)
    rng = np.random.default_rng(1)
    returns = []
    for _ in range(200):
        env.step(random_legal(env, rng))
        done = env.terminated | env.truncated
        returns += list(env.episode_return[done])
        # Every seat's result: zero-sum, the learner's column its return.
        np.testing.assert_allclose(env.seat_returns[done].sum(axis=1), 0.0, atol=1e-4)
    returns = np.array(returns)
    assert (returns > 0).any() and (returns < 0).any()
    # Against a call station (never bets nor raises), a learner that folds whenever it may
    # and checks otherwise never puts more than the big blind in: every result lies in
    # [-1, 1] big blinds, and it loses its blind when it folds.
    env = cardvec.LearnerEnv("holdem", 64, opponents="call-station", seat=0, seed=2)
    results = []
    for _ in range(100):
        fold, check = cardvec.holdem.FOLD, cardvec.holdem.CHECK_CALL
        env.step(np.where(env.legal_mask[:, fold] == 1, fold, check))
        assert (env.illegal != cardvec.ACTION_ILLEGAL).all()
        results += list(env.episode_return[env.terminated])
    results = np.array(results)
    assert len(results) > 100 and (np.abs(results) <= 1).all()
    assert (results == -0.5).any() and (results == 1).any()


@pytest.mark.parametrize("game_id", [g["id"] for g in GAMES])
def test_trajectories_do_not_depend_on_threads_or_chunk_size(game_id):
    def run(num_threads, chunk_size):
        env = cardvec.LearnerEnv(game_id, 37, opponents="random", seat="rotate", seed=9,
                                 num_threads=num_threads, chunk_size=chunk_size)
        rng = np.random.default_rng(4)
        out = [tuple(getattr(env, v).copy() for v in VIEWS)]
        for _ in range(80):
            env.step(random_legal(env, rng))
            out.append(tuple(getattr(env, v).copy() for v in VIEWS))
        return out

    base = run(1, 64)
    for other in (run(2, 1), run(2, 5), run(1, 3)):
        for step, (x, y) in enumerate(zip(base, other)):
            for name, a, b in zip(VIEWS, x, y):
                np.testing.assert_array_equal(a, b, err_msg=f"{name} at step {step}")


def test_reset_replays_the_same_games():
    env = cardvec.LearnerEnv("lost-cities", 16, opponents="safe-heuristic", seed=3)

    def play():
        rng = np.random.default_rng(7)
        seen = [env.obs.copy()]
        for _ in range(50):
            env.step(random_legal(env, rng))
            seen.append(env.obs.copy())
        return seen

    env.reset(seed=11)
    first = play()
    assert env.seed == 11
    env.reset()  # the last seed again
    for a, b in zip(first, play()):
        np.testing.assert_array_equal(a, b)
    obs = env.reset(seed=12)
    assert obs is env.obs and (env.episodes == 0).all() and (env.rewards == 0).all()
    assert not np.array_equal(obs, first[0])


def test_fixed_seat_and_default_opponents():
    env = cardvec.LearnerEnv("flip7", 8, seat=2, num_players=4)
    assert env.opponents == ["random"] * 3 and env.learner_seat == 2
    assert (env.seat == 2).all()
    assert "opponents=" in repr(env)
    env = cardvec.make("151", 4, opponents=["greedy", "medium", "random"], seat=1, num_players=4)
    assert env.opponents == ["greedy", "medium", "random"] and (env.seat == 1).all()


def test_hands_decided_before_the_learner_acts_are_skipped_and_counted():
    # Stacks of one chip: every hand is all-in from the blinds, over as dealt. The learner
    # never decides; after the redeal limit the lane is shown truncated.
    env = cardvec.LearnerEnv("holdem", 4, opponents="random", num_players=2, stacks=[1, 1])
    assert env.truncated.all() and not env.terminated.all()
    assert (env.episode_length == 0).all() and (env.legal_mask == 0).all()
    assert (env.skipped == env.episodes - 1).all() and (env.episodes > 1).all()
    env.step(np.zeros(4, dtype=np.int64))
    assert (env.illegal == cardvec.ACTION_RESET).all()
    # Heads-up with a folding-prone small blind: some hands end before the big blind acts.
    env = cardvec.LearnerEnv("holdem", 64, opponents="random", seat=1, seed=3)
    rng = np.random.default_rng(2)
    for _ in range(60):
        env.step(random_legal(env, rng))
    assert env.skipped.sum() > 0
    assert env.skipped_return.sum() > 0  # the blinds the small blind gave up


def test_make_without_opponents_is_a_batch_env():
    env = cardvec.make("flip7", 4, opponents=None)
    assert type(env) is cardvec.Flip7
    with pytest.raises(ValueError, match="give opponents="):
        cardvec.make("flip7", 4, seat=1)
    with pytest.raises(ValueError, match="autoreset= is not an argument of the learner view"):
        cardvec.make("flip7", 4, opponents="random", autoreset=True)
    with pytest.raises(ValueError, match="observe="):
        cardvec.make("flip7", 4, opponents="random", observe=False)


def test_bad_arguments_are_errors():
    def make(**kw):
        return cardvec.LearnerEnv("lost-cities", 4, **kw)

    with pytest.raises(ValueError, match="give one bot name for every other seat, or a list of "
                       "1, got a list of 2"):
        make(opponents=["random", "random"])
    with pytest.raises(ValueError, match="list of 2, got a list of 1"):
        cardvec.LearnerEnv("flip7", 4, opponents=["random"], num_players=3)
    with pytest.raises(ValueError, match="list of 1, got a list of 0"):
        make(opponents=[])
    with pytest.raises(ValueError, match="list of 2, got a list of 3"):
        cardvec.LearnerEnv("flip7", 4, opponents=["random"] * 3, num_players=3)
    with pytest.raises(ValueError, match='unknown lost-cities bot "medium"; expected one of: '
                       "random, discard-only, safe-heuristic"):
        make(opponents="medium")
    with pytest.raises(ValueError, match="seat must be in 0..=1, got 2"):
        make(seat=2)
    with pytest.raises(ValueError, match="seat must be in 0..=2, got -1"):
        cardvec.LearnerEnv("flip7", 4, seat=-1)
    with pytest.raises(ValueError, match="seat must be in 0..=1, got 100000000000000000000000"):
        make(seat=10**23)
    with pytest.raises(ValueError, match='seat must be a seat index or "rotate", got "left"'):
        make(seat="left")
    with pytest.raises(ValueError, match="a bool"):
        make(seat=True)
    with pytest.raises(TypeError, match="seat"):
        make(seat=1.0)
    with pytest.raises(TypeError, match="opponents must be a bot name or a list"):
        make(opponents=3)
    with pytest.raises(TypeError, match="opponents must be bot names"):
        make(opponents=[None])
    with pytest.raises(ValueError, match="remembers"):
        cardvec.LearnerEnv("151", 2, opponents="minmax_d1w2t")
    with pytest.raises(ValueError, match="num_envs must be in 1..="):
        cardvec.LearnerEnv("lost-cities", 0)
    with pytest.raises(ValueError, match="unknown option"):
        make(num_players=3)
    with pytest.raises(ValueError, match="unknown game"):
        cardvec.LearnerEnv("chess", 2)
    # Bad actions change nothing.
    env = make(seed=1)
    snapshot = [getattr(env, v).copy() for v in VIEWS]
    with pytest.raises(ValueError, match="actions: expected length 4, got 3"):
        env.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="integer dtype"):
        env.step(np.zeros(4, dtype=np.float32))
    with pytest.raises(ValueError, match="integer dtype"):
        env.step(np.zeros(4, dtype=bool))
    for v, before in zip(VIEWS, snapshot):
        np.testing.assert_array_equal(getattr(env, v), before, err_msg=v)
    # Out-of-range actions are flagged no-ops, not errors.
    env.step(np.array([-1, 2**40, 95, 96]))
    assert (env.illegal[[0, 1, 3]] == cardvec.ACTION_ILLEGAL).all()


def test_max_steps_truncates_at_the_same_ply_as_the_batch_class():
    """``max_steps`` counts the plies of every seat (the learner's and the bots'), as a batch
    class counts its lane's actions: a Lost Cities game (always longer than 9 plies) cut
    at 9 plies shows the learner truncated after its 5th decision from seat 0 (plies 1, 3,
    5, 7, 9) and its 4th from seat 1."""
    for seat, decisions in ((0, 5), (1, 4)):
        env = cardvec.make("lost-cities", 6, opponents="random", seat=seat, max_steps=9, seed=2)
        assert env.max_steps == 9
        rng = np.random.default_rng(seat)
        for k in range(1, decisions + 1):
            assert not env.truncated.any()
            env.step(random_legal(env, rng))
        assert env.truncated.all() and not env.terminated.any()
        assert (env.episode_length == decisions).all()
        assert (env.legal_mask == 0).all()
        env.step(random_legal(env, rng))  # next-step autoreset, a fresh count
        assert (env.illegal == 3).all() and not env.truncated.any()
    assert cardvec.LearnerEnv("kuhn", 2).max_steps is None
    # A limit no game reaches changes nothing.
    a = cardvec.LearnerEnv("kuhn", 8, seed=4, max_steps=3)
    b = cardvec.LearnerEnv("kuhn", 8, seed=4)
    rng_a, rng_b = np.random.default_rng(0), np.random.default_rng(0)
    for _ in range(20):
        a.step(random_legal(a, rng_a))
        b.step(random_legal(b, rng_b))
        for view in VIEWS:
            assert np.array_equal(getattr(a, view), getattr(b, view)), view


@pytest.mark.parametrize(
    "value, error, message",
    [(0, ValueError, "max_steps must be in 1..=4294967295, got 0"),
     (-1, ValueError, "got -1"), (2**32, ValueError, "got 4294967296"),
     (True, ValueError, "a bool"), (1.5, TypeError, "max_steps")],
)
def test_bad_max_steps_is_refused(value, error, message):
    with pytest.raises(error, match=message):
        cardvec.LearnerEnv("kuhn", 2, max_steps=value)
