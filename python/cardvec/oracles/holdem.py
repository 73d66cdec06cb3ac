"""Replays cardvec's no-limit hold'em hands in pokerkit 0.7 and compares every decision.

`cardvec trace holdem` writes one JSON line per hand (config, cards, every decision with
what cardvec offered, the action taken, the final pots and stacks; see
src/games/holdem/nolimit/trace.rs). Each hand is rebuilt as a pokerkit
`NoLimitTexasHoldem` state with the same stacks, blinds, ante and cards (dealt with
`deal_hole` / `burn_card('??')` / `deal_board`), then driven with the same actions. At every
decision both must agree on the player to act, whether fold / check / call / raise are
legal, the call amount and the min and max raise-to; at the end on every pot (amount and
eligible seats, for hands that reach a showdown) and every final stack.

Seat mapping: pokerkit orders players from the seat left of the button (index 0) to the
button (last), so cardvec seat `s` is pokerkit index `(s - button - 1) mod n`.

Known convention difference (counted, not hidden): pokerkit merges pots whose eligible
players become equal once hands that cannot win are killed at showdown, and splits the
merged pot, so an odd chip may land differently than when each pot is settled separately
(cardvec). When final stacks differ, the replay recomputes pokerkit's merged settlement
from the pots and pokerkit's own hand values; a difference is accepted only if it is
exactly that one, and it is reported.

    python -m cardvec.oracles.holdem --hands 20000 --jobs 2

Hands decided at the deal (nobody has a decision: stacks no larger than the antes and
blinds) are played out by both at once. `run_deals` deals the tables of `DEAL_TABLES`
through the Python bindings (the batch environment with explicit deals, every button, and
the single-game class `NoLimitHoldemGame` from seeds) and plays each deal in pokerkit with no
action: both must agree on whether anyone has a decision (and who acts first), and on the
chips of the decided hands (the rewards of the batch lanes, the stacks and rewards of the
single game; pokerkit's merged-pot odd chip explained as above).

    python -m cardvec.oracles.holdem --deals 2000
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import merge_chunks, require

require("holdem")

from pokerkit import Automation, Card, NoLimitTexasHoldem, StandardHighHand  # noqa: E402

# The repository root when the package runs from a checkout (python/cardvec/oracles/).
ROOT: Path = Path(__file__).resolve().parents[3]

# pokerkit re-evaluates the same 7-card hands many times per showdown (its hand killing asks
# every player against every pot); a per-hand memo of StandardHighHand.from_game keeps the
# replay fast without changing any result (the memo returns the very object pokerkit built).
_FROM_GAME: Any = getattr(StandardHighHand.from_game, "__func__")
_MEMO: dict[tuple[Any, ...], Any] = {}


def _memo_from_game(cls: Any, hole_cards: Any, board_cards: Any = ()) -> Any:
    hole, board = tuple(Card.clean(hole_cards)), tuple(Card.clean(board_cards))
    key = (cls, hole, board)
    hand = _MEMO.get(key)
    if hand is None:
        hand = _MEMO[key] = _FROM_GAME(cls, hole, board)
    return hand


StandardHighHand.from_game = classmethod(_memo_from_game)  # type: ignore[method-assign,assignment]

AUTOMATIONS: tuple[Any, ...] = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any


@dataclass
class Report:
    hands: int = 0
    decisions: int = 0
    decided_at_deal: int = 0
    showdowns: int = 0
    pots_compared: int = 0
    side_pot_hands: int = 0
    raise_closed_with_chips: int = 0
    merged_pot_odd_chip: int = 0
    by_seats: dict[str, Any] = field(default_factory=dict)
    mismatches: list[Any] = field(default_factory=list)
    python_seconds: float = 0.0

    def merge(self, other: "Report") -> None:
        for k in ("hands", "decisions", "decided_at_deal", "showdowns", "pots_compared", "side_pot_hands",
                  "raise_closed_with_chips", "merged_pot_odd_chip", "python_seconds"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        for k, v in other.by_seats.items():
            self.by_seats[k] = self.by_seats.get(k, 0) + v
        self.mismatches.extend(other.mismatches)


class Mismatch(Exception):
    pass


def split(cards: str) -> list[str]:
    return [cards[i:i + 2] for i in range(0, len(cards), 2)]


def settlements(holes: Any, board: Any, pots: Any, n: int) -> tuple[Any, Any]:
    """Chips won per pokerkit index under two conventions, from pokerkit's pots and
    pokerkit's hand values (StandardHighHand): `separate` settles each pot on its own (the
    rule cardvec implements); `merged` is pokerkit's own payout, which first kills the hands
    that cannot win any pot, rebuilds the pots without them (adjacent pots with equal
    players merge) and splits each merged pot. Odd chips go to the first winner in pokerkit
    order (the first seat left of the button) in both."""
    hands = [StandardHighHand.from_game(holes[i], board) for i in range(n)]

    def pay(groups: Any) -> Any:
        won = [0] * n
        for amount, players in groups:
            best = max(hands[i] for i in players)
            winners = [i for i in players if hands[i] == best]
            q, r = divmod(amount, len(winners))
            for k, i in enumerate(winners):
                won[i] += q + (r if k == 0 else 0)
        return won

    separate = pay([(p.amount, p.player_indices) for p in pots])
    can_win: set[int] = set()
    for p in pots:
        best = max(hands[i] for i in p.player_indices)
        can_win.update(i for i in p.player_indices if hands[i] == best)
    merged: list[list[Any]] = []
    for p in pots:
        players = tuple(i for i in p.player_indices if i in can_win)
        if merged and merged[-1][1] == players:
            merged[-1][0] += p.amount
        else:
            merged.append([p.amount, players])
    return separate, pay(merged)


def replay_hand(h: dict[str, Any], report: Report) -> None:
    n, button = h["seats"], h["button"]

    def pk(seat: int) -> int:
        return int((seat - button - 1) % n)

    seat_of = [0] * n
    for s in range(n):
        seat_of[pk(s)] = s
    state = NoLimitTexasHoldem.create_state(
        AUTOMATIONS, True, h["ante"], (h["sb"], h["bb"]), h["bb"],
        [h["stacks"][seat_of[i]] for i in range(n)], n,
    )
    for i in range(n):
        state.deal_hole(h["hole"][seat_of[i]])
    board = split(h["board"])
    dealt = 0
    decisions = h["decisions"]
    d = 0
    pots = None
    facing_short = False

    def check(what: Any, ours: Any, theirs: Any) -> None:
        if ours != theirs:
            raise Mismatch(f"decision {d}: {what}: cardvec {ours!r} pokerkit {theirs!r}")

    while state.status:
        if state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_board():
            count = state.board_dealing_count
            assert count is not None  # can_deal_board
            state.deal_board("".join(board[dealt:dealt + count]))
            dealt += count
        elif state.actor_index is not None:
            if d >= len(decisions):
                raise Mismatch(f"pokerkit expects decision {d} from player {state.actor_index}; cardvec ended the hand")
            x = decisions[d]
            check("actor (pokerkit index)", pk(x["seat"]), state.actor_index)
            check("fold legal", x["fold"], state.can_fold())
            call = state.checking_or_calling_amount
            check("call amount", x["call"], call)
            check("check legal", x["check"], call == 0)
            can_raise = state.can_complete_bet_or_raise_to()
            check("raise legal", x["raise"], can_raise)
            if can_raise:
                check("min raise-to", x["min"], state.min_completion_betting_or_raising_to_amount)
                check("max raise-to", x["max"], state.max_completion_betting_or_raising_to_amount)
            elif x["call"] > 0 and state.stacks[state.actor_index] > x["call"]:
                facing_short = True
            a = x["action"]
            if a == "f":
                state.fold()
            elif a in ("x", "c"):
                state.check_or_call()
            elif a.startswith("r"):
                amount = int(a[1:])
                if not state.can_complete_bet_or_raise_to(amount):
                    raise Mismatch(f"decision {d}: pokerkit refuses raise to {amount}")
                state.complete_bet_or_raise_to(amount)
            else:
                raise Mismatch(f"unknown action {a!r}")
            d += 1
        elif state.can_show_or_muck_hole_cards():
            if pots is None:
                pots = list(state.pots)
            state.show_or_muck_hole_cards(True)
        else:
            raise Mismatch("pokerkit is stuck")
    if d != len(decisions):
        raise Mismatch(f"pokerkit ended the hand after {d} decisions, cardvec had {len(decisions)}")
    report.decisions += d
    report.decided_at_deal += d == 0
    report.raise_closed_with_chips += facing_short
    final = [state.stacks[pk(s)] for s in range(n)]
    if h["showdown"]:
        report.showdowns += 1
        if pots is None:
            raise Mismatch("cardvec went to showdown, pokerkit did not")
        theirs = [(p.amount, sorted(seat_of[i] for i in p.player_indices)) for p in pots]
        ours = [(p["amount"], p["eligible"]) for p in h["pots"]]
        if ours != theirs:
            raise Mismatch(f"pots: cardvec {ours} pokerkit {theirs}")
        report.pots_compared += len(ours)
        report.side_pot_hands += len(ours) > 1
        separate, merged = settlements([h["hole"][seat_of[i]] for i in range(n)], h["board"], pots, n)
        ours_before = [h["final"][seat_of[i]] - separate[i] for i in range(n)]
        theirs_before = [state.stacks[i] - merged[i] for i in range(n)]
        if ours_before != theirs_before:
            raise Mismatch(f"final stacks: cardvec {h['final']} pokerkit {final} "
                           f"(stacks before payout {ours_before} vs {theirs_before})")
        if final != h["final"]:
            # Only pokerkit's merge-after-killing odd chip can remain (module docstring).
            report.merged_pot_odd_chip += 1
    elif final != h["final"]:
        raise Mismatch(f"final stacks: cardvec {h['final']} pokerkit {final}")


#: Tables whose hands are decided at the deal, always or often (options of
#: `cardvec.holdem.NoLimitHoldem`), with what they show.
DEAL_TABLES: list[tuple[str, dict[str, Any]]] = [
    # Antes above both stacks: both all-in on the antes, nobody posts a blind.
    ("antes above the stacks", dict(ante=500, stack=100)),
    # Heads-up blinds above the stacks: each all-in on its blind.
    ("heads-up blinds above the stacks", dict(small_blind=50, big_blind=100, stacks=[40, 70])),
    # Heads-up, one seat with 1 chip: the other, the only one with chips, faces no bet.
    ("one seat with chips facing no bet", dict(stacks=[1, 1000])),
    # Three seats: the one seat with chips faces no bet (decided) or a bet (it acts),
    # depending on the button.
    ("one seat with chips facing no bet or a bet, 3 seats",
     dict(num_players=3, ante=1, stacks=[1, 1000, 2])),
    # Some seats all-in on the antes and blinds, the rest with or without a decision.
    ("all-in from the forced bets, 4 seats", dict(num_players=4, ante=5, stacks=[3, 4, 6, 1000])),
    ("all-in from the forced bets, 6 seats",
     dict(num_players=6, ante=5, small_blind=2, big_blind=4, stacks=[2, 3, 4, 5, 6, 500])),
    ("short stacks, 3 seats", dict(num_players=3, ante=2, stacks=[2, 3, 5])),
]


@dataclass
class DealReport:
    deals: int = 0
    decided: int = 0
    live: int = 0
    merged_pot_odd_chip: int = 0
    by_table: dict[str, Any] = field(default_factory=dict)
    mismatches: list[Any] = field(default_factory=list)


def pokerkit_play_out(
    stacks: Any,
    ante: Any,
    sb: Any,
    bb: Any,
    button: int,
    holes: Any,
    board: Any,
) -> tuple[Any, Any, Any]:
    """Deals a hand in pokerkit (cardvec seats, hole cards and board as strings) and lets it
    run with no action: returns `(actor, final, pots)`: the cardvec seat of the first
    player pokerkit asks for a decision (None when nobody has one), the final stacks by seat
    (None when someone acts) and pokerkit's pots at the showdown (None without one)."""
    n = len(stacks)
    seat_of = [(button + 1 + i) % n for i in range(n)]  # pokerkit index -> cardvec seat
    state = NoLimitTexasHoldem.create_state(
        AUTOMATIONS, True, ante, (sb, bb), bb, [stacks[seat_of[i]] for i in range(n)], n,
    )
    for i in range(n):
        state.deal_hole(holes[seat_of[i]])
    board = split(board)
    dealt = 0
    pots = None
    while state.status:
        if state.can_burn_card():
            state.burn_card("??")
        elif state.can_deal_board():
            count = state.board_dealing_count
            assert count is not None  # can_deal_board
            state.deal_board("".join(board[dealt:dealt + count]))
            dealt += count
        elif state.actor_index is not None:
            return seat_of[state.actor_index], None, None
        elif state.can_show_or_muck_hole_cards():
            if pots is None:
                pots = list(state.pots)
            state.show_or_muck_hole_cards(True)
        else:
            raise Mismatch("pokerkit is stuck")
    return None, [state.stacks[(s - button - 1) % n] for s in range(n)], pots


