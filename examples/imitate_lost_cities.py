"""Imitation on Lost Cities (DAgger): a network trained on the moves of ``safe-heuristic``
and of a search bot that beats it, aiming to beat ``safe-heuristic``.

    python examples/imitate_lost_cities.py --minutes 55 --out runs/imitate_lost_cities

Round 0 (the warm start, labels nearly free): ``safe-heuristic`` plays the learner's seat of
``--warm-steps`` (2,400) steps of ``--envs`` (256) lanes of a ``LearnerEnv`` (seats rotated,
opponent ``safe-heuristic``) and its moves are the labels. Then ``--rounds`` (8) DAgger
rounds (Ross, Gordon and Bagnell 2011) of ``--steps`` (300): the current network plays
(greedy, ``policy:<file>`` in Rust; opponents ``safe-heuristic`` and, in ``--self-play`` of
the games, the network itself); every state it meets is labelled by ``safe-heuristic``'s
move, except ``--search-share`` (half) of them, drawn from ``--seed``, which the **teacher**
labels: ``--teacher`` (``pimc:sims=30,playout=safe-heuristic``: every legal action rolled
out in 30 sampled worlds with ``safe-heuristic`` playing on, about 9 ms of CPU a state)
gives every legal action's mean return (``cardvec.bots.action_values``, in Rust on the
environment's threads), and the state is trained against the softmax of those values at
temperature ``--soft`` (2 points), weighted ``--teacher-weight`` (2) in the loss. A soft
target, not the search's argmax: among near-equal moves the argmax is mostly noise (two
seeds of the search choose the same move on half of the states), its values much less
(docs/python.md, "Imitation on Lost Cities"). The teacher is then a ``pimc`` name without
``halving=1`` (with halving the actions dropped early have values over fewer rollouts).
With ``--soft 0`` the teacher's moves are the labels (``cardvec.bots.act``; any bot name);
with ``--teacher ''`` the searched states get the oldest rule, the corrected heuristic:
``safe-heuristic``'s move, unless ``pimc:sims=<--sims>,playout=safe-heuristic`` finds an
action whose rollouts return more than ``--margin`` points above it on the same worlds.

The network has a **key head** (``--head keys``, the default): one output per action key
(``env.action_keys()``: the card in the hand slot, its placement and its draw; 720) rather
than one per action (96, ``--head actions``), so it scores cards, not hand slots, and
imitates far better (docs/policies.md, "Action keys"); the file is written with
``action_head="keys"``.

After each round the network (a masked MLP, ``--hidden`` widths, ReLU) is trained on the
aggregate of every round's states (cross-entropy of the masked softmax against the labels
or the soft targets, ``--epochs`` passes, at most ``--max-batches`` minibatches), exported
as a policy file (docs/policies.md) and measured against ``safe-heuristic`` on a selection seed
(``--select-games`` games, seats rotated, ties counting half, never the evaluation seed of
the docs). The loop is examples/dagger.py's, shared with examples/imitate_flip7.py. The best
round's file is ``policy.safetensors``, which ``cardvec match lost-cities --a
policy:<out>/policy.safetensors --b safe-heuristic --games 2000`` plays.

Randomness flows from ``--seed`` (the deals, the bots' and the search's streams, the
network's initialization and minibatches); the search's values do not depend on the thread
count. ``--minutes`` is a wall-clock guard: past it, labelling stops and the round in
progress is the last one trained (so on a loaded machine the run is shorter, not longer).

Writes to ``--out``: ``policy.safetensors``, ``round_<r>.safetensors`` (every round's
network) and ``summary.json`` (arguments, per-round labels, labels differing from the
heuristic's move, soft targets, dataset size, loss,
agreement, selection win rate with its 95% interval, wall and CPU seconds of labelling and
training, totals).
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

GAME = "lost-cities"
TARGET = "safe-heuristic"


def expert_labels(values: np.ndarray, heuristic: np.ndarray, margin: float) -> np.ndarray:
    """The corrected heuristic: ``safe-heuristic``'s action, unless the search's best action
    returns more than ``margin`` points above it (the search's values of the two come from
    the same worlds), then the search's best. ``values`` NaN: illegal."""
    best = dagger.search_labels(values)
    rows = np.arange(len(values))
    gain = values[rows, best] - values[rows, heuristic]
    return np.where(gain > margin, best, heuristic)


