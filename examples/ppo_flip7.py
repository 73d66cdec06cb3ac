"""Masked PPO on Flip 7 (3 seats) against built-in bots, with the same kit as
examples/ppo_lost_cities.py.

    python examples/ppo_flip7.py --minutes 10 --out runs/ppo_flip7

Trains on ``cardvec.LearnerEnv("flip7", ..., opponents=[...], seat="rotate")`` against
``--train-opponents`` (default ``threshold-27,expected-value``), the reward being the
learner's own score (Flip 7 pays each seat its banked points), times ``--reward-scale``,
plus ``--win-reward`` times the learner's win share at each game's end (1, 1/k for k tied
leaders, 0 when another seat finished higher; from the learner view's ``seat_returns``):

    python examples/ppo_flip7.py --minutes 10 --win-reward 2 --out runs/ppo_flip7_win

Then it plays ``--eval-games`` games per opponent pair on a plain batch, the bots' moves
from ``cardvec.bots.act``, and reports the learner's win share (the highest final score
wins, tied leaders share) with a 95% interval; a fair share is 1/3.

Writes ``summary.json``, ``curve.png`` and ``model.pt`` to ``--out``.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ppo_common as kit  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description="Masked PPO on Flip 7 (cardvec LearnerEnv)",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    kit.add_arguments(p, reward_scale=0.01, train_opponents="threshold-27,expected-value")
    args = p.parse_args(argv)
    args.out = args.out or "runs/ppo_flip7"
    return kit.run(
        args,
        game_id="flip7",
        options={"num_players": 3},
        title="Flip 7 (3 seats), masked PPO",
        eval_sets=[
            ["random", "random"],
            ["threshold-27", "expected-value"],
            ["expected-value", "expected-value"],
        ],
        evaluator=kit.evaluate_table,
        train_label="mean final score (sampled policy)",
        train_key="mean_return",
        result_note="win share: the highest final score wins, k tied leaders get 1/k; "
        "fair share 0.333; seat = lane % 3",
    )


if __name__ == "__main__":
    main()
