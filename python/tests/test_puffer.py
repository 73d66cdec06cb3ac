"""cardvec.puffer: the PufferLib native env, through PufferLib's own vectorization.

Skipped when PufferLib is not installed (scripts/test.sh installs pufferlib-core)."""

import numpy as np
import pytest

import cardvec

pufferlib = pytest.importorskip("pufferlib", reason="PufferLib is not installed")
import pufferlib.vector  # noqa: E402

import cardvec.puffer  # noqa: E402

CASES = [
    ("lost-cities", "safe-heuristic", {}),
    ("flip7", ["threshold-25", "expected-value"], {}),
    ("holdem", "call-station", {"num_players": 3}),
]
IDS = [c[0] for c in CASES]


def _masked_random(mask, rng):
    return (rng.random(mask.shape) * mask).argmax(axis=-1).astype(np.int32)


def _check_against_twin(obs, rewards, terminals, truncations, twin, obs_dim):
    np.testing.assert_array_equal(obs[:, :obs_dim], twin.obs)
    np.testing.assert_array_equal(obs[:, obs_dim:], twin.legal_mask.astype(np.float32))
    np.testing.assert_array_equal(rewards, twin.rewards)
    np.testing.assert_array_equal(terminals, twin.terminated)
    np.testing.assert_array_equal(truncations, twin.truncated)


@pytest.mark.parametrize("game_id,opponents,options", CASES, ids=IDS)
def test_native_backend_matches_the_learner_view(game_id, opponents, options):
    n = 16

    def creator():
        return cardvec.puffer.PufferEnv(game_id, n, opponents=opponents, seat="rotate",
                                        seed=5, **options)

    vecenv = pufferlib.vector.make(creator, backend=pufferlib.PufferEnv)
    assert isinstance(vecenv, pufferlib.PufferEnv) and vecenv.num_agents == n
    twin = cardvec.LearnerEnv(game_id, n, opponents=opponents, seat="rotate", **options)
    twin.reset(seed=9)
    vecenv.async_reset(9)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(200):
        obs, rew, term, trunc, _teacher, infos, env_ids, masks = vecenv.recv()
        assert vecenv.observation_space.contains(obs)
        assert masks.all() and (env_ids == np.arange(n)).all()
        _check_against_twin(obs, rew, term, trunc, twin, vecenv.obs_dim)
        _, mask = vecenv.split_obs(obs)
        actions = _masked_random(mask, rng)
        assert vecenv.action_space.contains(actions)
        vecenv.send(actions)
        twin.step(actions)
        done = twin.terminated | twin.truncated
        if done.any():
            (info,) = vecenv.infos
            assert info["episodes"] == done.sum()
            assert info["episode_return"] == pytest.approx(twin.episode_return[done].mean())
            episodes += info["episodes"]
        else:
            assert vecenv.infos == []
    assert episodes > 0


def test_serial_backend_writes_its_shared_buffers():
    """Serial hands each env slices of its own buffers (as Multiprocessing hands shared
    memory): the env must write into them, seeded seed + i."""
    n, k = 8, 3
    vecenv = pufferlib.vector.make(
        cardvec.puffer.PufferEnv,
        env_kwargs={"game_id": "lost-cities", "num_envs": n, "opponents": "random"},
        backend=pufferlib.vector.Serial,
        num_envs=k,
        seed=40,
    )
    assert vecenv.num_agents == n * k
    twins = [cardvec.LearnerEnv("lost-cities", n, opponents="random") for _ in range(k)]
    obs, _ = vecenv.reset(seed=40)
    for i, t in enumerate(twins):
        t.reset(seed=40 + i)
    rng = np.random.default_rng(1)
    d = twins[0].obs_dim
    for _ in range(100):
        for i, t in enumerate(twins):
            rows = slice(i * n, (i + 1) * n)
            np.testing.assert_array_equal(obs[rows, :d], t.obs)
            np.testing.assert_array_equal(obs[rows, d:], t.legal_mask)
        actions = _masked_random(obs[:, d:], rng)
        obs, rew, term, trunc, _ = vecenv.step(actions)
        for i, t in enumerate(twins):
            t.step(actions[i * n : (i + 1) * n])
            np.testing.assert_array_equal(rew[i * n : (i + 1) * n], t.rewards)
            np.testing.assert_array_equal(term[i * n : (i + 1) * n], t.terminated)


def test_mask_out_of_obs_and_bad_arguments():
    env = cardvec.puffer.PufferEnv("flip7", 4, mask_in_obs=False)
    obs, infos = env.reset()
    assert obs.shape == (4, env.obs_dim) and infos == []
    np.testing.assert_array_equal(obs, env.env.obs)
    with pytest.raises(ValueError, match="mask_in_obs=True"):
        env.split_obs(obs)
    with pytest.raises(TypeError, match="mask_in_obs must be a bool"):
        cardvec.puffer.PufferEnv("flip7", 4, mask_in_obs="yes")
    with pytest.raises(ValueError, match="no-such-bot"):
        cardvec.puffer.PufferEnv("flip7", 4, opponents="no-such-bot")
