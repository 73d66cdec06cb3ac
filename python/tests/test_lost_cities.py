"""Tests of the cardvec Python binding, on Lost Cities."""

import gc
import weakref

import numpy as np
import pytest

import cardvec
from cardvec import lost_cities as lc

N_ACTIONS = lc.N_ACTIONS
OBS_DIM = lc.OBS_DIM

BUFFERS = ("obs", "legal_mask", "rewards", "terminated", "truncated", "current_player", "illegal")


def random_legal(env, rng):
    """One uniformly random legal action per lane (0 on lanes with no legal action)."""
    u = rng.random((env.num_envs, env.num_actions)) * env.legal_mask
    return u.argmax(axis=1).astype(np.int64)


def illegal_actions(env, rng):
    """One masked-out action in 0..96 per lane."""
    u = rng.random((env.num_envs, env.num_actions)) * (1 - env.legal_mask)
    return u.argmax(axis=1).astype(np.int64)


def snapshot(env):
    return {name: getattr(env, name).copy() for name in BUFFERS}


def assert_same(a, b):
    for name in BUFFERS:
        np.testing.assert_array_equal(a[name], b[name], err_msg=name)


def data_ptr(arr):
    return arr.__array_interface__["data"][0]


# ---------------------------------------------------------------- shapes and identity


def test_shapes_and_dtypes():
    env = cardvec.LostCities(5, seed=3)
    assert (env.num_envs, env.num_actions, env.obs_dim, env.num_players) == (5, 96, 454, 2)
    assert len(env) == 5
    expected = {
        "obs": ((5, OBS_DIM), np.float32),
        "legal_mask": ((5, N_ACTIONS), np.uint8),
        "rewards": ((5, 2), np.float32),
        "terminated": ((5,), np.bool_),
        "truncated": ((5,), np.bool_),
        "current_player": ((5,), np.int32),
        "illegal": ((5,), np.uint8),
    }
    for name, (shape, dtype) in expected.items():
        arr = getattr(env, name)
        assert isinstance(arr, np.ndarray), name
        assert arr.shape == shape, name
        assert arr.dtype == dtype, name
        assert arr.flags.c_contiguous, name
    assert env.reset().shape == (5, OBS_DIM)
    assert "LostCities(num_envs=5" in repr(env)


def test_constants():
    assert (lc.N_ACTIONS, lc.OBS_DIM, lc.DECK_SIZE, lc.HAND_SIZE) == (96, 454, 60, 8)
    assert lc.N_CARDS == lc.DECK_SIZE  # the old name
    assert (lc.N_COLORS, lc.SLOTS_PER_COLOR, lc.MAX_STEPS, lc.NUM_PLAYERS) == (5, 12, 400, 2)
    assert (cardvec.ACTION_APPLIED, cardvec.ACTION_ILLEGAL) == (0, 1)
    assert (cardvec.ACTION_FINISHED, cardvec.ACTION_RESET) == (2, 3)
    assert cardvec.lost_cities.LostCities is cardvec.LostCities


def test_step_returns_same_objects_every_call():
    env = cardvec.LostCities(16, seed=1, autoreset=True)
    rng = np.random.default_rng(0)
    first = env.step(random_legal(env, rng))
    assert first[0] is env.obs and first[1] is env.rewards
    assert first[2] is env.terminated and first[3] is env.truncated
    for _ in range(20):
        out = env.step(random_legal(env, rng))
        assert all(x is y for x, y in zip(out, first))
    assert env.reset() is env.obs
    assert env.reset(seed=7) is env.obs
    assert env.observe() is env.obs
    for name in BUFFERS:
        assert getattr(env, name) is getattr(env, name), name


