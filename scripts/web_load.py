#!/usr/bin/env python3
"""Load test of the web table (`cardvec serve`), not part of CI: N concurrent tables play
random legal moves through the HTTP API for S seconds on loopback (one keep-alive connection
per table, asyncio, standard library only). Every game in turn, with several seat counts; a
finished game is checked (GET), deleted and replaced. Reports requests, errors, lost tables
and the latency percentiles of every request; exits non-zero on any error or lost table.

    cargo build --profile ci -p cardvec-cli
    python3 scripts/web_load.py --bin target/ci/cardvec --tables 200 --seconds 60

(`--url http://127.0.0.1:8151` drives a server already running instead of starting one.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import time

CONFIGS = [
    ("lost-cities", {}),
    ("flip7", {"num_players": 3}),
    ("flip7", {"num_players": 18, "target_score": 100}),
    ("151", {"num_players": 2}),
    ("151", {"num_players": 4}),
    ("holdem", {"num_players": 2}),
    ("holdem", {"num_players": 10}),
    ("kuhn", {}),
    ("leduc", {}),
]


class Conn:
    def __init__(self, host: str, port: int):
        self.host, self.port = host, port
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: object | None = None):
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        ).encode()
        self.writer.write(head + data)
        await self.writer.drain()
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        length = 0
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            k, _, v = line.decode().partition(":")
            if k.lower() == "content-length":
                length = int(v)
        payload = await self.reader.readexactly(length) if length else b""
        return status, (json.loads(payload) if payload[:1] in (b"{", b"[") else payload)


async def worker(k: int, host: str, port: int, deadline: float, stats: dict, live: dict):
    rng = random.Random(k)
    conn = Conn(host, port)

    async def timed(method, path, body=None):
        t0 = time.perf_counter()
        status, v = await conn.request(method, path, body)
        stats["lat"].append(time.perf_counter() - t0)
        if status >= 400 and not (status == 400 and "not legal" in str(v)):
            stats["errors"].append((method, path, status, v))
        return status, v

    while time.perf_counter() < deadline:
        game, options = CONFIGS[(k + stats["games"]) % len(CONFIGS)]
        n = options.get("num_players", 2)
        status, v = await timed(
            "POST", "/api/tables",
            {"game": game, "options": options, "seat": rng.randrange(n), "seed": rng.randrange(1 << 32), "bot": "random"},
        )
        if status != 201:
            return
        tid = v["id"]
        live[k] = tid
        log_len = v["log_len"]
        while not v["finished"] and time.perf_counter() < deadline:
            move = rng.choice(v["legal"])
            status, v = await timed("POST", f"/api/tables/{tid}/action?log_from={log_len}", {"action": move["action"]})
            if status != 200:
                return
            log_len = v["log_len"]
        if v["finished"]:
            status, again = await timed("GET", f"/api/tables/{tid}?log_from={log_len}")
            if status != 200 or again["result"] != v["result"]:
                stats["lost"].append(tid)
            await timed("DELETE", f"/api/tables/{tid}")
            live.pop(k, None)
            stats["games"] += 1


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] * 1000


async def main_async(args) -> int:
    proc = None
    url = args.url
    if url is None:
        proc = subprocess.Popen([args.bin, "serve", "--port", "0", "--max-tables", str(args.tables * 2)], stdout=subprocess.PIPE, text=True)
        url = "http://" + proc.stdout.readline().split("http://")[1].split("/")[0]
    host, port = url.removeprefix("http://").split(":")
    stats = {"lat": [], "errors": [], "lost": [], "games": 0}
    live: dict[int, str] = {}
    start = time.perf_counter()
    deadline = start + args.seconds
    try:
        await asyncio.gather(*(worker(k, host, int(port), deadline, stats, live) for k in range(args.tables)))
        elapsed = time.perf_counter() - start
        # Every table still in play must still be there.
        check = Conn(host, int(port))
        for tid in live.values():
            status, _ = await check.request("GET", f"/api/tables/{tid}?log_from=1000000")
            if status != 200:
                stats["lost"].append(tid)
        _, server_stats = await check.request("GET", "/api/stats")
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait()
    lat = stats["lat"]
    print(f"tables {args.tables}, {elapsed:.1f} s: {len(lat)} requests ({len(lat) / elapsed:.0f}/s), "
          f"{stats['games']} games finished, {len(live)} in play at the end (server holds {server_stats['tables']})")
    print(f"latency ms: p50 {pct(lat, 50):.2f}  p95 {pct(lat, 95):.2f}  p99 {pct(lat, 99):.2f}  max {max(lat) * 1000:.2f}")
    print(f"errors {len(stats['errors'])}, lost tables {len(stats['lost'])}")
    for e in stats["errors"][:5]:
        print("  error:", e)
    ok = not stats["errors"] and not stats["lost"] and server_stats["tables"] == len(live)
    return 0 if ok else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default="target/ci/cardvec")
    ap.add_argument("--url", default=None)
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=60)
    args = ap.parse_args()
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
