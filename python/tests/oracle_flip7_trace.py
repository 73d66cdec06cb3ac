"""Differential check of cardvec's Flip 7 against game-room 0.1.0's ``flip7_v0``.

Reads the binary trace that ``cargo run --release --example flip7_trace`` writes (games
played by cardvec's fast engine: every shuffle it made, every action, and after each
action the seat to act, flags, rewards, mask, observation, scores, round scores and
winners), replays each game in game-room with a stub ``np_random`` whose ``shuffle``
puts the cards in cardvec's order, and compares every step.

Usage (standalone, while the PyO3 binding is not on main)::

    cargo build --release --example flip7_trace
    python python/tests/oracle_flip7_trace.py --games 3000 --seed 0

It runs the example binary itself (``--binary`` overrides its path) and exits with
status 1 on any mismatch. ``--games 100000`` is the long run.
"""

import argparse
import os
import struct
import subprocess
import sys
import time
from collections import Counter, deque

import numpy as np
from game_room import flip7_v0 as game


class StubRandom:
    """Stands in for ``env.np_random``: each ``shuffle`` takes cardvec's next order."""

    def __init__(self):
        self.orders = deque()
        self.count = 0

    def shuffle(self, items):
        if not self.orders:
            raise AssertionError("game-room shuffled but cardvec did not")
        order = self.orders.popleft()
        if Counter(order) != Counter(int(c) for c in items):
            raise AssertionError("cardvec's shuffle is not a permutation of game-room's pile")
        items[:] = order
        self.count += 1


class Reader:
    def __init__(self, stream):
        self.stream = stream

    def read(self, n):
        data = self.stream.read(n)
        if len(data) != n:
            raise EOFError
        return data

    def u8(self):
        return self.read(1)[0]

    def u32(self):
        return struct.unpack("<I", self.read(4))[0]


class Mismatch(Exception):
    pass


def read_step(r, n, obs_len):
    action = r.u32()
    to_act, flags = r.read(2)
    rewards = np.frombuffer(r.read(4 * n), dtype="<f4")
    mask = np.frombuffer(r.read(2 + n), dtype=np.uint8)
    obs = np.frombuffer(r.read(4 * obs_len), dtype="<f4").astype(np.float64)
    ints = np.frombuffer(r.read(4 * (2 * n + 2)), dtype="<u4")
    return {
        "action": action,
        "to_act": to_act,
        "terminated": bool(flags & 1),
        "truncated": bool(flags & 2),
        "rewards": rewards,
        "mask": mask,
        "obs": obs,
        "scores": ints[:n].tolist(),
        "round_scores": ints[n : 2 * n].tolist(),
        "completed_round": int(ints[2 * n]),
        "winners": [i for i in range(n) if ints[2 * n + 1] >> i & 1],
    }


def next_records(r, stub, n, obs_len):
    """Queues shuffle records; returns the next step record, or None at the game's end."""
    while True:
        tag = r.u8()
        if tag == 1:
            length = struct.unpack("<H", r.read(2))[0]
            stub.orders.append(list(r.read(length)))
        elif tag == 2:
            return read_step(r, n, obs_len)
        elif tag == 3:
            return None
        else:
            raise ValueError(f"bad record tag {tag}")


def compare(env, rec, step, all_seats=False):
    agents = env.possible_agents
    agent = env.agent_selection
    if env._indices[agent] != rec["to_act"]:
        raise Mismatch(f"step {step}: seat to act {agent} vs {rec['to_act']}")
    observed = env.observe(agent)
    if not np.array_equal(observed["observation"], rec["obs"]):
        diff = np.flatnonzero(observed["observation"] != rec["obs"])
        i = int(diff[0])
        raise Mismatch(
            f"step {step}: observation differs at {diff[:8].tolist()}: "
            f"game-room {observed['observation'][i]} vs cardvec {rec['obs'][i]}"
        )
    if not np.array_equal(observed["action_mask"].astype(np.uint8), rec["mask"]):
        raise Mismatch(f"step {step}: mask {observed['action_mask']} vs {rec['mask']}")
    rewards = [env.rewards[a] for a in agents]
    if rewards != rec["rewards"].astype(np.float64).tolist():
        raise Mismatch(f"step {step}: rewards {rewards} vs {rec['rewards']}")
    term = [env.terminations[a] for a in agents]
    trunc = [env.truncations[a] for a in agents]
    if term != [rec["terminated"]] * len(agents) or trunc != [rec["truncated"]] * len(agents):
        raise Mismatch(f"step {step}: flags {term[0]},{trunc[0]} vs cardvec")
    if env.scores != rec["scores"]:
        raise Mismatch(f"step {step}: scores {env.scores} vs {rec['scores']}")
    info = env.infos[agents[0]]
    if rec["completed_round"] == 0:
        if info:
            raise Mismatch(f"step {step}: infos before the first round end")
    else:
        expected = {
            "scores": dict(zip(agents, rec["scores"])),
            "round_scores": dict(zip(agents, rec["round_scores"])),
            "completed_round": rec["completed_round"],
            "winners": [agents[i] for i in rec["winners"]],
        }
        for a in agents:
            if env.infos[a] != expected:
                raise Mismatch(f"step {step}: infos {env.infos[a]} vs {expected}")
    if all_seats:
        for j, other in enumerate(agents):
            expected_obs = rec["obs"].copy()
            expected_obs[0] = j
            if not np.array_equal(env.observe(other)["observation"], expected_obs):
                raise Mismatch(f"step {step}: observation of {other} differs")