def test_outputs_are_read_only_views_of_engine_memory():
    env = cardvec.LostCities(8, seed=2, autoreset=True)
    engine = env._engine
    ptrs = {}
    for name in BUFFERS:
        arr = getattr(env, name)
        # The array does not own its data: its base is the engine object that owns the buffer.
        assert not arr.flags.owndata, name
        assert arr.base is engine, name
        assert not arr.flags.writeable, name
        with pytest.raises(ValueError):
            arr.setflags(write=True)
        with pytest.raises(ValueError):
            arr[0] = 0
        ptrs[name] = data_ptr(arr)

    rng = np.random.default_rng(5)
    before = env.obs.copy()
    obs1 = env.step(random_legal(env, rng))[0]
    obs2 = env.step(random_legal(env, rng))[0]
    # Contents changed in place, memory did not move.
    assert not np.array_equal(before, env.obs)
    assert np.shares_memory(obs1, obs2)
    for name in BUFFERS:
        assert data_ptr(getattr(env, name)) == ptrs[name], name
    # A view kept from before the step sees the new values.
    assert np.array_equal(obs1, env.obs)
    # Gather and reset_lanes also write in place.
    env.gather(np.arange(8)[::-1].copy())
    env.reset_lanes(np.ones(8, dtype=bool))
    env.reset(seed=11)
    for name in BUFFERS:
        assert data_ptr(getattr(env, name)) == ptrs[name], name


def test_views_keep_engine_alive_and_env_is_freed():
    env = cardvec.LostCities(4, seed=0)
    engine_ref = weakref.ref(env._engine)
    obs = env.obs
    expected = obs.copy()
    del env
    gc.collect()
    # The view keeps the engine (and its memory) alive.
    assert engine_ref() is not None
    np.testing.assert_array_equal(obs, expected)
    del obs
    gc.collect()
    assert engine_ref() is None


# ---------------------------------------------------------------- determinism


def run_trace(num_threads, chunk_size, steps=200, n=300, seed=12345):
    env = cardvec.LostCities(
        n, seed=seed, num_threads=num_threads, autoreset=True, chunk_size=chunk_size
    )
    rng = np.random.default_rng(99)
    trace = [b"".join(getattr(env, name).tobytes() for name in BUFFERS)]
    for _ in range(steps):
        env.step(random_legal(env, rng))
        trace.append(b"".join(getattr(env, name).tobytes() for name in BUFFERS))
    return trace


def test_threads_and_chunk_sizes_give_identical_bytes():
    base = run_trace(1, 64)
    for threads, chunk in [(2, 64), (2, 1), (1, 1), (2, 1000), (1, 1000), (None, 7)]:
        other = run_trace(threads, chunk)
        assert len(other) == len(base)
        for i, (a, b) in enumerate(zip(base, other)):
            assert a == b, f"threads={threads} chunk={chunk} differs at step {i}"


def test_reset_seed_is_reproducible():
    a = cardvec.LostCities(32, seed=5)
    b = cardvec.LostCities(32, seed=6)
    assert not np.array_equal(a.obs, b.obs)
    b.reset(seed=5)
    assert b.seed == 5
    assert_same(snapshot(a), snapshot(b))
    rng = np.random.default_rng(1)
    for _ in range(10):
        b.step(random_legal(b, rng))
    b.reset()  # None reuses the last seed
    assert_same(snapshot(a), snapshot(b))


# ---------------------------------------------------------------- illegal and bad input


def test_illegal_actions_are_flagged_noops():
    env = cardvec.LostCities(6, seed=4)
    rng = np.random.default_rng(2)
    for _ in range(5):
        env.step(random_legal(env, rng))
    before = snapshot(env)
    env.step(illegal_actions(env, rng))
    assert (env.illegal == cardvec.ACTION_ILLEGAL).all()
    after = snapshot(env)
    for name in BUFFERS:
        if name not in ("illegal", "rewards"):
            np.testing.assert_array_equal(before[name], after[name], err_msg=name)
    assert (env.rewards == 0).all()

    # Out-of-range values of every integer type are illegal actions too, never errors.
    for actions in [
        np.full(6, 96, dtype=np.int64),
        np.full(6, -1, dtype=np.int64),
        np.full(6, 2**40, dtype=np.int64),
        np.full(6, 2**64 - 1, dtype=np.uint64),
        np.full(6, np.iinfo(np.int64).min, dtype=np.int64),
        np.full(6, 2**32 - 1, dtype=np.uint32),
        np.full(6, -128, dtype=np.int8),
    ]:
        env.step(actions)
        assert (env.illegal == cardvec.ACTION_ILLEGAL).all(), actions.dtype
        assert (env.rewards == 0).all()
        np.testing.assert_array_equal(env.obs, before["obs"])
        np.testing.assert_array_equal(env.legal_mask, before["legal_mask"])

    # Mixed: legal lanes move, illegal lanes are flagged.
    actions = random_legal(env, rng)
    actions[::2] = 1000
    env.step(actions)
    assert (env.illegal[::2] == cardvec.ACTION_ILLEGAL).all()
    assert (env.illegal[1::2] == cardvec.ACTION_APPLIED).all()


