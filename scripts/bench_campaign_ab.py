"""A/B loop of docs/campaigns.md: plain `cardvec diff 151`, a campaign on a Ray instance
started before the clock (1 node), and a campaign in process, alternated twice."""
import os
import subprocess
import time

import ray

from cardvec import campaign
B = os.environ.get("CARDVEC_BIN", "target/ci/cardvec")
N=6000
ray.init(log_to_driver=False, include_dashboard=False)
ray.get(ray.remote(lambda: 0).remote())
for rep in range(2):
    t=time.perf_counter(); subprocess.run([B,"diff","151","--games",str(N),"--quiet"],check=True,stdout=subprocess.DEVNULL); a=time.perf_counter()-t
    t=time.perf_counter(); campaign.run("diff","151",games=N,shard=1000,progress=False,address="auto"); b=time.perf_counter()-t
    t=time.perf_counter(); campaign.run("diff","151",games=N,shard=1000,progress=False); c=time.perf_counter()-t
    print(f"plain {a:.2f}s ({N/a:.0f}/s)  ray-1node {b:.2f}s ({N/b:.0f}/s)  in-process {c:.2f}s ({N/c:.0f}/s)", flush=True)
ray.shutdown()
