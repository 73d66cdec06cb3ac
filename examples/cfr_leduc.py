"""Leduc hold'em solved by CFR+ in cardvec, then checked: the exploitability of the average
policy along the way, the game value for the first player, and what the policy does with
each private card before the flop. Runs in about a second::

    python examples/cfr_leduc.py --iterations 1000 [--policy-out leduc.json]

The last line printed is a JSON summary. With OpenSpiel installed the policy loads into an
``open_spiel.python.policy.TabularPolicy`` (docs/cfr.md shows how).
"""

import argparse
import json

import cardvec.solve as cs

CARDS = ["J", "J", "Q", "Q", "K", "K"]  # Leduc card ids 0..5: two suits of J, Q, K


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--algorithm", default="cfr+", choices=cs.ALGORITHMS)
    ap.add_argument("--policy-out", default=None)
    args = ap.parse_args()

    sol = cs.cfr("leduc", args.iterations, args.algorithm, every=max(1, args.iterations // 5))
    for iteration, expl, seconds in sol.curve:
        print(f"iteration {iteration:6d}  exploitability {expl:.6f}  ({seconds:.3f} s)")
    print(f"game value for player 0: {sol.game_value:+.5f} (tree: {sol.nodes} nodes, "
          f"{sol.infosets} information states)")
    print(f"uniform random play is exploitable by {cs.exploitability('leduc', 'uniform'):.4f}")

    # Player 0's first decision (fold 0, call/check 1, raise 2) with each private card.
    for key, dist in sorted(sol.policy.items()):
        if "[Round 1]" in key and "[Player: 0]" in key and "[Round1: ]" in key:
            card = int(key.split("[Private: ")[1].split("]")[0])
            probs = ", ".join(f"{['fold', 'call', 'raise'][a]} {p:.2f}" for a, p in sorted(dist.items()))
            print(f"  first move holding {CARDS[card]} (card {card}): {probs}")

    if args.policy_out:
        cs.save_policy(args.policy_out, sol, "leduc")
    print(json.dumps({"iterations": sol.iterations, "algorithm": sol.algorithm,
                      "exploitability": sol.exploitability, "game_value": sol.game_value,
                      "seconds": sol.seconds}))


if __name__ == "__main__":
    main()
