"""The PPO kit shared by examples/ppo_lost_cities.py and examples/ppo_flip7.py.

A masked PPO (PyTorch, CPU) trained on ``cardvec.LearnerEnv``: the opponents are built-in
bots played inside Rust, so the policy sees only its own decisions, their rewards credited
to them, with next-step autoreset. What it shows of the cardvec API:

- ``cardvec.LearnerEnv(game, n, opponents=..., seat="rotate")`` and its views;
- ``env.torch()``: torch tensors over the engine's buffers (no copy, no warning), from which
  each step is copied once into the rollout storage;
- ``cardvec.bots.act`` for the table evaluation of games with more than two seats.

The masked categorical: illegal logits are set to a large negative number before the
softmax, so illegal actions get probability 0 (and the entropy counts legal actions only).
A step that follows the end of a game is the autoreset step (the action is ignored, see
``LearnerEnv``): it is collected but weighted 0 in the loss, and the game's last decision
bootstraps from 0. Observations are normalized by running mean and variance.
"""

from __future__ import annotations

import json
import math
import os
import platform
import sys
import time
from dataclasses import asdict, dataclass

import numpy as np
import torch
import torch.nn as nn

import cardvec

NEG = -1e9  # the logit of an illegal action


@dataclass
class Config:
    """PPO hyper-parameters (the examples' command lines set them)."""

    envs: int = 256  # lanes stepped together
    steps: int = 64  # rollout length per lane
    lr: float = 2.5e-4
    gamma: float = 0.995
    lam: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    epochs: int = 4
    minibatches: int = 4
    hidden: int = 256
    layers: int = 2
    max_grad_norm: float = 0.5
    reward_scale: float = 1.0  # rewards are multiplied by it
    win_reward: float = 0.0  # added (after scaling) at a game's end: times the learner's win share
    threads: int = 1  # torch intra-op threads (1: a second one spin-waits on a busy core)


def win_share(seat_returns: torch.Tensor, seat: torch.Tensor,
              finished: torch.Tensor) -> torch.Tensor:
    """The learner's share of the win in each lane whose game ``finished`` (0 elsewhere):
    1/k when its total (``seat_returns``, every seat's rewards of the game) is the highest
    and k seats share it, else 0."""
    mine = seat_returns.gather(1, seat.long().unsqueeze(1)).squeeze(1)
    top = seat_returns.max(1).values
    leaders = (seat_returns == top.unsqueeze(1)).sum(1).float()
    share = torch.where(mine == top, 1.0 / leaders, torch.zeros_like(leaders))
    return torch.where(finished, share, torch.zeros_like(share))


class ObsNorm:
    """Running mean and variance of the observations (float64), applied as
    ``clip((x - mean) / sqrt(var + eps), -10, 10)``."""

    def __init__(self, dim: int):
        self.mean = torch.zeros(dim, dtype=torch.float64)
        self.var = torch.ones(dim, dtype=torch.float64)
        self.count = 1e-4

    def update(self, x: torch.Tensor) -> None:
        x = x.double()
        n = x.shape[0]
        if n == 0:
            return
        bmean, bvar = x.mean(0), x.var(0, unbiased=False)
        delta = bmean - self.mean
        tot = self.count + n
        self.mean = self.mean + delta * n / tot
        m2 = self.var * self.count + bvar * n + delta.square() * self.count * n / tot
        self.var = m2 / tot
        self.count = tot

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        y = (x.double() - self.mean) / torch.sqrt(self.var + 1e-8)
        return y.clamp(-10.0, 10.0).float()

    def state_dict(self) -> dict:
        return {"mean": self.mean, "var": self.var, "count": self.count}


def _layer(i: int, o: int, std: float) -> nn.Linear:
    lin = nn.Linear(i, o)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.zeros_(lin.bias)
    return lin


