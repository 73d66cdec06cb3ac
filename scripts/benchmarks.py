#!/usr/bin/env python3
"""The benchmark table of one game, by one command (docs/benchmarks.md).

    python scripts/benchmarks.py GAME [--games N] [--write docs/benchmarks.md]

runs `cardvec ladder GAME --timing --json --threads 1` with every built-in bot of the game
(the registry's list, `cardvec games --json`; a bot name that is a pattern, such as
`threshold-<K>`, is played at the values PRESETS lists for it, or left out and said so) plus
the search bots `pimc` and `ismcts` at the budgets PRESETS lists for the game, and prints
the markdown table: each bot's rating (Bradley-Terry for two seats, Plackett-Luce for more,
Elo scale, 95% interval), win share, mean reward, wall-clock time per decision (one thread)
and score against the strongest heuristic (the best-rated built-in bot other than
`random`). With `--write FILE` the table replaces the game's block in FILE (between
`<!-- benchmarks:KEY begin -->` and `<!-- benchmarks:KEY end -->`, appended when absent).

Nothing here switches on a game in Rust: the bots come from the registry; this script only
holds, per game, the seats, the search budgets, the values of the bot patterns and the full
size (`--games` default). The ratings depend only on the seed (the search bots have
simulation budgets, which are deterministic); the times depend on the machine.

The binary: $CARDVEC_BIN, else target/ci/cardvec, else target/release/cardvec, else
`cardvec` on the PATH.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Per game (the key names the table; `game` is the registry id): seats, the values of the
#: bot patterns, the search bots (two or three budgets each), the full size (`games`: per
#: pair for two seats, in all for more) and the small size the docs' tables were run at.
PRESETS: dict[str, dict] = {
    "lost-cities": {
        "game": "lost-cities",
        "search": [
            "pimc:sims=10,playout=safe-heuristic",
            "pimc:sims=40,playout=safe-heuristic",
            "ismcts:iters=200,playout=safe-heuristic",
            "ismcts:iters=1000,playout=safe-heuristic",
        ],
        "games": 2000,
        "small": 20,
    },
    "kuhn": {
        "game": "kuhn",
        "search": ["pimc:sims=10", "pimc:sims=100", "ismcts:iters=100", "ismcts:iters=1000"],
        "games": 20000,
        "small": 2000,
    },
    "leduc": {
        "game": "leduc",
        "search": ["pimc:sims=10", "pimc:sims=100", "ismcts:iters=100", "ismcts:iters=1000"],
        "games": 20000,
        "small": 2000,
    },
    "flip7-3": {
        "game": "flip7",
        "players": 3,
        "patterns": {"threshold-<K>": ["threshold-15", "threshold-20", "threshold-25"]},
        "search": [
            "pimc:sims=16,playout=expected-value",
            "pimc:sims=64,playout=expected-value,value=win,crn=1,horizon=1",
            "pimc:sims=256,playout=expected-value,value=win,crn=1,horizon=1",
            "ismcts:iters=50,playout=expected-value",
        ],
        "games": 30000,
        "small": 600,
    },
    "151-2": {
        "game": "151",
        "players": 2,
        "patterns": {"minmax_d<D>w<W>[t]": []},
        "search": [
            "pimc:sims=4,playout=greedy",
            "pimc:sims=16,playout=greedy",
            "ismcts:iters=200,playout=greedy",
        ],
        "games": 2000,
        "small": 6,
    },
    "holdem": {
        "game": "holdem",
        "patterns": {"equity-<N>": ["equity-50"]},
        "search": [
            "pimc:sims=10,playout=call-station",
            "pimc:sims=50,playout=call-station",
            "ismcts:iters=200,playout=call-station",
        ],
        "games": 20000,
        "small": 400,
    },
}


def binary() -> str:
    env = os.environ.get("CARDVEC_BIN")
    if env:
        return env
    for profile in ("ci", "release"):
        p = ROOT / "target" / profile / "cardvec"
        if p.exists():
            return str(p)
    found = shutil.which("cardvec")
    if not found:
        sys.exit("benchmarks.py: no cardvec binary (build it: cargo build --profile ci -p cardvec-cli)")
    return found


def bots_of(exe: str, preset: dict) -> tuple[list[str], list[str]]:
    """The built-in bots of the game (patterns replaced by their values) and the patterns
    left out."""
    games = json.loads(subprocess.run([exe, "games", "--json"], capture_output=True, text=True,
                                      check=True).stdout)
    [info] = [g for g in games if g["id"] == preset["game"]]
    bots, left_out = [], []
    for name in info["bots"]:
        if "<" in name:
            values = preset.get("patterns", {}).get(name, [])
            if values:
                bots += values
            else:
                left_out.append(name)
        else:
            bots.append(name)
    # random first: the ratings' anchor (1000).
    bots.sort(key=lambda b: b != "random")
    return bots, left_out


def ci(low: float, high: float, digits: int = 4) -> str:
    return f"{low:.{digits}f}–{high:.{digits}f}"


def table(key: str, preset: dict, report: dict, command: str, games: int, small: bool,
          left_out: list[str], search: list[str]) -> str:
    timing = {t["bot"]: t for t in report["timing"]}
    builtin = [b for b in report["bots"] if b["bot"] not in search]
    rated = [b for b in builtin if b["bot"] != "random" and b["rating"]]
    strongest = max(rated, key=lambda b: b["rating"]["rating"])["bot"] if rated else None

    def against(bot: str) -> str:
        if bot == strongest or strongest is None:
            return "—"
        for p in report["pairs"]:
            if p["a"] == bot and p["b"] == strongest:
                s = p["score"]
                return f"{s['value']:.4f} ({ci(s['low'], s['high'])}), {p['games']} games"
            if p["b"] == bot and p["a"] == strongest:
                s = p["score"]
                return (f"{1 - s['value']:.4f} ({ci(1 - s['high'], 1 - s['low'])}), "
                        f"{p['games']} games")
        return "did not meet"

    seats = report["spec"]["seats"]
    per = "per pair" if seats == 2 else "in all"
    if not small:
        size = ""
    elif games == preset["small"]:
        size = " (small)"
    else:
        size = f" (the full size is {preset['games']:,})"
    now = datetime.date.today().isoformat()
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    title = f"{preset['game']} ({seats} seats)"
    out = [
        f"<!-- benchmarks:{key} begin -->",
        f"### {title}: games = {games} {per}{size}",
        "",
        f"`{command}`",
        "",
        f"{report['games']} games ({report['units_done']} deals, every deal played at every "
        f"seat rotation), seed {report['spec']['seed']}, {report['plies_per_game']:.1f} plies "
        f"per game. Ratings: {report['model']}, Elo scale, `random` = 1000. Time per decision: "
        f"wall clock of one thread on {cpu} ({os.cpu_count()} vCPUs, shared), {now}; the "
        f"other columns depend on the seed only. Score: games finished above the other bot, "
        f"ties half (Wilson 95% interval)."
        + (f" Strongest heuristic: `{strongest}`." if strongest else ""),
        "",
        f"| bot | games | rating (95% CI) | win share (95% CI) | mean {report['reward_unit']} "
        f"(95% CI) | ms per decision | score vs `{strongest}` |",
        "| --- | ---: | --- | --- | --- | ---: | --- |",
    ]
    ranked = sorted(report["bots"], key=lambda b: -(b["rating"] or {"rating": -1e9})["rating"])
    for b in ranked:
        r = b["rating"]
        if r is None:
            rating = "—"
        elif b["bot"] == report["spec"]["bots"][0]:
            rating = "1000 (anchor)"
        else:
            rating = f"{r['rating']:.0f} [{r['low']:.0f}, {r['high']:.0f}]"
        w, m = b["win_share"], b["reward"]
        t = timing[b["bot"]]
        ms = f"{t['seconds'] * 1e3:.4g}"
        out.append(
            f"| `{b['bot']}` | {b['games']} | {rating} | {w['value']:.4f} ({ci(w['low'], w['high'])}) "
            f"| {m['value']:+.3f} ± {m['high'] - m['value']:.3f} | {ms} | {against(b['bot'])} |"
        )
    if left_out:
        out += ["", "Not in the table (bot name patterns without values in the script): "
                + ", ".join(f"`{p}`" for p in left_out) + "."]
    out += [f"<!-- benchmarks:{key} end -->"]
    return "\n".join(out) + "\n"


def write(path: Path, key: str, block: str) -> None:
    text = path.read_text() if path.exists() else ""
    pattern = re.compile(
        rf"<!-- benchmarks:{re.escape(key)} begin -->.*?<!-- benchmarks:{re.escape(key)} end -->\n",
        re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text)
    else:
        text = text.rstrip("\n") + "\n\n" + block
    path.write_text(text)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("key", choices=sorted(PRESETS), help="the table (a game and its seats)")
    p.add_argument("--games", type=int, help="games per pair (two seats) or in all (default: "
                   "the preset's full size)")
    p.add_argument("--small", action="store_true", help="the preset's small size, labelled so")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--write", type=Path, help="replace the game's block in this markdown file")
    a = p.parse_args(argv)
    preset = PRESETS[a.key]
    games = a.games or (preset["small"] if a.small else preset["games"])
    if games < 1:
        p.error("--games must be >= 1")
    exe = binary()
    builtin, left_out = bots_of(exe, preset)
    search = list(preset["search"])
    args = [preset["game"], "--bots", ",".join(builtin + search), "--games", str(games),
            "--seed", str(a.seed), "--threads", "1"]
    if "players" in preset:
        args += ["--players", str(preset["players"])]
    out = subprocess.run([exe, "ladder", *args, "--timing", "--json", "-q"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.stderr.write(out.stderr)
        return out.returncode
    report = json.loads(out.stdout)
    shown = f"python scripts/benchmarks.py {a.key}"
    if a.small:
        shown += " --small"
    elif a.games:
        shown += f" --games {a.games}"
    if a.seed:
        shown += f" --seed {a.seed}"
    command = f"{shown}   # cardvec ladder {' '.join(args)} --timing"
    block = table(a.key, preset, report, command, games, games < preset["games"], left_out,
                  search)
    if a.write:
        write(a.write, a.key, block)
    print(block, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
