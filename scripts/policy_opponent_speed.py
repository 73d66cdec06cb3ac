#!/usr/bin/env python3
"""Learner steps per second with a network as the opponent: played in Rust inside the
learner view (``opponents="policy:<file>"``) against the same network run in PyTorch from
Python on a plain batch (same widths, same weights, same lanes), side by side, alternated.

    python scripts/policy_opponent_speed.py --lanes 1024 --seconds 5 --rounds 3

The network is the PPO examples' actor (``obs_dim -> hidden -> hidden -> actions``, ReLU,
with the observation normalization), random weights; the learner's own moves are
``cardvec.bots.act(env, "random")`` on both sides and are timed too, so both figures are
whole learner loops that differ only in where the opponent's network runs:

- Rust: ``LearnerEnv.step`` plays every opponent ply inside the step (the policy bot's
  forward pass in Rust, greedy);
- PyTorch: a ``cardvec.make`` batch of the same game, every ply stepped from Python; at
  each ply the lanes where the opponent is to act get ``argmax`` of the network's masked
  logits (``torch.no_grad``, one batched forward pass over those lanes), the others the
  learner's random move.

A learner step is one decision of the learner's seat in one lane. Prints one JSON line per
run and the median ratio. Figures: docs/policies.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import tempfile
import time

import numpy as np
import torch

import cardvec
from cardvec import bots

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
from export_policy import export_policy  # noqa: E402


def network(obs_dim: int, actions: int, hidden: int, seed: int):
    torch.manual_seed(seed)
    net = torch.nn.Sequential(
        torch.nn.Linear(obs_dim, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, hidden), torch.nn.ReLU(),
        torch.nn.Linear(hidden, actions),
    )
    mean = torch.rand(obs_dim) * 0.1
    std = 0.5 + torch.rand(obs_dim)
    return net, mean, std


def run_rust(game: str, lanes: int, path: str, seconds: float, threads: int) -> dict:
    env = cardvec.LearnerEnv(game, lanes, opponents=f"policy:{path}", seat="rotate", seed=1,
                             num_threads=threads)
    env.reset()
    decisions, t, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        live = ~(env.terminated | env.truncated)
        actions = bots.act(env, "random", seed=t)
        env.step(np.where(actions < 0, 0, actions))
        decisions += int(live.sum())
        t += 1
    wall = time.perf_counter() - start
    return {"side": "rust", "learner_steps": decisions, "seconds": wall,
            "learner_steps_per_s": decisions / wall}


@torch.no_grad()
def run_torch(game: str, lanes: int, net, mean, std, seconds: float, threads: int) -> dict:
    env = cardvec.make(game, lanes, seed=1, autoreset=True, num_threads=threads)
    env.reset()
    p = env.num_players
    learner = np.arange(lanes) % p
    decisions, t, start = 0, 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        cp = np.asarray(env.current_player)
        live = ~(np.asarray(env.terminated) | np.asarray(env.truncated))
        mine = live & (cp == learner)
        theirs = live & ~mine
        actions = bots.act(env, "random", lanes=mine, seed=t)
        if theirs.any():
            rows = np.nonzero(theirs)[0]
            obs = torch.from_numpy(np.asarray(env.obs)[rows])
            mask = torch.from_numpy(np.asarray(env.legal_mask)[rows].astype(bool))
            logits = net((obs - mean) / std).masked_fill(~mask, float("-inf"))
            actions[rows] = logits.argmax(1).numpy()
        env.step(np.where(actions < 0, 0, actions))
        decisions += int(mine.sum())
        t += 1
    wall = time.perf_counter() - start
    return {"side": "torch", "learner_steps": decisions, "seconds": wall,
            "learner_steps_per_s": decisions / wall}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="lost-cities")
    ap.add_argument("--lanes", type=int, default=1024)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--seconds", type=float, default=5.0, help="per run")
    ap.add_argument("--rounds", type=int, default=3, help="alternated pairs of runs")
    ap.add_argument("--threads", type=int, default=1, help="engine and torch threads")
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    probe = cardvec.make(args.game, 1)
    net, mean, std = network(probe.obs_dim, probe.num_actions, args.hidden, seed=0)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "opponent.safetensors")
        export_policy(net, path, game=args.game, obs_mean=mean, obs_std=std)
        ratios = []
        for r in range(args.rounds):
            pair = {}
            order = ("rust", "torch") if r % 2 == 0 else ("torch", "rust")
            for side in order:
                if side == "rust":
                    pair[side] = run_rust(args.game, args.lanes, path, args.seconds, args.threads)
                else:
                    pair[side] = run_torch(args.game, args.lanes, net, mean, std, args.seconds,
                                           args.threads)
                print(json.dumps({"round": r, "lanes": args.lanes, **pair[side]}), flush=True)
            ratios.append(pair["rust"]["learner_steps_per_s"] / pair["torch"]["learner_steps_per_s"])
    print(json.dumps({
        "game": args.game, "lanes": args.lanes, "hidden": args.hidden, "threads": args.threads,
        "ratios_rust_over_torch": ratios, "median_ratio": float(np.median(ratios)),
        "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "torch": torch.__version__},
    }))


if __name__ == "__main__":
    main()