def replay_game(r, stats):
    magic = r.stream.read(4)
    if not magic:
        return False
    if magic != b"F7GM":
        raise ValueError("bad game header")
    n = r.u8()
    target = r.u32()
    max_rounds = r.u32() or None
    obs_len = 419 + 24 * n
    env = game.raw_env(num_players=n, target_score=target, max_rounds=max_rounds)
    stub = StubRandom()
    env.np_random = stub
    rec = next_records(r, stub, n, obs_len)
    key = n
    stats.setdefault(key, {"games": 0, "steps": 0, "mismatches": 0, "reshuffles": 0})
    st = stats[key]
    st["games"] += 1
    error = None
    try:
        env.reset()
        if stub.orders:
            raise Mismatch("reset: unused cardvec shuffles")
        compare(env, rec, 0, all_seats=True)
    except (Mismatch, AssertionError, ValueError) as e:
        error = f"reset: {e}"
    step = 0
    last_round = 0
    while True:
        rec = next_records(r, stub, n, obs_len)
        if rec is None:
            break
        step += 1
        st["steps"] += 1
        if error:
            stub.orders.clear()
            continue
        try:
            env.step(rec["action"])
            if stub.orders:
                raise Mismatch("unused cardvec shuffles")
            boundary = rec["completed_round"] != last_round
            last_round = rec["completed_round"]
            compare(env, rec, step, all_seats=boundary)
        except (Mismatch, AssertionError, ValueError) as e:
            error = f"step {step} (action {rec['action']}): {e}"
    if not error and not (all(env.terminations.values()) or all(env.truncations.values())):
        error = "game-room's game is not over when cardvec's is"
    st["reshuffles"] += max(stub.count - 1, 0)
    if error:
        st["mismatches"] += 1
    return error or True


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    target_dir = os.environ.get("CARGO_TARGET_DIR", os.path.join(root, "target"))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", default="3,4,6,10,18")
    parser.add_argument(
        "--binary", default=os.path.join(target_dir, "release", "examples", "flip7_trace")
    )
    args = parser.parse_args()
    start = time.time()
    proc = subprocess.Popen(
        [args.binary, str(args.games), str(args.seed), args.players],
        stdout=subprocess.PIPE,
        bufsize=1 << 20,
    )
    reader = Reader(proc.stdout)
    stats = {}
    failures = []
    g = 0
    while True:
        result = replay_game(reader, stats)
        if result is False:
            break
        if result is not True:
            failures.append((g, result))
            if len(failures) <= 10:
                print(f"MISMATCH game {g}: {result}", file=sys.stderr)
        g += 1
    proc.wait()
    elapsed = time.time() - start
    for n in sorted(stats):
        s = stats[n]
        print(
            f"players={n} games={s['games']} steps={s['steps']} "
            f"recycled_piles={s['reshuffles']} mismatched_games={s['mismatches']}"
        )
    total_steps = sum(s["steps"] for s in stats.values())
    print(
        f"total games={g} steps={total_steps} mismatched_games={len(failures)} "
        f"seed={args.seed} elapsed={elapsed:.1f}s"
    )
    if proc.returncode != 0 or g != args.games:
        print(f"trace binary failed (status {proc.returncode}, {g} games)", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