def corrected_heuristic(args: argparse.Namespace) -> dagger.Expert:
    """Round 0: ``safe-heuristic``'s moves. Later rounds: ``safe-heuristic``'s moves, and on
    ``--search-share`` of the live lanes (drawn from ``--seed``) the corrected heuristic."""
    pick = np.random.default_rng(args.seed)  # the lanes the search labels
    search = f"pimc:sims={args.sims},playout={TARGET}"

    def expert(env: cardvec.LearnerEnv, live: np.ndarray, r: int, seed: int):
        heuristic = cardvec.bots.act(env, TARGET, seed=seed)
        if r == 0:
            return heuristic, 0, None, None
        searched = live & (pick.random(len(live)) < args.search_share)
        label = heuristic.copy()
        if args.teacher and args.soft > 0:  # the softmax of the teacher's action values
            values = cardvec.bots.action_values(env, args.teacher, lanes=searched, seed=seed)
            soft = dagger.soft_targets(values, args.soft)
            label[searched] = dagger.search_labels(values[searched])
            weight = np.where(searched, args.teacher_weight, 1.0)
            return label, int((label != heuristic).sum()), weight, soft
        if args.teacher:  # the teacher bot's own moves on the searched lanes
            taught = cardvec.bots.act(env, args.teacher, lanes=searched, seed=seed)
            label[searched] = taught[searched]
            weight = np.where(searched, args.teacher_weight, 1.0)
            return label, int((label != heuristic).sum()), weight, None
        values = cardvec.bots.action_values(env, search, lanes=searched, seed=seed)
        label[searched] = expert_labels(values[searched], heuristic[searched], args.margin)
        return label, int((label != heuristic).sum()), None, None

    return expert


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description="DAgger imitation of safe-heuristic and a search "
                                "teacher on Lost Cities",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    dagger.add_arguments(p, out="runs/imitate_lost_cities", warm_steps=2400, rounds=8,
                         steps=300, hidden=[256, 256], self_play=0.25, head="keys")
    p.set_defaults(epochs=4, max_batches=6000)
    p.add_argument("--sims", type=int, default=8, help="the search's worlds per action")
    p.add_argument("--search-share", type=float, default=0.5,
                   help="share of the DAgger states the search labels (the rest: the heuristic)")
    p.add_argument("--margin", type=float, default=8.0,
                   help="points by which the search's best must beat the heuristic's action")
    p.add_argument("--teacher", default=f"pimc:sims=30,playout={TARGET}",
                   help="the search whose action values (with --soft) or moves label the "
                        "searched states (pimc:sims=30,playout=safe-heuristic, the default), "
                        "instead of the margin-corrected heuristic ('': the margin rule)")
    p.add_argument("--teacher-weight", type=float, default=2.0,
                   help="the weight of the teacher's labels in the loss (the heuristic's: 1)")
    p.add_argument("--soft", type=float, default=2.0,
                   help="> 0 (with a --teacher): the searched states are trained against "
                        "the softmax of the teacher's action values "
                        "(cardvec.bots.action_values) at this temperature, in points, "
                        "instead of its move; the teacher must then be a pimc name without "
                        "halving (whose values have unequal counts); 0: the teacher's moves")
    args = p.parse_args(argv)
    if args.soft < 0:
        p.error("--soft must be >= 0")
    if args.teacher and args.soft > 0 and (not args.teacher.startswith("pimc")
                                           or "halving=1" in args.teacher):
        p.error("--soft needs a --teacher that is a pimc name without halving=1 (with halving "
                "the values of the actions dropped early rest on fewer rollouts); --soft 0 "
                "labels with the teacher's moves")
    task = dagger.Task(GAME, TARGET, corrected_heuristic(args),
                       describe={"search": args.teacher
                                 or f"pimc:sims={args.sims},playout={TARGET}"})
    return dagger.run(task, args)


if __name__ == "__main__":
    torch.set_num_threads(1)
    main()
