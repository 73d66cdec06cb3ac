"""The DAgger kit shared by examples/imitate_lost_cities.py and examples/imitate_flip7.py.

DAgger (Ross, Gordon and Bagnell 2011) on a ``cardvec.LearnerEnv``: round 0 (the warm
start) lets the expert play the learner's seat and labels its moves; every later round lets
the current network play (greedy, ``policy:<file>`` in Rust) and labels every state it meets
with the expert's move. After each round a masked MLP is trained on the aggregate of every
round's states (cross-entropy of the masked softmax against the labels, or against a
distribution over the actions where the expert gives one: ``soft_targets``), exported as a policy
file (docs/policies.md, through ``export_policy.export_policy``) and played against the
target opponents on a selection seed; the best round's file is ``policy.safetensors``.

A game plugs in as a :class:`Task`: its registry id and options, the learner view's
opponents, and the expert (a function of the environment, the lanes to label, the round and
a seed, returning the labels, how many of them a search changed, their weights and any
soft targets). The selection measure
is the learner's win share (1 for a sole winner, 1/k for each of k tied leaders, from the
learner view's ``seat_returns``), the same for every game.

Randomness flows from ``--seed`` (the deals, the bots' and the search's streams, the
network's initialization and minibatches); ``--minutes`` is a wall-clock guard: past it,
labelling stops and the round in progress is the last one trained.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from export_policy import export_policy  # noqa: E402
from ppo_common import wilson  # noqa: E402

import cardvec  # noqa: E402

# expert(env, live, round, seed) -> (labels for every lane, labels changed by a search,
# the weights of the labels in the loss for every lane or None for 1, and soft targets:
# None, or float [num_envs, num_actions] probabilities, a row of NaN where the label is hard)
Expert = Callable[[cardvec.LearnerEnv, np.ndarray, int, int],
                  tuple[np.ndarray, int, np.ndarray | None, np.ndarray | None]]


@dataclass
class Task:
    """What the DAgger loop needs of a game."""

    game: str  # registry id
    opponents: str | list[str]  # the learner view's opponents (one name, or one per seat)
    expert: Expert  # the labels (and weights) of the live lanes (any value elsewhere)
    options: dict = field(default_factory=dict)  # the game's options
    describe: dict = field(default_factory=dict)  # what the summary says of the expert

    def self_play_entry(self, policy: str) -> str | list[str]:
        """The pool entry of the self-play games: the network in the first opponent seat,
        the other opponents as usual."""
        if isinstance(self.opponents, str):
            return policy
        return [policy, *self.opponents[1:]]


def make_net(obs_dim: int, hidden: list[int], num_actions: int) -> nn.Sequential:
    """An MLP ``obs_dim -> hidden... -> num_actions`` with ReLU between the layers."""
    layers: list[nn.Module] = []
    width = obs_dim
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    layers.append(nn.Linear(width, num_actions))
    return nn.Sequential(*layers)


def search_labels(values: np.ndarray) -> np.ndarray:
    """The search's choice: the first legal action of highest value (``NaN``: illegal), as
    ``bots.act`` plays it."""
    return np.nan_to_num(values, nan=-np.inf).argmax(axis=1)


def value_gaps(values: np.ndarray) -> np.ndarray:
    """How much the search's best action is worth above its second best (0 with one legal
    action; ``NaN``: illegal): what a wrong choice there costs, by the search's values."""
    top2 = -np.sort(-np.nan_to_num(values, nan=-np.inf), axis=1)[:, :2]
    with np.errstate(invalid="ignore"):  # rows without two legal actions: -inf - -inf
        gap = top2[:, 0] - top2[:, 1]
    return np.where(np.isfinite(gap), gap, 0.0)


def soft_targets(values: np.ndarray, temperature: float) -> np.ndarray:
    """The softmax of a search's action values at ``temperature`` (in the values' unit):
    ``exp((v - max v) / T)`` normalized over the legal actions (``values`` NaN: illegal, or
    a row not searched, which stays NaN)."""
    top = np.nanmax(np.where(np.isnan(values).all(1, keepdims=True), 0.0, values), axis=1,
                    keepdims=True)
    p = np.exp(np.nan_to_num((values - top) / temperature, nan=-np.inf))
    total = p.sum(1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, p / total, np.nan).astype(np.float32)