class Agent(nn.Module):
    """An MLP trunk with a policy head (one logit per action) and a value head."""

    def __init__(self, obs_dim: int, num_actions: int, hidden: int = 256, layers: int = 2):
        super().__init__()
        trunk, d = [], obs_dim
        for _ in range(layers):
            trunk += [_layer(d, hidden, math.sqrt(2)), nn.ReLU()]
            d = hidden
        self.trunk = nn.Sequential(*trunk)
        self.pi = _layer(d, num_actions, 0.01)
        self.v = _layer(d, 1, 1.0)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor):
        """Masked logits and values of normalized ``obs`` [B, D] with bool ``mask`` [B, A]
        (a row with no legal action, a finished lane, is left unmasked)."""
        h = self.trunk(obs)
        mask = mask | ~mask.any(1, keepdim=True)
        return self.pi(h).masked_fill(~mask, NEG), self.v(h).squeeze(1)


def sample(logits: torch.Tensor, gen: torch.Generator | None = None):
    """Actions drawn from masked ``logits`` (Gumbel-max) and their log-probabilities."""
    u = torch.rand(logits.shape, generator=gen).clamp_(1e-12, 1.0)
    actions = (logits - torch.log(-torch.log(u))).argmax(1)
    logp = torch.log_softmax(logits, 1).gather(1, actions[:, None]).squeeze(1)
    return actions, logp


