"""A typed user of the API, checked by ``mypy --strict --enable-error-code deprecated``
against the stubs of the installed package (scripts/test.sh) and also run as a script.

``assert_type`` pins what the stubs say; each ``# type: ignore[code]`` marks a call the stubs
must reject (``--strict`` reports an ignore that is no longer needed, so a stub that stops
rejecting it fails the check)."""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from typing_extensions import assert_type

import cardvec
from cardvec import gym as cardvec_gym
import cardvec.pettingzoo
from cardvec import holdem, i151
from cardvec.pettingzoo import flip7_v0, holdem_v0, i151_v0, kuhn_v0, leduc_v0, lost_cities_v0
from cardvec.pettingzoo._parallel import CardvecParallel


def play_random(env: cardvec.BatchEnv, steps: int, seed: int) -> float:
    """Random legal actions for ``steps`` steps; the total reward of seat 0."""
    rng = np.random.default_rng(seed)
    obs = env.reset(seed=seed)
    assert_type(obs, npt.NDArray[np.float32 | np.uint8])
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

    compact = cardvec.LostCities(8, seed=0, obs_dtype="u8", mask_dtype="bool")
    play_random(compact, 5, seed=1)
    rows = compact.obs_f32()
    assert_type(rows, npt.NDArray[np.float32])
    assert_type(compact.obs_f32(out=rows), npt.NDArray[np.float32])
    assert_type(compact.obs_tail, npt.NDArray[np.float32])
    assert_type(compact.legal_bits(), npt.NDArray[np.uint64])
    fmt = compact.obs_format
    assert_type(fmt.byte_index, npt.NDArray[np.int64])
    assert fmt.byte_dim + fmt.tail_dim == fmt.dim == compact.obs_dim
    assert_type(compact.obs_dtype, Literal["f32", "u8"])
    cardvec.Flip7(2, obs_dtype=np.uint8, mask_dtype=bool)

    info = cardvec.games()[0]
    assert_type(info["players"], tuple[int, int])
    names: list[str] = [o["name"] for g in cardvec.games() for o in g["options"]]
    assert "num_players" in names

    state: bytes = env.get_state(np.int64(0))
    env.set_state(1, state)
    counts: int = len(env) + env.num_actions + env.obs_dim + env.state_size
    assert counts > 0 and env.game_id == "lost-cities" and env.num_players == 2

    sol = cardvec.solve.cfr("kuhn", 50, "cfr+", every=10)
    assert_type(sol, cardvec.solve.Solution)
    assert_type(sol.curve, list[tuple[int, float, float]])
    expl: float = cardvec.solve.exploitability("kuhn", sol.policy) + cardvec.solve.nash_conv("kuhn")
    table: dict[str, list[float]] = {k: [d.get(0, 0.0), d.get(1, 0.0)] for k, d in sol.policy.items()}
    assert expl > 0 and cardvec.solve.best_response_value("kuhn", table, 1) > -1

    spot = cardvec.spot.solve("2s3s8sTdKd", 100, 100, "AsQs,5h4h", "KhQh", bets="100%", raises="")
    assert_type(spot, cardvec.spot.Solution)
    assert_type(spot.root_ev, list[float])
    assert_type(spot.root_strategy, npt.NDArray[np.float32])
    locked = cardvec.spot.solve("2s3s8sTdKd", 100, 100, "AsQs,5h4h", "KhQh", bets="100%",
                                raises="", locks=["ip:bet:100=call:1"])
    assert_type(locked.locked_nodes, int)
    assert_type(locked.set_locks([]).locks, list[str])
    assert_type(spot.summary["hand_ev"], list[npt.NDArray[np.float64]])
    assert_type(spot.save("/tmp/typing-check.cvspot"), int)
    again = cardvec.spot.load("/tmp/typing-check.cvspot").solve(max_iterations=5)
    assert_type(again, cardvec.spot.Solution)
    node = again.node("check", cards=None)
    assert_type(node["ev"], list[npt.NDArray[np.float64]])
    assert_type(node["strategy"], npt.NDArray[np.float32] | None)
    assert_type(node["classes"][0]["name"], list[str])
    pe = cardvec.pettingzoo.env("kuhn")
    assert pe is not None and spot.exploitability_pct >= 0 and again.iterations > 0

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
    assert_type(raw.episode_seed, "int | None")
    assert raw.episode_seed == 2

    aec = lost_cities_v0.env(render_mode="ansi")
    aec.reset(seed=np.uint64(7))
    lc = lost_cities_v0.raw_env()
    lc.reset(seed=7)
    assert_type(lc.game.num_actions, int)
    assert_type(lc.game.env, cardvec.BatchEnv)
    assert_type(lc.observe("player_0")["observation"], npt.NDArray[Any])
    assert_type(i151_v0.raw_env(num_players=3, reward="match-outcome").target_score, int)
    i151_v0.env(num_players=4, target_score=60).reset(seed=1)
    kuhn = kuhn_v0.env(render_mode="ansi")
    kuhn.reset(seed=3)
    assert_type(kuhn_v0.raw_env().game.num_actions, int)
    assert_type(leduc_v0.card_name(4), str)

    bots = cardvec.bots.names("lost-cities")
    assert_type(bots, list[str])
    picked = cardvec.bots.act(env, bots[0], lanes=np.ones(len(env), dtype=bool), seed=np.uint64(1))
    assert_type(picked, npt.NDArray[np.int64])
    learner = cardvec.make("flip7", 8, opponents=["random", "random"], seat="rotate", seed=2)
    assert_type(learner, cardvec.LearnerEnv)
    assert_type(cardvec.make("flip7", 8, opponents=None), cardvec.BatchEnv)
    play_learner(learner, steps=30)
    nlhe_learner = cardvec.learner.LearnerEnv("holdem", 4, opponents="random", seat=1, stack=50)
    assert_type(nlhe_learner.learner_seat, "int | Literal['rotate']")
    assert_type(cardvec.bots.act(nlhe_learner, "random"), npt.NDArray[np.int64])
    assert_type(cardvec.bots.action_values(nlhe_learner, "pimc:sims=1", seed=3),
                npt.NDArray[np.float32])
    play_learner(nlhe_learner, steps=10)

    venv = cardvec_gym.make_vec("flip7", 4, opponents=["random", "expected-value"], seed=0)
    obs, vinfo = venv.reset(seed=0)
    assert_type(obs, npt.NDArray[np.float32])
    venv.step(vinfo["action_mask"].argmax(axis=1))
    single = cardvec_gym.make("lost-cities", opponents="random")
    _, sinfo = single.reset(seed=0)
    assert_type(single.step(int(sinfo["action_mask"].argmax()))[2], bool)

    for penv in (
        lost_cities_v0.parallel_env(),
        i151_v0.parallel_env(num_players=3, cards_per_player=5),
        flip7_v0.parallel_env(num_players=4),
        holdem_v0.parallel_env(num_players=3, stack=50),
        kuhn_v0.parallel_env(),
        leduc_v0.parallel_env(render_mode="ansi"),
    ):
        play_parallel(penv, seed=4)