def compare_deal(
    report: DealReport,
    name: str,
    table: Any,
    button: int,
    holes: Any,
    board: Any,
    ours_actor: Any,
    ours_final: Any,
) -> None:
    """One deal: cardvec's first actor (None when the hand was decided at the deal) and, for
    a decided hand, its final stacks by seat, against pokerkit's play of the same deal."""
    _MEMO.clear()
    n = len(table["stacks"])
    where = f"{name}: button {button}, holes {holes}, board {board!r}"
    report.deals += 1
    counts = report.by_table.setdefault(name, [0, 0])
    counts[0] += 1
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            actor, final, pots = pokerkit_play_out(
                table["stacks"], table["ante"], table["small_blind"], table["big_blind"],
                button, holes, board,
            )
    except Exception as e:  # a pokerkit error (or a board it needed) is a mismatch too
        report.mismatches.append(f"{where}: cardvec first to act {ours_actor}; pokerkit: "
                                 f"{type(e).__name__}: {e}")
        return
    if actor != ours_actor:
        report.mismatches.append(f"{where}: first to act: cardvec {ours_actor} pokerkit {actor}")
        return
    if actor is not None:
        report.live += 1
        return
    report.decided += 1
    counts[1] += 1
    if sum(ours_final) != sum(table["stacks"]):
        report.mismatches.append(f"{where}: cardvec's chips {ours_final} are not conserved")
    if final == ours_final:
        return
    if pots is not None:
        # pokerkit's merged-pot odd chip (module docstring): the stacks before the payout
        # must agree and the two settlements explain the rest.
        seat_of = [(button + 1 + i) % n for i in range(n)]
        holes_pk = [holes[seat_of[i]] for i in range(n)]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            separate, merged = settlements(holes_pk, board, pots, n)
        ours_before = [ours_final[seat_of[i]] - separate[i] for i in range(n)]
        theirs_before = [final[seat_of[i]] - merged[i] for i in range(n)]
        if ours_before == theirs_before and separate != merged:
            report.merged_pot_odd_chip += 1
            return
    report.mismatches.append(f"{where}: final stacks: cardvec {ours_final} pokerkit {final}")


