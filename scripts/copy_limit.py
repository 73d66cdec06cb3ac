"""Issue 29 (docs/performance.md, "Rows at the write limit"): what a copy-based incremental row could reach at best: rows/s of copying each lane's
acting-seat row (454 f32) out of a per-lane cache of both seats' rows ([N, 2, 454]) into
the batch rows ([N, 454]), against filling the batch rows (the write limit), 8,192 lanes,
one thread. Best of 5 repeats of 256 batch copies, alternated."""
import time, numpy as np
import sys
N, D, R = int(sys.argv[1]) if len(sys.argv) > 1 else 8192, 454, 256
cache = np.random.rand(N, 2, D).astype(np.float32)
out = np.zeros((N, D), np.float32)
seat = np.random.randint(0, 2, N)
def fill():
    for _ in range(R): out.fill(0.0)
def copy():
    # the same row of every lane's cache, half the lanes from each seat: two strided copies
    for r in range(R):
        s = r & 1
        np.copyto(out, cache[:, s, :])
for rnd in range(3):
    for name, f in ([("fill", fill), ("copy", copy)] if rnd % 2 == 0 else [("copy", copy), ("fill", fill)]):
        best = 1e9
        for _ in range(5):
            t = time.perf_counter(); f(); best = min(best, time.perf_counter() - t)
        print(f"round {rnd} {name}: {N * R / best / 1e6:.2f} M rows/s")
