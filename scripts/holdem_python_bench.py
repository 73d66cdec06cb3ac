"""Timings of the cardvec.holdem Python bindings (docs/holdem-evaluator.md, section Python).

Run after `pip install .` or `maturin develop --release` (docs/python.md):
    python scripts/holdem_python_bench.py
"""

import time, itertools, math, numpy as np
from cardvec import holdem
def best(f, reps=5):
    ts=[]
    for _ in range(reps):
        s=time.perf_counter(); f(); ts.append(time.perf_counter()-s)
    return min(ts)
n=math.comb(52,5)
a=np.fromiter(itertools.chain.from_iterable(itertools.combinations(range(52),5)),dtype=np.uint8,count=5*n).reshape(n,5)
t=best(lambda: holdem.evaluate_batch(a)); print(f"evaluate_batch all 2,598,960 5-card (uint8): {t*1e3:.1f} ms = {n/t/1e6:.0f} M hands/s")
rng=np.random.default_rng(0); h=np.argsort(rng.random((1_000_000,52),dtype=np.float32),axis=1)[:,:7].astype(np.uint8)
t=best(lambda: holdem.evaluate_batch(h)); print(f"evaluate_batch 1M random 7-card (uint8): {t*1e3:.1f} ms = {1e6/t/1e6:.0f} M hands/s")
h64=h.astype(np.int64); t=best(lambda: holdem.evaluate_batch(h64)); print(f"  same, int64: {1e6/t/1e6:.0f} M hands/s")
hf=np.asfortranarray(h64); t=best(lambda: holdem.evaluate_batch(hf)); print(f"  same, int64 Fortran order (copied): {1e6/t/1e6:.0f} M hands/s")
rows=h[:100000].tolist(); t=best(lambda: [holdem.evaluate(r) for r in rows],2); print(f"evaluate(list of 7 ids): {t/1e5*1e6:.2f} us/call")
t=best(lambda: [holdem.evaluate("AsKsQsJsTs2h3d") for _ in range(100000)],2); print(f"evaluate('AsKsQsJsTs2h3d'): {t/1e5*1e6:.2f} us/call")
t=best(lambda: holdem.equity(["AA","KK"],exact=True),2); print(f"equity AA vs KK exact (61,642,944 deals): {t:.2f} s")
t=best(lambda: holdem.equity(["AsAh","KdKc"],samples=1_000_000,exact=False),2); print(f"equity AsAh vs KdKc Monte Carlo 1M trials: {t*1e3:.0f} ms")
t=best(lambda: holdem.equity(["AsAh","KdKc","QQ"],board="2c7d9h"),2); print(f"equity AsAh/KdKc/QQ flop exact: {t*1e3:.1f} ms")