def run_deals(deals_per_table: int, seed: int = 0) -> DealReport:
    """Every table of DEAL_TABLES, `deals_per_table` deals each, half through the batch
    environment (explicit deals spread over every button, results read from the rewards)
    and half through `NoLimitHoldemGame` (seeds `seed..`, results from its stacks and
    rewards), compared with pokerkit (`compare_deal`)."""
    import numpy as np

    from cardvec import holdem

    report = DealReport()
    rng = np.random.default_rng(seed)
    for name, options in DEAL_TABLES:
        probe = holdem.NoLimitHoldemGame(0, **options)
        n = probe.num_players
        table = dict(options)
        table.setdefault("ante", 0)
        table.setdefault("small_blind", 1)
        table.setdefault("big_blind", 2)
        table["stacks"] = list(options.get("stacks") or [options["stack"]] * n)
        bb = table["big_blind"]
        half = deals_per_table // 2
        # The batch environment: explicit deals, the buttons in turn.
        for button in range(n):
            lanes = len(range(button, half, n))
            if lanes == 0:
                continue
            env = holdem.NoLimitHoldem(lanes, button=button, **options)
            orders = [rng.permutation(52)[: 2 * n + 5] for _ in range(lanes)]
            for lane, order in enumerate(orders):
                env.reset_lane_from_order(lane, order)
            for lane, order in enumerate(orders):
                cards = [holdem.card_str(int(c)) for c in order]
                holes = ["".join(cards[2 * s:2 * s + 2]) for s in range(n)]
                board = "".join(cards[2 * n:])
                if env.terminated[lane]:
                    rewards = env.rewards[lane]
                    final = [table["stacks"][s] + round(float(rewards[s]) * bb) for s in range(n)]
                    if abs(float(rewards.sum())) > 1e-4 or not np.all(env.legal_mask[lane] == 0):
                        report.mismatches.append(f"{name}: lane {lane}: rewards {rewards.tolist()}")
                    compare_deal(report, name, table, button, holes, board, None, final)
                else:
                    if np.any(env.rewards[lane] != 0):
                        report.mismatches.append(f"{name}: a live lane pays {env.rewards[lane]}")
                    actor = int(env.current_player[lane])
                    compare_deal(report, name, table, button, holes, board, actor, None)
        # The single-game class, dealt from seeds.
        for k in range(deals_per_table - half):
            game = holdem.NoLimitHoldemGame(seed + k, **options)
            holes = [holdem.format_cards(list(h)).replace(" ", "") for h in game.hole_cards]
            if game.terminated:
                board = holdem.format_cards(list(game.board)).replace(" ", "")
                final = list(game.stacks)
                expected = [(f - s) / bb for f, s in zip(final, table["stacks"])]
                if any(abs(r - e) > 1e-6 for r, e in zip(game.rewards, expected)):
                    report.mismatches.append(f"{name}: seed {seed + k}: rewards {game.rewards} "
                                             f"for stacks {final}")
                compare_deal(report, name, table, game.button, holes, board, None, final)
            else:
                # The board is not dealt yet: pokerkit must ask for a decision before needing it.
                compare_deal(report, name, table, game.button, holes, "", game.current_player, None)
    return report


