"""How noisy is a search teacher's move, and how much do its values carry? The figures of
docs/python.md, "Imitation on Lost Cities" ("Why soft targets").

    python scripts/teacher_noise.py [--teacher pimc:sims=30,playout=safe-heuristic]

On ``--lanes`` (256) Lost Cities states ``--depth`` (20) learner steps into games of a
``LearnerEnv`` (seats rotated, ``safe-heuristic`` on both sides), the teacher's action
values (``cardvec.bots.action_values``) from two seeds: the spread of the values over the
legal actions against their noise (the standard deviation of the difference of the two
seeds' centred values, over the square root of 2), the median lead of the best action over
the second, how often the two seeds' argmaxes agree, the value on the second seed's worlds
of the first seed's best action minus that of ``safe-heuristic``'s move, and for a few
temperatures the total variation between the two seeds' softmax targets.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))

import cardvec  # noqa: E402
from dagger import search_labels, soft_targets, value_gaps  # noqa: E402


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--teacher", default="pimc:sims=30,playout=safe-heuristic")
    p.add_argument("--lanes", type=int, default=256)
    p.add_argument("--depth", type=int, default=20)
    p.add_argument("--seeds", type=int, nargs=2, default=[11, 12])
    p.add_argument("--temperatures", type=float, nargs="+", default=[1.0, 2.0, 3.0, 5.0])
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args(argv)
    env = cardvec.LearnerEnv("lost-cities", args.lanes, opponents="safe-heuristic",
                             seat="rotate", seed=5, num_threads=args.threads)
    env.reset(seed=5)
    for t in range(args.depth):
        env.step(cardvec.bots.act(env, "safe-heuristic", seed=t))
    heuristic = cardvec.bots.act(env, "safe-heuristic", seed=0)
    a, b = (cardvec.bots.action_values(env, args.teacher, seed=s) for s in args.seeds)
    live = ~np.isnan(a).all(1)
    a, b, heuristic = a[live], b[live], heuristic[live]
    rows = np.arange(len(a))
    best_a, best_b = search_labels(a), search_labels(b)
    centred_a = a - np.nanmean(a, 1, keepdims=True)
    centred_b = b - np.nanmean(b, 1, keepdims=True)
    out = {
        "states": int(live.sum()),
        "legal_actions_mean": float((~np.isnan(a)).sum(1).mean()),
        "value_spread": float(np.nanstd(centred_a)),
        "value_noise": float(np.nanstd(centred_a - centred_b) / np.sqrt(2)),
        "best_lead_median": float(np.median(value_gaps(a))),
        "argmax_agreement": float(np.mean(best_a == best_b)),
        "best_minus_heuristic": float(np.mean(b[rows, best_a] - b[rows, heuristic])),
        "argmax_tv": float(np.mean(best_a != best_b)),
        "soft_tv": {},
    }
    for t in args.temperatures:
        pa, pb = soft_targets(a, t), soft_targets(b, t)
        out["soft_tv"][t] = float(0.5 * np.abs(pa - pb).sum(1).mean())
    print(f"{args.teacher}: {out['states']} states, {out['legal_actions_mean']:.1f} legal "
          f"actions on average")
    print(f"values: spread {out['value_spread']:.2f} points, noise {out['value_noise']:.2f}, "
          f"best ahead of the second by {out['best_lead_median']:.2f} (median)")
    print(f"two seeds' argmaxes agree on {out['argmax_agreement']:.3f}; the best of one seed "
          f"is worth {out['best_minus_heuristic']:.2f} points more than safe-heuristic's move "
          f"on the other seed's worlds")
    print("total variation between the seeds' targets: argmax "
          f"{out['argmax_tv']:.3f}, " + ", ".join(
              f"softmax at {t:g} points {v:.3f}" for t, v in out["soft_tv"].items()))
    return out


if __name__ == "__main__":
    main()
