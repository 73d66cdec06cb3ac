"""Throughput of the learner view (not a test): learner steps per second of
``cardvec.LearnerEnv`` with ``opponents="random"``, the learner's actions chosen by
``cardvec.bots.act(env, "random")`` (in Rust), for each game's default configuration.

    python scripts/bench_learner.py [--envs 4096] [--steps 300] [--threads N] [--games lost-cities,...]

Prints, per game, the learner steps per second of ``env.step`` alone and of the whole loop
(``bots.act`` + ``step``)."""

import argparse
import time

import numpy as np

import cardvec


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--envs", type=int, default=4096)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--games", default=",".join(g["id"] for g in cardvec.games()))
    args = ap.parse_args()
    for game in args.games.split(","):
        env = cardvec.LearnerEnv(game, args.envs, opponents="random", seat="rotate", seed=0,
                                 num_threads=args.threads)
        for t in range(20):  # warm-up
            env.step(np.maximum(cardvec.bots.act(env, "random", seed=t), 0))
        in_step = 0.0
        start = time.perf_counter()
        for t in range(args.steps):
            actions = cardvec.bots.act(env, "random", seed=t)
            np.maximum(actions, 0, out=actions)
            s = time.perf_counter()
            env.step(actions)
            in_step += time.perf_counter() - s
        total = time.perf_counter() - start
        steps = args.envs * args.steps
        print(f"{game}: step {steps / in_step / 1e6:.2f} M learner steps/s, "
              f"loop {steps / total / 1e6:.2f} M/s ({args.envs} lanes, {args.steps} steps, "
              f"threads {args.threads or 'all'})")


if __name__ == "__main__":
    main()
