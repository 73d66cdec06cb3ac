"""Self-play PPO on Lost Cities: an opponent pool of past checkpoints and the built-in
heuristics, prioritized by how often they still win (PFSP), played inside Rust.

    python examples/selfplay_lost_cities.py --minutes 60 --out runs/selfplay_lost_cities

The masked PPO of examples/ppo_common.py trains on one ``cardvec.LearnerEnv`` whose
opponents come from a pool (``env.set_pool``, docs/python.md "Opponent pools"): the
heuristics ``random``, ``discard-only``, ``safe-heuristic`` and, every ``--snapshot-every``
updates, the current policy exported as a policy file (``checkpoints/ckpt_<update>.safetensors``,
played greedily in Rust as ``policy:<path>``; the last ``--pool-size`` of them are kept).
Each lane draws its opponent when its game starts and keeps it for the whole game; the
pool is replaced between updates only, never touching games in progress.

Prioritized fictitious self-play (PFSP, as in AlphaStar's league): entry ``i`` is drawn with
weight ``(1 - w_i) ** --pfsp-power + --pfsp-floor``, ``w_i`` the learner's recent win rate
against it (an exponential average over the training games, ``env.opponent_id`` telling
whom each finished game was against; a new checkpoint starts at 0.5). Opponents the
learner already beats fade out, the ones it loses to are played more; the target,
``safe-heuristic``, stays in the pool throughout.

At the end: the final policy as ``policy.safetensors``, its win rate against ``random``
and ``safe-heuristic`` (``--eval-games`` games each, greedy, seats rotated; the same
figure as ``cardvec match lost-cities --a policy:<out>/policy.safetensors --b
safe-heuristic --games N``), and a ratings table (the ladder of docs/ladder.md, run
through ``cardvec._cardvec.campaign``: the same standings as ``cardvec ladder``) of the
checkpoints, the final policy and the built-in bots, ``--ladder-games`` games per pair.

Writes to ``--out``: ``summary.json``, ``curve.png`` (training win rate per opponent and
the periodic evaluations), ``model.pt``, ``policy.safetensors``, ``checkpoints/`` and
``ratings.json`` / ``ratings.txt``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import ppo_common as kit  # noqa: E402

import cardvec  # noqa: E402
from cardvec._cardvec import campaign as native  # noqa: E402

GAME = "lost-cities"
HEURISTICS = ["random", "discard-only", "safe-heuristic"]


class SelfPlayTrainer(kit.Trainer):
    """The PPO trainer on one learner view whose opponents come from a PFSP pool."""

    def __init__(self, cfg: kit.Config, args, out: str):
        super().__init__(GAME, [HEURISTICS[0]], cfg, seed=args.seed)
        self.env = self.envs[0]
        self.args = args
        self.ckpt_dir = os.path.join(out, "checkpoints")
        os.makedirs(self.ckpt_dir, exist_ok=True)
        self.checkpoints: list[str] = []  # bot names, oldest first (all ever written)
        self.winrate = {name: 0.5 for name in HEURISTICS}  # EMA of the learner's wins
        self.games_vs: dict[str, int] = {}
        self.pool_log: list = []  # the pool after every change
        self.set_pool()

    def pool_names(self) -> list[str]:
        return HEURISTICS + self.checkpoints[-self.args.pool_size:]

    def weights(self, names: list[str]) -> list[float]:
        a = self.args
        return [(1.0 - self.winrate[n]) ** a.pfsp_power + a.pfsp_floor for n in names]

    def set_pool(self) -> None:
        names = self.pool_names()
        weights = self.weights(names)
        self.env.set_pool(names, weights)
        self.pool_log.append({"update": self.updates, "pool": dict(zip(names, weights))})

    def snapshot(self) -> str:
        path = os.path.join(self.ckpt_dir, f"ckpt_{self.updates:05d}.safetensors")
        kit.export(self.agent, self.norm, path, GAME)
        name = f"policy:{path}"
        self.checkpoints.append(name)
        self.winrate[name] = 0.5
        return name

    def _step(self, actions: np.ndarray):
        """One step of the single view; the finished games' returns and opponents' names."""
        v = self.views[0]
        t0 = time.perf_counter()
        self.env.step(actions)
        self.env_time += time.perf_counter() - t0
        rew = v.rewards.clone()
        done = v.terminated | v.truncated
        rets = v.episode_return[done].double().numpy().copy()
        names = self.env.opponent_names
        opps = [names[i] for i in self.env.opponent_id[done.numpy()]]
        decay = self.args.pfsp_decay
        for name, r in zip(opps, rets):
            won = 1.0 if r > 0 else 0.5 if r == 0 else 0.0
            self.winrate[name] = decay * self.winrate.get(name, 0.5) + (1 - decay) * won
            self.games_vs[name] = self.games_vs.get(name, 0) + 1
        self.env_steps += self.cfg.envs
        return rew, done.clone(), rets, opps

    def _per_opponent(self, rets: np.ndarray, opps: list) -> dict:
        """Training win rate per opponent kind (heuristics by name, checkpoints pooled)."""
        kinds = np.array([o if o in HEURISTICS else "checkpoints" for o in opps], dtype=object)
        return {k: float((rets[kinds == k] > 0).mean()) for k in sorted(set(kinds.tolist()))}


def ratings(bots: list[str], games: int, seed: int) -> dict:
    """The ladder of ``bots`` (``cardvec ladder lost-cities --bots ... --games games``)."""
    spec, units = native.ladder_spec(GAME, bots, games, seed)
    lines = native.ladder_shard(spec, 0, units)
    return json.loads(native.ladder_report(spec, lines))


def ratings_text(report: dict) -> str:
    """The standings as a markdown table, best rating first (the first bot, ``random``, is
    the anchor at 1000)."""
    rows = ["| bot | rating | 95% interval | win share | games |",
            "| --- | ---: | --- | ---: | ---: |"]
    nan = float("nan")
    for b in sorted(report["bots"], key=lambda b: -((b.get("rating") or {}).get("rating", 0))):
        r = b.get("rating") or {}
        name = b["bot"].replace(os.path.dirname(b["bot"].split(":", 1)[-1]) + os.sep, "")
        rows.append(f"| `{name}` | {r.get('rating', nan):.0f} | [{r.get('low', nan):.0f}, "
                    f"{r.get('high', nan):.0f}] | {b['win_share']['value']:.3f} | {b['games']} |")
    return "\n".join(rows)


def main(argv=None):
    p = argparse.ArgumentParser(description="Self-play PPO (PFSP) on Lost Cities",
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    kit.add_arguments(p, lr=4e-4, train_opponents="(the pool)")
    p.add_argument("--snapshot-every", type=int, default=40,
                   help="updates between checkpoints added to the pool")
    p.add_argument("--pool-size", type=int, default=8, help="checkpoints kept in the pool")
    p.add_argument("--pfsp-power", type=float, default=2.0)
    p.add_argument("--pfsp-floor", type=float, default=0.02)
    p.add_argument("--pfsp-decay", type=float, default=0.995,
                   help="EMA decay of the win rate per finished game")
    p.add_argument("--ladder-games", type=int, default=400, help="ratings table, per pair")
    args = p.parse_args(argv)
    out = args.out = args.out or "runs/selfplay_lost_cities"
    os.makedirs(out, exist_ok=True)
    cfg = kit.Config(
        envs=args.envs, steps=args.steps, lr=args.lr, ent_coef=args.ent_coef,
        hidden=args.hidden, layers=args.layers, epochs=args.epochs,
        minibatches=args.minibatches, gamma=args.gamma, reward_scale=args.reward_scale,
        threads=args.threads,
    )
    trainer = SelfPlayTrainer(cfg, args, out)
    greedy = not args.sampled
    eval_sets = ["random", "safe-heuristic"]

    def evaluate(tr, games=args.curve_games):
        return {"results": {o: kit.evaluate_learner(tr.agent, tr.norm, GAME, o, games=games,
                                                    seed=10_000 + args.seed, greedy=greedy)
                            for o in eval_sets}}

    class Hooked:
        """``kit.train``'s view of the trainer: after every update, a checkpoint when due
        and the pool's weights renewed (between steps: games in progress keep theirs)."""

        def __getattr__(self, name):
            return getattr(trainer, name)

        def update(self):
            row = trainer.update()
            if trainer.updates % args.snapshot_every == 0:
                trainer.snapshot()
            trainer.set_pool()
            row["pool"] = {k: round(v, 4) for k, v in trainer.pool_log[-1]["pool"].items()}
            return row

    start = time.perf_counter()
    hooked = Hooked()
    kit.train(hooked, args.minutes, args.max_updates, evaluate, args.eval_every,
              args.eval_every_updates)
    final_path = os.path.join(out, "policy.safetensors")
    kit.export(trainer.agent, trainer.norm, final_path, GAME)
    final = evaluate(trainer, args.eval_games)["results"]
    perf = trainer.throughput()
    print(f"\nLost Cities, self-play PPO (PFSP): {perf['train_seconds'] / 60:.2f} training "
          f"minutes, {perf['learner_steps']:,} learner steps, {perf['updates']} updates, "
          f"{len(trainer.checkpoints)} checkpoints")
    for name, r in final.items():
        print(f"  vs {name:16s} win rate {r['win_rate']:.3f}  95% CI [{r['ci95'][0]:.3f}, "
              f"{r['ci95'][1]:.3f}]  ({r['games']} games, {r['policy']} policy, seats rotated)")
    print(f"  training loop: {perf['learner_steps_per_s']:,.0f} learner steps/s, env share "
          f"{perf['env_share']:.1%}")
    bots = HEURISTICS + trainer.checkpoints + [f"policy:{final_path}"]
    t0 = time.perf_counter()
    report = ratings(bots, args.ladder_games, args.seed)
    table = ratings_text(report)
    with open(os.path.join(out, "ratings.json"), "w") as f:
        json.dump(report, f, indent=1)
    with open(os.path.join(out, "ratings.txt"), "w") as f:
        f.write(table + "\n")
    print(f"\nratings ({args.ladder_games} games per pair, {time.perf_counter() - t0:.0f} s):")
    print(table)
    summary = {
        "game": GAME,
        "command": " ".join(["python"] + sys.argv),
        "args": vars(args),
        "config": kit.asdict(cfg),
        "final": final,
        "policy_file": final_path,
        "checkpoints": trainer.checkpoints,
        "winrate_ema": trainer.winrate,
        "games_vs": trainer.games_vs,
        "pool_log": trainer.pool_log,
        "throughput": perf,
        "total_seconds": time.perf_counter() - start,
        "evals": trainer.evals,
        "history": trainer.history,
        "machine": kit.machine(),
    }
    kit.write_json(os.path.join(out, "summary.json"), summary)
    kit.plot_curve(trainer.history, trainer.evals, os.path.join(out, "curve.png"),
                   "Lost Cities, self-play PPO (PFSP pool)",
                   "training games won (sampled policy)", final=final)
    trainer.save(os.path.join(out, "model.pt"))
    print(f"  wrote {out}/summary.json, curve.png, model.pt, policy.safetensors, "
          f"ratings.json, ratings.txt, checkpoints/")
    return summary


if __name__ == "__main__":
    torch.set_num_threads(1)
    main()
