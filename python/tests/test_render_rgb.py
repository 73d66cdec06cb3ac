"""``render_mode="rgb_array"`` (issue 27, item 8): the PettingZoo environments and the
Gymnasium environments (single and vector) draw their table as a numpy uint8 [H, W, 3] frame
of one fixed size (what video wrappers take), from the same text as ``render_mode="ansi"``;
the vector environment gives one frame per lane (Gymnasium's ``VectorEnv.render``: a tuple);
the frame changes when the state does; ``ansi`` and ``human`` behave as before."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from cardvec import _raster  # noqa: E402

MODULES = ["flip7_v0", "holdem_v0", "i151_v0", "kuhn_v0", "leduc_v0", "lost_cities_v0"]


def _legal_action(env, agent):
    obs = env.observe(agent)
    mask = obs["action_mask"] if isinstance(obs, dict) else None
    return int(np.flatnonzero(mask)[0]) if mask is not None else env.action_space(agent).sample()


@pytest.mark.parametrize("name", MODULES)
def test_pettingzoo_rgb_array_frames(name):
    mod = importlib.import_module(f"cardvec.pettingzoo.{name}")
    assert "rgb_array" in mod.env().metadata["render_modes"]
    env = mod.env(render_mode="rgb_array")
    text_env = mod.env(render_mode="ansi")
    env.reset(seed=4)
    text_env.reset(seed=4)
    frames = [env.render()]
    for _ in range(6):
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            break
        a = _legal_action(env, agent)
        env.step(a)
        text_env.step(a)
        frames.append(env.render())
    for f in frames:
        assert isinstance(f, np.ndarray) and f.dtype == np.uint8
        assert f.shape == _raster.shape() and f.shape[2] == 3
    # The frame is the ansi text drawn; it changes as the table does.
    text = text_env.render()
    assert isinstance(text, str) and text
    np.testing.assert_array_equal(frames[-1], _raster.frame(text))
    assert any(not np.array_equal(frames[0], f) for f in frames[1:])
    assert frames[0].std() > 0  # something is drawn


def test_pettingzoo_ansi_and_human_are_unchanged(capsys):
    from cardvec.pettingzoo import kuhn_v0

    env = kuhn_v0.env(render_mode="human")
    env.reset(seed=1)
    capsys.readouterr()
    assert env.render() is None
    printed = capsys.readouterr().out
    ansi = kuhn_v0.env(render_mode="ansi")
    ansi.reset(seed=1)
    assert printed.strip() == ansi.render().strip()
    plain = kuhn_v0.env()
    plain.reset(seed=1)
    assert plain.render() is None
    with pytest.raises(ValueError, match="rgb_array"):
        kuhn_v0.env(render_mode="video")


@pytest.mark.parametrize("game", ["lost-cities", "flip7", "151", "holdem", "kuhn", "leduc"])
def test_gymnasium_env_draws_its_table(game):
    import cardvec.gym as cgym

    env = cgym.make(game, opponents="random", render_mode="rgb_array")
    _, info = env.reset(seed=3)
    frames = [env.render()]
    text_env = cgym.make(game, opponents="random", render_mode="ansi")
    _, t_info = text_env.reset(seed=3)
    rng = np.random.default_rng(0)
    done = False
    for _ in range(8):
        if done:
            break
        a = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _, _, term, trunc, info = env.step(a)
        text_env.step(a)
        done = term or trunc
        frames.append(env.render())
    for f in frames:
        assert f.dtype == np.uint8 and f.shape == _raster.shape()
    assert any(not np.array_equal(frames[0], f) for f in frames[1:])
    text = text_env.render()
    assert isinstance(text, str) and "seat" in text
    np.testing.assert_array_equal(frames[-1], _raster.frame(text))
    assert cgym.make(game).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        cgym.make(game, render_mode="human")


def test_gymnasium_make_passes_the_render_mode():
    import gymnasium

    import cardvec.gym  # noqa: F401

    env = gymnasium.make("cardvec/KuhnPoker-v0", render_mode="rgb_array", opponents="random")
    env.reset(seed=0)
    frame = env.render()
    assert isinstance(frame, np.ndarray) and frame.shape == _raster.shape()
    env.close()


@pytest.mark.parametrize("game", ["lost-cities", "flip7", "151", "holdem", "kuhn", "leduc"])
def test_gymnasium_vector_env_renders_one_frame_per_lane(game):
    import cardvec.gym as cgym

    seeds = [11, 12, 13]
    envs = cgym.make_vec(game, 3, opponents="random", render_mode="rgb_array")
    text_envs = cgym.make_vec(game, 3, opponents="random", render_mode="ansi")
    _, info = envs.reset(seed=seeds)
    text_envs.reset(seed=seeds)
    frames, texts = envs.render(), text_envs.render()
    assert isinstance(frames, tuple) and isinstance(texts, tuple)
    assert len(frames) == len(texts) == 3
    for f, t in zip(frames, texts):
        assert f.dtype == np.uint8 and f.shape == _raster.shape()
        np.testing.assert_array_equal(f, _raster.frame(t))
    # Lane l shows its own game: the one a one-lane vector env seeded with seeds[l] shows.
    for lane, seed in enumerate(seeds):
        one = cgym.make_vec(game, 1, opponents="random", render_mode="ansi")
        one.reset(seed=[seed])
        assert one.render() == (texts[lane],)
        one.close()
    # A step changes what the lanes show (the learner's own move at least).
    rng = np.random.default_rng(0)
    actions = np.array([int(rng.choice(np.flatnonzero(m))) for m in info["action_mask"]])
    envs.step(actions)
    text_envs.step(actions)
    after = envs.render()
    assert any(not np.array_equal(a, b) for a, b in zip(frames, after))
    assert all(np.array_equal(f, _raster.frame(t)) for f, t in zip(after, text_envs.render()))
    assert cgym.make_vec(game, 2, opponents="random").render() is None
    with pytest.raises(ValueError, match="render_mode"):
        cgym.make_vec(game, 2, render_mode="human")
    envs.close()
    text_envs.close()


def test_gymnasium_make_vec_passes_the_render_mode():
    import gymnasium

    import cardvec.gym  # noqa: F401

    envs = gymnasium.make_vec("cardvec/KuhnPoker-v0", num_envs=2,
                              vectorization_mode="vector_entry_point",
                              render_mode="rgb_array", opponents="random")
    assert envs.render_mode == "rgb_array"
    assert "rgb_array" in envs.metadata["render_modes"]
    envs.reset(seed=0)
    frames = envs.render()
    assert len(frames) == 2 and all(f.shape == _raster.shape() for f in frames)
    envs.close()


def test_frames_keep_one_size_whatever_the_text():
    small = _raster.frame("x")
    big = _raster.frame("\n".join("y" * 500 for _ in range(200)))
    assert small.shape == big.shape == _raster.shape()
    assert not np.array_equal(small, big)
