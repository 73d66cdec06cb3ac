"""Paired A/B of two `cardvec` builds' batch throughput (`cardvec bench GAME --threads 1`, text
output, so that binaries from before `--json` existed compare too), for every registered
game and configuration and every observation mode (step+mask, + f32 rows, + u8 rows where
the build has them): the runs of the two binaries alternate round by round (the order
flips every round), each pinned to the same vCPU; prints per game and mode the median rate
of each and the median of the paired ratios (after / before) with their min–max spread.

The guard of a performance-relevant change (docs/performance.md), against a commit:

    python scripts/bench_ab.py --before-rev 092b5613 --rounds 5

`--before-rev REV` builds REV's `cardvec` (release profile) in a worktree of its own under
`target/bench-ab/` with its own target dir (reused on the next run); `--before BINARY`
takes a binary already built. `--after` defaults to this tree's release build
(`cargo build --release -p cardvec-cli`, run first). Timing on a shared machine is noisy:
read a ratio together with its spread, and keep the other vCPU busy or idle the same way
for the whole run (docs/flip7.md explains why); instruction counts (scripts/step_cost.py)
are the repeatable figure.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Extra seat counts timed besides each game's smallest table.
EXTRA_PLAYERS = {"flip7": [3, 8], "151": [4], "holdem": [6]}
# Lanes per game (Lost Cities' bench default; the others as the issue-29 table).
ENVS = {"lost-cities": 8192}
# For a build whose `bench` takes no game options (before the registry): the options its
# only configuration of a game corresponds to. Other configurations are not compared.
LEGACY_CONFIG = {"lost-cities": "obs_layout=channel-major"}

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--before", help="cardvec binary to compare against")
parser.add_argument("--before-rev", help="commit to build and compare against")
parser.add_argument("--after", help="cardvec binary under test (default: this tree, built)")
parser.add_argument("--rounds", type=int, default=3)
parser.add_argument("--steps", type=int, default=256)
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--cpu", default="0", help="vCPU both binaries are pinned to ('' = none)")
parser.add_argument("--only", help="run only the cases whose label contains this")
parser.add_argument("--envs", type=int,
                    help="lanes for every game (default: 8,192 for Lost Cities, 4,096 for the others)")
args = parser.parse_args()


def sh(cmd, cwd=ROOT, **kw):
    return subprocess.run(cmd, cwd=cwd, check=True, text=True, **kw)


def build_rev(rev):
    """Builds `cardvec` at `rev` in its own worktree and returns the binary's path."""
    sha = sh(["git", "rev-parse", "--verify", rev + "^{commit}"], capture_output=True).stdout.strip()
    tree = os.path.join(ROOT, "target", "bench-ab", sha[:12])
    binary = os.path.join(tree, "target", "release", "cardvec")
    if not os.path.exists(binary):
        if not os.path.exists(tree):
            sh(["git", "worktree", "add", "--detach", tree, sha])
        # The CLI is its own crate since the layering; before it, a binary of the library.
        what = ["-p", "cardvec-cli"] if os.path.exists(os.path.join(tree, "cli", "Cargo.toml")) else ["--bin", "cardvec"]
        print(f"building {rev} ({sha[:12]}) in {tree}", file=sys.stderr, flush=True)
        sh(["cargo", "build", "--release", *what], cwd=tree)
    return binary


if args.before_rev:
    BEFORE = build_rev(args.before_rev)
elif args.before:
    BEFORE = args.before
else:
    sys.exit("give --before BINARY or --before-rev REV")
if args.after:
    AFTER = args.after
else:
    sh(["cargo", "build", "--release", "-p", "cardvec-cli"])
    AFTER = os.path.join(ROOT, "target", "release", "cardvec")


def features(binary):
    """What a build's `bench` takes: game options, observation dtypes."""
    text = sh([binary, "bench", "--help"], capture_output=True).stdout
    return {"options": "--option" in text, "dtypes": "--obs-dtype" in text}


FEATURES = {BEFORE: features(BEFORE), AFTER: features(AFTER)}
GAMES = json.loads(sh([AFTER, "games", "--json"], capture_output=True).stdout)
CASES = []  # (label, game, players, options)
for g in GAMES:
    for players in [g["players"][0], *EXTRA_PLAYERS.get(g["id"], [])]:
        for config in g["configurations"]:
            label = " ".join(x for x in [g["id"], f"{players}p", config] if x)
            CASES.append((label, g["id"], players, config))


def command(binary, game, players, config):
    """The bench command of `binary` for a case, or None if that build cannot run it."""
    f = FEATURES[binary]
    cmd = [binary, "bench", game, "--players", str(players), "--envs", str(args.envs or ENVS.get(game, 4096)),
           "--threads", "1", "--steps", str(args.steps), "--repeats", str(args.repeats)]
    if f["options"]:
        cmd += [x for word in config.split(",") if word for x in ["-o", word]]
    elif config != LEGACY_CONFIG.get(game, ""):
        return None
    if f["dtypes"]:
        cmd += ["--obs-dtype", "f32,u8"]
    return (["taskset", "-c", args.cpu] if args.cpu else []) + cmd


def run(cmd):
    """Live steps per second of each mode a bench run printed, or None if it failed (a game
    or seat count the build does not have)."""
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        return None
    rates = re.findall(r"^(step\+mask\S*)\s+live_steps=\d+ env_time=\S+ env_steps_per_sec=(\d+)", done.stdout, re.M)
    return {m: float(r) for m, r in rates}


print(f"before: {BEFORE}\nafter:  {AFTER}\nrounds: {args.rounds}, one thread, pinned to vCPU {args.cpu or '-'}")
print(f"{'case':<36} {'mode':<18} {'before M/s':>10} {'after M/s':>10} {'ratio':>7}  min–max")
for label, game, players, config in CASES:
    if args.only and args.only not in label:
        continue
    cmds = {"before": command(BEFORE, game, players, config), "after": command(AFTER, game, players, config)}
    rates = {"before": [], "after": []}
    for r in range(args.rounds):
        order = ["before", "after"] if r % 2 == 0 else ["after", "before"]
        for name in order:
            got = run(cmds[name]) if cmds[name] else None
            rates[name].append(got or {})
    modes = []
    for got in rates["after"] + rates["before"]:
        modes += [m for m in got if m not in modes]
    for m in modes:
        after = [g[m] for g in rates["after"] if m in g]
        before = [g[m] for g in rates["before"] if m in g]
        pairs = [a[m] / b[m] for a, b in zip(rates["after"], rates["before"]) if m in a and m in b]
        b_text = f"{statistics.median(before) / 1e6:10.2f}" if before else f"{'-':>10}"
        a_text = f"{statistics.median(after) / 1e6:10.2f}" if after else f"{'-':>10}"
        ratio = f"{statistics.median(pairs):7.3f}  {min(pairs):.3f}–{max(pairs):.3f}" if pairs else f"{'':>7}"
        print(f"{label:<36} {m:<18} {b_text} {a_text} {ratio}", flush=True)
