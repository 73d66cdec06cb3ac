"""Differential oracle for 151: replays a `cardvec trace 151` in the official engine
i151-engine 0.2.4 and compares every decision point.

At every decision the same seat to act, the same set of legal actions, the same hands,
bank (in order), played pile (in order), top card, imposed suit, flags (choose suit, ace
effect, queen skip, per-seat drawn / chaining), last play count, scores, streaks,
exclusions, round number and dealer; at the end of each match the same winner, scores
and number of rounds. Every round is dealt by the official engine itself from the match
seed, so equal hands and banks at the first decision of a round prove equal deals.

The official engine's known defect (0.2.4: a refill during the 2-player Queen draw leaves
the played pile in place, duplicating cards) is corrected here the way cardvec plays it
(the pile is emptied by the refill), and counted: `defect_refills` reports how often it
happened. `--no-fix` replays with the defect and reports the first divergence.

Usage:
    python -m cardvec.oracles.i151 --matches 100000 --jobs 2 [--bin target/release/cardvec]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from . import merge_chunks, require

require("151")

from i151_engine.core import reducer  # noqa: E402
from i151_engine.core.legal_actions import legal_actions  # noqa: E402
from i151_engine.core.scoring import apply_round_scoring  # noqa: E402
from i151_engine.game.round import create_match, start_round  # noqa: E402
from i151_engine.models.action import Action, ActionType  # noqa: E402
from i151_engine.models.card import Suit, standard_deck  # noqa: E402
from i151_engine.models.enums import MatchStatus, RoundPhase  # noqa: E402

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

DECK: list[Any] = standard_deck()
CARD_ID: dict[Any, int] = {card: i for i, card in enumerate(DECK)}
SUITS: list[Any] = list(Suit)
# The repository root when the package runs from a checkout (python/cardvec/oracles/).
ROOT: Path = Path(__file__).resolve().parents[3]

_refill_in_queen_draw = [False]
_original_draw_from_bank = reducer._draw_from_bank


def _watched_draw_from_bank(bank: Any, played_pile: Any, count: Any) -> Any:
    """`_draw_from_bank` is only called by the 2-player Queen draw; note its refills."""
    if len(bank) < count and played_pile:
        _refill_in_queen_draw[0] = True
    return _original_draw_from_bank(bank, played_pile, count)


reducer._draw_from_bank = _watched_draw_from_bank


def action_id(action: Any) -> int:
    if action.type == ActionType.PLAY_CARD:
        return CARD_ID[action.card]
    if action.type == ActionType.DRAW_CARD:
        return 32
    if action.type == ActionType.PASS_TURN:
        return 33
    if action.type == ActionType.CHOOSE_SUIT:
        return 34 + SUITS.index(action.chosen_suit)
    raise AssertionError(f"unexpected official action {action}")


def action_from_id(a: int) -> Any:
    if a < 32:
        return Action.play_card(DECK[a])
    if a == 32:
        return Action.draw_card()
    if a == 33:
        return Action.pass_turn()
    return Action.choose_suit(SUITS[a - 34])


@dataclass
class Report:
    matches: int = 0
    decisions: int = 0
    rounds: int = 0
    defect_refills: int = 0
    defect_seeds: list[Any] = field(default_factory=list)
    players: dict[str, Any] = field(default_factory=dict)
    mismatches: list[Any] = field(default_factory=list)
    python_seconds: float = 0.0

    def merge(self, other: "Report") -> None:
        self.matches += other.matches
        self.decisions += other.decisions
        self.rounds += other.rounds
        self.defect_refills += other.defect_refills
        self.defect_seeds.extend(other.defect_seeds)
        for k, v in other.players.items():
            self.players[k] = self.players.get(k, 0) + v
        self.mismatches.extend(other.mismatches)
        self.python_seconds += other.python_seconds


def official_snapshot(match: Any, rs: Any) -> dict[str, Any]:
    """The official state in the trace's terms."""
    return {
        "cp": rs.current_player_index,
        "hands": [sorted(CARD_ID[c] for c in p.hand) for p in rs.players],
        "bank": [CARD_ID[c] for c in rs.bank],
        "pile": [CARD_ID[c] for c in rs.played_pile],
        "top": None if rs.top_card is None else CARD_ID[rs.top_card],
        "req": None if rs.required_suit is None else SUITS.index(rs.required_suit),
        "choose": rs.choose_suit,
        "ace": rs.ace_effect_active,
        "skip": rs.skip_next_player,
        "drawn": [p.has_drawn_this_turn for p in rs.players],
        "chain": [p.is_chaining for p in rs.players],
        "lpc": rs.last_play_count,
        "scores": [p.total_score for p in match.players],
        "consec": [p.consecutive_round_wins for p in match.players],
        "excl": [p.is_excluded for p in match.players],
        "round": match.round_number,
        "dealer": match.dealer_index,
    }


def official_step(match: Any, a: int, fix: bool = True) -> tuple[Any, bool]:
    """Applies action id `a` to the official match, then scores the round and deals the
    next one if the round ended. Returns `(match, defect_refill)`; with `fix` the played
    pile is emptied after a 2-player Queen refill (see the module doc)."""
    _refill_in_queen_draw[0] = False
    new_round = reducer.apply_action(match.current_round, action_from_id(a))
    defect = _refill_in_queen_draw[0]
    if defect and fix:
        new_round = replace(new_round, played_pile=())
    match = replace(match, current_round=new_round)
    if new_round.phase == RoundPhase.ENDED:
        match = apply_round_scoring(match, new_round.round_winner_id)
        if match.status != MatchStatus.FINISHED:
            match = start_round(match)
    return match, defect