@pytest.mark.parametrize(
    "dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
)
def test_any_integer_dtype_is_accepted(dtype):
    a = cardvec.LostCities(10, seed=8)
    b = cardvec.LostCities(10, seed=8)
    rng = np.random.default_rng(3)
    for _ in range(30):
        actions = random_legal(a, rng)
        a.step(actions)
        b.step(actions.astype(dtype))
        assert_same(snapshot(a), snapshot(b))


def test_strided_and_list_actions():
    a = cardvec.LostCities(10, seed=8)
    b = cardvec.LostCities(10, seed=8)
    c = cardvec.LostCities(10, seed=8)
    rng = np.random.default_rng(4)
    for _ in range(20):
        actions = random_legal(a, rng)
        a.step(actions)
        wide = np.zeros(20, dtype=np.int32)
        wide[::2] = actions
        b.step(wide[::2])  # non-contiguous view
        c.step(actions.tolist())  # array-like
        assert_same(snapshot(a), snapshot(b))
        assert_same(snapshot(a), snapshot(c))


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros(4, dtype=np.int64),  # too short
        np.zeros(6, dtype=np.int64),  # too long
        np.zeros(5, dtype=np.float64),
        np.zeros(5, dtype=np.float32),
        np.zeros(5, dtype=bool),
        np.zeros((5, 1), dtype=np.int64),
        np.zeros((1, 5), dtype=np.int64),
        np.int64(3),
        [0.5] * 5,
        ["a"] * 5,
    ],
)
def test_bad_actions_raise_value_error_and_change_nothing(bad):
    env = cardvec.LostCities(5, seed=9)
    rng = np.random.default_rng(6)
    env.step(random_legal(env, rng))
    before = snapshot(env)
    with pytest.raises(ValueError):
        env.step(bad)
    assert_same(before, snapshot(env))


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(num_envs=0),
        dict(num_envs=-3),
        dict(num_envs=2**40),
        dict(num_envs=4, num_threads=0),
        dict(num_envs=4, num_threads=-1),
        dict(num_envs=4, num_threads=100000),
        dict(num_envs=4, chunk_size=0),
        dict(num_envs=4, chunk_size=-5),
        dict(num_envs=4, seed=-1),
        dict(num_envs=4, seed=2**64),
    ],
)
def test_bad_options_raise_value_error(kwargs):
    with pytest.raises(ValueError):
        cardvec.LostCities(**kwargs)


def test_unknown_option_is_value_error_naming_the_accepted_options():
    with pytest.raises(ValueError, match="accepted options: obs_layout"):
        cardvec.LostCities(4, colour="red")


def test_bad_order_lane_mask_and_sources():
    env = cardvec.LostCities(4, seed=10)
    before = snapshot(env)
    order = np.arange(60)
    bad_calls = [
        lambda: env.reset_lane_from_order(0, order[:59]),  # wrong length
        lambda: env.reset_lane_from_order(0, np.r_[order[:59], 0]),  # repeated card
        lambda: env.reset_lane_from_order(0, np.r_[order[:59], 60]),  # card out of range
        lambda: env.reset_lane_from_order(0, np.r_[order[:59], 300]),  # not a u8
        lambda: env.reset_lane_from_order(0, np.r_[order[:59], -1]),
        lambda: env.reset_lane_from_order(0, order.astype(np.float64)),
        lambda: env.reset_lane_from_order(0, order.reshape(6, 10)),
        lambda: env.reset_lane_from_order(4, order),  # lane out of range
        lambda: env.reset_lane_from_order(-1, order),
        lambda: env.reset_lanes(np.ones(3, dtype=bool)),
        lambda: env.reset_lanes(np.ones(4, dtype=np.int64)),
        lambda: env.reset_lanes(np.ones((4, 1), dtype=bool)),
        lambda: env.gather(np.array([0, 1, 2, 4])),
        lambda: env.gather(np.array([0, 1, 2, -1])),
        lambda: env.gather(np.array([0, 1, 2])),
        lambda: env.gather(np.zeros(4, dtype=np.float32)),
        lambda: env.observe_as(4, 0),
        lambda: env.observe_as(0, 2),
        lambda: env.reset(seed=-1),
    ]
    for call in bad_calls:
        with pytest.raises(ValueError):
            call()
        assert_same(before, snapshot(env))


