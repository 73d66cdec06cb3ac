"""cardvec's Flip 7 batch stepping against game-room 0.1.0's ``flip7_v0``, side by side.

    python scripts/bench_flip7_ratio.py --players 3,8 --rounds 5

Needs game-room in the running Python (``pip install --no-deps --ignore-requires-python
game-room==0.1.0 numpy gymnasium pettingzoo``) and a release build of the ``cardvec``
binary (``cargo build --release``; ``--cardvec PATH`` to point elsewhere).

The protocol of docs/flip7.md ("Speed"): on a 2-vCPU guest the speed of either program
depends on whether the other vCPU is busy, so both are pinned to vCPU 0 (``taskset -c 0``)
while a busy loop holds vCPU 1, and the two are alternated ``--rounds`` times per player
count. Reported per player count: every run, the best of each side, the ratio best/best and
the median of the paired ratios, with and without observations. Without ``taskset`` (or
with ``--no-pin``) the programs run unpinned and no busy loop is started.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return out


def cardvec_rates(binary, players, pin):
    """env_steps_per_sec of each mode of ``cardvec bench flip7 --json``."""
    cmd = pin + [
        binary, "bench", "flip7", "--players", str(players), "--envs", "4096",
        "--threads", "1", "--steps", "2048", "--repeats", "3", "--json",
    ]
    report = json.loads(run(cmd))
    rates = {m["mode"]: float(m["env_steps_per_sec"]) for m in report["modes"]}
    for label in ("step+mask", "step+mask+obs_f32"):
        if label not in rates:
            sys.exit(f"no mode {label} in cardvec bench --json output: {sorted(rates)}")
    return rates


def game_room_rate(players, steps, pin):
    script = os.path.join(ROOT, "python", "tests", "bench_flip7_game_room.py")
    out = run(pin + [sys.executable, script, "--players", str(players), "--steps", str(steps)])
    m = re.search(r" steps_per_sec=(\d+)", out)
    if not m:
        sys.exit(f"cannot read game-room's rate:\n{out}")
    return float(m.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="3,8", help="comma-separated player counts")
    parser.add_argument("--rounds", type=int, default=5, help="alternations per player count")
    parser.add_argument("--game-room-steps", type=int, default=100000)
    parser.add_argument("--cardvec", default=os.path.join(ROOT, "target", "release", "cardvec"))
    parser.add_argument("--no-pin", action="store_true", help="no taskset, no busy loop")
    args = parser.parse_args()
    players = [int(p) for p in args.players.split(",")]
    if any(p < 3 or p > 18 for p in players) or args.rounds < 1:
        sys.exit("players must be in 3..18 and rounds at least 1")
    if not os.access(args.cardvec, os.X_OK):
        sys.exit(f"no cardvec binary at {args.cardvec}: run `cargo build --release` first")
    pin_ok = not args.no_pin and shutil.which("taskset") and os.cpu_count() >= 2
    pin = ["taskset", "-c", "0"] if pin_ok else []
    busy = None
    if pin_ok:
        busy = subprocess.Popen(["taskset", "-c", "1", "sh", "-c", "while :; do :; done"])
    try:
        for p in players:
            obs, plain, room = [], [], []
            for r in range(args.rounds):
                rates = cardvec_rates(args.cardvec, p, pin)
                obs.append(rates["step+mask+obs_f32"])
                plain.append(rates["step+mask"])
                room.append(game_room_rate(p, args.game_room_steps, pin))
                print(
                    f"players={p} run={r + 1} cardvec_obs={obs[-1]:.0f} "
                    f"cardvec_step_mask={plain[-1]:.0f} game_room={room[-1]:.0f}",
                    flush=True,
                )
            pairs_obs = [o / g for o, g in zip(obs, room)]
            pairs_plain = [o / g for o, g in zip(plain, room)]
            print(
                f"players={p} best: cardvec_obs={max(obs) / 1e6:.2f}M "
                f"cardvec_step_mask={max(plain) / 1e6:.2f}M game_room={max(room):.0f} | "
                f"ratio with obs best/best={max(obs) / max(room):.0f}x "
                f"median of pairs={statistics.median(pairs_obs):.0f}x | "
                f"without obs best/best={max(plain) / max(room):.0f}x "
                f"median of pairs={statistics.median(pairs_plain):.0f}x",
                flush=True,
            )
    finally:
        if busy is not None:
            busy.kill()
            busy.wait()


if __name__ == "__main__":
    main()
