#!/usr/bin/env python3
"""Check `cardvec equity --exact` against a brute-force enumeration ranked by phevaluator.

For each matchup (hole cards or small ranges, a board, dead cards), the script walks every
deal (one combo per player, no card twice) and every completion of the board, ranks each
player's seven cards with phevaluator, and counts sole wins and ties per player. cardvec must
report the same integer counts.

    /work/venv-holdem/bin/python scripts/holdem_equity_oracle.py --cardvec target/release/cardvec

Exits non-zero on any disagreement.
"""

import argparse
import itertools
import json
import subprocess
import sys
import time

from phevaluator import _pheval

RANKS = "23456789TJQKA"
SUITS = "cdhs"


def card_id(text):  # phevaluator's id: rank * 4 + suit
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def parse_cards(text):
    text = text.replace(" ", "")
    return [card_id(text[i : i + 2]) for i in range(0, len(text), 2)]


def combos(spec):
    """Combos of a comma-separated list of exact hands ("AsKs") or pair classes ("QQ")."""
    out = set()
    for part in spec.split(","):
        if len(part) == 4:
            a, b = parse_cards(part)
            out.add(frozenset((a, b)))
        elif len(part) == 2 and part[0] == part[1]:
            r = RANKS.index(part[0])
            for s1, s2 in itertools.combinations(range(4), 2):
                out.add(frozenset((r * 4 + s1, r * 4 + s2)))
        else:
            raise ValueError(f"unsupported part {part!r}")
    return [tuple(c) for c in out]


def brute_force(players, board, dead):
    known = set(board) | set(dead)
    ranges = [[c for c in combos(p) if not (set(c) & known)] for p in players]
    n = len(players)
    wins, ties, total = [0] * n, [0] * n, 0
    for deal in itertools.product(*ranges):
        used = set(known)
        ok = True
        for c in deal:
            if set(c) & used:
                ok = False
                break
            used |= set(c)
        if not ok:
            continue
        deck = [c for c in range(52) if c not in used]
        for rest in itertools.combinations(deck, 5 - len(board)):
            full = list(board) + list(rest)
            ranks = [_pheval.evaluate_7cards(*full, *c) for c in deal]
            best = min(ranks)  # phevaluator: lower is better
            sharing = [i for i in range(n) if ranks[i] == best]
            total += 1
            if len(sharing) == 1:
                wins[sharing[0]] += 1
            else:
                for i in sharing:
                    ties[i] += 1
    return total, wins, ties


MATCHUPS = [
    (["AsKs", "QhQd"], "JsTs2c", ""),
    (["AhAd", "KsKc", "8h7h"], "6h9c2s", ""),
    (["AhKh", "QQ", "JJ"], "Kd7c2h9s", ""),
    (["AsAh", "KdKc"], "2c7d9h", ""),
    (["2c2d", "AhKs"], "", ""),
    (["TT", "AsKd", "9h8h"], "Ts6d2c", "Ac"),
    (["AsKd", "AhKc", "QQ"], "2c7d9h", ""),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cardvec", default="target/release/cardvec")
    args = ap.parse_args()
    ok = True
    for players, board, dead in MATCHUPS:
        t0 = time.time()
        total, wins, ties = brute_force(players, parse_cards(board), parse_cards(dead))
        t1 = time.time()
        cmd = [args.cardvec, "equity", *players, "--exact", "--json", "--quiet"]
        if board:
            cmd += ["--board", board]
        if dead:
            cmd += ["--dead", dead]
        report = json.loads(subprocess.run(cmd, capture_output=True, check=True).stdout)
        ours = (report["total"], [p["wins"] for p in report["players"]], [p["ties"] for p in report["players"]])
        same = ours == (total, wins, ties)
        ok &= same
        print(
            f"{' vs '.join(players)} board {board or '-'} dead {dead or '-'}: "
            f"{'agree' if same else 'DISAGREE'}; deals {total}, wins {wins}, ties {ties} "
            f"(phevaluator brute force {t1 - t0:.1f}s, cardvec {report['seconds']:.3f}s)"
        )
        if not same:
            print("   cardvec:", ours)
    print("AGREE" if ok else "DISAGREE")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
