"""The A/B loop of docs/campaigns.md: a plain `cardvec diff 151`, a campaign on a Ray
instance started before the clock (one node) and a campaign in process, alternated twice.

    CARDVEC_BIN=target/ci/cardvec python scripts/bench_campaign_ab.py
"""
import os
import subprocess
import time

import ray

from cardvec import campaign

BIN = os.environ.get("CARDVEC_BIN", "target/ci/cardvec")
N = 6000


def main():
    ray.init(log_to_driver=False, include_dashboard=False)
    ray.get(ray.remote(lambda: 0).remote())  # workers up before the clock starts
    for _ in range(2):
        t = time.perf_counter()
        subprocess.run([BIN, "diff", "151", "--games", str(N), "--quiet"], check=True,
                       stdout=subprocess.DEVNULL)
        a = time.perf_counter() - t
        t = time.perf_counter()
        campaign.run("diff", "151", games=N, shard=1000, progress=False, address="auto")
        b = time.perf_counter() - t
        t = time.perf_counter()
        campaign.run("diff", "151", games=N, shard=1000, progress=False)
        c = time.perf_counter() - t
        print(f"plain {a:.2f}s ({N / a:.0f}/s)  ray-1node {b:.2f}s ({N / b:.0f}/s)  "
              f"in-process {c:.2f}s ({N / c:.0f}/s)", flush=True)
    ray.shutdown()


if __name__ == "__main__":
    main()
