"""Imitation on Flip 7, 3 seats (DAgger): a small network trained on the choices of the
search bot ``pimc:...,value=win,crn=1,horizon=1``, aiming at more than a fair share of the
wins against two ``expected-value`` bots.

    python examples/imitate_flip7.py --minutes 50 --out runs/imitate_flip7

The learner view is ``LearnerEnv("flip7", --envs, opponents=["expected-value",
"expected-value"], seat="rotate", num_players=3)``. Every state is labelled by the search
bot ``pimc:sims=<--sims>,playout=expected-value,value=win,crn=1,horizon=1`` (docs/search.md:
each legal action's rollouts play to the end of the round and are valued by the game's
estimate of the win from the standings): the label is the action of highest value from
``cardvec.bots.action_values``, the move ``bots.act`` plays with that bot and seed. Round 0
(the warm start): the search plays the learner's seat for ``--warm-steps`` steps. Then
``--rounds`` DAgger rounds (Ross, Gordon and Bagnell 2011): the current network plays
(greedy, ``policy:<file>`` in Rust) and every state it meets is labelled by the search.

The loop, the network (a masked MLP, ``--hidden`` widths, ReLU, the input normalized by
round 0's mean and deviation, clipped at 10), its training on the aggregate, the export as a
policy file and the selection are examples/dagger.py's, shared with
examples/imitate_lost_cities.py: after each round the network plays ``--select-games`` games
against the two bots on a selection seed (seats rotated, the win share: k tied leaders get
1/k each); the best round's file is ``policy.safetensors``, which

    cardvec match flip7 --players 3 --bots policy:<out>/policy.safetensors,expected-value,expected-value --games 6000 --seed 31

plays. Randomness flows from ``--seed``; with a ``sims`` budget the search's values do not
depend on the thread count. Writes ``policy.safetensors``, ``round_<r>.safetensors`` and
``summary.json`` to ``--out``.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import dagger  # noqa: E402

import cardvec  # noqa: E402

GAME = "flip7"
OPPONENTS = ["expected-value", "expected-value"]


def search_expert(search: str, weighting: str = "uniform") -> dagger.Expert:
    """Every live lane labelled by the search's choice; with ``weighting="gap"`` each label
    weighs its value gap in the loss (a cost-sensitive clone: the states where the choice
    matters count most, the near-ties the search's noise decides count little)."""
    if weighting not in ("uniform", "gap"):
        raise ValueError(f"weighting is 'uniform' or 'gap', not {weighting!r}")

    def expert(env: cardvec.LearnerEnv, live: np.ndarray, r: int, seed: int):
        values = cardvec.bots.action_values(env, search, lanes=live, seed=seed)
        weights = dagger.value_gaps(values) if weighting == "gap" else None
        return dagger.search_labels(values), 0, weights, None

    return expert


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description="DAgger imitation of a search bot on Flip 7 "
                                "(3 seats) against two expected-value bots",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    dagger.add_arguments(p, out="runs/imitate_flip7", warm_steps=800, rounds=8, steps=300,
                         hidden=[256, 128], self_play=0.0)
    p.add_argument("--sims", type=int, default=64, help="the search's worlds per action")
    p.add_argument("--weighting", choices=["uniform", "gap"], default="uniform",
                   help="each label's weight in the loss: 1, or the search's value gap "
                        "between its best and second-best actions")
    args = p.parse_args(argv)
    search = f"pimc:sims={args.sims},playout=expected-value,value=win,crn=1,horizon=1"
    task = dagger.Task(GAME, OPPONENTS, search_expert(search, args.weighting),
                       options={"num_players": 3},
                       describe={"search": search, "weighting": args.weighting})
    return dagger.run(task, args)


if __name__ == "__main__":
    torch.set_num_threads(1)
    main()
