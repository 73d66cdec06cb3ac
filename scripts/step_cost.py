"""Instructions per live batch step (callgrind), per game and observation mode, of one or two
builds of examples/step_cost.rs: a count that is repeatable on a loaded machine, unlike a
timing. With two binaries it prints both and the ratio (after / before):

    cargo build --release --example step_cost
    python scripts/step_cost.py --after target/release/examples/step_cost \\
        [--before OLD/target/release/examples/step_cost]

The before binary may be the same example built at an older commit (it must take the same
arguments; the cases marked new-only are skipped for it). Each run is
`valgrind --tool=callgrind --instr-atstart=no step_cost GAME MODE ...`: the example switches
instrumentation on around each `VecEnv::step` call only, so the policy is not counted.
"""
import argparse
import os
import re
import subprocess
import tempfile

# (label, game, mode, arguments, whether the case exists only in the newer engine)
CASES = [
    ("lost-cities channel-major", "lost-cities", "mask", ["-o", "obs_layout=channel-major"], False),
    ("lost-cities channel-major", "lost-cities", "f32", ["-o", "obs_layout=channel-major"], False),
    ("lost-cities channel-major", "lost-cities", "u8", ["-o", "obs_layout=channel-major"], True),
    ("lost-cities card-major", "lost-cities", "f32", ["-o", "obs_layout=card-major"], True),
    ("lost-cities card-major", "lost-cities", "u8", ["-o", "obs_layout=card-major"], True),
    ("flip7 3 seats", "flip7", "mask", ["--players", "3"], False),
    ("flip7 3 seats", "flip7", "f32", ["--players", "3"], False),
    ("flip7 3 seats", "flip7", "u8", ["--players", "3"], True),
    ("151 2 seats", "151", "mask", ["--players", "2"], False),
    ("151 2 seats", "151", "f32", ["--players", "2"], False),
    ("151 2 seats", "151", "u8", ["--players", "2"], True),
    ("holdem 2 seats", "holdem", "mask", ["--players", "2"], False),
    ("holdem 2 seats", "holdem", "f32", ["--players", "2"], False),
    ("holdem 2 seats", "holdem", "u8", ["--players", "2"], True),
    ("holdem 6 seats", "holdem", "mask", ["--players", "6"], False),
    ("holdem 6 seats", "holdem", "f32", ["--players", "6"], False),
]


def cost(binary, game, mode, extra, common):
    """Instructions per live step of one run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
               binary, game, mode, *extra, *common]
        run = subprocess.run(cmd, capture_output=True, text=True, check=True)
    live = int(re.search(r"live_steps=(\d+)", run.stdout).group(1))
    refs = int(re.search(r"I\s+refs:\s+([\d,]+)", run.stderr).group(1).replace(",", ""))
    return refs / live


parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--after", required=True, help="step_cost binary of the tree under test")
parser.add_argument("--before", help="step_cost binary of the commit to compare with")
parser.add_argument("--envs", type=int, default=512)
parser.add_argument("--steps", type=int, default=256)
parser.add_argument("--only", help="run only the cases whose label contains this")
args = parser.parse_args()
common = ["--envs", str(args.envs), "--steps", str(args.steps)]
print(f"{'case':<28} {'mode':<5} {'before':>8} {'after':>8} {'after/before':>12}")
for label, game, mode, extra, new_only in CASES:
    if args.only and args.only not in label:
        continue
    after = cost(args.after, game, mode, extra, common)
    before = None if not args.before or new_only else cost(args.before, game, mode, extra, common)
    ratio = f"{after / before:12.3f}" if before else f"{'':>12}"
    before_text = f"{before:8.0f}" if before else f"{'-':>8}"
    print(f"{label:<28} {mode:<5} {before_text} {after:8.0f} {ratio}", flush=True)
