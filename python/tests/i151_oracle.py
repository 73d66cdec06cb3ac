"""The 151 oracle (i151-engine 0.2.4), moved into the package as ``cardvec.oracles.i151``
(``cardvec.campaign`` runs it too); this name stays for the tests and the command line:

    python python/tests/i151_oracle.py --matches 100000 --jobs 2 [--bin target/release/cardvec]
"""
import sys

from cardvec.oracles.i151 import *  # noqa: F401,F403
from cardvec.oracles.i151 import CARD_ID, action_id, main, official_step


def lockstep(env, matches, rng, max_decisions=None):
    """Steps `env` (a ``cardvec.i151.I151`` whose lane i plays the official match
    ``matches[i]``) with random legal actions from `rng` (three in four a card play when there
    is one), stepping the official matches alongside, until every match is over or cut off
    (or after `max_decisions` steps). At every step each live lane must show the same seat to
    act, the same legal set, the same hand in the observation of every seat, rewards equal
    to minus the official score changes, finite observations and the same match end.
    Returns ``(finished, steps)``: matches that ended, batch steps taken."""
    import numpy as np
    from i151_engine.core.legal_actions import legal_actions
    from i151_engine.models.enums import MatchStatus

    lanes = len(matches)
    done = [False] * lanes
    actions = np.zeros(lanes, dtype=np.int64)
    finished = steps = 0
    while not all(done) and (max_decisions is None or steps < max_decisions):
        for lane, m in enumerate(matches):
            if done[lane]:
                continue
            rs = m.current_round
            assert env.current_player[lane] == rs.current_player_index
            official = sorted(action_id(a) for a in legal_actions(rs))
            assert list(np.flatnonzero(env.legal_mask[lane])) == official
            for seat, p in enumerate(rs.players):
                hand = sorted(CARD_ID[c] for c in p.hand)
                assert list(np.flatnonzero(env.observe_as(lane, seat)[:32])) == hand
            plays = [a for a in official if a < 32 or a >= 34]
            pick = plays if plays and rng.random() < 0.75 else official
            actions[lane] = pick[rng.integers(len(pick))]
        before = [[p.total_score for p in m.players] for m in matches]
        env.step(actions)
        steps += 1
        for lane in range(lanes):
            if done[lane]:
                continue
            assert env.illegal[lane] == 0
            matches[lane], _ = official_step(matches[lane], int(actions[lane]))
            m = matches[lane]
            after = [p.total_score for p in m.players]
            assert list(env.rewards[lane]) == [-(a - b) for a, b in zip(after, before[lane])]
            over = m.status == MatchStatus.FINISHED
            assert bool(env.terminated[lane]) == over
            assert np.isfinite(env.obs[lane]).all()
            if over or env.truncated[lane]:
                done[lane] = True
                finished += over
    return finished, steps

if __name__ == "__main__":
    sys.exit(main())
