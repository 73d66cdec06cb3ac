"""Steps per second of game-room 0.1.0's ``flip7_v0`` under a random legal policy, on one
core, for the side-by-side figure in docs/flip7.md.

    python python/tests/bench_flip7_game_room.py --players 3 --steps 200000

Counts one step per decision, as cardvec's ``bench`` does: ``env.step(action)`` plus the
observation and mask of the next player to act (what an agent needs), using the raw
environment (no wrappers) so the figure is game-room's best case. Like cardvec's
``env_steps_per_sec``, ``steps_per_sec`` times only the environment (step and observe):
the random policy's time (numpy's ``flatnonzero`` and ``integers``) and the resets are left
out; ``with_policy_steps_per_sec`` counts everything. Also reports steps per second of the
process's CPU time over the whole loop, which other work on a shared machine disturbs less
than the wall clock (compare with ``cardvec bench``'s ``env_steps_per_cpu_sec``).
"""

import argparse
import time

import numpy as np
from game_room import flip7_v0 as game


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--steps", type=int, default=200000)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    env = game.raw_env(num_players=args.players)
    env.reset(seed=0)
    steps = 0
    games = 0
    start = time.perf_counter()
    cpu_start = time.process_time()
    obs = env.observe(env.agent_selection)
    clock = time.perf_counter
    env_time = 0.0
    while steps < args.steps:
        if all(env.terminations.values()) or all(env.truncations.values()):
            games += 1
            env.reset(seed=games)
            obs = env.observe(env.agent_selection)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(legal[rng.integers(len(legal))])
        t0 = clock()
        env.step(action)
        obs = env.observe(env.agent_selection)
        env_time += clock() - t0
        steps += 1
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    print(
        f"game-room flip7_v0 players={args.players} steps={steps} games={games} "
        f"elapsed={elapsed:.2f}s env_time={env_time:.2f}s steps_per_sec={steps / env_time:.0f} "
        f"with_policy_steps_per_sec={steps / elapsed:.0f} "
        f"cpu={cpu:.2f}s steps_per_cpu_sec={steps / cpu:.0f}"
    )


if __name__ == "__main__":
    main()