def play_learner(env: cardvec.LearnerEnv, steps: int) -> float:
    """``steps`` steps of the learner's first legal action; the return of finished episodes."""
    obs = env.reset(seed=0)
    assert_type(obs, npt.NDArray[np.float32])
    assert_type(env.opponents, list[str])
    total = 0.0
    for _ in range(steps):
        obs, rewards, terminated, truncated = env.step(env.legal_mask.argmax(axis=1))
        assert_type(rewards, npt.NDArray[np.float32])
        done = terminated | truncated
        total += float(env.episode_return[done].sum())
    assert_type(env.episodes, npt.NDArray[np.uint64])
    assert_type(env.skipped_return, npt.NDArray[np.float64])
    assert len(env) == env.num_envs and env.seat.shape == (env.num_envs,)
    return total


def play_parallel(env: CardvecParallel, seed: int) -> float:
    """One game of first-legal actions under the Parallel API; the total of all rewards."""
    observations, infos = env.reset(seed=seed)
    assert_type(infos, dict[str, dict[str, Any]])
    assert_type(env.aec.episode_seed, "int | None")
    total = 0.0
    while env.agents:
        agent = env.active_agent
        assert_type(agent, "str | None")
        actions: dict[str, int | None] = {a: None for a in env.agents}
        if agent is not None:
            actions[agent] = int(np.flatnonzero(observations[agent]["action_mask"])[0])
        observations, rewards, terminations, truncations, infos = env.step(actions)
        assert_type(rewards, dict[str, float])
        assert_type(terminations, dict[str, bool])
        total += sum(rewards.values())
    env.close()
    return total


def rejected(env: cardvec.LostCities) -> None:
    """Never called: calls that the stubs must reject (each fails at run time too)."""
    cardvec.Flip7(4, num_player=5)  # type: ignore[call-arg]
    cardvec.I151(4, reward="points")  # type: ignore[arg-type]
    cardvec.LostCities("64")  # type: ignore[arg-type]
    cardvec.KuhnPoker(2, obs_dtype="f16")  # type: ignore[arg-type]
    cardvec.Flip7(2, mask_dtype=np.int8)  # type: ignore[arg-type]
    env.obs = env.obs  # type: ignore[misc]
    cardvec.I151P2(4)  # type: ignore[deprecated]
    holdem.evaluate(1.5)  # type: ignore[arg-type]
    lost_cities_v0.env(num_players=2)  # type: ignore[call-arg]
    kuhn_v0.env(num_players=2)  # type: ignore[call-arg]
    leduc_v0.parallel_env(num_players=2)  # type: ignore[call-arg]
    cardvec.LearnerEnv("lost-cities", 4, seat="rotating")  # type: ignore[arg-type]
    cardvec.make("flip7", 4, opponents=1)  # type: ignore[call-overload]
    cardvec.bots.act(env, 3)  # type: ignore[arg-type]
    cardvec.bots.act(env.obs, "random")  # type: ignore[arg-type]
    cardvec.LearnerEnv("flip7", 4).rewards = env.rewards[:, 0]  # type: ignore[misc]
    i151_v0.parallel_env(reward="points")  # type: ignore[arg-type]
    i151_v0.raw_env(num_player=3)  # type: ignore[call-overload]
    lost_cities_v0.parallel_env().step([0])  # type: ignore[arg-type]
    cardvec.solve.exploitability("kuhn", "random")  # type: ignore[arg-type]
    cardvec.spot.solve("2s3s8sTdKd", "100", 100, "AA", "KK")  # type: ignore[arg-type]


if __name__ == "__main__":
    main()