def train(net: nn.Sequential, obs: np.ndarray, masks: np.ndarray, labels: np.ndarray,
          weights: np.ndarray, mean: torch.Tensor, std: torch.Tensor, args,
          gen: torch.Generator, keys: np.ndarray | None = None,
          soft_rows: np.ndarray | None = None, soft: np.ndarray | None = None) -> dict:
    """``args.epochs`` passes of Adam over the aggregate (at most ``args.max_batches``
    minibatches): cross-entropy of the masked softmax of the network against the labels,
    each state's term times its weight (a minibatch's loss: the weighted terms over the sum
    of its weights). The agreement reported is unweighted. With ``keys`` (the states'
    ``env.action_keys()`` rows) the network writes one logit per action key and an action's
    logit is its key's (a key head). With ``soft_rows`` (per state, its row of ``soft`` or
    -1) a state with a row is trained against that distribution over the actions instead of
    its one-hot label (its label, the distribution's most likely action, is what the
    agreement counts)."""
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    n = len(obs)
    steps = max(1, min(args.epochs * n // args.batch, args.max_batches))
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    obs_t, mask_t, lab_t, w_t = map(torch.from_numpy, (obs, masks, labels, weights))
    keys_t = None if keys is None else torch.from_numpy(keys)
    soft_rows_t = None if soft_rows is None else torch.from_numpy(soft_rows)
    soft_t = None if soft is None else torch.from_numpy(soft)
    losses, agree, done = [], [], 0
    net.train()
    while done < steps:
        perm = torch.randperm(n, generator=gen)
        for i in range(0, n - args.batch + 1, args.batch):
            idx = perm[i:i + args.batch]
            x = ((obs_t[idx].float() - mean) / std).clamp(-10, 10)
            logits = net(x)
            if keys_t is not None:
                logits = logits.gather(1, keys_t[idx].long())
            logits = logits.masked_fill(~mask_t[idx], -1e9)
            y = lab_t[idx]
            w = w_t[idx]
            if soft_rows_t is None:
                terms = nn.functional.cross_entropy(logits, y, reduction="none")
            else:
                target = nn.functional.one_hot(y, logits.shape[1]).float()
                rows = soft_rows_t[idx].long()
                has = rows >= 0
                target[has] = soft_t[rows[has]].float()
                terms = -(target * logits.log_softmax(1)).sum(1)
            loss = (terms * w).sum() / w.sum().clamp_min(1e-12)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            losses.append(loss.item())
            agree.append((logits.argmax(1) == y).float().mean().item())
            done += 1
            if done >= steps:
                break
        if n < args.batch:
            break
    net.eval()
    k = max(1, len(losses) // 10)
    return {"batches": done, "loss": float(np.mean(losses[-k:])),
            "agreement": float(np.mean(agree[-k:]))}


def learner_share(env: cardvec.LearnerEnv, lanes: np.ndarray) -> np.ndarray:
    """The learner's share of the win in each of ``lanes`` (finished games): 1/k when its
    total (``seat_returns``) is the highest and k seats share it, else 0."""
    totals = env.seat_returns[lanes]
    mine = totals[np.arange(len(totals)), env.seat[lanes]]
    top = totals.max(1)
    leaders = (totals == top[:, None]).sum(1)
    return np.where(mine == top, 1.0 / leaders, 0.0)


def win_rate(task: Task, path: str, games: int, seed: int, threads: int) -> dict:
    """The greedy policy file's win share against the task's opponents in ``games`` games
    (one per lane, seats rotated: lane ``l``'s learner in seat ``l % num_players``), played
    in Rust (``cardvec.bots.act`` with ``policy:<path>``): the model-selection measure,
    with its 95% Wilson interval."""
    env = cardvec.LearnerEnv(task.game, games, opponents=task.opponents, seat="rotate",
                             seed=seed, num_threads=threads, **task.options)
    env.reset()
    recorded = np.zeros(games, bool)
    share = np.zeros(games)
    while not recorded.all():
        env.step(cardvec.bots.act(env, f"policy:{path}", seed=seed))
        first = ~recorded & (env.episodes > 0)
        share[first] = learner_share(env, np.flatnonzero(first))
        recorded |= first
    lo, hi = wilson(float(share.sum()), games)
    return {"win_rate": float(share.mean()), "ci95": [lo, hi], "games": games}


def add_arguments(p: argparse.ArgumentParser, *, out: str, warm_steps: int, rounds: int,
                  steps: int, hidden: list[int], self_play: float, envs: int = 256,
                  head: str = "actions") -> None:
    """The DAgger loop's options (the examples add their expert's)."""
    p.add_argument("--out", default=out)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2, help="engine threads (labelling)")
    p.add_argument("--envs", type=int, default=envs, help="lanes of the learner view")
    p.add_argument("--warm-steps", type=int, default=warm_steps,
                   help="round 0: learner steps played and labelled by the expert")
    p.add_argument("--rounds", type=int, default=rounds, help="DAgger rounds after round 0")
    p.add_argument("--steps", type=int, default=steps, help="learner steps per DAgger round")
    p.add_argument("--self-play", type=float, default=self_play,
                   help="share of the DAgger games with the current network in the first "
                        "opponent seat")
    p.add_argument("--hidden", type=int, nargs="+", default=hidden)
    p.add_argument("--head", choices=["actions", "keys"], default=head,
                   help="the network's last layer: one logit per action, or per action key "
                        "of the game (env.action_keys(): Lost Cities' cards rather than hand "
                        "slots)")
    p.add_argument("--epochs", type=int, default=3, help="passes over the aggregate a round")
    p.add_argument("--max-batches", type=int, default=4000, help="minibatches a round, at most")
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--weight-decay", type=float, default=1e-5)
    p.add_argument("--minutes", type=float, default=0.0,
                   help="a wall-clock guard (0: none): past it, the labelling stops and the "
                        "round in progress is the last one trained")
    p.add_argument("--select-games", type=int, default=1000,
                   help="games against the opponents per round, on the selection seed")
    p.add_argument("--select-seed", type=int, default=777_000,
                   help="the selection games' seed (keep it apart from the evaluation seed)")


def run(task: Task, args: argparse.Namespace) -> dict:
    """The DAgger rounds; writes ``round_<r>.safetensors``, ``policy.safetensors`` (the
    best round on the selection games) and ``summary.json`` to ``args.out``."""
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    env = cardvec.LearnerEnv(task.game, args.envs, opponents=task.opponents, seat="rotate",
                             seed=args.seed, num_threads=args.threads, **task.options)
    env.reset()
    obs_dim, num_actions = env.obs_dim, env.num_actions
    keyed = args.head == "keys"
    if keyed and env.action_key_count == 0:
        raise SystemExit(f"--head keys: {task.game} names no action keys")
    net = make_net(obs_dim, args.hidden, env.action_key_count if keyed else num_actions)
    obs_parts: list[np.ndarray] = []
    mask_parts: list[np.ndarray] = []
    label_parts: list[np.ndarray] = []
    weight_parts: list[np.ndarray] = []
    key_parts: list[np.ndarray] = []
    soft_row_parts: list[np.ndarray] = []  # per state, its row of soft_parts' rows or -1
    soft_parts: list[np.ndarray] = []
    soft_count = 0
    mean, std = torch.zeros(obs_dim), torch.ones(obs_dim)
    rounds: list[dict] = []
    best: tuple[str, float, int] | None = None
    current: str | None = None
    start_wall, start_cpu = time.perf_counter(), time.process_time()

    def out_of_time() -> bool:
        return args.minutes > 0 and time.perf_counter() - start_wall > args.minutes * 60

    for r in range(args.rounds + 1):
        if current is not None and args.self_play > 0:
            env.set_pool([task.opponents, task.self_play_entry(f"policy:{current}")],
                         [1 - args.self_play, args.self_play])
        t_wall, t_cpu = time.perf_counter(), time.process_time()
        labels = corrected = 0
        soft_before = soft_count
        for step in range(args.warm_steps if r == 0 else args.steps):
            if out_of_time() and obs_parts:
                break
            seed = args.seed * 1_000_003 + r * 100_003 + step
            live = ~(env.terminated | env.truncated)
            label, changed, weight, soft = task.expert(env, live, r, seed)
            corrected += changed
            if r == 0:  # the expert plays
                actions = np.where(live, label, 0)
            else:  # the network plays
                actions = cardvec.bots.act(env, f"policy:{current}", seed=seed)
                actions = np.where(live, actions, 0)
            obs_parts.append(env.obs[live].astype(np.float16))
            mask_parts.append(env.legal_mask[live].astype(bool))
            label_parts.append(label[live].astype(np.int64))
            if keyed:
                key_parts.append(env.action_keys()[live].astype(np.int16))
            weight_parts.append(np.ones(int(live.sum()), np.float32) if weight is None
                                else weight[live].astype(np.float32))
            rows = np.full(int(live.sum()), -1, np.int32)
            if soft is not None:
                has = ~np.isnan(soft[live]).all(1)
                rows[has] = soft_count + np.arange(int(has.sum()), dtype=np.int32)
                soft_parts.append(soft[live][has].astype(np.float16))
                soft_count += int(has.sum())
            soft_row_parts.append(rows)
            labels += int(live.sum())
            env.step(actions)
        label_wall = time.perf_counter() - t_wall
        label_cpu = time.process_time() - t_cpu

        t_wall, t_cpu = time.perf_counter(), time.process_time()
        obs = np.concatenate(obs_parts)
        if r == 0:  # the input normalization, from round 0's states
            o = torch.from_numpy(obs).float()
            mean, std = o.mean(0), o.std(0).clamp_min(1e-3)
            del o
        fit = train(net, obs, np.concatenate(mask_parts), np.concatenate(label_parts),
                    np.concatenate(weight_parts), mean, std, args, gen,
                    np.concatenate(key_parts) if keyed else None,
                    np.concatenate(soft_row_parts) if soft_count else None,
                    np.concatenate(soft_parts) if soft_count else None)
        current = os.path.join(args.out, f"round_{r}.safetensors")
        export_policy(net, current, game=task.game, options=task.options or None,
                      obs_mean=mean, obs_std=std, obs_clip=10.0, action_head=args.head)
        train_wall = time.perf_counter() - t_wall
        train_cpu = time.process_time() - t_cpu
        select = win_rate(task, current, args.select_games, args.select_seed, args.threads)
        row = {"round": r, "labels": labels, "corrected": corrected, "dataset": len(obs),
               "soft_targets": soft_count - soft_before,
               **fit, "select": select, "label_wall_s": round(label_wall, 1),
               "label_cpu_s": round(label_cpu, 1), "train_wall_s": round(train_wall, 1),
               "train_cpu_s": round(train_cpu, 1)}
        rounds.append(row)
        print(f"round {r}: {labels:,} labels, {corrected:,} changed by the search "
              f"({label_wall:.0f} s, {label_cpu:.0f} CPU s), dataset {len(obs):,}, loss "
              f"{fit['loss']:.3f}, agreement {fit['agreement']:.3f} ({train_wall:.0f} s), "
              f"selection {select['win_rate']:.3f} [{select['ci95'][0]:.3f}, "
              f"{select['ci95'][1]:.3f}]", flush=True)
        if best is None or select["win_rate"] > best[1]:
            best = (current, select["win_rate"], r)
        if out_of_time():
            print(f"stopped after round {r}: past --minutes {args.minutes}", flush=True)
            break
    assert best is not None
    final = os.path.join(args.out, "policy.safetensors")
    shutil.copyfile(best[0], final)
    summary = {
        "game": task.game,
        "options": task.options,
        "opponents": task.opponents,
        "command": " ".join(["python"] + sys.argv),
        "args": vars(args),
        **task.describe,
        "rounds": rounds,
        "best_round": best[2],
        "policy_file": final,
        "policy_bytes": os.path.getsize(final),
        "wall_s": round(time.perf_counter() - start_wall, 1),
        "cpu_s": round(time.process_time() - start_cpu, 1),
    }
    with open(os.path.join(args.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    print(f"best round {best[2]} ({best[1]:.3f} on the selection games): {final}, "
          f"{summary['policy_bytes']:,} bytes; {summary['wall_s']:.0f} s wall, "
          f"{summary['cpu_s']:.0f} CPU s")
    return summary