def wilson(successes: float, n: int, z: float = 1.96):
    """The 95% Wilson score interval of a proportion (``successes`` may be fractional:
    shared wins count 1/k)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    # Exact at p = 0 or 1; min/max absorb the rounding there.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def _result(shares: np.ndarray, returns: np.ndarray, draws: np.ndarray, opponents, policy: str,
            seat) -> dict:
    n = len(shares)
    wins = float(shares.sum())
    lo, hi = wilson(wins, n)
    return {
        "opponents": opponents,
        "games": n,
        "win_rate": wins / n,
        "ci95": [lo, hi],
        "draw_rate": float(np.mean(draws)) if n else 0.0,
        "mean_return": float(returns.mean()) if n else 0.0,
        "policy": policy,
        "seat": seat,
    }


@torch.no_grad()
def _act(agent, norm, obs, mask, greedy, gen):
    logits, _ = agent(norm(obs), mask)
    return logits.argmax(1) if greedy else sample(logits, gen)[0]


@torch.no_grad()
def evaluate_learner(agent, norm, game_id, opponents, games=2000, seed=10_000, greedy=True,
                     options=None) -> dict:
    """Win rate of the policy in ``games`` games of a two-seat zero-sum game against
    ``opponents``, through ``LearnerEnv(seat="rotate")``: one game per lane (lane l's
    first game, the learner in seat l % 2), won when the learner's return is positive,
    drawn when it is 0. A game that ended before the learner's first decision counts
    with its return (``skipped_return``)."""
    env = cardvec.LearnerEnv(game_id, games, opponents=opponents, seat="rotate", seed=seed,
                             **(options or {}))
    env.reset()
    t = env.torch()
    gen = torch.Generator().manual_seed(seed)
    recorded = np.zeros(games, bool)
    returns = np.zeros(games, np.float64)
    while not recorded.all():
        env.step(_act(agent, norm, t.obs, t.legal_mask, greedy, gen).numpy())
        first = ~recorded & (env.episodes > 0)
        shown = first & (env.terminated | env.truncated) & (env.skipped == 0)
        returns[shown] = env.episode_return[shown]
        skipped = first & ~shown
        returns[skipped] = env.skipped_return[skipped] / env.skipped[skipped]
        recorded |= first
    return _result((returns > 0).astype(np.float64), returns, returns == 0, opponents,
                   "greedy" if greedy else "sampled", "rotate")


@torch.no_grad()
def evaluate_table(agent, norm, game_id, opponents, games=2000, seed=10_000, greedy=True,
                   options=None) -> dict:
    """Win share of the policy in ``games`` games of any game against ``opponents`` (one
    bot name per other seat, in seat order skipping the learner's, as ``LearnerEnv``
    takes them), played on a plain batch with ``cardvec.bots.act`` for the bots: one
    game per lane, the learner in seat l % num_players; a seat's result is its summed
    reward, the highest wins, k tied leaders get 1/k each (``draw_rate``: the games the
    learner led tied)."""
    env = cardvec.make(game_id, games, seed=seed, **(options or {}))
    env.reset()
    n, p = games, env.num_players
    if isinstance(opponents, str):
        opponents = [opponents] * (p - 1)
    lanes = np.arange(n)
    learner = lanes % p
    # bot_of[l, q]: index into `opponents` of the bot in seat q of lane l (-1: learner).
    bot_of = np.full((n, p), -1)
    for q in range(p):
        other = q != learner
        bot_of[other, q] = np.where(q < learner[other], q, q - 1)
    names = list(dict.fromkeys(opponents))
    t = env.torch()
    gen = torch.Generator().manual_seed(seed)
    totals = np.zeros((n, p), np.float64)
    finished = np.zeros(n, bool)
    ply = 0
    while not finished.all():
        cp = env.current_player
        live = ~finished
        actions = np.zeros(n, np.int64)
        mine = live & (cp == learner)
        if mine.any():
            a = _act(agent, norm, t.obs, t.legal_mask, greedy, gen).numpy()
            actions[mine] = a[mine]
        seat_bot = bot_of[lanes, np.clip(cp, 0, p - 1)]
        for name in names:
            ids = [i for i, o in enumerate(opponents) if o == name]
            sel = live & ~mine & np.isin(seat_bot, ids)
            if sel.any():
                b = cardvec.bots.act(env, name, lanes=sel, seed=seed + ply)
                actions[sel] = b[sel]
        env.step(actions)
        totals[live] += env.rewards[live]
        finished |= env.terminated | env.truncated
        ply += 1
    best = totals.max(1, keepdims=True)
    leaders = totals == best
    mine_lead = leaders[lanes, learner]
    shares = np.where(mine_lead, 1.0 / leaders.sum(1), 0.0)
    tied = mine_lead & (leaders.sum(1) > 1)
    return _result(shares, totals[lanes, learner], tied, list(opponents),
                   "greedy" if greedy else "sampled", "l % num_players")


class Trainer:
    """Masked PPO on one or several ``LearnerEnv`` (one per training opponent set, the lanes
    split evenly), stepped in turn and batched together."""

    def __init__(self, game_id: str, opponents: list, cfg: Config, seed: int = 0,
                 options: dict | None = None):
        self.cfg, self.game_id, self.options = cfg, game_id, dict(options or {})
        torch.manual_seed(seed)
        torch.set_num_threads(cfg.threads)
        self.gen = torch.Generator().manual_seed(seed)
        k = len(opponents)
        sizes = [cfg.envs // k + (1 if i < cfg.envs % k else 0) for i in range(k)]
        if min(sizes) < 1:
            raise ValueError(f"--envs {cfg.envs} is fewer than the {k} opponent sets")
        self.envs = [
            cardvec.LearnerEnv(game_id, s, opponents=o, seat="rotate", seed=seed + 7919 * i,
                               **self.options)
            for i, (s, o) in enumerate(zip(sizes, opponents))
        ]
        self.opponents = opponents
        self.bounds = np.cumsum([0] + sizes)
        e0 = self.envs[0]
        self.obs_dim, self.num_actions = e0.obs_dim, e0.num_actions
        self.agent = Agent(self.obs_dim, self.num_actions, cfg.hidden, cfg.layers)
        self.opt = torch.optim.Adam(self.agent.parameters(), lr=cfg.lr, eps=1e-5)
        self.norm = ObsNorm(self.obs_dim)
        self.views = [e.torch() for e in self.envs]
        for e in self.envs:
            e.reset()
        n, t, d, a = cfg.envs, cfg.steps, self.obs_dim, self.num_actions
        self.raw_obs = torch.zeros(n, d)
        self.mask = torch.zeros(n, a, dtype=torch.bool)
        self.prev_done = torch.zeros(n, dtype=torch.bool)
        self.buf = {
            "obs": torch.zeros(t, n, d),
            "mask": torch.zeros(t, n, a, dtype=torch.bool),
            "act": torch.zeros(t, n, dtype=torch.long),
            "logp": torch.zeros(t, n),
            "val": torch.zeros(t, n),
            "rew": torch.zeros(t, n),
            "done": torch.zeros(t, n),
            "valid": torch.zeros(t, n),
        }
        self._gather()
        self.env_time = 0.0
        self.train_time = 0.0
        self.env_steps = 0
        self.updates = 0
        self.history: list = []  # one dict per update
        self.evals: list = []  # periodic evaluations

    def _gather(self):
        """Copies every env's current outputs (torch views) into the batch tensors."""
        for (lo, hi), v in zip(zip(self.bounds[:-1], self.bounds[1:]), self.views):
            self.raw_obs[lo:hi].copy_(v.obs)
            self.mask[lo:hi].copy_(v.legal_mask)

    def _step(self, actions: np.ndarray):
        """Steps every env; returns rewards, done flags and the finished episodes' returns."""
        rew = torch.empty(self.cfg.envs)
        done = torch.empty(self.cfg.envs, dtype=torch.bool)
        rets, opps = [], []
        t0 = time.perf_counter()
        for i, (lo, hi) in enumerate(zip(self.bounds[:-1], self.bounds[1:])):
            self.envs[i].step(actions[lo:hi])
        self.env_time += time.perf_counter() - t0
        for i, ((lo, hi), v) in enumerate(zip(zip(self.bounds[:-1], self.bounds[1:]), self.views)):
            rew[lo:hi] = v.rewards
            d = v.terminated | v.truncated
            done[lo:hi] = d
            if self.cfg.win_reward and v.terminated.any():
                bonus = self.cfg.win_reward / self.cfg.reward_scale
                rew[lo:hi] += bonus * win_share(v.seat_returns, v.seat, v.terminated)
            if d.any():
                rets.append(v.episode_return[d].double().numpy().copy())
                opps += [i] * int(d.sum())
        self.env_steps += self.cfg.envs
        return rew, done, (np.concatenate(rets) if rets else np.zeros(0)), opps

    def update(self) -> dict:
        """One rollout of ``steps`` x ``envs`` and ``epochs`` of PPO on it."""
        cfg, b, agent = self.cfg, self.buf, self.agent
        t0 = time.perf_counter()
        ep_returns, ep_opps = [], []
        for t in range(cfg.steps):
            valid = ~self.prev_done
            self.norm.update(self.raw_obs[valid])
            obs = self.norm(self.raw_obs)
            with torch.no_grad():
                logits, value = agent(obs, self.mask)
                actions, logp = sample(logits, self.gen)
            b["obs"][t], b["mask"][t], b["act"][t] = obs, self.mask, actions
            b["logp"][t], b["val"][t], b["valid"][t] = logp, value, valid.float()
            rew, done, rets, opps = self._step(actions.numpy())
            b["rew"][t] = rew * cfg.reward_scale
            b["done"][t] = done.float()
            ep_returns.append(rets)
            ep_opps += opps
            self.prev_done = done
            self._gather()
        with torch.no_grad():
            _, last_value = agent(self.norm(self.raw_obs), self.mask)
        adv = torch.zeros(cfg.steps, cfg.envs)
        gae = torch.zeros(cfg.envs)
        for t in reversed(range(cfg.steps)):
            nxt = last_value if t == cfg.steps - 1 else b["val"][t + 1]
            nonterminal = 1.0 - b["done"][t]
            delta = b["rew"][t] + cfg.gamma * nxt * nonterminal - b["val"][t]
            gae = delta + cfg.gamma * cfg.lam * nonterminal * gae
            adv[t] = gae
        ret = adv + b["val"]
        keep = b["valid"].flatten().bool()
        flat = {k: v.flatten(0, 1)[keep] for k, v in b.items()}
        f_adv, f_ret = adv.flatten()[keep], ret.flatten()[keep]
        m = f_adv.shape[0]
        mb = max(1, m // cfg.minibatches)
        stats = {"pg": 0.0, "vf": 0.0, "ent": 0.0, "kl": 0.0, "clipfrac": 0.0}
        count = 0
        for _ in range(cfg.epochs):
            perm = torch.randperm(m, generator=self.gen)
            for s in range(0, m, mb):
                idx = perm[s : s + mb]
                logits, value = agent(flat["obs"][idx], flat["mask"][idx])
                logp_all = torch.log_softmax(logits, 1)
                logp = logp_all.gather(1, flat["act"][idx][:, None]).squeeze(1)
                ratio = torch.exp(logp - flat["logp"][idx])
                a = f_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8) if a.numel() > 1 else a
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - cfg.clip, 1 + cfg.clip)).mean()
                vf = 0.5 * (value - f_ret[idx]).square().mean()
                ent = -(logp_all.exp() * logp_all).sum(1).mean()
                loss = pg + cfg.vf_coef * vf - cfg.ent_coef * ent
                self.opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), cfg.max_grad_norm)
                self.opt.step()
                with torch.no_grad():
                    stats["pg"] += pg.item()
                    stats["vf"] += vf.item()
                    stats["ent"] += ent.item()
                    stats["kl"] += ((ratio - 1) - torch.log(ratio)).mean().item()
                    stats["clipfrac"] += ((ratio - 1).abs() > cfg.clip).float().mean().item()
                    count += 1
        self.train_time += time.perf_counter() - t0
        self.updates += 1
        rets = np.concatenate(ep_returns) if ep_returns else np.zeros(0)
        row = {k: v / max(count, 1) for k, v in stats.items()}
        row.update(
            update=self.updates,
            minutes=self.train_time / 60,
            env_steps=self.env_steps,
            samples=int(m),
            episodes=int(len(rets)),
            mean_return=float(rets.mean()) if len(rets) else float("nan"),
            win_rate=float((rets > 0).mean()) if len(rets) else float("nan"),
            per_opponent=self._per_opponent(rets, ep_opps),
            lr=self.opt.param_groups[0]["lr"],
        )
        self.history.append(row)
        return row

    def _per_opponent(self, rets: np.ndarray, opps: list) -> dict:
        """The training games' win rate against each opponent set, sets of the same bots
        pooled."""
        labels = np.array([_label(self.opponents[i]) for i in opps], dtype=object)
        return {str(k): float((rets[labels == k] > 0).mean()) for k in sorted(set(labels))}

    def set_lr_fraction(self, frac: float) -> None:
        for g in self.opt.param_groups:
            g["lr"] = self.cfg.lr * max(frac, 0.0)

    def throughput(self) -> dict:
        """Env share of the training loop's wall time, and the loop's learner steps/s."""
        wall = max(self.train_time, 1e-9)
        return {
            "train_seconds": self.train_time,
            "env_seconds": self.env_time,
            "env_share": self.env_time / wall,
            "learner_steps": self.env_steps,
            "learner_steps_per_s": self.env_steps / wall,
            "updates": self.updates,
        }

    def save(self, path: str) -> None:
        torch.save(
            {"agent": self.agent.state_dict(), "norm": self.norm.state_dict(),
             "config": asdict(self.cfg), "game_id": self.game_id, "options": self.options},
            path,
        )


