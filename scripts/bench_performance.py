"""The table of docs/performance.md: `cardvec bench --memset --json` for every game (Lost
Cities in both observation layouts) on 1 and 2 threads, one configuration after the other in
one run, printed as a Markdown table (wall-clock steps/s, CPU-time steps/s, bytes per step,
fraction of the plain fill of the same bytes measured in the same run).

    python scripts/bench_performance.py [--cardvec target/ci/cardvec] [--envs 8192] [--steps 256] [--repeats 5] [--obs-dtype f32,u8]
"""

import argparse
import json
import subprocess

CONFIGS = [
    ("lost-cities", ["-o", "obs_layout=card-major"]),
    ("lost-cities", ["-o", "obs_layout=channel-major"]),
    ("flip7", []),
    ("151", []),
    ("holdem", []),
    ("kuhn", []),
    ("leduc", []),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cardvec", default="target/ci/cardvec")
    ap.add_argument("--envs", type=int, default=8192)
    ap.add_argument("--steps", type=int, default=256)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--obs-dtype", default="f32,u8",
                    help="observation dtypes to time, comma-separated (a mode each)")
    args = ap.parse_args()
    rows = []
    for game, opts in CONFIGS:
        for threads in (1, 2):
            cmd = [args.cardvec, "bench", game, *opts, "--envs", str(args.envs),
                   "--steps", str(args.steps), "--threads", str(threads),
                   "--repeats", str(args.repeats), "--memset", "--json",
                   "--obs-dtype", args.obs_dtype]
            report = json.loads(subprocess.run(cmd, check=True, capture_output=True,
                                               text=True).stdout)
            for m in report["modes"]:
                rows.append((game, " ".join(opts[1::2]) or "defaults", m["mode"], threads, m))
    print("| game | options | mode | threads | steps/s (wall) | steps/s (CPU time) "
          "| bytes/step | memset steps/s | fraction of memset |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for game, options, mode, threads, m in rows:
        cpu = m["env_steps_per_cpu_sec"]
        print(f"| {game} | {options} | {mode} | {threads} | {m['env_steps_per_sec'] / 1e6:.2f} M "
              f"| {cpu / 1e6 if cpu else float('nan'):.2f} M | {m['bytes_per_step']} "
              f"| {m['memset_steps_per_sec'] / 1e6:.1f} M | {m['fraction_of_memset']:.3f} |")


if __name__ == "__main__":
    main()
