"""Paired A/B of two `cardvec` binaries' batch throughput (`cardvec bench`, text output, so
that binaries from before `--json` existed compare too): both pinned to vCPU 0, alternated
round by round; prints, per game and mode, the best rate of each and the median of the
paired ratios (after / before). Run with the other vCPU busy (docs/flip7.md explains why):

    taskset -c 1 sh -c 'while :; do :; done' &
    python scripts/bench_ab.py --before OLD/cardvec --after target/release/cardvec --rounds 3
"""
import argparse
import json
import re
import statistics
import subprocess

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--before", required=True)
parser.add_argument("--after", required=True)
parser.add_argument("--rounds", type=int, default=3)
args = parser.parse_args()
BEFORE, AFTER, ROUNDS = args.before, args.after, args.rounds
CASES = [("lost-cities", []), ("flip7", ["--players", "3"]), ("flip7", ["--players", "8"]),
         ("151", ["--players", "2"]), ("151", ["--players", "4"]), ("holdem", ["--players", "2"]), ("holdem", ["--players", "6"])]
def run(binary, game, extra):
    cmd = ["taskset", "-c", "0", binary, "bench", game, *extra, "--envs", "4096", "--threads", "1", "--steps", "512", "--repeats", "3"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    rates = re.findall(r"^(step\+mask\S*)\s+live_steps=\d+ env_time=\S+ env_steps_per_sec=(\d+)", out, re.M)
    return {m: float(r) for m, r in rates}
results = {}
for game, extra in CASES:
    key = game + " " + " ".join(extra)
    ratios = {"step+mask": [], "step+mask+obs_f32": []}
    best = {"before": {}, "after": {}}
    for r in range(ROUNDS):
        order = [("before", BEFORE), ("after", AFTER)] if r % 2 == 0 else [("after", AFTER), ("before", BEFORE)]
        got = {}
        for name, b in order:
            got[name] = run(b, game, extra)
            for m, v in got[name].items():
                best[name][m] = max(best[name].get(m, 0), v)
        for m in ratios:
            ratios[m].append(got["after"][m] / got["before"][m])
    line = {m: {"before_best": best["before"][m], "after_best": best["after"][m],
                "best_ratio": best["after"][m] / best["before"][m], "median_pair_ratio": statistics.median(ratios[m])} for m in ratios}
    results[key] = line
    print(key, json.dumps({m: {k: round(v, 3) if "ratio" in k else round(v) for k, v in d.items()} for m, d in line.items()}), flush=True)
