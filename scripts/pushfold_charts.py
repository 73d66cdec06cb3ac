"""Heads-up push/fold charts: solves the push/fold game at 1..20 big blinds with
cardvec.pushfold (CFR+ on the exact preflop equity table), writes docs/data/pushfold.json,
one PNG per depth (SB push and BB call frequency on the 13 x 13 grid) and a summary PNG
(the largest depth at which each hand is played) into docs/img/pushfold/, and compares
the ranges with HoldemResources' published Nash push/fold charts (printed, and kept in the
JSON under "published_comparison").

    python scripts/pushfold_charts.py [--depths 1-20] [--target 1e-6] [--dpi 100]

Needs matplotlib and the cardvec package (maturin develop --profile ci
--manifest-path python/Cargo.toml).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from cardvec import pushfold as pf

ROOT = Path(__file__).resolve().parent.parent
RANKS = "AKQJT98765432"

# HoldemResources' heads-up push/fold Nash charts (no ante; "the highest effective stack
# size in big blinds where a hand can be pushed or called", stacks before posting the
# blinds; 20+ = every depth up to 20; hands marked * have gaps and are left out). Grid as
# ours: row/column ace first, suited above the diagonal, offsuit below it. Source: the
# charts described at http://www.holdemresources.net/h/poker-theory/hune/usage.html, as
# reproduced in the stored page https://diateforno1987.netlify.app/nash-chart-poker (its
# caller chart is cut off after the first four cells of the 7 row).
P = 99.0  # 20+
G = None  # a hand with gaps (*)
HRC_PUSH = [
    [P, P, P, P, P, P, P, P, P, P, P, P, P],
    [P, P, P, P, P, P, P, P, P, P, P, 19.9, 19.3],
    [P, P, P, P, P, P, P, P, P, P, 16.3, 13.5, 12.7],
    [P, P, P, P, P, P, P, P, 18.6, 14.7, 13.5, 10.6, 8.5],
    [P, P, P, P, P, P, P, P, P, 11.9, 10.5, 7.7, 6.5],
    [P, P, P, P, P, P, P, P, P, 14.4, 6.9, 4.9, 3.7],
    [P, 18.0, 13.0, 13.3, 17.5, P, P, P, P, 18.8, 10.1, 2.7, 2.5],
    [P, 16.1, 10.3, 8.5, 9.0, 10.8, 14.7, P, P, P, 13.9, 2.5, 2.1],
    [P, 15.1, 9.6, 6.5, 5.7, 5.2, 7.0, 10.7, P, P, 16.3, G, 2.0],
    [P, 14.2, 8.9, 6.0, 4.1, 3.5, 3.0, 2.6, 2.4, P, P, G, 2.0],
    [P, 13.1, 7.9, 5.4, 3.8, 2.7, 2.3, 2.1, 2.0, 2.1, P, G, 1.8],
    [P, 12.2, 7.5, 5.0, 3.4, 2.5, 1.9, 1.8, 1.7, 1.8, 1.6, P, 1.7],
    [P, 11.6, 7.0, 4.6, 2.9, 2.2, 1.8, 1.6, 1.5, 1.5, 1.4, 1.4, P],
]
HRC_CALL_ROWS = [
    [P, P, P, P, P, P, P, P, P, P, P, P, P],
    [P, P, P, P, P, P, 17.6, 15.2, 14.3, 13.2, 12.1, 11.4, 10.7],
    [P, P, P, P, P, 16.1, 13.0, 10.5, 9.9, 8.9, 8.4, 7.8, 7.2],
    [P, P, 19.5, P, 18.0, 13.4, 10.6, 8.8, 7.0, 6.9, 6.1, 5.8, 5.6],
    [P, P, 15.3, 12.7, P, 11.5, 9.3, 7.4, 6.3, 5.2, 5.2, 4.8, 4.5],
    [P, 17.1, 11.7, 9.5, 8.4, P, 8.2, 7.0, 5.8, 5.0, 4.3, 4.1, 3.9],
    [P, 13.8, 9.7, 7.6, 6.6, 6.0, P, 6.5, 5.6, 4.8, 4.1, 3.6, 3.5],
    [P, 12.4, 8.0, 6.4],
]


def parse_depths(text: str) -> list[float]:
    out: list[float] = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = part.split("-")
            out.extend(float(d) for d in range(int(lo), int(hi) + 1))
        else:
            out.append(float(part))
    return out


def solve_all(depths: list[float], target: float) -> list[dict]:
    records = []
    weights = pf.combos() / 1326
    for d in depths:
        started = time.perf_counter()
        s = pf.solve(d, target=target)
        seconds = time.perf_counter() - started
        records.append(
            {
                "depth_bb": d,
                "iterations": s["iterations"],
                "seconds": round(seconds, 4),
                "exploitability": s["exploitability"],
                "converged": s["converged"],
                "sb_value": s["sb_value"],
                "push_share": float(weights @ s["push"]),
                "call_share": float(weights @ s["call"]),
                "push": [round(float(x), 6) for x in s["push"]],
                "call": [round(float(x), 6) for x in s["call"]],
            }
        )
        print(
            f"depth {d:5.1f}: {s['iterations']:5d} iterations, {seconds:.3f} s, exploitability "
            f"{s['exploitability']:.2e} BB/hand, SB value {s['sb_value']:+.5f}, push "
            f"{100 * records[-1]['push_share']:.1f}%, call {100 * records[-1]['call_share']:.1f}%"
        )
    return records


def compare(records: list[dict], chart: list[list], key: str) -> dict:
    """Cells (hand, integer depth) where the published chart and ours agree: ours plays a
    hand when its frequency is above 1/2, the chart when its threshold is >= the depth."""
    agree, total, differ = 0, 0, []
    for r in records:
        d = r["depth_bb"]
        if d != int(d):
            continue
        freq = pf.grid(np.asarray(r[key]))
        for row, cells in enumerate(chart):
            for col, threshold in enumerate(cells):
                if threshold is None:
                    continue
                ours = bool(freq[row, col] > 0.5)
                theirs = threshold >= d
                total += 1
                if ours == theirs:
                    agree += 1
                else:
                    differ.append(
                        {
                            "hand": pf.classes()[13 * row + col],
                            "depth_bb": d,
                            "ours": round(float(freq[row, col]), 3),
                            "published_threshold": threshold,
                        }
                    )
    return {"cells": total, "agree": agree, "differ": differ}


def draw_grid(ax, values, title: str, cmap) -> None:
    g = pf.grid(np.asarray(values))
    ax.imshow(g, cmap=cmap, vmin=0, vmax=1)
    names = pf.classes()
    for row in range(13):
        for col in range(13):
            v = g[row, col]
            ax.text(col, row, names[13 * row + col], ha="center", va="center", fontsize=6,
                    color="white" if v > 0.55 else "black")
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(title, fontsize=9)


def save(fig, path: Path, dpi: int) -> None:
    """Saves `fig` as a 64-color palette PNG (a third of the RGBA size)."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, dpi=dpi, format="png")
    buf.seek(0)
    image = Image.open(buf).convert("RGB").quantize(colors=64, method=Image.Quantize.MEDIANCUT)
    image.save(path, optimize=True)


