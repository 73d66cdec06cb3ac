"""Counts, in the official engine i151-engine 0.2.4, the draws that leave bank and played pile
both empty, and what happens to the top card (docs/151.md, "Refill"): a one-card draw clears
the table, an Ace's two-card draw keeps the top card.

    python scripts/i151_ace_draw_count.py [matches=3000] [seed=0]

Random legal play (75% plays when a play exists), 2 to 4 players in turn, match seeds
seed, seed+1, ...; needs i151-engine (scripts/test.sh installs it).
"""

import random
import sys

from i151_engine.core.legal_actions import legal_actions
from i151_engine.game.round import create_match
from i151_engine.models.enums import MatchStatus

from cardvec.oracles.i151 import action_id, official_step


def main(matches: int = 3000, seed: int = 0) -> None:
    rng = random.Random(seed)
    counts = {"one-card: cleared": 0, "one-card: kept": 0, "ace: cleared": 0, "ace: kept": 0}
    for g in range(matches):
        players = 2 + g % 3
        m = create_match(tuple(f"P{i}" for i in range(players)), seed=seed + g)
        for _ in range(100_000):
            if m.status == MatchStatus.FINISHED:
                break
            rs = m.current_round
            legal = sorted(action_id(a) for a in legal_actions(rs))
            plays = [a for a in legal if a < 32 or a >= 34]
            pick = plays if plays and rng.random() < 0.75 else legal
            a = rng.choice(pick)
            ace = rs.ace_effect_active
            after, _ = official_step(m, a)
            new = after.current_round
            if a == 32 and new is not None and new.round_number == rs.round_number:
                if not new.bank and not new.played_pile:
                    kind = "ace" if ace else "one-card"
                    state = "cleared" if new.top_card is None else "kept"
                    counts[f"{kind}: {state}"] += 1
            m = after
    print(f"{matches} matches: " + ", ".join(f"{k} {v}" for k, v in counts.items()))


if __name__ == "__main__":
    main(*(int(x) for x in sys.argv[1:3]))
