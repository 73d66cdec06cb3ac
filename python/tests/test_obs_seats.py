"""Every seat's rows in Python (issue 29): ``obs_seats="all"`` makes ``obs`` a read-only
float32 view ``[num_envs, num_players, obs_dim]``, row ``[i, s]`` lane i as seat s sees it,
for every registered game and configuration. Checked against ``observe_as`` (the game's own
observation) for every lane and seat after every step, and the acting seat's row against an
environment with the default ``obs_seats="acting"`` stepped beside it. Cheap: 8 lanes, 60
steps per configuration.
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


def _random_legal(mask, rng):
    scores = rng.random(mask.shape) * mask
    return scores.argmax(axis=1)


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_every_seats_rows_are_its_observations(case):
    game_id, config = case
    seats = cardvec.make(game_id, 8, seed=4, autoreset=True, obs_seats="all", **config)
    acting = cardvec.make(game_id, 8, seed=4, autoreset=True, **config)
    n, p, d = seats.num_envs, seats.num_players, seats.obs_dim
    assert seats.obs_seats == "all" and acting.obs_seats == "acting"
    assert seats.obs.shape == (n, p, d) and seats.obs.dtype == np.float32
    assert not seats.obs.flags.writeable
    assert "obs_seats='all'" in repr(seats)
    view = seats.obs
    rng = np.random.default_rng(0)
    for _ in range(60):
        actions = _random_legal(acting.legal_mask, rng)
        seats.step(actions)
        acting.step(actions)
        assert seats.obs is view
        for i in range(n):
            for s in range(p):
                want = seats.observe_as(i, s)
                assert np.array_equal(view[i, s].view(np.uint32), want.view(np.uint32)), (i, s)
            cp = acting.current_player[i]
            if 0 <= cp < p:
                assert np.array_equal(view[i, cp], acting.obs[i])


def test_obs_seats_is_validated():
    with pytest.raises(ValueError, match="acting"):
        cardvec.make("kuhn", 2, obs_seats="both")
    with pytest.raises(ValueError, match="obs_seats"):
        cardvec.make("kuhn", 2, obs_seats=3)
    with pytest.raises(ValueError, match="obs_seats"):
        cardvec.make("kuhn", 2, obs_seats="all", obs_dtype="u8")
    env = cardvec.make("kuhn", 2, obs_seats="all")
    with pytest.raises(ValueError, match="obs_seats"):
        env.obs_f32()
    assert cardvec.make("kuhn", 2, obs_seats=None).obs_seats == "acting"


def test_the_learner_view_accepts_obs_seats_at_its_default_only():
    with pytest.raises(ValueError, match=r"obs_seats='all' is not supported.*learner's seat"):
        cardvec.LearnerEnv("lost-cities", 2, obs_seats="all")
    with pytest.raises(ValueError, match=r"obs_seats='all' is not supported"):
        cardvec.make("lost-cities", 2, opponents="random", obs_seats="all")
    with pytest.raises(ValueError, match="acting"):
        cardvec.LearnerEnv("kuhn", 2, obs_seats="both")
    env = cardvec.LearnerEnv("kuhn", 2, obs_seats="acting")
    assert env.reset(seed=0).shape == (2, env.obs_dim)