def draw_depth(record: dict, path: Path, dpi: int) -> None:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(8.4, 4.5))
    d = record["depth_bb"]
    draw_grid(axes[0], record["push"], f"SB push, {d:g} BB ({100 * record['push_share']:.1f}%)", "Greens")
    draw_grid(axes[1], record["call"], f"BB call, {d:g} BB ({100 * record['call_share']:.1f}%)", "Oranges")
    fig.suptitle(
        f"Heads-up push/fold equilibrium at {d:g} BB: exploitability {record['exploitability']:.1e} BB/hand, "
        f"SB value {record['sb_value']:+.4f} BB",
        fontsize=8,
    )
    fig.tight_layout()
    save(fig, path, dpi)
    plt.close(fig)


def draw_summary(records: list[dict], path: Path, dpi: int) -> None:
    """The largest integer depth (of those solved) at which each hand is pushed / called
    with probability > 1/2, as HoldemResources' charts show it."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(8.4, 4.5))
    names = pf.classes()
    for ax, key, cmap, title in ((axes[0], "push", "Greens", "SB pushes up to (BB)"),
                                 (axes[1], "call", "Oranges", "BB calls up to (BB)")):
        top = np.zeros(169)
        for r in records:
            played = np.asarray(r[key]) > 0.5
            top = np.where(played, np.maximum(top, r["depth_bb"]), top)
        g = pf.grid(top)
        ax.imshow(g, cmap=cmap, vmin=0, vmax=max(r["depth_bb"] for r in records))
        for row in range(13):
            for col in range(13):
                v = g[row, col]
                ax.text(col, row, f"{names[13 * row + col]}\n{v:g}" if v else names[13 * row + col],
                        ha="center", va="center", fontsize=4.5, color="white" if v > 12 else "black")
        ax.set_xticks([])
        ax.set_yticks([])
        ax.set_title(title, fontsize=9)
    fig.suptitle("Largest stack depth (1-20 BB) where the hand is played with probability > 1/2", fontsize=8)
    fig.tight_layout()
    save(fig, path, dpi)
    plt.close(fig)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--depths", default="1-20")
    ap.add_argument("--target", type=float, default=1e-6)
    ap.add_argument("--dpi", type=int, default=100)
    ap.add_argument("--json", type=Path, default=ROOT / "docs/data/pushfold.json")
    ap.add_argument("--img", type=Path, default=ROOT / "docs/img/pushfold")
    args = ap.parse_args()

    records = solve_all(parse_depths(args.depths), args.target)
    push_cmp = compare(records, HRC_PUSH, "push")
    call_cmp = compare(records, HRC_CALL_ROWS, "call")
    for name, c in (("push", push_cmp), ("call", call_cmp)):
        print(f"{name}: {c['agree']} of {c['cells']} (hand, depth) cells agree with HoldemResources' chart")
        for x in c["differ"]:
            print(f"  {x['hand']:>4} at {x['depth_bb']:g} BB: ours {x['ours']}, published up to {x['published_threshold']}")

    out = {
        "format": "cardvec-pushfold",
        "version": 1,
        "about": "heads-up push/fold no-limit hold'em equilibria (CFR+ average strategies) per stack depth in big blinds: "
        "push[i] = small blind's shove probability, call[i] = big blind's call probability for class classes[i]; "
        "exploitability = NashConv/2 in big blinds per hand; sb_value = small blind's expected result in big blinds per hand; "
        "seconds = solve time on the machine that wrote the file",
        "classes": pf.classes(),
        "equity_table_checksum": pf.equity_counts()["checksum"],
        "target": args.target,
        "command": "python scripts/pushfold_charts.py " + " ".join(sys.argv[1:]),
        "depths": records,
        "published_comparison": {
            "source": "HoldemResources heads-up push/fold Nash charts (no ante), "
            "http://www.holdemresources.net/h/poker-theory/hune/usage.html",
            "rule": "a (hand, integer depth) cell agrees when ours plays the hand with probability > 1/2 "
            "exactly when the published threshold is >= the depth",
            "push": push_cmp,
            "call": call_cmp,
        },
    }
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(out, separators=(",", ":")) + "\n", encoding="utf-8")

    args.img.mkdir(parents=True, exist_ok=True)
    for r in records:
        draw_depth(r, args.img / f"pushfold-{r['depth_bb']:g}bb.png", args.dpi)
    draw_summary(records, args.img / "pushfold-summary.png", max(args.dpi, 130))
    print(f"wrote {args.json} and {len(records) + 1} PNGs in {args.img}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
