#!/usr/bin/env python3
"""The speed and memory table of docs/spot.md ("Speed and memory") and its convergence plot.

Runs `cardvec spot solve --json` on three spots (a full-range river spot, the issue's turn
spot, a flop 3-bet-pot spot), each with f32 and 16-bit storage and with 1 and 2 threads,
and reads from the progress lines the first check at or below 1%, 0.5% and 0.3% of the pot
(iterations and seconds; the seconds include the exploitability checks, one every
`--check-every` iterations). With `--plot FILE` it also solves the turn spot with DCFR,
CFR+ and PCFR+ for `--plot-iterations` iterations and plots exploitability against
iterations (matplotlib).

    python scripts/spot_table.py --bin target/release/cardvec [--spots river,turn,flop]
        [--threads 1,2] [--storage f32,16] [--isomorphism on,off] [--time-limit 900]
        [--plot docs/img/spot-convergence.png]

`--isomorphism on,off` adds a row per setting (`--no-isomorphism` for off; default: on only).

Prints a Markdown table; timings on a shared machine are noisy (say so where quoted).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

SPOTS = {
    "river": dict(
        board="Td9d6hQc2s",
        pot=200,
        stack=900,
        oop="22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,A2o+,K2o+,Q2o+,"
        "J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o",
        ip="22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s,A2o+,K2o+,Q2o+,"
        "J2o+,T2o+,92o+,82o+,72o+,62o+,52o+,42o+,32o",
        bets="60%,a",
        raises="2.5x",
        note="full ranges (1,081 combos each after the board)",
    ),
    "turn": dict(
        board="Td9d6hQc",
        pot=200,
        stack=900,
        oop="66+,A8s+,A5s-A4s,AJo+,K9s+,KQo,QTs+,JTs,96s+,85s+,75s+,65s,54s",
        ip="QQ-22,AQs-A2s,ATo+,K5s+,KJo+,Q8s+,J8s+,T7s+,96s+,86s+,75s+,64s+,53s+",
        bets="60%,e,a",
        raises="2.5x",
        note="the issue's turn spot",
    ),
    "flop": dict(
        board="QsJh2h",
        pot=180,
        stack=910,
        oop="QQ+,AKs,AKo,AQs,AJs,ATs:0.5,A5s-A4s,KQs,KJs:0.5,QJs:0.5,JTs:0.5,T9s:0.5,JJ:0.5,"
        "TT:0.5,AQo:0.5",
        ip="JJ-22,AQs-A2s,AQo-AJo,KQs-K9s,KQo,QJs-Q9s,JTs-J9s,T9s-T8s,98s,87s,76s,65s,54s",
        bets="flop:33%,75%;turn:60%;river:75%",
        raises="2.5x",
        note="a 3-bet pot: 3-bettor OOP, caller IP",
    ),
}

TARGETS = (1.0, 0.5, 0.3)


def args_of(spot: dict, extra: list[str]) -> list[str]:
    return [
        "spot", "solve", "--board", spot["board"], "--pot", str(spot["pot"]),
        "--stack", str(spot["stack"]), "--oop-range", spot["oop"], "--ip-range", spot["ip"],
        "--bets", spot["bets"], "--raises", spot["raises"], "--json", "--quiet", *extra,
    ]


def run(binary: str, spot: dict, extra: list[str]) -> tuple[list[dict], dict]:
    out = subprocess.run([binary, *args_of(spot, extra)], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"cardvec failed: {out.stderr}")
    lines = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
    return lines[:-1], lines[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default="target/release/cardvec")
    ap.add_argument("--spots", default="river,turn,flop")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--storage", default="f32,16")
    ap.add_argument("--isomorphism", default="on")
    ap.add_argument("--check-every", type=int, default=10)
    ap.add_argument("--time-limit", type=float, default=900.0)
    ap.add_argument("--plot")
    ap.add_argument("--plot-iterations", type=int, default=300)
    a = ap.parse_args()
    rows = []
    for name in a.spots.split(","):
        spot = SPOTS[name]
        for storage in a.storage.split(","):
            comp = ["--compress"] if storage == "16" else []
            _, dry = run(a.bin, spot, ["--dry-run", *comp])
            for threads, iso in [(t, i) for t in a.threads.split(",") for i in a.isomorphism.split(",")]:
                progress, last = run(a.bin, spot, [
                    "--target", str(min(TARGETS)), "--iterations", "100000",
                    "--check-every", str(a.check_every), "--time-limit", str(a.time_limit),
                    "--threads", threads, *comp, *(["--no-isomorphism"] if iso == "off" else []),
                ])
                cells = []
                for t in TARGETS:
                    hit = next((p for p in progress if p["exploitability_pct"] <= t), None)
                    cells.append(f"{hit['iterations']} / {hit['seconds']:.2f} s" if hit else "not reached")
                rows.append((name, dry["hands"], dry["memory"]["nodes"], storage,
                             dry["memory_bytes"] / 1e6, threads, iso, cells, last))
                print(f"{name} {storage} {threads}t iso {iso}: {cells} "
                      f"(last {last['iterations']} it, {last['exploitability_pct']:.3f}%, {last['seconds']:.1f} s)",
                      file=sys.stderr, flush=True)
    print("| spot | hands | nodes | storage | memory | threads | isomorphism | to 1% | to 0.5% | to 0.3% | OOP EV |")
    print("| --- | --- | ---: | --- | ---: | ---: | --- | --- | --- | --- | ---: |")
    for name, hands, nodes, storage, mb, threads, iso, cells, last in rows:
        st = "16-bit" if storage == "16" else "f32"
        iso = f"{iso} ({last['mirrors']:,} mirrors)" if iso == "on" and last.get("isomorphism") else iso
        print(f"| {name} | {hands[0]} + {hands[1]} | {nodes:,} | {st} | {mb:,.1f} MB | {threads} | {iso} | "
              + " | ".join(cells) + f" | {last['root_ev'][0]:.3f} |")
    if a.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4.2))
        for algo in ("dcfr", "cfr+", "pcfr+"):
            progress, _ = run(a.bin, SPOTS["turn"], [
                "--algorithm", algo, "--target", "0", "--iterations", str(a.plot_iterations),
                "--check-every", str(a.check_every),
            ])
            ax.plot([p["iterations"] for p in progress], [p["exploitability_pct"] for p in progress], label=algo)
        ax.set_yscale("log")
        ax.set_xlabel("iterations")
        ax.set_ylabel("exploitability (% of the pot)")
        ax.set_title("The issue's turn spot (Td9d6hQc, pot 200, stack 900)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(a.plot, dpi=110)
        print(f"plot: {a.plot}", file=sys.stderr)


if __name__ == "__main__":
    main()
