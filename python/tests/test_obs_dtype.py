"""Compact observations and masks in Python (issue 19): ``obs_dtype="u8"`` (``obs`` uint8
[N, byte_dim] + ``obs_tail`` float32 [N, tail_dim], ``obs_format``, ``obs_f32()``),
``mask_dtype="bool"`` and ``legal_bits()``, for every registered game and every
configuration the registry lists (``cardvec.games()[i]["configurations"]``).

The central check: an f32 environment and a u8 environment with the same seed, stepped
with the same random legal actions (autoreset on), show the same observations bit for bit
after conversion, both through ``obs_f32()`` (Rust) and through the documented numpy
formula over ``obs_format``. Cheap: 16 lanes, 200 steps per configuration (more until
an episode ends).
"""

import numpy as np
import pytest

import cardvec

CASES = [
    (g["id"], config)
    for g in cardvec.games()
    for config in g["configurations"]
]


def _case_id(case):
    game_id, config = case
    return game_id + "".join(f"-{k}={v}" for k, v in config.items()).replace(" ", "")


@pytest.fixture(params=CASES, ids=[_case_id(c) for c in CASES])
def case(request):
    return request.param


def _bits(a):
    """The float32 array ``a`` as its bit patterns (so that -0.0 != 0.0 and NaN == NaN)."""
    assert a.dtype == np.float32
    return a.view(np.uint32)


def _numpy_expand(env):
    """The float32 rows rebuilt in numpy from ``obs``/``obs_tail`` by ``obs_format``: the
    formula docs/python.md gives (float32 division)."""
    f = env.obs_format
    out = np.empty((env.num_envs, f.dim), np.float32)
    out[:, f.byte_index] = env.obs.astype(np.float32) / f.byte_div
    out[:, f.tail_index] = env.obs_tail
    return out


def _random_legal(mask, rng):
    """One uniformly random legal action per lane (0 where none is legal)."""
    scores = rng.random(mask.shape) * mask
    return scores.argmax(axis=1)


def _unpack(bits, num_actions):
    return np.unpackbits(bits.view(np.uint8), axis=1, bitorder="little")[:, :num_actions]