# ---------------------------------------------------------------- lane operations


def test_reset_lane_from_order_deals_the_given_cards():
    env = cardvec.LostCities(3, seed=12)
    order = np.arange(60, dtype=np.uint8)
    env.reset_lane_from_order(1, order)
    # Player 0 holds cards 0..7 (colour 0: three handshakes and 2..6): every card may be
    # played or discarded, drawing from the deck only (all piles are empty).
    expected = np.zeros(N_ACTIONS, dtype=np.uint8)
    for slot in range(8):
        expected[slot * 12 + 0] = 1
        expected[slot * 12 + 6] = 1
    np.testing.assert_array_equal(env.legal_mask[1], expected)
    assert env.current_player[1] == 0
    assert not env.terminated[1] and not env.truncated[1]
    hand = env.obs[1, 0:420:7]  # channel 0 (card-major): my hand
    np.testing.assert_array_equal(np.flatnonzero(hand), np.arange(8))
    # The same order through another integer dtype and lane gives the same lane.
    env.reset_lane_from_order(2, order.astype(np.int64).tolist())
    for name in BUFFERS:
        np.testing.assert_array_equal(getattr(env, name)[1], getattr(env, name)[2], name)


def test_reset_lanes_resets_only_the_chosen_lanes():
    env = cardvec.LostCities(8, seed=13)
    rng = np.random.default_rng(7)
    for _ in range(6):
        env.step(random_legal(env, rng))
    before = snapshot(env)
    mask = np.array([True, False] * 4)
    env.reset_lanes(mask)
    after = snapshot(env)
    for name in BUFFERS:
        np.testing.assert_array_equal(before[name][~mask], after[name][~mask], err_msg=name)
    assert (env.illegal[mask] == 0).all()
    assert (env.rewards[mask] == 0).all()
    assert not env.terminated[mask].any()
    # A new episode: a deal different from both the played position and the first deal.
    fresh = cardvec.LostCities(8, seed=13)
    assert not np.array_equal(after["obs"][mask], before["obs"][mask])
    assert not np.array_equal(after["obs"][mask], fresh.obs[mask])
    # Each lane's fresh deal has 8 cards in hand.
    assert (env.obs[mask, 0:420:7].sum(axis=1) == 8).all()


def test_gather_copies_lanes():
    env = cardvec.LostCities(6, seed=14)
    rng = np.random.default_rng(8)
    for _ in range(7):
        env.step(random_legal(env, rng))
    before = snapshot(env)
    sources = np.array([5, 5, 0, 1, 2, 3], dtype=np.int32)
    env.gather(sources)
    for name in BUFFERS:
        np.testing.assert_array_equal(getattr(env, name), before[name][sources], err_msg=name)
    # Lanes 0 and 1 are now the same game: the same actions keep them equal.
    for _ in range(30):
        actions = random_legal(env, rng)
        actions[1] = actions[0]
        env.step(actions)
        for name in BUFFERS:
            np.testing.assert_array_equal(getattr(env, name)[0], getattr(env, name)[1], name)


def test_observe_as_and_observe_on_step():
    env = cardvec.LostCities(4, seed=15, observe=False)
    assert env.observe_on_step is False
    rng = np.random.default_rng(9)
    frozen = env.obs.copy()
    env.step(random_legal(env, rng))
    np.testing.assert_array_equal(env.obs, frozen)  # not computed during step
    env.observe()
    for lane in range(4):
        row = env.observe_as(lane, int(env.current_player[lane]))
        assert row.dtype == np.float32 and row.shape == (OBS_DIM,)
        np.testing.assert_array_equal(row, env.obs[lane])
    env.observe_on_step = True
    env.step(random_legal(env, rng))
    for lane in range(4):
        np.testing.assert_array_equal(
            env.observe_as(lane, int(env.current_player[lane])), env.obs[lane]
        )


