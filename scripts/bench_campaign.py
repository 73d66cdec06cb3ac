"""The figures of docs/campaigns.md: a differential run of GAME over GAMES games as a plain
`cardvec diff` (one process, every core), as a campaign in one process (address=None), on
a local Ray instance (one node, every core per shard) and on a simulated cluster of two
nodes of one CPU each (ray.cluster_utils.Cluster); then rollouts' throughput on one node.

    python scripts/bench_campaign.py --game 151 --games 10000 --shard 1000 \
        --cardvec target/ci/cardvec
"""

import argparse
import os
import shutil
import subprocess
import tempfile
import time

from cardvec import campaign


def timed(label, games, fn):
    t = time.perf_counter()
    out = fn()
    s = time.perf_counter() - t
    print(f"{label:<44} {s:7.2f} s  {games / s:9.0f} games/s", flush=True)
    return out, s


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--game", default="151")
    p.add_argument("--games", type=int, default=10_000)
    p.add_argument("--shard", type=int, default=1_000)
    p.add_argument("--cardvec", default=os.environ.get("CARDVEC_BIN") or shutil.which("cardvec"))
    p.add_argument("--rollout-lanes", type=int, default=4096)
    p.add_argument("--rollout-steps", type=int, default=128)
    a = p.parse_args()
    g, n = a.game, a.games
    if a.cardvec:
        timed(f"cardvec diff {g} (plain, {os.cpu_count()} threads)", n, lambda: subprocess.run(
            [a.cardvec, "diff", g, "--games", str(n), "--quiet"], check=True,
            stdout=subprocess.DEVNULL))
    base, _ = timed("campaign address=None", n, lambda: campaign.run(
        "diff", g, games=n, shard=a.shard, progress=False))

    def ray_local():
        import ray

        ray.init(log_to_driver=False, include_dashboard=False)
        try:
            ray.get(ray.remote(lambda: 0).remote())  # workers up before the clock starts
            return timed("campaign address=local (1 node, Ray)", n, lambda: campaign.run(
                "diff", g, games=n, shard=a.shard, progress=False, address="auto"))[0]
        finally:
            ray.shutdown()

    r1 = ray_local()

    from ray.cluster_utils import Cluster
    import ray

    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    c.add_node(num_cpus=1)
    c.wait_for_nodes()
    ray.init(address=c.address, log_to_driver=False)
    try:
        r2, _ = timed("campaign on 2 simulated nodes x 1 CPU", n, lambda: campaign.run(
            "diff", g, games=n, shard=a.shard, progress=False, address=c.address))
    finally:
        ray.shutdown()
        c.shutdown()
    strip = lambda s: {k: v for k, v in s.items() if k != "timing"}  # noqa: E731
    print("merged summaries identical:", strip(base) == strip(r1) == strip(r2))

    with tempfile.TemporaryDirectory() as out:
        lanes = a.rollout_lanes
        r, s = timed(f"rollouts lost-cities ({lanes} lanes x {a.rollout_steps} steps x 4 shards)",
                     4 * lanes, lambda: campaign.run(
                         "rollouts", "lost-cities", games=4 * lanes, shard=lanes, out=out,
                         progress=False, steps=a.rollout_steps))
        size = sum(f.stat().st_size for f in os.scandir(os.path.join(out, "rollouts")))
        print(f"  {r['transitions'] / s:,.0f} transitions/s, {size / 2**20:.0f} MiB of .npz "
              f"({size / r['transitions']:.0f} bytes per transition)")


if __name__ == "__main__":
    main()