def test_u8_rows_rebuild_the_f32_rows_bit_for_bit(case):
    game_id, config = case
    n, steps = 16, 200
    f32 = cardvec.make(game_id, n, seed=7, autoreset=True, **config)
    u8 = cardvec.make(game_id, n, seed=7, autoreset=True, obs_dtype="u8", mask_dtype="bool",
                      **config)
    assert (f32.obs_dtype, f32.mask_dtype) == ("f32", "u8")
    assert (u8.obs_dtype, u8.mask_dtype) == ("u8", "bool")
    fmt = u8.obs_format
    assert fmt.dim == u8.obs_dim == f32.obs_dim
    assert fmt.byte_dim + fmt.tail_dim == fmt.dim
    assert fmt.compact_bytes == fmt.byte_dim + 4 * fmt.tail_dim
    assert fmt.byte_index.dtype == np.int64 and fmt.byte_index.shape == (fmt.byte_dim,)
    assert fmt.byte_div.dtype == np.float32 and fmt.byte_div.shape == (fmt.byte_dim,)
    assert fmt.tail_index.dtype == np.int64 and fmt.tail_index.shape == (fmt.tail_dim,)
    # The two tables cover the row once each.
    assert sorted(np.concatenate([fmt.byte_index, fmt.tail_index]).tolist()) == list(
        range(fmt.dim)
    )
    assert u8.obs.dtype == np.uint8 and u8.obs.shape == (n, fmt.byte_dim)
    assert u8.obs_tail.dtype == np.float32 and u8.obs_tail.shape == (n, fmt.tail_dim)
    assert f32.obs.dtype == np.float32 and f32.obs.shape == (n, fmt.dim)
    assert f32.obs_tail.dtype == np.float32 and f32.obs_tail.shape == (n, 0)
    assert u8.legal_mask.dtype == np.bool_ and f32.legal_mask.dtype == np.uint8
    assert f32.mask_words == u8.mask_words == -(-f32.num_actions // 64)

    rng = np.random.default_rng(3)
    out = np.empty((n, fmt.dim), np.float32)
    finished, t = 0, 0
    # At least `steps` steps, and on until some episode ended (a 151 match is long).
    while t < steps or (finished == 0 and t < 20 * steps):
        t += 1
        want = f32.obs
        got = u8.obs_f32()
        assert got.dtype == np.float32 and got.shape == want.shape
        assert np.array_equal(_bits(got), _bits(want)), f"{game_id} step {t}"
        assert np.array_equal(_bits(_numpy_expand(u8)), _bits(want)), f"numpy, step {t}"
        assert u8.obs_f32(out=out) is out and np.array_equal(_bits(out), _bits(want))
        assert np.array_equal(_bits(f32.obs_f32()), _bits(want))
        mask = f32.legal_mask
        assert np.array_equal(u8.legal_mask, mask.astype(bool))
        bits = f32.legal_bits()
        assert bits.dtype == np.uint64 and bits.shape == (n, f32.mask_words)
        assert np.array_equal(_unpack(bits, f32.num_actions), mask)
        assert np.array_equal(u8.legal_bits(), bits)
        actions = _random_legal(mask, rng)
        o1, r1, d1, c1 = f32.step(actions)
        o2, r2, d2, c2 = u8.step(actions)
        assert o1 is f32.obs and o2 is u8.obs and o2.dtype == np.uint8
        assert np.array_equal(r1, r2) and np.array_equal(d1, d2) and np.array_equal(c1, c2)
        finished += int((d1 | c1).sum())
    assert finished > 0, "no episode ended: the autoreset path was not covered"
    assert u8.reset(seed=9) is u8.obs and u8.observe() is u8.obs and u8.batched_obs() is u8.obs
    f32.reset(seed=9)
    assert np.array_equal(_bits(u8.obs_f32()), _bits(f32.obs))
    assert u8.batched_legal_mask() is u8.legal_mask


@pytest.mark.parametrize("config", [{}, {"obs_layout": "channel-major"}])
def test_the_compact_lost_cities_row_is_smaller(config):
    fmt = cardvec.make("lost-cities", 1, obs_dtype="u8", **config).obs_format
    assert fmt.byte_dim + 4 * fmt.tail_dim < 4 * fmt.dim / 3, fmt


def test_every_game_class_takes_obs_dtype_and_mask_dtype():
    for info in cardvec.games():
        cls = getattr(cardvec, info["python_class"])
        env = cls(2, obs_dtype="u8", mask_dtype="bool")
        assert env.obs.dtype == np.uint8 and env.legal_mask.dtype == np.bool_, cls
        assert "obs_dtype='u8'" in repr(env) and "mask_dtype='bool'" in repr(env)
        env = cls(2)
        assert env.obs.dtype == np.float32 and env.legal_mask.dtype == np.uint8, cls
        assert env.obs_dtype == "f32" and env.mask_dtype == "u8"


@pytest.mark.parametrize(
    "value, want",
    [("f32", "f32"), ("float32", "f32"), (np.float32, "f32"), (np.dtype("float32"), "f32"),
     (None, "f32"), ("u8", "u8"), ("uint8", "u8"), (np.uint8, "u8"), (np.dtype("u1"), "u8")],
)
def test_obs_dtype_spellings(value, want):
    assert cardvec.make("kuhn", 2, obs_dtype=value).obs_dtype == want


@pytest.mark.parametrize(
    "value, want",
    [("u8", "u8"), ("uint8", "u8"), (np.uint8, "u8"), (None, "u8"), ("bool", "bool"),
     (np.bool_, "bool"), (bool, "bool")],
)
def test_mask_dtype_spellings(value, want):
    assert cardvec.make("kuhn", 2, mask_dtype=value).mask_dtype == want


@pytest.mark.parametrize("value", ["f16", "float64", "U8", "", np.float64, np.int8, 3, b"u8", [1]])
def test_a_bad_obs_dtype_is_a_value_error_naming_it(value):
    with pytest.raises(ValueError, match=r"obs_dtype must be one of 'f32'.*'u8'.*got ") as e:
        cardvec.make("lost-cities", 2, obs_dtype=value)
    assert repr(value) in str(e.value)
    with pytest.raises(ValueError, match="obs_dtype"):
        cardvec.Flip7(2, obs_dtype=value)
    with pytest.raises(ValueError, match="obs_dtype"):
        cardvec.I151(2, num_players=3, obs_dtype=value)


@pytest.mark.parametrize("value", ["f32", "int8", "bool_", np.int8, np.float32, 1, True])
def test_a_bad_mask_dtype_is_a_value_error_naming_it(value):
    with pytest.raises(ValueError, match=r"mask_dtype must be one of 'u8'.*'bool'.*got ") as e:
        cardvec.make("holdem", 2, mask_dtype=value)
    assert repr(value) in str(e.value)


def test_the_learner_view_refuses_compact_dtypes_and_accepts_the_defaults():
    with pytest.raises(ValueError, match=r"obs_dtype='u8' is not supported.*float32"):
        cardvec.make("lost-cities", 2, opponents="random", obs_dtype="u8")
    with pytest.raises(ValueError, match=r"mask_dtype='bool' is not supported"):
        cardvec.LearnerEnv("kuhn", 2, mask_dtype="bool")
    with pytest.raises(ValueError, match="obs_dtype must be one of"):
        cardvec.LearnerEnv("kuhn", 2, obs_dtype="f16")
    env = cardvec.LearnerEnv("kuhn", 2, obs_dtype="f32", mask_dtype="u8")
    assert env.reset(seed=0).dtype == np.float32


def _address(a):
    return a.__array_interface__["data"][0]


def _rooted_in(view, engine):
    """Whether ``view``'s chain of bases ends at the engine (no copy on the way)."""
    while isinstance(view, np.ndarray):
        view = view.base
    return view is engine


@pytest.mark.parametrize("game_id", ["lost-cities", "holdem", "leduc"])
def test_compact_views_never_move_and_are_read_only(game_id):
    n = 6
    env = cardvec.make(game_id, n, seed=1, obs_dtype="u8", mask_dtype="bool")
    other = cardvec.make(game_id, n, seed=2, obs_dtype="u8")
    names = ("obs", "obs_tail", "legal_mask")
    first = {name: getattr(env, name) for name in names}
    at_start = {name: _address(a) for name, a in first.items()}
    rng = np.random.default_rng(0)

    def check(when):
        for name in names:
            view = getattr(env, name)
            assert view is first[name], f"{name} is a new object after {when}"
            assert _address(view) == at_start[name], f"{name} moved during {when}"
            assert _rooted_in(view, env._engine), name
            assert not view.flags.writeable
            with pytest.raises(ValueError):
                view.setflags(write=True)

    check("construction")
    env.step(_random_legal(env.legal_mask, rng))
    check("step")
    env.reset(seed=5)
    check("reset")
    env.reset_lanes(np.array([True, False] * (n // 2)))
    check("reset_lanes")
    env.gather(np.arange(n)[::-1].copy())
    check("gather")
    env.set_state(0, other.get_state(3))
    check("set_state")
    env.observe()
    check("observe")
    # What set_state put in lane 0 is what the other environment shows in lane 3.
    assert np.array_equal(env.obs[0], other.obs[3])
    assert np.array_equal(env.obs_tail[0], other.obs_tail[3])


def test_the_bool_mask_is_the_uint8_mask_memory():
    env = cardvec.make("flip7", 8, seed=4, mask_dtype="bool")
    plain = cardvec.make("flip7", 8, seed=4)
    mask = env.legal_mask
    assert mask.dtype == np.bool_ and mask.base.dtype == np.uint8
    assert np.shares_memory(mask, mask.base) and _address(mask) == _address(mask.base)
    assert mask.base.base is env._engine
    assert np.array_equal(mask, plain.legal_mask.astype(bool))
    rng = np.random.default_rng(1)
    for _ in range(20):
        actions = _random_legal(plain.legal_mask, rng)
        env.step(actions)
        plain.step(actions)
        assert env.legal_mask is mask  # updated in place
        assert np.array_equal(mask.view(np.uint8), plain.legal_mask)


@pytest.mark.parametrize(
    "method, dtype, width",
    [("obs_f32", np.float32, lambda e: e.obs_dim), ("legal_bits", np.uint64,
                                                    lambda e: e.mask_words)],
)
def test_out_arrays_are_checked_and_nothing_is_written(method, dtype, width):
    env = cardvec.make("lost-cities", 4, seed=0, obs_dtype="u8")
    w = width(env)
    call = getattr(env, method)
    want = call()
    good = np.zeros((4, w), dtype)
    assert call(out=good) is good and np.array_equal(good, want)
    other = np.float64 if dtype is np.float32 else np.int64
    wide = np.full((4, 2 * w), 7, dtype)
    read_only = np.full((4, w), 7, dtype)
    read_only.setflags(write=False)
    bad = [
        np.full((4, w + 1), 7, dtype),
        np.full((3, w), 7, dtype),
        np.full((4 * w,), 7, dtype),
        np.full((4, w), 7, other),
        wide[:, ::2],  # not contiguous
        read_only,
        [[0] * w] * 4,  # not an array
    ]
    for out in bad:
        before = np.array(out, copy=True)
        with pytest.raises(ValueError, match="out must be a C-contiguous writable"):
            call(out=out)
        assert np.array_equal(np.asarray(out), before), "an out array was written"
    assert np.all(wide == 7)


def test_obs_f32_refuses_an_out_aliasing_the_engine():
    torch = pytest.importorskip("torch")
    env = cardvec.make("kuhn", 4, seed=0)
    t = env.torch()
    with pytest.raises(ValueError, match="shares memory"):
        env.obs_f32(out=t.obs.numpy())
    assert torch.equal(t.obs, torch.from_numpy(env.obs_f32()))


def test_torch_views_of_compact_observations():
    torch = pytest.importorskip("torch")
    env = cardvec.make("lost-cities", 4, seed=0, obs_dtype="u8", mask_dtype="bool")
    t = env.torch()
    assert t.names[:3] == ("obs", "obs_tail", "legal_mask")
    assert t.obs.dtype == torch.uint8 and t.obs.data_ptr() == env.obs.ctypes.data
    assert t.obs_tail.dtype == torch.float32 and t.obs_tail.data_ptr() == env.obs_tail.ctypes.data
    assert t.legal_mask.dtype == torch.bool and t.legal_mask.data_ptr() == env.legal_mask.ctypes.data
    assert env.torch(mask="uint8").legal_mask.dtype == torch.uint8
    assert "obs_tail" not in cardvec.make("lost-cities", 4).torch().names


@pytest.mark.parametrize("game_id", ["lost-cities", "holdem"])
def test_the_compact_rollouts_example_runs(game_id, capsys):
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).resolve().parents[2] / "examples" / "compact_rollouts.py"
    spec = importlib.util.spec_from_file_location("compact_rollouts", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main(["--game", game_id, "--envs", "32", "--steps", "16"])
    assert "x smaller" in capsys.readouterr().out


def test_campaign_rollouts_write_float32_rows_whatever_the_obs_dtype(tmp_path):
    from cardvec import campaign

    job = campaign.Rollouts()
    shards = {}
    for dtype in ("f32", "u8"):
        options = job.check("holdem", {"steps": 6, "obs_dtype": dtype, "num_players": 3})
        out = tmp_path / dtype
        job.run_shard("holdem", 5, "x", 0, 8, options, 1, str(out))
        shards[dtype] = np.load(out / "rollouts" / "shard_000000000000.npz")
    f32, u8 = shards["f32"], shards["u8"]
    assert u8["obs"].dtype == np.float32 and f32.files == u8.files
    for name in f32.files:
        assert np.array_equal(f32[name], u8[name]), name