def replay(lines: Iterable[str], report: Report | None = None) -> Report:
    report = report or Report()
    for line in lines:
        h = json.loads(line)
        _MEMO.clear()
        t = time.perf_counter()
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                replay_hand(h, report)
        except Mismatch as e:
            report.mismatches.append({"hand": h["hand"], "seats": h["seats"], "what": str(e)})
        except Exception as e:  # a pokerkit error is a mismatch too
            report.mismatches.append({"hand": h["hand"], "seats": h["seats"], "what": f"{type(e).__name__}: {e}"})
        report.python_seconds += time.perf_counter() - t
        report.hands += 1
        report.by_seats[h["seats"]] = report.by_seats.get(h["seats"], 0) + 1
    return report


def cardvec_bin() -> str:
    """The cardvec binary: $CARDVEC_BIN, else built with cargo (release)."""
    if os.environ.get("CARDVEC_BIN"):
        return os.environ["CARDVEC_BIN"]
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    cargo = shutil.which("cargo")
    if cargo:
        subprocess.run([cargo, "build", "--release", "--bin", "cardvec"], cwd=ROOT, check=True)
    return str(target / "release" / "cardvec")


def run_chunk(args: tuple[Any, ...]) -> Report:
    binary, hands, seed, seats = args
    cmd = [binary, "trace", "holdem", "--hands", str(hands), "--seed", str(seed),
           "--seats", ",".join(map(str, seats))]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            bufsize=1 << 20)
    assert proc.stdout is not None  # stdout=PIPE
    try:
        return replay(proc.stdout)
    finally:
        proc.stdout.close()
        if proc.wait() != 0:
            raise RuntimeError(f"{cmd} failed")


