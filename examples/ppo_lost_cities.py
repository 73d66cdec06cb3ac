"""Masked PPO on Lost Cities against built-in bots, through cardvec's learner view.

    python examples/ppo_lost_cities.py --minutes 10 --out runs/ppo_lost_cities

Trains for ``--minutes`` of training time (PyTorch CPU) on ``cardvec.LearnerEnv`` lanes
against ``--train-opponents`` (default ``random;safe-heuristic;safe-heuristic;safe-heuristic``:
a quarter of the lanes against ``random``, the rest against ``safe-heuristic``), then plays ``--eval-games`` games per opponent (greedy policy, seats rotated, one game
per lane) against ``random`` and ``safe-heuristic`` and prints the win rates with their 95%
intervals, the env's share of the training loop's wall time and the loop's learner steps
per second. Reward: the game's own, the final score difference, times ``--reward-scale``.

Writes to ``--out``: ``summary.json`` (every figure and the command), ``curve.png`` (the
learning curve) and ``model.pt`` (the policy and its observation normalizer).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ppo_common as kit  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description="Masked PPO on Lost Cities (cardvec LearnerEnv)",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    # A quarter of the lanes against random, three quarters against safe-heuristic (random
    # is beaten in the first minute; the rest of the budget goes to the harder opponent).
    kit.add_arguments(p, lr=4e-4,
                      train_opponents="random;safe-heuristic;safe-heuristic;safe-heuristic")
    args = p.parse_args(argv)
    args.out = args.out or "runs/ppo_lost_cities"
    return kit.run(
        args,
        game_id="lost-cities",
        title="Lost Cities, masked PPO",
        eval_sets=["random", "safe-heuristic"],
        evaluator=kit.evaluate_learner,
        result_note="a win: a positive final score difference; seats rotated",
    )


if __name__ == "__main__":
    main()
