"""i151-engine 0.2.4's own stepping speed: random legal matches played with the engine's
functions (legal_actions, apply_action, apply_round_scoring, start_round), the loop of its
match runner without bots' views, timeouts or replay recording.

    python scripts/bench_i151_engine.py --matches 200 --players 2
Prints decisions (actions applied) per second on one core.
"""
import argparse
import random
import time

from i151_engine.core.legal_actions import legal_actions
from i151_engine.core.reducer import apply_action
from i151_engine.core.scoring import apply_round_scoring
from i151_engine.game.round import create_match, start_round
from i151_engine.models.enums import MatchStatus, RoundPhase


def play(seed: int, players: int, rng: random.Random) -> int:
    match = create_match(tuple(f"P{i}" for i in range(players)), seed=seed)
    steps = 0
    while match.status == MatchStatus.IN_PROGRESS:
        rs = match.current_round
        if rs.phase == RoundPhase.ENDED:
            match = apply_round_scoring(match, rs.round_winner_id)
            if match.status != MatchStatus.FINISHED:
                match = start_round(match)
            continue
        legal = legal_actions(rs)
        rs = apply_action(rs, rng.choice(legal))
        match = match.__class__(**{**match.__dict__, "current_round": rs})
        steps += 1
        if steps > 200_000:
            break
    return steps


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--matches", type=int, default=200)
    p.add_argument("--players", type=int, default=2)
    a = p.parse_args()
    rng = random.Random(0)
    t = time.perf_counter()
    steps = sum(play(s, a.players, rng) for s in range(a.matches))
    dt = time.perf_counter() - t
    print(f"i151-engine players={a.players} matches={a.matches} steps={steps} "
          f"seconds={dt:.2f} steps_per_sec={steps / dt:.0f}")


if __name__ == "__main__":
    main()