def export(agent: Agent, norm: ObsNorm, path: str, game_id: str, options=None) -> None:
    """Writes the actor of ``agent`` (its trunk and policy head) with the observation
    normalizer ``norm`` as a policy file (docs/policies.md, examples/export_policy.py):
    ``policy:<path>`` then plays it greedily in Rust, wherever a bot name is taken."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from export_policy import export_policy

    net = nn.Sequential(*agent.trunk, agent.pi)
    export_policy(net, path, game=game_id, options=dict(options or {}),
                  obs_mean=norm.mean.float(), obs_std=torch.sqrt(norm.var + 1e-8).float(),
                  obs_clip=10.0)


def train(trainer: Trainer, minutes: float, max_updates: int | None, evaluate,
          eval_every: float, eval_every_updates: int | None = None, log=print) -> None:
    """Runs ``trainer`` for ``minutes`` of training time (periodic evaluations excluded) or
    ``max_updates`` updates, whichever comes first; the learning rate decays linearly to 0
    over the budget. ``evaluate(trainer)`` is called every ``eval_every`` minutes of
    training, or every ``eval_every_updates`` updates when given; its results are kept in
    ``trainer.evals``."""
    budget = minutes * 60
    next_eval = eval_every * 60
    while True:
        progress = trainer.train_time / budget if budget > 0 else 1.0
        if max_updates:
            progress = max(progress, trainer.updates / max_updates)
        if progress >= 1.0:
            break
        trainer.set_lr_fraction(1.0 - progress)
        row = trainer.update()
        if trainer.updates % 10 == 1:
            log(
                f"update {row['update']:4d}  {row['minutes']:5.2f} min  "
                f"steps {row['env_steps']:>10,}  episodes {row['episodes']:5d}  "
                f"win {row['win_rate']:.3f}  return {row['mean_return']:8.3f}  "
                f"ent {row['ent']:.3f}  kl {row['kl']:.4f}"
            )
        if eval_every_updates:
            if trainer.updates % eval_every_updates == 0:
                trainer.evals.append({"minutes": trainer.train_time / 60, **evaluate(trainer)})
        elif eval_every > 0 and trainer.train_time >= next_eval:
            next_eval += eval_every * 60
            trainer.evals.append({"minutes": trainer.train_time / 60, **evaluate(trainer)})


def plot_curve(history: list, evals: list, path: str, title: str, train_label: str,
               train_key: str = "win_rate", final: dict | None = None) -> None:
    """The learning curve: the training metric per update (sampled policy, against the
    training opponents; a trailing mean over 2% of the updates) and the periodic
    evaluations with their 95% intervals. ``history`` and ``evals`` are a trainer's (or a
    summary.json's, to draw it again)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    xs = [r["minutes"] for r in history]
    ys = np.array([r[train_key] for r in history], dtype=float)

    def trailing_mean(v):
        k = max(1, len(v) // 50)
        sums = np.concatenate([[0.0], np.cumsum(np.nan_to_num(v))])
        idx = np.arange(len(v))
        lo = np.maximum(0, idx - k + 1)
        return (sums[idx + 1] - sums[lo]) / (idx + 1 - lo)

    opponents = sorted({o for r in history for o in r.get("per_opponent", {})})
    if len(ys) and train_key == "win_rate" and len(opponents) > 1:
        for shade, o in zip(("0.35", "0.6", "0.75", "0.85"), opponents):
            v = np.array([r.get("per_opponent", {}).get(o, np.nan) for r in history])
            ax.plot(xs, trailing_mean(v), color=shade, lw=1.2, ls="--",
                    label=f"{train_label}, vs {o}")
    elif len(ys):
        smooth = trailing_mean(ys)
        if train_key == "win_rate":
            ax.plot(xs, smooth, color="0.5", lw=1.2, label=train_label)
        else:  # another scale: its own axis on the right
            ax2 = ax.twinx()
            ax2.plot(xs, smooth, color="0.5", lw=1.2)
            ax2.set_ylabel(train_label, color="0.4")
            ax.plot([], [], color="0.5", lw=1.2, label=f"{train_label} (right axis)")
    series: dict = {}
    for e in evals:
        for name, res in e["results"].items():
            series.setdefault(name, []).append((e["minutes"], res))
    for name, pts in series.items():
        x = [m for m, _ in pts]
        y = [r["win_rate"] for _, r in pts]
        lo = [r["win_rate"] - r["ci95"][0] for _, r in pts]
        hi = [r["ci95"][1] - r["win_rate"] for _, r in pts]
        ax.errorbar(x, y, yerr=[lo, hi], marker="o", ms=3, capsize=2, label=f"eval vs {name}")
    if final:
        for name, res in final.items():
            ax.axhline(res["win_rate"], ls=":", lw=0.8, color="0.3")
            ax.annotate(f"final vs {name}: {res['win_rate']:.3f}", (0, res["win_rate"]),
                        textcoords="offset points", xytext=(4, 3), fontsize=8)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    ax.set_xlabel(f"training minutes ({cores} cores)")
    ax.set_ylabel("win rate")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def add_arguments(p, *, envs=256, steps=64, gamma=1.0, reward_scale=0.01, lr=Config.lr,
                  train_opponents="random") -> None:
    """The command-line options every example takes (``--minutes``, ``--envs``, ``--seed``,
    ``--out``, the PPO hyper-parameters and the evaluation's size)."""
    p.add_argument("--minutes", type=float, default=10.0, help="training time budget")
    p.add_argument("--max-updates", type=int, default=None, help="stop after this many updates")
    p.add_argument("--envs", type=int, default=envs, help="lanes")
    p.add_argument("--steps", type=int, default=steps, help="rollout length per lane")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", required=False, help="output directory")
    p.add_argument("--train-opponents", default=train_opponents,
                   help="opponent sets separated by ';' (bots of one set by ','): the lanes "
                   "are split between the sets")
    p.add_argument("--lr", type=float, default=lr)
    p.add_argument("--ent-coef", type=float, default=Config.ent_coef)
    p.add_argument("--hidden", type=int, default=Config.hidden)
    p.add_argument("--layers", type=int, default=Config.layers)
    p.add_argument("--epochs", type=int, default=Config.epochs)
    p.add_argument("--minibatches", type=int, default=Config.minibatches)
    p.add_argument("--gamma", type=float, default=gamma)
    p.add_argument("--reward-scale", type=float, default=reward_scale)
    p.add_argument("--win-reward", type=float, default=0.0,
                   help="added to the (scaled) reward at a game's end, times the learner's "
                        "win share (1, or 1/k for k tied leaders; 0 when it did not win)")
    p.add_argument("--threads", type=int, default=Config.threads, help="torch threads")
    p.add_argument("--eval-games", type=int, default=2000, help="final evaluation, per opponent")
    p.add_argument("--eval-every", type=float, default=1.0, help="minutes between evaluations")
    p.add_argument("--eval-every-updates", type=int, default=None,
                   help="evaluate every N updates instead (a run that does not depend on time)")
    p.add_argument("--curve-games", type=int, default=400, help="games per periodic evaluation")
    p.add_argument("--sampled", action="store_true", help="evaluate the sampled policy, not greedy")


def opponent_sets(text: str) -> list:
    """``"a;b,c"`` -> ``["a", ["b", "c"]]``: one entry per set, a bot name or a list."""
    sets = []
    for part in text.split(";"):
        names = [n.strip() for n in part.split(",") if n.strip()]
        if names:
            sets.append(names[0] if len(names) == 1 else names)
    if not sets:
        raise ValueError(f"no opponents in {text!r}")
    return sets


def _label(opponents) -> str:
    return opponents if isinstance(opponents, str) else "+".join(opponents)


def run(args, *, game_id: str, title: str, eval_sets: list, evaluator, options=None,
        train_label: str = "training games won (sampled policy)", train_key: str = "win_rate",
        result_note: str = "") -> dict:
    """Trains, evaluates against every set of ``eval_sets`` (``evaluator`` is
    ``evaluate_learner`` or ``evaluate_table``), prints the figures and writes
    ``summary.json``, ``curve.png``, ``model.pt`` and ``policy.safetensors`` (the policy
    file of the actor, ``export``) to ``args.out``."""
    os.makedirs(args.out, exist_ok=True)
    cfg = Config(
        envs=args.envs, steps=args.steps, lr=args.lr, ent_coef=args.ent_coef,
        hidden=args.hidden, layers=args.layers, epochs=args.epochs,
        minibatches=args.minibatches, gamma=args.gamma, reward_scale=args.reward_scale,
        win_reward=args.win_reward, threads=args.threads,
    )
    train_sets = opponent_sets(args.train_opponents)
    trainer = Trainer(game_id, train_sets, cfg, seed=args.seed, options=options)
    greedy = not args.sampled

    def evaluate(tr, games=args.curve_games):
        return {
            "results": {
                _label(o): evaluator(tr.agent, tr.norm, game_id, o, games=games,
                                     seed=10_000 + args.seed, greedy=greedy, options=options)
                for o in eval_sets
            }
        }

    start = time.perf_counter()
    train(trainer, args.minutes, args.max_updates, evaluate, args.eval_every,
          args.eval_every_updates)
    t_eval = time.perf_counter()
    final = evaluate(trainer, args.eval_games)["results"]
    eval_seconds = time.perf_counter() - t_eval
    perf = trainer.throughput()

    print(f"\n{title}: {perf['train_seconds'] / 60:.2f} training minutes, "
          f"{perf['learner_steps']:,} learner steps, {perf['updates']} updates")
    for name, r in final.items():
        print(f"  vs {name:30s} win rate {r['win_rate']:.3f}  95% CI [{r['ci95'][0]:.3f}, "
              f"{r['ci95'][1]:.3f}]  draws {r['draw_rate']:.3f}  mean return "
              f"{r['mean_return']:+.1f}  ({r['games']} games, {r['policy']} policy)")
    if result_note:
        print(f"  ({result_note})")
    print(f"  env share of the training loop: {perf['env_share']:.1%}  "
          f"(env {perf['env_seconds']:.1f} s of {perf['train_seconds']:.1f} s)")
    print(f"  training loop: {perf['learner_steps_per_s']:,.0f} learner steps/s")
    summary = {
        "game": game_id,
        "options": dict(options or {}),
        "command": " ".join(["python"] + sys.argv),
        "args": vars(args),
        "config": asdict(cfg),
        "train_opponents": train_sets,
        "final": final,
        "result_note": result_note,
        "throughput": perf,
        "eval_seconds": eval_seconds,
        "total_seconds": time.perf_counter() - start,
        "evals": trainer.evals,
        "history": trainer.history,
        "machine": machine(),
    }
    write_json(os.path.join(args.out, "summary.json"), summary)
    plot_curve(trainer.history, trainer.evals, os.path.join(args.out, "curve.png"),
               f"{title} vs {'; '.join(_label(o) for o in train_sets)}", train_label,
               train_key=train_key, final=final)
    trainer.save(os.path.join(args.out, "model.pt"))
    export(trainer.agent, trainer.norm, os.path.join(args.out, "policy.safetensors"), game_id,
           options)
    print(f"  wrote {args.out}/summary.json, curve.png, model.pt, policy.safetensors "
          f"(play it: policy:{args.out}/policy.safetensors)")
    return summary


def machine() -> dict:
    """Where the run happened."""
    try:
        load = os.getloadavg()
    except OSError:
        load = None
    return {
        "cores": os.cpu_count(),
        "torch": torch.__version__,
        "torch_threads": torch.get_num_threads(),
        "python": platform.python_version(),
        "cardvec": cardvec.__version__,
        "loadavg_at_end": load,
    }


def write_json(path: str, data: dict) -> None:
    with open(path, "w") as f:
        json.dump(data, f, indent=2, default=float)
        f.write("\n")


__all__ = [
    "add_arguments",
    "opponent_sets",
    "run",
    "Agent",
    "asdict",
    "Config",
    "ObsNorm",
    "Trainer",
    "evaluate_learner",
    "evaluate_table",
    "export",
    "machine",
    "plot_curve",
    "sample",
    "train",
    "wilson",
    "write_json",
]
