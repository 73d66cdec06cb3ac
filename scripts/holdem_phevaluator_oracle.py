#!/usr/bin/env python3
"""Compare cardvec's hand ranks with phevaluator's, through the `cardvec eval --stdin` CLI.

cardvec prints each hand's ordinal (1 = weakest class, 7462 = royal flush, higher wins);
phevaluator returns 1 (royal flush) .. 7462 (weakest), lower wins. The two orderings agree
exactly when `ours == 7463 - theirs` for every hand; the script checks that and, as an
order-only check, that every pair of neighbouring hands compares the same way in both.

    python3 -m venv /work/venv-holdem
    /work/venv-holdem/bin/pip install "numpy<2.4" phevaluator eval7 treys pytest
    cargo build --release
    /work/venv-holdem/bin/python scripts/holdem_phevaluator_oracle.py \
        --cardvec target/release/cardvec --random 10000000

Exits non-zero on any disagreement.
"""

import argparse
import itertools
import subprocess
import sys
import time

import numpy as np
from phevaluator import _pheval  # the C evaluator behind phevaluator.evaluate_cards

RANKS = "23456789TJQKA"
SUITS = "cdhs"
# phevaluator's card id is rank * 4 + suit (suits c, d, h, s): the text is the interchange.
NAMES = [RANKS[i // 4] + SUITS[i % 4] for i in range(52)]
PHEV = {5: _pheval.evaluate_5cards, 6: _pheval.evaluate_6cards, 7: _pheval.evaluate_7cards}


def cardvec_ordinals(cardvec, hands):
    text = "\n".join(" ".join(NAMES[c] for c in h) for h in hands) + "\n"
    out = subprocess.run(
        [cardvec, "eval", "--stdin"], input=text.encode(), capture_output=True, check=True
    ).stdout
    return np.array(out.split(), dtype=np.int32)


def phevaluator_ranks(hands):
    ev = PHEV[len(hands[0])]
    return np.fromiter((ev(*h) for h in hands), dtype=np.int32, count=len(hands))


def compare(name, cardvec, hands):
    t0 = time.time()
    ours = cardvec_ordinals(cardvec, hands)
    t1 = time.time()
    theirs = phevaluator_ranks(hands)
    t2 = time.time()
    if len(ours) != len(hands):
        print(f"{name}: cardvec returned {len(ours)} ranks for {len(hands)} hands")
        return False
    exact = ours == 7463 - theirs
    # Order check on neighbouring pairs: sign(ours[i] - ours[i+1]) == sign(theirs[i+1] - theirs[i]).
    order = np.sign(np.diff(ours)) == np.sign(-np.diff(theirs))
    bad = np.flatnonzero(~exact)
    print(
        f"{name}: {len(hands)} hands, {len(bad)} rank mismatches, "
        f"{int((~order).sum())} order mismatches in {len(order)} neighbouring pairs, "
        f"{len(np.unique(ours))} distinct classes "
        f"(cardvec {t1 - t0:.1f}s incl. text I/O, phevaluator {t2 - t1:.1f}s)"
    )
    for i in bad[:5]:
        print("   ", " ".join(NAMES[c] for c in hands[i]), "cardvec", ours[i], "phevaluator", theirs[i])
    return len(bad) == 0 and bool(order.all())


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cardvec", default="target/release/cardvec")
    ap.add_argument("--random", type=int, default=10_000_000, help="random 7-card hands")
    ap.add_argument("--six", type=int, default=1_000_000, help="random 6-card hands")
    ap.add_argument("--seed", type=int, default=20240604)
    ap.add_argument("--batch", type=int, default=1_000_000)
    args = ap.parse_args()

    ok = compare("all 5-card hands", args.cardvec, list(itertools.combinations(range(52), 5)))
    rng = np.random.default_rng(args.seed)
    for size, total in ((6, args.six), (7, args.random)):
        done = 0
        while done < total:
            n = min(args.batch, total - done)
            # n random hands of `size` distinct cards: the first `size` of a random permutation.
            hands = np.argsort(rng.random((n, 52), dtype=np.float32), axis=1)[:, :size]
            ok &= compare(f"random {size}-card hands {done}..{done + n}", args.cardvec, hands.tolist())
            done += n
    print("AGREE" if ok else "DISAGREE")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
