"""env.torch(): torch tensors over the engine's buffers, no copy, no warning.

Skipped when PyTorch is not installed (scripts/test.sh installs the CPU wheel)."""

import gc
import sys
import warnings

import numpy as np
import pytest

import cardvec

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")

# Small configurations of every registered game.
GAMES = [g["id"] for g in cardvec.games()]


def _make(game_id, n=16, seed=3):
    env = cardvec.make(game_id, n, seed=seed, autoreset=True)
    env.reset()
    return env


def _legal_actions(mask, rng):
    """One uniformly random legal action per lane (mask: numpy [N, A])."""
    u = rng.random(mask.shape) * mask
    return u.argmax(axis=1).astype(np.int64)


@pytest.mark.parametrize("game_id", GAMES)
def test_tensors_share_the_buffers_and_follow_steps(game_id):
    env = _make(game_id)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "non-writable array" would fail here
        t = env.torch()
    assert t.names == (
        "obs",
        "legal_mask",
        "rewards",
        "terminated",
        "truncated",
        "current_player",
        "illegal",
    )
    for name in t.names:
        view, tensor = getattr(env, name), getattr(t, name)
        assert tuple(tensor.shape) == view.shape, name
        assert tensor.data_ptr() == view.ctypes.data, f"{name} is a copy"
        assert not view.flags.writeable, f"{name}: the numpy view must stay read-only"
    assert t.legal_mask.dtype == torch.bool
    assert t.obs.dtype == torch.float32 and t.rewards.dtype == torch.float32
    assert t.current_player.dtype == torch.int32 and t.illegal.dtype == torch.uint8
    rng = np.random.default_rng(0)
    for _ in range(30):
        env.step(_legal_actions(env.legal_mask, rng))
        for name in t.names:
            got = getattr(t, name).numpy()
            want = getattr(env, name)
            if name == "legal_mask":
                want = want.astype(bool)
            np.testing.assert_array_equal(got, want, err_msg=name)


def test_uint8_mask_and_bad_mask_values():
    env = _make("lost-cities")
    m = env.torch(mask="uint8").legal_mask
    assert m.dtype == torch.uint8 and m.data_ptr() == env.legal_mask.ctypes.data
    np.testing.assert_array_equal(m.numpy(), env.legal_mask)
    for bad in ("int8", "BOOL", 1, torch.bool):
        with pytest.raises(ValueError, match="mask must be one of") as e:
            env.torch(mask=bad)
        assert repr(bad) in str(e.value)


def test_step_takes_a_torch_action_tensor():
    """A masked sample drawn in torch steps the environment exactly as the same actions in
    numpy step a twin environment."""
    a, b = _make("flip7", 64), _make("flip7", 64)
    ta = a.torch()
    gen = torch.Generator().manual_seed(0)
    for _ in range(50):
        actions = torch.multinomial(ta.legal_mask.float(), 1, generator=gen).squeeze(1)
        assert actions.dtype == torch.int64
        a.step(actions)
        b.step(actions.numpy().copy())
        # Legal actions only: applied, or ignored by a lane's autoreset.
        assert np.isin(a.illegal, (cardvec.ACTION_APPLIED, cardvec.ACTION_RESET)).all()
        np.testing.assert_array_equal(a.illegal, b.illegal)
        np.testing.assert_array_equal(a.obs, b.obs)
        np.testing.assert_array_equal(a.rewards, b.rewards)


def test_tensors_keep_the_buffers_alive():
    env = _make("holdem", 8)
    t = env.torch()
    obs = t.obs.clone()
    del env
    gc.collect()
    np.testing.assert_array_equal(t.obs.numpy(), obs.numpy())


def test_missing_torch_is_a_clear_import_error(monkeypatch):
    env = _make("lost-cities", 2)
    monkeypatch.setitem(sys.modules, "torch", None)  # `import torch` now fails
    with pytest.raises(ImportError, match=r"env.torch\(\) needs PyTorch"):
        env.torch()


def test_learner_env_tensors():
    env = cardvec.LearnerEnv("lost-cities", 8, opponents="random", seat="rotate", seed=1)
    env.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = env.torch()
    assert t.names == (
        "obs",
        "legal_mask",
        "rewards",
        "terminated",
        "truncated",
        "illegal",
        "seat",
        "episode_return",
        "seat_returns",
        "episode_length",
        "episodes",
        "skipped",
        "skipped_return",
    )
    for name in t.names:
        view, tensor = getattr(env, name), getattr(t, name)
        assert tensor.data_ptr() == view.ctypes.data, f"{name} is a copy"
        assert tuple(tensor.shape) == view.shape
    assert t.legal_mask.dtype == torch.bool and t.episodes.dtype == torch.uint64
    gen = torch.Generator().manual_seed(0)
    for _ in range(200):
        env.step(torch.multinomial(t.legal_mask.float() + 1e-9, 1, generator=gen).squeeze(1))
        np.testing.assert_array_equal(t.obs.numpy(), env.obs)
        np.testing.assert_array_equal(t.episode_return.numpy(), env.episode_return)
        np.testing.assert_array_equal(t.episodes.numpy(), env.episodes)
    assert env.episodes.sum() > 0
    with pytest.raises(ValueError, match="mask must be one of"):
        env.torch(mask="int64")
