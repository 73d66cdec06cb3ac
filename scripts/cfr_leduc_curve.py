"""The Leduc CFR+ figure of docs/cfr.md: exploitability against iterations (and against
solver time) for cardvec and OpenSpiel's CFR+ (its Python ``CFRPlusSolver`` and, through
pyspiel, its C++ ``CFRPlusSolver``) on the same machine, with the time per iteration side
by side. Not part of CI (a few minutes)::

    python scripts/cfr_leduc_curve.py [--iterations 1000] [--py-iterations 200] \
        [--out docs/img/cfr_leduc.png] [--data docs/data/cfr_leduc.json]

Only the solver's iterations are timed, never the exploitability evaluations. Prints a
Markdown table for docs/cfr.md.
"""

import argparse
import json
import os
import platform
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import cfr as os_cfr
from open_spiel.python.algorithms import exploitability as os_exploitability

import cardvec.solve as cs


def checkpoints(n):
    """Iterations at which to evaluate: roughly log-spaced from 1 to n."""
    pts = sorted({int(round(x)) for x in np.geomspace(1, n, 25)} | {n})
    return [p for p in pts if p >= 1]


def run_openspiel(solver, game, n, evaluate):
    points, elapsed, done = [], 0.0, 0
    for target in checkpoints(n):
        t = time.perf_counter()
        while done < target:
            solver.evaluate_and_update_policy()
            done += 1
        elapsed += time.perf_counter() - t
        points.append((done, float(evaluate(solver.average_policy())), elapsed))
        print(f"  {done:6d} {points[-1][1]:.6g} {elapsed:.2f}s", flush=True)
    return points


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iterations", type=int, default=1000, help="cardvec and OpenSpiel C++")
    ap.add_argument("--py-iterations", type=int, default=200, help="OpenSpiel Python")
    ap.add_argument("--out", default="docs/img/cfr_leduc.png")
    ap.add_argument("--data", default="docs/data/cfr_leduc.json")
    args = ap.parse_args()
    game = pyspiel.load_game("leduc_poker")
    n = args.iterations

    print("cardvec CFR+", flush=True)
    sol = cs.cfr("leduc", n, "cfr+", every=1)
    keep = set(checkpoints(n))
    ours = [p for p in sol.curve if p[0] in keep]
    # Time per iteration from a run without per-iteration evaluations.
    t = time.perf_counter()
    timed = cs.cfr("leduc", n, "cfr+")
    wall = time.perf_counter() - t
    ours_per_it = timed.seconds / n

    curves = {"cardvec": ours}
    per_it = {"cardvec": ours_per_it}
    if hasattr(pyspiel, "CFRPlusSolver"):
        print("OpenSpiel C++ CFRPlusSolver (pyspiel)", flush=True)
        cpp = run_openspiel(pyspiel.CFRPlusSolver(game), game, n,
                            lambda p: pyspiel.exploitability(game, p))
        curves["OpenSpiel C++"] = cpp
        per_it["OpenSpiel C++"] = cpp[-1][2] / cpp[-1][0]
    print("OpenSpiel Python CFRPlusSolver", flush=True)
    py = run_openspiel(os_cfr.CFRPlusSolver(game), game, args.py_iterations,
                       lambda p: os_exploitability.exploitability(game, p))
    curves["OpenSpiel Python"] = py
    per_it["OpenSpiel Python"] = py[-1][2] / py[-1][0]

    # The curves must agree where they overlap (same algorithm, same definition).
    for name, pts in curves.items():
        ref = {p[0]: p[1] for p in ours}
        worst = max(abs(e - ref[i]) for i, e, _ in pts if i in ref)
        print(f"{name}: largest exploitability difference from cardvec {worst:.2e}")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
    styles = {"cardvec": "-", "OpenSpiel C++": "--", "OpenSpiel Python": ":"}
    for name, pts in curves.items():
        it, ex, sec = zip(*pts)
        a1.loglog(it, ex, styles[name], label=name, lw=2)
        a2.loglog(sec, ex, styles[name], label=f"{name} ({per_it[name] * 1e3:.3g} ms/iteration)",
                  lw=2)
    a1.set_xlabel("CFR+ iterations")
    a1.set_ylabel("exploitability (chips)")
    a1.set_title("Leduc hold'em: CFR+ exploitability")
    a2.set_xlabel("solver time (s)")
    a2.set_title("the same curves against time")
    for a in (a1, a2):
        a.grid(True, which="both", alpha=0.3)
        a.legend()
    fig.tight_layout()
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    fig.savefig(args.out, dpi=110)

    machine = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    data = {
        "machine": machine,
        "openspiel": getattr(pyspiel, "__version__", "?"),
        "per_iteration_seconds": per_it,
        "cardvec_wall_seconds_with_flattening": wall,
        "curves": curves,
    }
    os.makedirs(os.path.dirname(args.data), exist_ok=True)
    with open(args.data, "w") as f:
        json.dump(data, f, indent=1)

    print()
    print("| solver | ms per iteration | cardvec is faster by | exploitability after |")
    print("|---|---:|---:|---|")
    for name, pts in curves.items():
        at = ", ".join(f"{i}: {e:.3g}" for i, e, _ in pts if i in (10, 100, 200, 1000, 10000))
        print(f"| {name} | {per_it[name] * 1e3:.3f} | {per_it[name] / ours_per_it:.0f}x | {at} |")


if __name__ == "__main__":
    main()
