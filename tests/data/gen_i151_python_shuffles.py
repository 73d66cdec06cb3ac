"""Regenerates i151_python_shuffles.txt with CPython (run with the venv that has
i151-engine 0.2.4): one case per line,
`seed ; deck after random.Random(seed).shuffle(standard_deck()) as card ids ;
first 8 getrandbits(32) ; _randbelow(n) for n in 1,2,3,5,7,31,32, each from a fresh Random(seed)`.
Card id = index in i151_engine.models.card.standard_deck()."""
import random
import sys

from i151_engine.models.card import standard_deck

deck = standard_deck()
index = {c: i for i, c in enumerate(deck)}
seeds = [0, 1, 2, 3, 7, 42, 151, 999, 1000, 1001, 2**31 - 1, 2**31, 2**32 - 1, 2**32,
         2**32 + 5, 2**53 + 1, 2**63 - 1, 2**63, 2**64 + 3, 2**100 + 17, -1, -5, -(2**40),
         2**64 + 5, -(2**70), 10**30, 2**128, 2**224 + 1, 2**255 + 12345, 2**256 - 1,
         -(2**256 - 1), -(10**50) - 3]
r = random.Random(12345)
seeds += [r.getrandbits(63) for _ in range(40)] + [r.randrange(1, 10**6) for _ in range(40)]
print(f"# CPython {sys.version.split()[0]}; see gen_i151_python_shuffles.py")
for s in seeds:
    d = standard_deck()
    random.Random(s).shuffle(d)
    g = random.Random(s)
    bits = [g.getrandbits(32) for _ in range(8)]
    below = [random.Random(s)._randbelow(n) for n in (1, 2, 3, 5, 7, 31, 32)]
    print(f"{s} ; {' '.join(str(index[c]) for c in d)} ; {' '.join(map(str, bits))} ; {' '.join(map(str, below))}")
