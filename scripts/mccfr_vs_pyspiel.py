"""cardvec's MCCFR against OpenSpiel's C++ MCCFR solvers (pyspiel.ExternalSamplingMCCFRSolver,
pyspiel.OutcomeSamplingMCCFRSolver, epsilon 0.6) on leduc_poker, side by side in one run,
alternated, 3 rounds of 20,000 iterations, seed 1 (docs/cfr.md, "MCCFR on Leduc").

    python scripts/mccfr_vs_pyspiel.py target/ci/cardvec

cardvec is timed by the `seconds` of `cardvec solve --json` (time iterating, one thread),
pyspiel around its run_iteration() loop. Prints microseconds per iteration and the ratio.
"""
import json, subprocess, sys, time, pyspiel
N = 20000
game = pyspiel.load_game("leduc_poker")
rows = {"es": [], "os": []}
for rep in range(3):
    for kind in ("es", "os"):
        s = (pyspiel.ExternalSamplingMCCFRSolver(game, 1) if kind == "es"
             else pyspiel.OutcomeSamplingMCCFRSolver(game, 0.6, 1))
        t = time.perf_counter()
        for _ in range(N):
            s.run_iteration()
        os_t = time.perf_counter() - t
        out = subprocess.run([sys.argv[1], "solve", "leduc", "--algorithm", kind + "-mccfr",
                              "--iterations", str(N), "--seed", "1", "--threads", "1",
                              "--json", "--quiet"], capture_output=True, text=True, check=True)
        cv_t = json.loads(out.stdout.strip().splitlines()[-1])["seconds"]
        rows[kind].append((os_t / N * 1e6, cv_t / N * 1e6))
for kind, r in rows.items():
    print(kind, "pyspiel us/it", [round(a, 2) for a, _ in r], "cardvec us/it",
          [round(b, 2) for _, b in r], "ratio", [round(a / b, 1) for a, b in r])