def run(
    hands: int,
    seed: int = 0,
    jobs: int = 1,
    seats: Sequence[int] = (2, 3, 6, 10),
    binary: str | None = None,
    chunk: int = 1000,
) -> Report:
    binary = binary or cardvec_bin()
    tasks = [(binary, min(chunk, hands - start), seed + start, tuple(seats))
             for start in range(0, hands, chunk)]
    return merge_chunks(run_chunk, tasks, Report(), jobs)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--hands", type=int, default=20000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--seats", default="2,3,6,10")
    p.add_argument("--bin", default=None)
    p.add_argument("--deals", type=int, default=0,
                   help="instead: this many deals of each table of DEAL_TABLES (decided at the deal)")
    a = p.parse_args()
    t = time.perf_counter()
    if a.deals:
        d = run_deals(a.deals, a.seed)
        print(f"tables={len(DEAL_TABLES)} deals={d.deals} decided={d.decided} live={d.live} "
              f"merged_pot_odd_chip={d.merged_pot_odd_chip} mismatches={len(d.mismatches)} "
              f"elapsed={time.perf_counter() - t:.1f}s")
        for name, (count, decided) in d.by_table.items():
            print(f"  {name}: {count} deals, {decided} decided at the deal")
        for m in d.mismatches[:30]:
            print("MISMATCH", m)
        return 1 if d.mismatches else 0
    r = run(a.hands, a.seed, a.jobs, [int(s) for s in a.seats.split(",")], a.bin)
    print(f"hands={r.hands} by_seats={dict(sorted(r.by_seats.items()))} decisions={r.decisions} "
          f"decided_at_deal={r.decided_at_deal} "
          f"showdowns={r.showdowns} pots_compared={r.pots_compared} side_pot_hands={r.side_pot_hands} "
          f"raise_closed_with_chips={r.raise_closed_with_chips} merged_pot_odd_chip={r.merged_pot_odd_chip} "
          f"mismatched_hands={len(r.mismatches)} elapsed={time.perf_counter() - t:.1f}s "
          f"pokerkit_hands_per_s={r.hands / max(r.python_seconds, 1e-9):.0f}")
    for m in r.mismatches[:30]:
        print("MISMATCH", m)
    return 1 if r.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
