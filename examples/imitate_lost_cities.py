"""Imitation on Lost Cities (DAgger): a small network trained on the moves of
``safe-heuristic`` corrected by a search bot, aiming to beat ``safe-heuristic``.

    python examples/imitate_lost_cities.py --minutes 50 --out runs/imitate_lost_cities

Round 0 (the warm start, labels nearly free): ``safe-heuristic`` plays the learner's seat of
``--warm-steps`` steps of ``--envs`` lanes of a ``LearnerEnv`` (seats rotated, opponent
``safe-heuristic``) and its moves are the labels. Then ``--rounds`` DAgger rounds (Ross,
Gordon and Bagnell 2011): the current network plays (greedy, ``policy:<file>`` in Rust;
opponents ``safe-heuristic`` and, in ``--self-play`` of the games, the network itself) and
every state it meets is labelled by ``safe-heuristic``'s move, and ``--search-share`` of them
(drawn from ``--seed``) by the corrected heuristic: ``safe-heuristic``'s move, unless the
search bot ``pimc:sims=<--sims>,playout=safe-heuristic`` finds an action whose
rollouts return more than ``--margin`` points above the heuristic's move on the same worlds
(then that action). ``cardvec.bots.action_values`` gives the search's per-action values for
every lane at once, in Rust on the environment's threads.

After each round the network (a masked MLP, ``--hidden`` widths, ReLU) is trained on the
aggregate of every round's states (cross-entropy of the masked softmax against the labels,
``--epochs`` passes, at most ``--max-batches`` minibatches), exported as a policy file
(docs/policies.md) and measured against ``safe-heuristic`` on a selection seed
(``--select-games`` games, seats rotated, never the evaluation seed of the docs). The best
round's file is ``policy.safetensors``, which ``cardvec match lost-cities --a
policy:<out>/policy.safetensors --b safe-heuristic --games 2000`` plays.

Randomness flows from ``--seed`` (the deals, the bots' and the search's streams, the
network's initialization and minibatches); the search's values do not depend on the thread
count. ``--minutes`` is a wall-clock guard: past it, labelling stops and the round in
progress is the last one trained (so on a loaded machine the run is shorter, not longer).

Writes to ``--out``: ``policy.safetensors``, ``round_<r>.safetensors`` (every round's
network) and ``summary.json`` (arguments, per-round labels, corrections, dataset size, loss,
agreement, selection win rate with its 95% interval, wall and CPU seconds of labelling and
training, totals).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time

import numpy as np
import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from export_policy import export_policy  # noqa: E402

import cardvec  # noqa: E402

GAME = "lost-cities"
TARGET = "safe-heuristic"


def make_net(obs_dim: int, hidden: list[int], num_actions: int) -> nn.Sequential:
    """An MLP ``obs_dim -> hidden... -> num_actions`` with ReLU between the layers."""
    layers: list[nn.Module] = []
    width = obs_dim
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    layers.append(nn.Linear(width, num_actions))
    return nn.Sequential(*layers)


def expert_labels(values: np.ndarray, heuristic: np.ndarray, margin: float) -> np.ndarray:
    """The corrected heuristic: ``safe-heuristic``'s action, unless the search's best action
    returns more than ``margin`` points above it (the search's values of the two come from
    the same worlds), then the search's best. ``values`` NaN: illegal."""
    best = np.nan_to_num(values, nan=-np.inf).argmax(axis=1)
    rows = np.arange(len(values))
    gain = values[rows, best] - values[rows, heuristic]
    return np.where(gain > margin, best, heuristic)


