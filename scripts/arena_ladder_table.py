"""Win-rate table (95% Wilson intervals) and Elo ratings from `cardvec arena ladder --jsonl`
output, finished pairs only (for a ladder that was interrupted).

    python scripts/arena_ladder_table.py ladder.jsonl

Elo: the Bradley-Terry maximum-likelihood fit (Zermelo's iteration) with half a game added
each way to every pair that played, as `cardvec::core::stats::elo_ratings`; builtin:random
is anchored at 1000.
"""

import json
import math
import sys

Z = 1.959963984540054


def wilson(k, n):
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return p, max(0.0, c - h), min(1.0, c + h)


def main(path):
    rows = [json.loads(line) for line in open(path) if line.strip()]
    ids = []
    for r in rows:
        for x in (r["a"], r["b"]):
            if x not in ids:
                ids.append(x)
    order = ["builtin:random", "builtin:greedy", "builtin:medium", "builtin:minmax_d3", "builtin:minmax_d5", "builtin:minmax_d6"]
    ids.sort(key=lambda x: order.index(x) if x in order else 99)
    n = len(ids)
    w = [[0.0] * n for _ in ids]
    g = [[0] * n for _ in ids]
    for r in rows:
        i, j = ids.index(r["a"]), ids.index(r["b"])
        a = r["a_wins"] + 0.5 * r["ties"]
        w[i][j] += a
        w[j][i] += r["games"] - a
        g[i][j] += r["games"]
        g[j][i] += r["games"]
    short = [x.replace("builtin:", "") for x in ids]
    print("| row vs column | " + " | ".join(short) + " |")
    print("|---|" + "---|" * n)
    for i in range(n):
        cells = []
        for j in range(n):
            if i == j or g[i][j] == 0:
                cells.append("—")
            else:
                p, lo, hi = wilson(w[i][j], g[i][j])
                cells.append(f"{p:.3f} ({lo:.3f}–{hi:.3f})")
        print(f"| {short[i]} | " + " | ".join(cells) + " |")
    ws = [[(w[i][j] + 0.5) if g[i][j] else 0.0 for j in range(n)] for i in range(n)]
    p = [1.0] * n
    for _ in range(10000):
        q = []
        for i in range(n):
            won = sum(ws[i][j] for j in range(n) if j != i)
            den = sum((ws[i][j] + ws[j][i]) / (p[i] + p[j]) for j in range(n) if j != i and g[i][j])
            q.append(won / den if den > 0 and won > 0 else p[i])
        gm = math.exp(sum(math.log(x) for x in q) / n)
        q = [x / gm for x in q]
        done = max(abs(math.log(a) - math.log(b)) for a, b in zip(p, q)) < 1e-10
        p = q
        if done:
            break
    base = math.log10(p[0])
    print()
    for i in sorted(range(n), key=lambda i: -p[i]):
        print(f"- {short[i]}: Elo {1000 + 400 * (math.log10(p[i]) - base):.0f}")
    print()
    for r in rows:
        other = {k: r[k] for k in ("forfeit", "timeout", "max_steps") if r[k]}
        if other:
            print(f"- {r['a']} vs {r['b']}: non-normal ends {other}")


if __name__ == "__main__":
    main(sys.argv[1])