def replay(lines: Iterable[str], fix: bool = True, stop_after: int = 20) -> Report:
    """Replays trace lines (an iterator of str) in i151-engine and compares."""
    report = Report()
    lines = iter(lines)
    for header_line in lines:
        header = json.loads(header_line)
        seed, n = header["match"], header["players"]
        t0 = time.perf_counter()
        match = create_match(
            tuple(f"P{i}" for i in range(n)),
            seed=seed,
            cards_per_player=header["cpp"],
            initial_dealer_index=header["dealer"],
        )
        report.python_seconds += time.perf_counter() - t0
        failure = None
        step = 0
        line = None
        while failure is None:
            t0 = time.perf_counter()
            if match.status == MatchStatus.FINISHED:
                break
            rs = match.current_round
            if rs.phase == RoundPhase.ENDED:
                match = apply_round_scoring(match, rs.round_winner_id)
                if match.status != MatchStatus.FINISHED:
                    match = start_round(match)
                report.python_seconds += time.perf_counter() - t0
                continue
            legal = legal_actions(rs)
            report.python_seconds += time.perf_counter() - t0
            line = json.loads(next(lines))
            if "end" in line:
                failure = (step, "cardvec ended the match, the official engine did not")
                break
            official = official_snapshot(match, rs)
            ids = [action_id(a) for a in legal]
            if len(set(ids)) != len(ids) or sorted(ids) != line["legal"]:
                failure = (step, f"legal {sorted(ids)} vs cardvec {line['legal']}")
                break
            for key, value in official.items():
                if line[key] != value:
                    failure = (step, f"{key}: official {value} vs cardvec {line[key]}")
                    break
            if failure:
                break
            t0 = time.perf_counter()
            _refill_in_queen_draw[0] = False
            new_round = reducer.apply_action(rs, action_from_id(line["a"]))
            if _refill_in_queen_draw[0]:
                report.defect_refills += 1
                if seed not in report.defect_seeds:
                    report.defect_seeds.append(seed)
                if fix:
                    new_round = replace(new_round, played_pile=())
            match = replace(match, current_round=new_round)
            report.python_seconds += time.perf_counter() - t0
            report.decisions += 1
            step += 1
        if failure is None:
            end = json.loads(next(lines))
            winner = None if match.winner_id is None else int(match.winner_id[1:])
            scores = [p.total_score for p in match.players]
            if "end" not in end:
                failure = (step, "the official engine ended the match, cardvec did not")
                while "end" not in end:
                    end = json.loads(next(lines))
            elif (end["winner"], end["scores"], end["rounds"]) != (winner, scores, match.round_number):
                failure = (step, f"end {end} vs official winner={winner} scores={scores} rounds={match.round_number}")
        else:
            for rest in lines:  # skip to the end of this match
                if '"end"' in rest:
                    break
        report.matches += 1
        report.rounds += match.round_number
        report.players[n] = report.players.get(n, 0) + 1
        if failure is not None:
            report.mismatches.append({"seed": seed, "players": n, "step": failure[0], "what": failure[1]})
            if len(report.mismatches) >= stop_after:
                break
    return report


def cardvec_bin() -> str:
    """The cardvec binary: $CARDVEC_BIN, else built with cargo (release)."""
    if os.environ.get("CARDVEC_BIN"):
        return os.environ["CARDVEC_BIN"]
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    binary = target / "release" / "cardvec"
    cargo = shutil.which("cargo")
    if cargo:
        subprocess.run([cargo, "build", "--release", "--bin", "cardvec"], cwd=ROOT, check=True)
    return str(binary)


def run_chunk(args: tuple[Any, ...]) -> Report:
    binary, matches, seed, policy_seed, players, fix = args
    cmd = [binary, "trace", "151", "--matches", str(matches), "--seed", str(seed),
           "--policy-seed", str(policy_seed)]
    if players:
        cmd += ["--players", str(players)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            bufsize=1 << 20)
    assert proc.stdout is not None  # stdout=PIPE
    try:
        return replay(proc.stdout, fix=fix)
    finally:
        proc.stdout.close()
        proc.wait()


def run(matches: int, seed: int = 0, jobs: int = 1, players: int | None = None,
        fix: bool = True, binary: str | None = None, chunk: int = 500) -> Report:
    binary = binary or cardvec_bin()
    tasks = []
    for start in range(0, matches, chunk):
        count = min(chunk, matches - start)
        tasks.append((binary, count, seed + start, seed + start, players, fix))
    return merge_chunks(run_chunk, tasks, Report(), jobs)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--matches", type=int, default=5000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--bin", default=None)
    p.add_argument("--no-fix", action="store_true", help="replay with the 0.2.4 refill defect")
    a = p.parse_args()
    t = time.perf_counter()
    r = run(a.matches, a.seed, a.jobs, a.players, not a.no_fix, a.bin)
    print(f"matches={r.matches} by_players={dict(sorted(r.players.items()))} rounds={r.rounds} "
          f"decisions={r.decisions} defect_refills={r.defect_refills} "
          f"mismatched_matches={len(r.mismatches)} elapsed={time.perf_counter() - t:.1f}s "
          f"official_engine_steps_per_s={r.decisions / max(r.python_seconds, 1e-9):.0f}")
    for m in r.mismatches:
        print("MISMATCH", m)
    return 1 if r.mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
