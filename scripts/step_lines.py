"""Where a live batch step's instructions go, by line of this project's source: runs one
case of examples/step_cost.rs under callgrind with per-instruction counts, maps every
instruction through its chain of inlined frames (`addr2line -i`) to the innermost frame in
this project's code, and prints the lines that cost the most per live step.

`callgrind_annotate` charges an inlined standard-library function (a slice split, a range
check, a `copy_from_slice`) to the library's file, so that a bounds check in the batch loop
and one in a game's encoder land on the same line of `core/slice/mod.rs`; here they are
charged to the line of the caller that wrote them:

    cargo build --release --example step_cost
    python scripts/step_lines.py target/release/examples/step_cost flip7 f32 --players 3

Arguments after the binary are the example's (`GAME MODE [--players P] [-o NAME=VALUE]`);
`--envs`/`--steps` default to 512 and 256 as in scripts/step_cost.py. `--top N` lines
(default 40). Needs valgrind and binutils' addr2line; the binary needs debug info (the
release profile has it). A line is what the debug info says: code the optimizer merged or
moved may carry the line of another place (with Leduc, part of the inlined batch loop is
charged to `VecEnv::new`), so read a surprising line with `objdump -d` beside it.
"""
import argparse
import collections
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False,
                                 usage="%(prog)s BINARY GAME MODE [example flags] [--top N]")
parser.add_argument("binary", help="a build of examples/step_cost.rs")
parser.add_argument("--top", type=int, default=40)
# Every other argument is the example's (`GAME MODE --players P -o NAME=VALUE ...`).
args, case = parser.parse_known_args()
for flag, default in (("--envs", "512"), ("--steps", "256")):
    if flag not in case:
        case += [flag, default]


def self_costs(path):
    """Instructions executed at each address (self cost, calls excluded) of a callgrind
    output written with `--dump-instr=yes`: positions are `address line`, either absolute,
    relative to the previous line's (`+N`/`-N`) or the same (`*`)."""
    costs = collections.Counter()
    pos = [0, 0]
    after_calls = False
    for line in open(path):
        if not line.strip():
            continue
        head = line[0]
        if head.isdigit() or head in "+-*":
            words = line.split()
            for k in range(2):
                w = words[k]
                pos[k] = pos[k] if w == "*" else pos[k] + int(w) if w[0] in "+-" else int(w, 0)
            if after_calls:  # the inclusive cost of a call, charged to the callee
                after_calls = False
            elif len(words) > 2:
                costs[pos[0]] += int(words[2])
        elif line.startswith("calls="):
            after_calls = True
    return costs


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "cg.out")
    run = subprocess.run(["valgrind", "--tool=callgrind", "--instr-atstart=no", "--dump-instr=yes",
                          f"--callgrind-out-file={out}", args.binary, *case],
                         capture_output=True, text=True, check=True)
    live = int(re.search(r"live_steps=(\d+)", run.stdout).group(1))
    costs = self_costs(out)

addresses = sorted(costs)
frames = {}
for start in range(0, len(addresses), 2000):
    batch = addresses[start:start + 2000]
    text = subprocess.run(["addr2line", "-a", "-i", "-e", args.binary, *map(hex, batch)],
                          capture_output=True, text=True, check=True).stdout
    current = None
    for line in text.splitlines():
        if line.startswith("0x"):
            current = int(line, 16)
            frames[current] = []
        else:
            frames[current].append(line.split(" (discriminator")[0])

mine = os.path.join(ROOT, "")
per_line = collections.Counter()
for address, cost in costs.items():
    chain = frames.get(address, [])
    own = [f for f in chain if f.startswith(mine) and not f.endswith(":?")]
    key = own[0][len(mine):] if own else (chain[0].rsplit("/", 1)[-1] if chain else "?")
    per_line[key] += cost

total = sum(costs.values())
print(f"{' '.join(case)}: {total / live:.0f} instructions per live step ({live} live steps)")
print(f"{'per step':>9}  line")
for key, cost in per_line.most_common(args.top):
    print(f"{cost / live:9.2f}  {key}")