def train(net: nn.Sequential, obs: np.ndarray, masks: np.ndarray, labels: np.ndarray,
          mean: torch.Tensor, std: torch.Tensor, args, gen: torch.Generator) -> dict:
    """``args.epochs`` passes of Adam over the aggregate (at most ``args.max_batches``
    minibatches): cross-entropy of the masked softmax of the network against the labels."""
    opt = torch.optim.Adam(net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    n = len(obs)
    steps = max(1, min(args.epochs * n // args.batch, args.max_batches))
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)
    obs_t, mask_t, lab_t = map(torch.from_numpy, (obs, masks, labels))
    losses, agree, done = [], [], 0
    net.train()
    while done < steps:
        perm = torch.randperm(n, generator=gen)
        for i in range(0, n - args.batch + 1, args.batch):
            idx = perm[i:i + args.batch]
            x = ((obs_t[idx].float() - mean) / std).clamp(-10, 10)
            logits = net(x).masked_fill(~mask_t[idx], -1e9)
            y = lab_t[idx]
            loss = nn.functional.cross_entropy(logits, y)
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


def export(net: nn.Sequential, mean: torch.Tensor, std: torch.Tensor, path: str) -> None:
    export_policy(net, path, game=GAME, obs_mean=mean, obs_std=std, obs_clip=10.0)


def win_rate(path: str, games: int, seed: int, threads: int) -> dict:
    """The greedy policy file's win rate against ``safe-heuristic`` in ``games`` games
    (one per lane, seats rotated: lane ``l``'s learner in seat ``l % 2``), played in Rust
    (``cardvec.bots.act`` with ``policy:<path>``): the model-selection measure."""
    env = cardvec.LearnerEnv(GAME, games, opponents=TARGET, seat="rotate", seed=seed,
                             num_threads=threads)
    env.reset()
    recorded = np.zeros(games, bool)
    returns = np.zeros(games)
    while not recorded.all():
        env.step(cardvec.bots.act(env, f"policy:{path}", seed=seed))
        first = ~recorded & (env.episodes > 0)
        returns[first] = env.episode_return[first]
        recorded |= first
    wins = (returns > 0).mean()
    half = 1.96 * np.sqrt(wins * (1 - wins) / games)
    return {"win_rate": float(wins), "ci95": [float(wins - half), float(wins + half)],
            "games": games}


def main(argv: list[str] | None = None) -> dict:
    p = argparse.ArgumentParser(description="DAgger imitation of a search-corrected heuristic "
                                "on Lost Cities",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--out", default="runs/imitate_lost_cities")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2, help="engine threads (labelling)")
    p.add_argument("--envs", type=int, default=256, help="lanes of the learner view")
    p.add_argument("--warm-steps", type=int, default=1600,
                   help="round 0: learner steps played and labelled by safe-heuristic")
    p.add_argument("--rounds", type=int, default=5, help="DAgger rounds after round 0")
    p.add_argument("--steps", type=int, default=300, help="learner steps per DAgger round")
    p.add_argument("--sims", type=int, default=8, help="the search's worlds per action")
    p.add_argument("--search-share", type=float, default=0.125,
                   help="share of the DAgger states the search labels (the rest: the heuristic)")
    p.add_argument("--margin", type=float, default=8.0,
                   help="points by which the search's best must beat the heuristic's action")
    p.add_argument("--self-play", type=float, default=0.25,
                   help="share of the DAgger games against the current network")
    p.add_argument("--hidden", type=int, nargs="+", default=[256, 128])
    p.add_argument("--epochs", type=int, default=3, help="passes over the aggregate a round")
    p.add_argument("--max-batches", type=int, default=4000, help="minibatches a round, at most")
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--weight-decay", type=float, default=1e-5)
    p.add_argument("--minutes", type=float, default=0.0,
                   help="a wall-clock guard (0: none): past it, the labelling stops and the "
                        "round in progress is the last one trained")
    p.add_argument("--select-games", type=int, default=1000,
                   help="games against safe-heuristic per round, on the selection seed")
    p.add_argument("--select-seed", type=int, default=777_000,
                   help="the selection games' seed (keep it apart from the evaluation seed)")
    args = p.parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    torch.manual_seed(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    pick = np.random.default_rng(args.seed)  # the lanes the search labels
    search = f"pimc:sims={args.sims},playout={TARGET}"

    env = cardvec.LearnerEnv(GAME, args.envs, opponents=TARGET, seat="rotate", seed=args.seed,
                             num_threads=args.threads)
    env.reset()
    obs_dim, num_actions = env.obs_dim, env.num_actions
    net = make_net(obs_dim, args.hidden, num_actions)
    obs_parts: list[np.ndarray] = []
    mask_parts: list[np.ndarray] = []
    label_parts: list[np.ndarray] = []
    mean, std = torch.zeros(obs_dim), torch.ones(obs_dim)
    rounds: list[dict] = []
    best: tuple[str, float, int] | None = None
    current: str | None = None
    start_wall, start_cpu = time.perf_counter(), time.process_time()

    def out_of_time() -> bool:
        return args.minutes > 0 and time.perf_counter() - start_wall > args.minutes * 60

    for r in range(args.rounds + 1):
        if current is not None and args.self_play > 0:
            env.set_pool([TARGET, f"policy:{current}"], [1 - args.self_play, args.self_play])
        t_wall, t_cpu = time.perf_counter(), time.process_time()
        labels = corrected = 0
        for step in range(args.warm_steps if r == 0 else args.steps):
            if out_of_time() and obs_parts:
                break
            seed = args.seed * 1_000_003 + r * 100_003 + step
            heuristic = cardvec.bots.act(env, TARGET, seed=seed)
            live = heuristic >= 0
            if r == 0:  # the heuristic plays and labels
                label, actions = heuristic[live], np.where(live, heuristic, 0)
            else:  # the network plays; the heuristic labels, the search corrects a share
                searched = live & (pick.random(args.envs) < args.search_share)
                values = cardvec.bots.action_values(env, search, lanes=searched, seed=seed)
                label = heuristic.copy()
                label[searched] = expert_labels(values[searched], heuristic[searched],
                                                args.margin)
                corrected += int((label != heuristic).sum())
                label = label[live]
                actions = cardvec.bots.act(env, f"policy:{current}", seed=seed)
                actions = np.where(live, actions, 0)
            obs_parts.append(env.obs[live].astype(np.float16))
            mask_parts.append(env.legal_mask[live].astype(bool))
            label_parts.append(label.astype(np.int64))
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
                    mean, std, args, gen)
        current = os.path.join(args.out, f"round_{r}.safetensors")
        export(net, mean, std, current)
        train_wall = time.perf_counter() - t_wall
        train_cpu = time.process_time() - t_cpu
        select = win_rate(current, args.select_games, args.select_seed, args.threads)
        row = {"round": r, "labels": labels, "corrected": corrected, "dataset": len(obs),
               **fit, "select": select, "label_wall_s": round(label_wall, 1),
               "label_cpu_s": round(label_cpu, 1), "train_wall_s": round(train_wall, 1),
               "train_cpu_s": round(train_cpu, 1)}
        rounds.append(row)
        print(f"round {r}: {labels:,} labels, {corrected:,} corrected by the search "
              f"({label_wall:.0f} s, {label_cpu:.0f} CPU s), dataset {len(obs):,}, loss "
              f"{fit['loss']:.3f}, agreement {fit['agreement']:.3f} ({train_wall:.0f} s), "
              f"vs {TARGET} {select['win_rate']:.3f} [{select['ci95'][0]:.3f}, "
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
        "game": GAME,
        "command": " ".join(["python"] + sys.argv),
        "args": vars(args),
        "search": search,
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


if __name__ == "__main__":
    torch.set_num_threads(1)
    main()