# ---------------------------------------------------------------- whole games


def test_random_games_terminate_zero_sum():
    n = 64
    env = cardvec.LostCities(n, seed=16, autoreset=False)
    rng = np.random.default_rng(10)
    total = np.zeros((n, 2), dtype=np.float64)
    for _ in range(lc.MAX_STEPS + 5):
        done = env.terminated | env.truncated
        if done.all():
            break
        env.step(random_legal(env, rng))
        np.testing.assert_allclose(env.rewards.sum(axis=1), 0.0, atol=1e-5)
        total += env.rewards
        assert (env.illegal[done] == cardvec.ACTION_FINISHED).all()
        assert (env.illegal[~done] == cardvec.ACTION_APPLIED).all()
        assert (env.rewards[done] == 0).all()
        # Every card is in exactly one observation channel (card-major: [60, 7] blocks).
        channels = env.obs[:, :420].reshape(n, 60, 7).sum(axis=2)
        assert (channels == 1).all()
    assert (env.terminated | env.truncated).all()
    assert env.terminated.any()
    np.testing.assert_allclose(total.sum(axis=1), 0.0, atol=1e-4)
    assert (total != 0).any()
    assert (env.legal_mask == 0).all()
    # Finished lanes ignore further steps (autoreset off).
    env.step(np.zeros(n, dtype=np.int64))
    assert (env.illegal == cardvec.ACTION_FINISHED).all()
    assert (env.rewards == 0).all()
    # With autoreset on, the next step starts a new game.
    env.autoreset = True
    assert env.autoreset is True
    env.step(np.zeros(n, dtype=np.int64))
    assert (env.illegal == cardvec.ACTION_RESET).all()
    assert not (env.terminated | env.truncated).any()
    assert (env.legal_mask.sum(axis=1) > 0).all()


def test_gil_is_released_while_stepping():
    """Two threads step one big environment. A call finds the environment busy only when the
    other thread is inside a step at that moment, which needs the GIL released during steps
    (with it held, steps could never overlap another thread's Python code)."""
    import threading

    env = cardvec.LostCities(200_000, seed=17, num_threads=1, autoreset=True)
    actions = np.zeros(env.num_envs, dtype=np.int64)
    errors = []
    stop = threading.Event()

    def attempt():
        try:
            env.step(actions)
        except RuntimeError as e:
            errors.append(str(e))

    def other():
        while not stop.is_set():
            attempt()

    thread = threading.Thread(target=other)
    thread.start()
    for _ in range(5):
        attempt()
    stop.set()
    thread.join()
    assert errors, "no step ever overlapped another thread: is the GIL released?"
    assert all("busy" in e for e in errors)
    # The environment is still usable and consistent afterwards.
    env.step(actions)
    assert env.illegal.max() <= cardvec.ACTION_RESET


def test_obs_layout_option_transposes_the_one_hot_block():
    """obs_layout="card-major" (the default, the seed's [60, 7]) is the transpose of
    "channel-major" ([7, 60]) on the same games; the scalars are the same; a bad word is a
    ValueError naming it."""
    n = 32
    card = cardvec.make("lost-cities", n, seed=5)
    channel = cardvec.make("lost-cities", n, seed=5, obs_layout="channel-major")
    assert card.config["obs_layout"] == "card-major"
    assert channel.config["obs_layout"] == "channel-major"
    rng = np.random.default_rng(3)
    for _ in range(60):
        a = card.obs[:, :420].reshape(n, 60, 7)
        b = channel.obs[:, :420].reshape(n, 7, 60)
        np.testing.assert_array_equal(a, b.transpose(0, 2, 1))
        np.testing.assert_array_equal(card.obs[:, 420:], channel.obs[:, 420:])
        actions = random_legal(card, rng)
        card.step(actions)
        channel.step(actions)
    with pytest.raises(ValueError, match="row-major"):
        cardvec.make("lost-cities", 2, obs_layout="row-major")
