"""Hands/s and steps/s of pokerkit playing random no-limit hold'em hands on one core, for
the side-by-side figure in docs/holdem.md (cardvec's side: ``cardvec bench holdem``).

    python scripts/bench_holdem_pokerkit.py --seats 2 6 --hands 5000

The hands are cardvec's benchmark hands: blinds 1/2, 200 chips (100 big blinds) each, and
the random legal policy over cardvec's discrete actions (fold when facing a bet, check or
call, raises to ``max_bet + f * (pot + to_call)`` for f in 1/2, 1, 2 when strictly between
the minimum raise-to and all-in, all-in), each legal action equally likely. pokerkit deals,
burns, posts blinds, collects bets, shows down and pushes chips itself (its automations);
the cards come from its own shuffled deck. A step is one player decision, as in
``cardvec bench``. The policy's own work (a few comparisons) is counted in pokerkit's time,
which favours pokerkit slightly less than nothing: it is small next to pokerkit's step.

With ``--cardvec PATH`` the script also runs ``PATH bench holdem --envs 4096 --threads 1``
for the same seat counts and prints the ratio per core.
"""

import argparse
import json
import os
import random
import subprocess
import time

from pokerkit import Automation, NoLimitTexasHoldem

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
FRACTIONS = (0.5, 1.0, 2.0)


def random_hand(seats: int, rng: random.Random) -> int:
    """Plays one hand with random legal actions; returns the number of decisions."""
    state = NoLimitTexasHoldem.create_state(
        AUTOMATIONS, True, 0, (1, 2), 2, (200,) * seats, seats
    )
    steps = 0
    while state.status:
        choices = ["c"]
        if state.can_fold():
            choices.append("f")
        if state.can_complete_bet_or_raise_to():
            low = state.min_completion_betting_or_raising_to_amount
            high = state.max_completion_betting_or_raising_to_amount
            to_call = state.checking_or_calling_amount
            max_bet = max(state.bets)
            pot = state.total_pot_amount
            for f in FRACTIONS:
                to = max_bet + int(f * (pot + to_call))
                if low <= to < high:
                    choices.append(to)
            choices.append(high)
        a = choices[rng.randrange(len(choices))]
        if a == "c":
            state.check_or_call()
        elif a == "f":
            state.fold()
        else:
            state.complete_bet_or_raise_to(a)
        steps += 1
    return steps


def bench_pokerkit(seats: int, hands: int, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    for _ in range(min(200, hands)):  # warm-up
        random_hand(seats, rng)
    steps = 0
    start = time.perf_counter()
    for _ in range(hands):
        steps += random_hand(seats, rng)
    elapsed = time.perf_counter() - start
    return hands / elapsed, steps / elapsed


def bench_cardvec(binary: str, seats: int, envs: int) -> dict:
    """``cardvec bench holdem --json`` on one thread: for each mode (``step+mask``, and
    ``step+mask+obs_f32`` with observations), hands/s and steps/s with the random policy's
    time included (as in pokerkit's figure) and without it."""
    out = subprocess.run(
        [binary, "bench", "holdem", "--players", str(seats), "--envs", str(envs),
         "--threads", "1", "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    report = json.loads(out)
    modes = {}
    for m in report["modes"]:
        length = m["live_steps"] / m["episodes"]
        steps_policy = m["with_policy_steps_per_sec"]
        print(f"cardvec bench holdem seats={seats} {m['mode']}: live_steps={m['live_steps']} "
              f"env_steps_per_sec={m['env_steps_per_sec']:.0f} "
              f"with_policy_steps_per_sec={steps_policy:.0f} episodes={m['episodes']} "
              f"episodes_per_sec={m['episodes_per_sec']:.0f}")
        modes[m["mode"]] = {
            "steps": steps_policy,
            "hands": steps_policy / length,
            "env_steps": m["env_steps_per_sec"],
            "env_hands": m["episodes_per_sec"],
        }
    return modes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 6])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cardvec", help="path of the cardvec binary, to print the ratio")
    parser.add_argument("--envs", type=int, default=4096)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    print(f"load: {os.getloadavg()}")
    for seats in args.seats:
        hands, steps = bench_pokerkit(seats, args.hands, args.seed)
        print(f"pokerkit seats={seats} hands={args.hands}: {hands:,.0f} hands/s, "
              f"{steps:,.0f} steps/s ({steps / hands:.2f} steps per hand)")
        if args.cardvec:
            for mode, cv in bench_cardvec(args.cardvec, seats, args.envs).items():
                print(f"cardvec seats={seats} {mode} (random policy included): "
                      f"{cv['hands']:,.0f} hands/s, {cv['steps']:,.0f} steps/s; ratio per core: "
                      f"hands {cv['hands'] / hands:,.0f}x, steps {cv['steps'] / steps:,.0f}x "
                      f"(engine alone: {cv['env_hands'] / hands:,.0f}x)")
    print(f"load: {os.getloadavg()}")


if __name__ == "__main__":
    main()
