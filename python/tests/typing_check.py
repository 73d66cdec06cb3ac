"""A typed user of the API, checked by ``mypy --strict --enable-error-code deprecated``
against the stubs of the installed package (scripts/test.sh) and also run as a script.

``assert_type`` pins what the stubs say; each ``# type: ignore[code]`` marks a call the stubs
must reject (``--strict`` reports an ignore that is no longer needed, so a stub that stops
rejecting it fails the check)."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

import cardvec
from cardvec import gym as cardvec_gym
from cardvec import holdem, i151
from cardvec.pettingzoo import flip7_v0


def play_random(env: cardvec.BatchEnv, steps: int, seed: int) -> float:
    """Random legal actions for ``steps`` steps; the total reward of seat 0."""
    rng = np.random.default_rng(seed)
    obs = env.reset(seed=seed)
    assert_type(obs, npt.NDArray[np.float32])
    total = 0.0
    for _ in range(steps):
        scores = rng.random(env.legal_mask.shape) * env.legal_mask
        actions = scores.argmax(axis=1)
        obs, rewards, terminated, truncated = env.step(actions)
        assert_type(rewards, npt.NDArray[np.float32])
        assert_type(terminated, npt.NDArray[np.bool_])
        total += float(rewards[:, 0].sum())
        done = terminated | truncated
        if done.any():
            env.reset_lanes(done)
    return total


def main() -> None:
    env = cardvec.LostCities(64, seed=0, autoreset=True)
    assert_type(env, cardvec.LostCities)
    flip7 = cardvec.Flip7(16, seed=1, num_players=5, max_rounds=None)
    game151 = cardvec.I151(8, num_players=3, reward="match-outcome")
    nlhe = cardvec.NoLimitHoldem(8, num_players=6, stacks=[100] * 6, raise_fractions=[0.5, 1.0])
    by_id = cardvec.make("flip7", 4, num_players=4)
    assert_type(by_id, cardvec.BatchEnv)
    for e in (env, flip7, game151, nlhe, by_id):
        play_random(e, 20, seed=3)

    info = cardvec.games()[0]
    assert_type(info["players"], tuple[int, int])
    names: list[str] = [o["name"] for g in cardvec.games() for o in g["options"]]
    assert "num_players" in names

    state: bytes = env.get_state(np.int64(0))
    env.set_state(1, state)
    counts: int = len(env) + env.num_actions + env.obs_dim + env.state_size
    assert counts > 0 and env.game_id == "lost-cities" and env.num_players == 2

    value = holdem.evaluate("AsKsQsJsTs")
    assert_type(value.rank, int)
    assert value > holdem.evaluate([0, 1, 2, 3, 5])
    ranks, categories = holdem.evaluate_batch(np.array([[0, 1, 2, 3, 5]]))
    assert_type(ranks, npt.NDArray[np.uint16])
    assert_type(holdem.raise_to(40), int)
    assert_type(holdem.raise_to(np.array([40, 60], dtype=np.int64)), npt.NDArray[np.int64])
    bounds = holdem.legal_bounds(nlhe)
    assert_type(bounds, npt.NDArray[np.int64])
    result = holdem.equity(["AsAh", "KdKc"], board="2c7d9h", exact=True)
    assert_type(result["equity"], list[float])

    game = cardvec.Flip7Game(num_players=4, seed=5)
    assert_type(game.step(cardvec.flip7.HIT), bool)
    assert_type(i151.official_order(7), npt.NDArray[np.uint8])

    raw = flip7_v0.raw_env(num_players=3)
    raw.reset(seed=2)
    assert_type(raw.possible_agents, list[str])
    assert_type(raw.game, cardvec.Flip7Game)
    mask = raw.observe(raw.agent_selection)["action_mask"]
    raw.step(int(np.flatnonzero(mask)[0]))

    learner = cardvec.make("lost-cities", 4, opponents="safe-heuristic", seat="rotate")
    assert_type(learner, cardvec.LearnerEnv)
    assert_type(learner.reset(seed=1), npt.NDArray[np.float32])
    bot_moves = cardvec.bots.act(learner, "random", seed=3)
    assert_type(bot_moves, npt.NDArray[np.int64])
    _, rewards, _, _ = learner.step(bot_moves)
    assert_type(rewards, npt.NDArray[np.float32])
    assert_type(learner.episode_return, npt.NDArray[np.float32])
    assert_type(cardvec.bots.names("flip7"), list[str])
    assert_type(cardvec.make("flip7", 4), cardvec.BatchEnv)

    venv = cardvec_gym.make_vec("flip7", 4, opponents=["random", "expected-value"], seed=0)
    obs, vinfo = venv.reset(seed=0)
    assert_type(obs, npt.NDArray[np.float32])
    venv.step(vinfo["action_mask"].argmax(axis=1))
    single = cardvec_gym.make("lost-cities", opponents="random")
    _, sinfo = single.reset(seed=0)
    assert_type(single.step(int(sinfo["action_mask"].argmax()))[2], bool)



def rejected(env: cardvec.LostCities) -> None:
    """Never called: calls that the stubs must reject (each fails at run time too)."""
    cardvec.Flip7(4, num_player=5)  # type: ignore[call-arg]
    cardvec.I151(4, reward="points")  # type: ignore[call-overload]
    cardvec.LostCities("64")  # type: ignore[arg-type]
    env.obs = env.obs  # type: ignore[misc]
    cardvec.I151P2(4)  # type: ignore[deprecated]
    holdem.evaluate(1.5)  # type: ignore[arg-type]
    cardvec.LearnerEnv("lost-cities", 4, seat=1.5)  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
