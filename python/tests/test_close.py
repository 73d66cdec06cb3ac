"""``close()`` on every batch environment, the learner view and the Gymnasium adapters
(issue 27): later calls are a clear ``RuntimeError``, closing twice is allowed, views
taken before stay readable, and the environments are context managers."""

import numpy as np
import pytest

import cardvec


@pytest.mark.parametrize("game_id", [g["id"] for g in cardvec.games()])
def test_a_closed_batch_env_refuses_calls_and_keeps_its_views(game_id):
    env = cardvec.make(game_id, 4, seed=1)
    obs = env.obs
    before = np.array(obs)
    assert not env.closed
    env.close()
    assert env.closed
    env.close()  # twice is fine
    for call in (lambda: env.reset(0), lambda: env.step(np.zeros(4, np.int64)),
                 lambda: env.observe(), lambda: env.get_state(0)):
        with pytest.raises(RuntimeError, match="closed"):
            call()
    np.testing.assert_array_equal(np.array(obs), before)


def test_batch_env_and_learner_view_are_context_managers():
    with cardvec.make("kuhn", 2) as env:
        env.reset(0)
    assert env.closed
    with pytest.raises(RuntimeError, match="closed"):
        env.reset(0)
    with cardvec.LearnerEnv("kuhn", 2, opponents="random") as learner:
        learner.reset(seed=0)
    assert learner.closed
    with pytest.raises(RuntimeError, match="LearnerEnv is closed"):
        learner.step(np.zeros(2, np.int64))


def test_gym_close_closes_the_learner_view():
    cgym = pytest.importorskip("cardvec.gym")
    envs = cgym.make_vec("kuhn", 3)
    envs.reset(seed=0)
    envs.close()
    assert envs.env.closed
    with pytest.raises(RuntimeError, match="closed"):
        envs.step(np.zeros(3, np.int64))
    env = cgym.make("kuhn")
    env.reset(seed=0)
    env.close()
    env.close()
    assert env.env.closed
