"""Campaigns: long runs (differential checks, oracle comparisons, bot matches, the 151 arena
ladder, rollouts) split into shards by game index and run as Ray tasks on a laptop or a
cluster, merged exactly.

A campaign is a registered job kind (``KINDS``: ``diff``, ``oracle``, ``match``,
``arena-ladder``, ``ladder``, ``rollouts``) x a game configuration x the games ``0..games`` of a seed.
Shard ``[first, first + count)`` plays each of its games exactly as the whole run would (the
Rust engine's ``*_shard`` functions, ``cardvec._cardvec.campaign``), so the merged summary
is the same for any shard size, any number of nodes and any order of completion (every key
but ``timing``)::

    from cardvec import campaign
    summary = campaign.run("diff", "151", games=1_000_000, shard=20_000, address="auto",
                           out="results/")
    summary["mismatches"]   # [{"game", "step", "what", "reproduce"}], first 20 by game

``address``: ``None`` runs every shard in this process, one after the other, without Ray;
``"local"`` starts a Ray instance on this machine; ``"auto"`` joins the cluster started
with ``ray start --head`` on this machine; ``"<host>:<port>"`` joins that head. Ray is an
optional dependency (``pip install "ray>=2.9"``), imported only when ``address`` is given.
Each shard is a Ray task that takes ``num_cpus`` = the CPUs of the smallest node (the
engine runs on that many threads, one engine per worker process; an ``oracle`` shard, a
single-threaded Python replay, takes one CPU); a task lost with its
worker or node is run again (``max_retries``); a shard that fails by itself (an error of
the engine, a bad option) is not retried: it is reported in ``failed_shards`` with its
range and the command that reproduces it. A mismatch is a result, not a failure.

``out``: a directory where every finished shard is appended as one JSON line
(``shards.jsonl``: kind, game, seed, range, result) and the campaign's identity is kept
(``campaign.json``); a rerun with the same directory skips the finished shards, and a
different campaign in that directory is a ``ValueError``. ``rollouts`` also writes its
``.npz`` shards there (``read_rollouts`` reads them back).

See docs/campaigns.md for the laptop and cluster recipes and measured figures.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ._cardvec import campaign as _native
from ._cardvec import games as _games

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import Any

#: The ladder of the 151 arena (``cardvec arena ladder``'s default), weakest first.
FULL_LADDER: list[str] = [
    "builtin:random",
    "builtin:greedy",
    "builtin:medium",
    "builtin:minmax_d3",
    "builtin:minmax_d5",
    "builtin:minmax_d6",
]

#: Keys of a summary that depend on the run (wall time), not on its games.
TIMING: str = "timing"


def _game_ids() -> list[Any]:
    return [g["id"] for g in _games()]


def _check_game(game_id: Any, allowed: Any = None) -> None:
    if not isinstance(game_id, str):
        raise TypeError(f"game_id must be a str, got {game_id!r}")
    ids = _game_ids() if allowed is None else allowed
    if game_id not in ids:
        raise ValueError(f"unknown game {game_id!r}; expected one of: {', '.join(ids)}")


def _options_text(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(options.items()))


class JobKind:
    """A registered job kind: how to check a campaign's options, run one shard (in a worker
    process) and merge the shards' results (in game order) into the summary."""

    #: The kind's name (``KINDS`` key).
    name: str = ""
    #: What a game index counts ("games", "matches", "hands", "lanes").
    unit: str = "games"
    #: Options of the kind itself (every other keyword is a game option).
    own_options: tuple[str, ...] = ()
    #: Whether a shard runs on one core (a Python replay): its Ray task then takes one CPU,
    #: so a node runs as many shards at once as it has CPUs. Otherwise a task takes the
    #: CPUs of the smallest node and the engine runs on that many threads.
    single_core: bool = False

    def check(self, game_id: str, options: dict[str, Any]) -> dict[str, Any]:
        """Checks the game id and the options; returns them normalized (JSON values)."""
        _check_game(game_id)
        return dict(options)

    def plan(self, games: int, shard: int, options: dict[str, Any]) -> list[tuple[str, int, int]]:
        """The shards: ``(label, first, count)`` (``label`` names a sub-run, "" if none)."""
        return [("", f, min(shard, games - f)) for f in range(0, games, shard)]

    def run_shard(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
        threads: int | None,
        out: str | os.PathLike[str] | None,
    ) -> Any:
        """Runs one shard; returns a JSON-able result."""
        raise NotImplementedError

    def merge(
        self,
        game_id: str,
        seed: int,
        games: int,
        options: dict[str, Any],
        shards: list[tuple[str, int, int, Any]],
    ) -> dict[str, Any]:
        """The summary of the results ``[(label, first, count, result)]`` (sorted)."""
        raise NotImplementedError

    def reproduce(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
    ) -> str:
        """The command that replays the shard (or game) on one machine."""
        return (
            f"python -c \"from cardvec import campaign; print(campaign.run({self.name!r}, "
            f"{game_id!r}, games={first + count}, shard={count}, seed={seed}, "
            f"first={first}))\""
        )

    def lines(self, summary: dict[str, Any]) -> list[str]:
        """The summary as text lines (what ``cardvec-campaign`` prints)."""
        return [json.dumps({k: v for k, v in summary.items() if k != TIMING})]


def _diff_options(game_id: str, options: dict[str, Any]) -> Any:
    own = {k: options[k] for k in ("probe_every", "plant_mismatch_game") if k in options}
    game = {k: v for k, v in options.items() if k not in own}
    return own, game


class Diff(JobKind):
    """``cardvec diff``: the reference engine against the fast one, every step."""

    name = "diff"
    own_options = ("probe_every", "plant_mismatch_game")

    def check(self, game_id: str, options: dict[str, Any]) -> dict[str, Any]:
        _check_game(game_id)
        own, game = _diff_options(game_id, options)
        # The game options, checked by the engine on one game (a ValueError naming them).
        _native.diff_shard(game_id, 0, 0, 1, options=game or None, threads=1,
                           probe_every=int(own.get("probe_every", 16)))
        return dict(options)

    def run_shard(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
        threads: int | None,
        out: str | os.PathLike[str] | None,
    ) -> Any:
        own, game = _diff_options(game_id, options)
        r = _native.diff_shard(
            game_id, seed, first, count, options=game or None, threads=threads,
            probe_every=int(own.get("probe_every", 16)),
            plant_mismatch_game=own.get("plant_mismatch_game"),
        )
        r.pop("seconds")
        return r

    def _repro(self, game_id: str, seed: int, g: int, options: dict[str, Any]) -> str:
        own, game = _diff_options(game_id, options)
        extra = f" -o {_options_text(game)}" if game else ""
        if "probe_every" in own:
            extra += f" --probe-every {own['probe_every']}"
        return f"cardvec diff {game_id} --seed {seed} --first {g} --games 1{extra}"

    def reproduce(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
    ) -> str:
        cmd = self._repro(game_id, seed, first, options)
        return cmd.replace(" --games 1", f" --games {count}")

    def merge(
        self,
        game_id: str,
        seed: int,
        games: int,
        options: dict[str, Any],
        shards: list[tuple[str, int, int, Any]],
    ) -> dict[str, Any]:
        total: dict[str, Any] = {"games": 0, "actions": 0, "rejected": 0, "failed_games": 0}
        mismatches: list[dict[str, Any]] = []
        for _, _, _, r in shards:
            for k in total:
                total[k] += r[k]
            mismatches.extend(r["mismatches"])
        mismatches.sort(key=lambda m: m["game"])
        total["mismatches"] = [
            dict(m, reproduce=self._repro(game_id, seed, m["game"], options))
            for m in mismatches[:20]
        ]
        return total

    def lines(self, summary: dict[str, Any]) -> list[str]:
        own, game = _diff_options(summary["game_id"], summary["options"])
        config = f" options={_options_text(game)}" if game else ""
        out = [
            f"game={summary['game_id']}{config} games={summary['games']} seed={summary['seed']} "
            f"actions={summary['actions']} rejected_probes={summary['rejected']} "
            f"mismatched_games={summary['failed_games']} "
            f"elapsed={summary[TIMING]['seconds']:.2f}s"
        ]
        for m in summary["mismatches"]:
            out.append(
                f"MISMATCH game={m['game']} step={m['step']}: {m['what']} "
                f"(reproduce: {m['reproduce']})"
            )
        return out


def _bots_list(bots: Any) -> Any:
    if bots is None:
        return None
    if isinstance(bots, str):
        # As `cardvec ladder --bots`: a piece `key=value` after a name with options
        # (`pimc:sims=10`) continues them.
        names: list[str] = []
        for piece in (b.strip() for b in bots.split(",")):
            if not piece:
                continue
            if names and "=" in piece and ":" not in piece and ":" in names[-1]:
                names[-1] += "," + piece
            else:
                names.append(piece)
        bots = names
    bots = list(bots)
    if not bots or not all(isinstance(b, str) for b in bots):
        raise ValueError(f"bots must be a non-empty list of bot names, got {bots!r}")
    return bots


class Match(JobKind):
    """``cardvec match``: built-in bots rotated over the seats; exact integer tallies."""

    name = "match"
    own_options = ("bots",)

    def _split(self, options: Any) -> Any:
        game = {k: v for k, v in options.items() if k != "bots"}
        return _bots_list(options.get("bots")), game

    def check(self, game_id: str, options: dict[str, Any]) -> dict[str, Any]:
        _check_game(game_id)
        bots, game = self._split(options)
        _native.match_shard(game_id, 0, 0, 1, bots=bots, options=game or None, threads=1)
        out = dict(game)
        if bots is not None:
            out["bots"] = bots
        return out

    def run_shard(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
        threads: int | None,
        out: str | os.PathLike[str] | None,
    ) -> Any:
        bots, game = self._split(options)
        return _native.match_shard(game_id, seed, first, count, bots=bots,
                                   options=game or None, threads=threads)

    def merge(
        self,
        game_id: str,
        seed: int,
        games: int,
        options: dict[str, Any],
        shards: list[tuple[str, int, int, Any]],
    ) -> dict[str, Any]:
        total: dict[str, Any] = {"games": 0, "plies": 0, "plies_sq": 0, "reward_scale": 1, "bots": []}
        for k, (_, _, _, r) in enumerate(shards):
            if k == 0:
                total = json.loads(json.dumps(r))
                continue
            total["games"] += r["games"]
            total["plies"] += r["plies"]
            total["plies_sq"] += r["plies_sq"]
            for a, b in zip(total["bots"], r["bots"]):
                a["seats"] += b["seats"]
                a["leaders"] = [x + y for x, y in zip(a["leaders"], b["leaders"])]
                a["reward_sum"] += b["reward_sum"]
                a["reward_sq_sum"] += b["reward_sq_sum"]
        scale = total["reward_scale"]
        n = total["games"]
        standings = []
        for b in total["bots"]:
            seats = b["seats"]
            wins = sum(Fraction(c, k + 1) for k, c in enumerate(b["leaders"]))
            mean = Fraction(b["reward_sum"], scale * seats) if seats else Fraction(0)
            var = Fraction(0)
            if seats > 1:
                sq = Fraction(b["reward_sq_sum"], scale * scale)
                var = (sq - seats * mean * mean) / (seats - 1)
            standings.append({
                "bot": b["name"],
                "seats": seats,
                "win_rate": float(wins / seats) if seats else 0.0,
                "reward": float(mean),
                "reward_ci95": 1.959963984540054 * math.sqrt(float(var) / seats) if seats else 0.0,
            })
        return {
            "games": n,
            "plies_per_game": total["plies"] / n if n else 0.0,
            "standings": standings,
            "tally": total,
        }

    def lines(self, summary: dict[str, Any]) -> list[str]:
        out = [f"game={summary['game_id']} games={summary['games']} seed={summary['seed']} "
               f"plies_per_game={summary['plies_per_game']:.1f}"]
        for s in summary["standings"]:
            out.append(f"  {s['bot']:<16} seats={s['seats']:<8} win_rate={s['win_rate']:.4f} "
                       f"reward={s['reward']:.2f} ±{s['reward_ci95']:.2f}")
        return out


def _elo(ids: list[Any], wins: dict[tuple[int, int], tuple[Any, Any]]) -> list[Any]:
    """Bradley-Terry ratings by Zermelo's iteration, as ``core::stats::elo_ratings`` (half a
    game added both ways to every pair that played; ``ids[0]`` at 1000)."""
    n = len(ids)
    w = [[0.0] * n for _ in range(n)]
    played = [[False] * n for _ in range(n)]
    for (i, j), (si, sj) in wins.items():
        w[i][j] += si
        w[j][i] += sj
        played[i][j] = played[j][i] = True
    ww = [[w[i][j] + 0.5 if played[i][j] else 0.0 for j in range(n)] for i in range(n)]
    p = [1.0] * n
    for _ in range(10_000):
        nxt = list(p)
        for i in range(n):
            won = sum(ww[i][j] for j in range(n) if j != i)
            den = sum((ww[i][j] + ww[j][i]) / (p[i] + p[j])
                      for j in range(n) if j != i and played[i][j])
            if den > 0 and won > 0:
                nxt[i] = won / den
        g = math.exp(sum(math.log(x) for x in nxt) / n)
        nxt = [x / g for x in nxt]
        delta = max(abs(math.log(a) - math.log(b)) for a, b in zip(nxt, p))
        p = nxt
        if delta < 1e-10:
            break
    base = math.log10(p[0])
    return [1000.0 + 400.0 * (math.log10(x) - base) for x in p]


class ArenaLadder(JobKind):
    """``cardvec arena ladder``: every pair of catalog bots over ``games`` matches each, on a
    deterministic clock (no timeouts); a pair's matches are split into shards."""

    name = "arena-ladder"
    unit = "matches"
    own_options = ("bots", "max_steps")

    def check(self, game_id: str, options: dict[str, Any]) -> dict[str, Any]:
        _check_game(game_id, ["151"])
        unknown = set(options) - set(self.own_options)
        if unknown:
            raise ValueError(f"arena-ladder: unknown option(s) {sorted(unknown)}; "
                             f"options: {list(self.own_options)}")
        bots = _bots_list(options.get("bots")) or list(FULL_LADDER)
        if len(bots) < 2 or len(set(bots)) != len(bots):
            raise ValueError(f"arena-ladder: bots must be two or more distinct ids, got {bots!r}")
        from ._cardvec import arena

        playable = [o["id"] for o in arena.opponent_catalog() if o["implemented"]]
        for bot in bots:
            if bot not in playable:
                raise ValueError(f"arena-ladder: unknown or unplayable bot {bot!r}; "
                                 f"playable: {', '.join(playable)}")
        max_steps = options.get("max_steps", 500)
        _check_count("max_steps", max_steps)
        return {"bots": bots, "max_steps": max_steps}

    @staticmethod
    def pairs(n: Any) -> Any:
        pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
        return sorted(pairs, key=lambda p: (p[1] - p[0], p[1]))

    def plan(self, games: int, shard: int, options: dict[str, Any]) -> list[tuple[str, int, int]]:
        out = []
        for i, j in self.pairs(len(options["bots"])):
            out += [(f"{i},{j}", f, min(shard, games - f)) for f in range(0, games, shard)]
        return out

    def run_shard(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
        threads: int | None,
        out: str | os.PathLike[str] | None,
    ) -> Any:
        i, j = map(int, label.split(","))
        bots = options["bots"]
        r = _native.arena_shard(bots[i], bots[j], seed, first, count, threads=threads,
                                max_steps=options["max_steps"])
        r.pop("seconds")
        return r

    def reproduce(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
    ) -> str:
        i, j = map(int, label.split(","))
        bots = options["bots"]
        return (f"python -c \"from cardvec._cardvec import campaign; print(campaign.arena_shard("
                f"{bots[i]!r}, {bots[j]!r}, {seed}, {first}, {count}))\"")

    def merge(
        self,
        game_id: str,
        seed: int,
        games: int,
        options: dict[str, Any],
        shards: list[tuple[str, int, int, Any]],
    ) -> dict[str, Any]:
        bots = options["bots"]
        keys = ("games", "a_wins", "ties", "normal", "forfeit", "timeout", "max_steps",
                "forfeits_by_a", "forfeits_by_b", "actions")
        pairs: dict[str, dict[str, Any]] = {}
        for label, _, _, r in shards:
            p = pairs.setdefault(label, {"a": r["a"], "b": r["b"], **{k: 0 for k in keys}})
            for k in keys:
                p[k] += r[k]
        order = [f"{i},{j}" for i, j in self.pairs(len(bots))]
        rows = [pairs[k] for k in order if k in pairs]
        wins = {}
        for k in order:
            if k in pairs:
                i, j = map(int, k.split(","))
                p = pairs[k]
                a = p["a_wins"] + 0.5 * p["ties"]
                wins[(i, j)] = (a, p["games"] - p["a_wins"] - p["ties"] + 0.5 * p["ties"])
        elo = _elo(bots, wins)
        return {"pairs": rows, "elo": dict(zip(bots, elo))}

    def lines(self, summary: dict[str, Any]) -> list[str]:
        out = []
        for p in summary["pairs"]:
            rate = (p["a_wins"] + 0.5 * p["ties"]) / p["games"]
            out.append(f"{p['a']} vs {p['b']}: matches={p['games']} {p['a']} wins={p['a_wins']} "
                       f"({rate:.4f}) ties={p['ties']} reasons normal={p['normal']} "
                       f"forfeit={p['forfeit']} timeout={p['timeout']} max_steps={p['max_steps']}")
        for bot, e in sorted(summary["elo"].items(), key=lambda x: -x[1]):
            out.append(f"  {bot:<20} {e:>7.0f}")
        return out


class Ladder(JobKind):
    """``cardvec ladder``: any game's bots (any name ``cardvec match`` takes, search bots
    included) over duplicate deals (docs/ladder.md). ``games`` is the ladder's ``--games``
    (per pair for two seats, in all for more); the ladder's *units* (a deal played at every
    seat rotation) are what the shards split, so ``shard`` counts units and the label of
    every shard is the ladder's ``games``. Merged, ``report`` is exactly what
    ``cardvec ladder GAME --bots ... --games N --seed S --json`` prints (any shard size, any
    order of completion). Options: ``bots`` (required, two or more), ``max_steps``, and the
    game's options (``num_players=3``...); ``first`` must be 0."""

    name = "ladder"
    unit = "deals"
    own_options = ("bots", "max_steps")

    @staticmethod
    def _spec(game_id: str, options: dict[str, Any], games: int, seed: int) -> tuple[str, int]:
        game = {k: v for k, v in options.items() if k not in ("bots", "max_steps", "seats")}
        return _native.ladder_spec(game_id, options["bots"], games, seed, options=game or None,
                                   max_steps=options.get("max_steps"))

    def check(self, game_id: str, options: dict[str, Any]) -> dict[str, Any]:
        _check_game(game_id)
        out = dict(options)
        bots = _bots_list(options.get("bots"))
        if bots is None:
            raise ValueError("ladder: give bots=[...] (two or more bot names)")
        out["bots"] = bots
        if "seats" in options:
            raise ValueError("ladder: seats follow from the game's options (num_players=...), "
                             "not an option of their own")
        if out.get("max_steps") is not None:
            _check_count("max_steps", out["max_steps"])
        # The engine checks the rest (every bot name, the game's options) on a one-game
        # ladder; the seats it reports decide the schedule's size.
        spec, _ = self._spec(game_id, out, 1, 0)
        out["seats"] = json.loads(spec)["seats"]
        return out

    def units(self, games: int, options: dict[str, Any]) -> int:
        """Units of the ladder (``cardvec::ladder::LadderSpec::units``)."""
        seats, n = int(options["seats"]), len(options["bots"])
        if seats == 2:
            return n * (n - 1) // 2 * -(-games // 2)
        return -(-games // seats)

    def plan(self, games: int, shard: int, options: dict[str, Any]) -> list[tuple[str, int, int]]:
        units = self.units(games, options)
        return [(str(games), f, min(shard, units - f)) for f in range(0, units, shard)]

    def run_shard(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
        threads: int | None,
        out: str | os.PathLike[str] | None,
    ) -> Any:
        spec, _ = self._spec(game_id, options, int(label), seed)
        return _native.ladder_shard(spec, first, count, threads=threads)

    def reproduce(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
    ) -> str:
        spec, _ = self._spec(game_id, options, int(label), seed)
        return (f"python -c \"from cardvec._cardvec import campaign; print(campaign.ladder_shard("
                f"{spec!r}, {first}, {count}))\"")

    def merge(
        self,
        game_id: str,
        seed: int,
        games: int,
        options: dict[str, Any],
        shards: list[tuple[str, int, int, Any]],
    ) -> dict[str, Any]:
        spec, units = self._spec(game_id, options, games, seed)
        records = [line for _, _, _, r in shards for line in r]
        return {"units": units, "report": json.loads(_native.ladder_report(spec, records))}

    def lines(self, summary: dict[str, Any]) -> list[str]:
        r = summary["report"]
        out = [f"game={summary['game_id']} seed={summary['seed']} deals={r['units_done']}/"
               f"{r['units']} games={r['games']} ratings: {r['model']}, Elo scale, "
               f"{r['spec']['bots'][0]} = 1000"]
        ranked = sorted(r["bots"], key=lambda b: -(b["rating"] or {"rating": 0})["rating"])
        for b in ranked:
            rating = b["rating"]
            text = (f"{rating['rating']:.0f} [{rating['low']:.0f}, {rating['high']:.0f}]"
                    if rating else "-")
            out.append(f"  {b['bot']:<24} games={b['games']:<7} rating={text} "
                       f"win={b['win_share']['value']:.4f}")
        return out


class Oracle(JobKind):
    """The oracle comparisons: ``cardvec trace`` shards replayed in the external engine
    (151: i151-engine 0.2.4; holdem: pokerkit 0.7), Flip 7 played step for step against
    game-room 0.1.0, Kuhn and Leduc step for step against OpenSpiel, and (game id
    ``holdem-eval``, accepted by this kind only) ``cardvec.holdem``'s hand evaluator
    against phevaluator (``cardvec.oracles``)."""

    name = "oracle"
    own_options = ("players", "fix")
    single_core = True

    def check(self, game_id: str, options: dict[str, Any]) -> dict[str, Any]:
        from . import oracles

        _check_game(game_id, sorted(oracles.ORACLES))
        unknown = set(options) - set(self.own_options)
        if unknown:
            raise ValueError(f"oracle: unknown option(s) {sorted(unknown)}; "
                             f"options: {list(self.own_options)}")
        oracles.require(game_id)
        out = dict(options)
        if "players" in out:
            p = out["players"]
            out["players"] = [int(x) for x in (p.split(",") if isinstance(p, str) else p)]
        return out

    def run_shard(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
        threads: int | None,
        out: str | os.PathLike[str] | None,
    ) -> Any:
        import dataclasses
        import importlib

        from . import oracles

        module = importlib.import_module(oracles.require(game_id))
        if game_id == "flip7":
            r = dataclasses.asdict(module.replay_range(seed, first, count))
            r["players"] = {str(k): v for k, v in r["players"].items()}
            return r
        if game_id in ("kuhn", "leduc"):
            return dataclasses.asdict(module.replay_range(game_id, seed, first, count))
        if game_id == "holdem-eval":
            return dataclasses.asdict(module.replay_range(seed, first, count))
        text, _ = _native.trace_shard(game_id, seed, first, count,
                                      players=options.get("players"), policy_seed=seed)
        lines = text.splitlines()
        if game_id == "151":
            report = module.replay(lines, fix=options.get("fix", True), stop_after=count + 1)
        else:
            report = module.replay(lines)
        r = dataclasses.asdict(report)
        r.pop("python_seconds", None)
        for m in r["mismatches"]:
            # The game index: 151 match i has seed `seed + i`; a hand carries its index.
            m["game"] = m["seed"] - seed if game_id == "151" else m["hand"]
        for key in ("players", "by_seats"):
            if key in r:
                r[key] = {str(k): v for k, v in r[key].items()}
        return r

    def _repro(self, game_id: str, seed: int, first: int, count: int) -> str:
        if game_id == "flip7":
            return (f"python -c \"from cardvec.oracles import flip7; "
                    f"print(flip7.replay_range({seed}, {first}, {count}).mismatches)\"")
        if game_id in ("kuhn", "leduc"):
            return (f"python -c \"from cardvec.oracles import openspiel; print(openspiel."
                    f"replay_range({game_id!r}, {seed}, {first}, {count}).mismatches)\"")
        if game_id == "holdem-eval":
            return (f"python -c \"from cardvec.oracles import holdem_eval; print(holdem_eval."
                    f"replay_range({seed}, {first}, {count}).mismatches)\"")
        return (f"cardvec trace {game_id} --seed {seed} --policy-seed {seed} --first {first} "
                f"--games {count} | python -c \"import sys; from cardvec.oracles import "
                f"{'i151' if game_id == '151' else 'holdem'} as o; "
                f"print(o.replay(sys.stdin).mismatches)\"")

    def reproduce(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
    ) -> str:
        return self._repro(game_id, seed, first, count)

    def merge(
        self,
        game_id: str,
        seed: int,
        games: int,
        options: dict[str, Any],
        shards: list[tuple[str, int, int, Any]],
    ) -> dict[str, Any]:
        total: dict[str, Any] = {}
        mismatches: list[dict[str, Any]] = []
        for _, _, _, r in shards:
            for k, v in r.items():
                if k == "mismatches":
                    mismatches.extend(v)
                elif isinstance(v, dict):
                    d = total.setdefault(k, {})
                    for kk, vv in v.items():
                        d[kk] = d.get(kk, 0) + vv
                elif isinstance(v, list):
                    total.setdefault(k, []).extend(v)
                else:
                    total[k] = total.get(k, 0) + v
        mismatches.sort(key=lambda m: m["game"])
        total["mismatches"] = [dict(m, reproduce=self._repro(game_id, seed, m["game"], 1))
                               for m in mismatches]
        return total

    def lines(self, summary: dict[str, Any]) -> list[str]:
        body = {k: v for k, v in summary.items()
                if k not in (TIMING, "mismatches", "options", "kind", "defect_seeds", "failed_shards")}
        out = [" ".join(f"{k}={v}" for k, v in body.items()) +
               f" mismatches={len(summary['mismatches'])} elapsed={summary[TIMING]['seconds']:.1f}s"]
        out += [f"MISMATCH {m}" for m in summary["mismatches"][:30]]
        return out


class Rollouts(JobKind):
    """Trajectories of a built-in bot (``random`` by default) playing every seat of a batch
    environment: shard ``[first, first + count)`` is an environment of ``count`` lanes
    seeded ``seed + first`` played for ``steps`` batch steps (autoreset), written to
    ``out/rollouts/shard_<first>.npz`` (``obs`` float32 [T, N, obs_dim], ``actions`` int64
    [T, N], ``rewards`` float32 [T, N, players], ``dones`` bool [T, N], ``legal_mask`` uint8
    [T, N, actions], ``current_player`` int32 [T, N]; ``obs`` is float32 whatever the
    ``obs_dtype``): the layout of a PPO/IMPALA learner's
    batch. ``compress=True`` writes ``np.savez_compressed`` files (observations are sparse:
    much smaller, slower to write). The data of a lane depends on the shard size (its
    environment): keep ``shard`` fixed to reproduce a data set."""

    name = "rollouts"
    unit = "lanes"
    own_options = ("steps", "bot", "compress")

    def check(self, game_id: str, options: dict[str, Any]) -> dict[str, Any]:
        _check_game(game_id)
        steps = options.get("steps", 128)
        if not isinstance(steps, int) or isinstance(steps, bool) or steps < 1:
            raise ValueError(f"rollouts: steps must be an integer >= 1, got {steps!r}")
        from . import bots as _bots

        bot = options.get("bot", "random")
        game = {k: v for k, v in options.items() if k not in self.own_options}
        import cardvec

        env = cardvec.make(game_id, 1, **game)
        _bots.act(env, bot)  # a ValueError naming the game's bots
        compress = options.get("compress", False)
        if not isinstance(compress, bool):
            raise ValueError(f"rollouts: compress must be True or False, got {compress!r}")
        return dict(game, steps=steps, bot=bot, compress=compress)

    def run_shard(
        self,
        game_id: str,
        seed: int,
        label: str,
        first: int,
        count: int,
        options: dict[str, Any],
        threads: int | None,
        out: str | os.PathLike[str] | None,
    ) -> Any:
        import cardvec

        from . import bots as _bots

        game = {k: v for k, v in options.items() if k not in self.own_options}
        steps, bot = options["steps"], options["bot"]
        env = cardvec.make(game_id, count, seed=seed + first, num_threads=threads,
                           autoreset=True, **game)
        obs = np.empty((steps, count, env.obs_dim), np.float32)
        acts = np.empty((steps, count), np.int64)
        rew = np.empty((steps, count, env.num_players), np.float32)
        dones = np.empty((steps, count), bool)
        masks = np.empty((steps, count, env.num_actions), np.uint8)
        player = np.empty((steps, count), np.int32)
        env.reset()
        for t in range(steps):
            env.obs_f32(out=obs[t])  # float32 rows, also with obs_dtype="u8"
            masks[t] = env.legal_mask
            player[t] = env.current_player
            a = _bots.act(env, bot, seed=seed + first + t)
            acts[t] = a
            env.step(np.where(a < 0, 0, a))
            rew[t] = env.rewards
            dones[t] = env.terminated | env.truncated
        if out is None:
            raise ValueError("a rollouts shard writes into the campaign's output folder (out=)")
        path = Path(out) / "rollouts" / f"shard_{first:012d}.npz"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp.npz")
        save = np.savez_compressed if options.get("compress") else np.savez
        save(tmp, obs=obs, actions=acts, rewards=rew, dones=dones, legal_mask=masks,
                 current_player=player)
        os.replace(tmp, path)
        return {"lanes": count, "transitions": steps * count, "episodes": int(dones.sum()),
                "bytes": path.stat().st_size, "file": path.name}

    def merge(
        self,
        game_id: str,
        seed: int,
        games: int,
        options: dict[str, Any],
        shards: list[tuple[str, int, int, Any]],
    ) -> dict[str, Any]:
        return {
            "lanes": sum(r["lanes"] for *_, r in shards),
            "transitions": sum(r["transitions"] for *_, r in shards),
            "episodes": sum(r["episodes"] for *_, r in shards),
            "files": [r["file"] for *_, r in shards],
        }

    def lines(self, summary: dict[str, Any]) -> list[str]:
        t = summary[TIMING]["seconds"]
        return [f"game={summary['game_id']} lanes={summary['lanes']} "
                f"transitions={summary['transitions']} episodes={summary['episodes']} "
                f"files={len(summary['files'])} elapsed={t:.1f}s "
                f"transitions_per_s={summary['transitions'] / max(t, 1e-9):.0f}"]


#: The registered job kinds by name.
KINDS: dict[str, JobKind] = {
    k.name: k for k in (Diff(), Oracle(), Match(), ArenaLadder(), Ladder(), Rollouts())
}


def read_rollouts(
    out: str | os.PathLike[str],
    files: Sequence[str] | None = None,
) -> Iterator[dict[str, Any]]:
    """Yields the rollout shards written in ``out`` (``out/rollouts/shard_*.npz``, in game
    order), each a dict of numpy arrays (``obs``, ``actions``, ``rewards``, ``dones``,
    ``legal_mask``, ``current_player``, time-major: [T, N, ...])."""
    paths = sorted((Path(out) / "rollouts").glob("shard_*.npz"))
    if files is not None:
        wanted = set(files)
        paths = [p for p in paths if p.name in wanted]
    for p in paths:
        with np.load(p) as z:
            yield {k: z[k] for k in z.files}


# ---------------------------------------------------------------- running the shards


def _run_shard(
    kind: Any,
    game_id: Any,
    seed: Any,
    label: Any,
    first: Any,
    count: Any,
    options: Any,
    threads: Any,
    out: Any,
) -> Any:
    """One shard in a worker: ``("ok", result)`` or ``("error", message)`` for a failure
    of the shard itself (an engine error or panic, a bad option), which must not be
    retried."""
    t = time.perf_counter()
    try:
        result = KINDS[kind].run_shard(game_id, seed, label, first, count, options, threads,
                                       out)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:  # a Rust panic is a BaseException (pyo3 PanicException)
        return ("error", f"{type(e).__name__}: {e}", time.perf_counter() - t)
    return ("ok", result, time.perf_counter() - t)


def _check_count(name: Any, value: Any, minimum: Any = 1) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")


class _Progress:
    def __init__(self, total: Any, done: Any, games_total: Any, unit: Any, enabled: Any) -> None:
        self.start = time.perf_counter()
        self.games = 0
        self.unit = unit
        self.bar = None
        self.enabled = enabled
        self.total, self.done = total, done
        if not enabled:
            return
        try:
            from tqdm import tqdm

            self.bar = tqdm(total=total, initial=done, unit="shard", file=sys.stderr)
        except ImportError:
            self.bar = None
        self.last = 0.0

    def update(self, games: Any) -> None:
        self.games += games
        self.done += 1
        if not self.enabled:
            return
        rate = self.games / max(time.perf_counter() - self.start, 1e-9)
        if self.bar is not None:
            self.bar.set_postfix_str(f"{rate:,.0f} {self.unit}/s")
            self.bar.update(1)
        elif time.perf_counter() - self.last > 2 or self.done == self.total:
            self.last = time.perf_counter()
            print(f"campaign: {self.done}/{self.total} shards, {rate:,.0f} {self.unit}/s",
                  file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _identity(kind: Any, game_id: Any, seed: Any, games: Any, shard: Any, options: Any) -> Any:
    # As it reads back from campaign.json (tuples become lists).
    return json.loads(json.dumps({"kind": kind, "game_id": game_id, "seed": seed,
                                  "games": games, "shard": shard, "options": options}))


def _open_out(out: Any, identity: Any) -> Any:
    """The finished shards of ``out`` (creating it), after checking it holds this
    campaign."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    ident = out / "campaign.json"
    if ident.exists():
        old = json.loads(ident.read_text())
        if "game" in old and "game_id" not in old:  # written before the key was game_id
            old["game_id"] = old.pop("game")
        if old != identity:
            diff = {k: (old.get(k), identity[k]) for k in identity if old.get(k) != identity[k]}
            raise ValueError(
                f"{out} holds another campaign (differs in {', '.join(f'{k}: {a!r} there, {b!r} here' for k, (a, b) in diff.items())}); "
                "use another out directory"
            )
    else:
        ident.write_text(json.dumps(identity, sort_keys=True) + "\n")
    done = {}
    shards = out / "shards.jsonl"
    if shards.exists():
        for line in shards.read_text().splitlines():
            try:
                rec = json.loads(line)
            except ValueError:
                continue  # a line cut by a crash: that shard runs again
            done[(rec["label"], rec["first"], rec["count"])] = rec["result"]
    return done


def _cluster_cpus(ray: Any) -> int:
    cpus = [n["Resources"].get("CPU", 0) for n in ray.nodes() if n.get("Alive")]
    cpus = [c for c in cpus if c >= 1]
    return int(min(cpus)) if cpus else 1


class Interrupted(KeyboardInterrupt):
    """A campaign stopped by Ctrl-C (a ``KeyboardInterrupt``, so code that catches that
    still does): ``saved`` of ``total`` shards are finished, in ``out`` when it is a
    directory (``None``: nothing was kept); running the same campaign with the same ``out``
    again resumes it."""

    saved: int
    total: int
    out: str | None

    def __init__(self, saved: int, total: int, out: str | None) -> None:
        super().__init__(saved, total, out)
        self.saved, self.total, self.out = saved, total, out

    def __str__(self) -> str:
        if self.out is None:
            return (f"interrupted: {self.saved}/{self.total} shards done, none kept "
                    "(give --out DIR to keep finished shards and resume)")
        return (f"interrupted: {self.saved}/{self.total} shards saved in {self.out}; "
                "rerun the same command to resume")


def _check_reachable(address: str, timeout: float) -> None:
    """A ``HOST:PORT`` Ray address must accept a TCP connection within ``timeout`` seconds
    (``ray.init`` would otherwise retry for minutes); a ``ConnectionError`` says so."""
    import socket

    host, sep, port = address.rpartition(":")
    if address.startswith("ray://"):
        host, sep, port = address[len("ray://"):].rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"address must be None, 'local', 'auto' or HOST:PORT, got {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        raise ConnectionError(
            f"no Ray cluster answers at {address} within {timeout:g} s ({e}); check the "
            "address (ray status on the head node prints it) or raise connect_timeout"
        ) from None


def run(
    kind: str,
    game_id: str,
    games: int = 100_000,
    shard: int | None = None,
    seed: int = 0,
    address: str | None = None,
    out: str | os.PathLike[str] | None = None,
    max_retries: int = 3,
    progress: bool = True,
    threads: int | None = None,
    first: int = 0,
    connect_timeout: float = 10.0,
    **options: Any,
) -> dict[str, Any]:
    """Runs campaign ``kind`` on game ``game_id`` over games ``first..first + games`` of
    ``seed``, in shards of ``shard`` games (default: ``games`` split in about 64), and
    returns the merged summary: the kind's totals, ``kind``, ``game_id``, ``seed``,
    ``options``, ``failed_shards`` (``[{"label", "first", "count", "error",
    "reproduce"}]``, shards that failed by themselves or were lost after ``max_retries``) and
    ``timing`` (``seconds``, ``games_per_second``, ``shards``, ``shards_run``, ``shards_skipped``,
    ``nodes``, ``cpus_per_shard``: the only key that depends on the run). See the module
    documentation for ``address`` and ``out``. ``threads``: engine threads per shard
    (default: the CPUs a shard takes). ``options``: the kind's options (``KINDS[kind].
    own_options``) and the game's options. ``connect_timeout``: seconds a ``HOST:PORT``
    address has to answer before the run is a ``ConnectionError`` (default 10). Bad input is
    a ``ValueError`` naming the value (``TypeError`` for a wrong type), raised before
    anything runs. Ctrl-C raises ``Interrupted`` (a ``KeyboardInterrupt``) saying how many
    shards are saved; the same call with the same ``out`` resumes."""
    if kind not in KINDS:
        raise ValueError(f"unknown campaign kind {kind!r}; expected one of: {', '.join(KINDS)}")
    job = KINDS[kind]
    _check_count("games", games)
    _check_count("seed", seed, 0)
    _check_count("first", first, 0)
    if shard is None:
        shard = max(1, -(-games // 64))
    _check_count("shard", shard)
    _check_count("max_retries", max_retries, 0)
    if threads is not None:
        _check_count("threads", threads)
    if address is not None and not isinstance(address, str):
        raise TypeError(f"address must be None or a str, got {address!r}")
    if isinstance(connect_timeout, bool) or not isinstance(connect_timeout, (int, float)):
        raise TypeError(f"connect_timeout must be a number of seconds, got {connect_timeout!r}")
    if not 0 < connect_timeout <= 3600:
        raise ValueError(f"connect_timeout must be in (0, 3600] seconds, got {connect_timeout!r}")
    options = job.check(game_id, options)
    if kind == "rollouts" and out is None:
        raise ValueError("rollouts writes .npz shards: give out=<directory>")
    if kind == "ladder" and first != 0:
        raise ValueError(f"ladder shards split the ladder's own units: first must be 0, got {first}")
    if out is not None:
        out = os.path.abspath(out)  # the workers' working directory is not the driver's
    plan = [(label, first + f, c) for label, f, c in job.plan(games, shard, options)]
    identity = _identity(kind, game_id, seed, [first, games], shard, options)
    done = _open_out(out, identity) if out is not None else {}
    todo = [p for p in plan if p not in done]
    results = dict(done)
    failed = []
    started = time.perf_counter()
    bar = _Progress(len(plan), len(plan) - len(todo), games, job.unit, progress)
    log = open(Path(out) / "shards.jsonl", "a") if out is not None else None

    def finish(p: Any, outcome: Any) -> None:
        label, f, c = p
        status, value, _seconds = outcome
        if status == "ok":
            # As a resumed shard reads back from shards.jsonl, so merging never sees a
            # difference between shards run now and shards run before.
            value = json.loads(json.dumps(value))
            results[p] = value
            if log is not None:
                log.write(json.dumps({"kind": kind, "game_id": game_id, "seed": seed,
                                      "label": label, "first": f, "count": c,
                                      "result": value}) + "\n")
                log.flush()
        else:
            failed.append({"label": label, "first": f, "count": c, "error": value,
                           "reproduce": job.reproduce(game_id, seed, label, f, c, options)})
        bar.update(c)

    nodes, cpus = 1, 1 if job.single_core else threads or (os.cpu_count() or 1)
    try:
        if address is None or not todo:
            for p in todo:
                finish(p, _run_shard(kind, game_id, seed, p[0], p[1], p[2], options, threads,
                                     out))
        else:
            nodes, cpus = _run_ray(address, todo, finish, kind, game_id, seed, options,
                                   threads, out, max_retries, connect_timeout)
    except KeyboardInterrupt:
        raise Interrupted(len(results), len(plan), out) from None
    finally:
        bar.close()
        if log is not None:
            log.close()
    ok = sorted((p + (results[p],)) for p in plan if p in results)
    seconds = time.perf_counter() - started
    summary = {"kind": kind, "game_id": game_id, "seed": seed, "options": options}
    summary.update(job.merge(game_id, seed, games, options, ok))
    summary["failed_shards"] = sorted(failed, key=lambda x: (x["label"], x["first"]))
    summary[TIMING] = {
        "seconds": seconds,
        "games_per_second": sum(p[2] for p in todo) / max(seconds, 1e-9),
        "shards": len(plan),
        "shards_run": len(todo),
        "shards_skipped": len(plan) - len(todo),
        "nodes": nodes,
        "cpus_per_shard": cpus,
    }
    return summary


def _run_ray(
    address: Any,
    todo: Any,
    finish: Any,
    kind: Any,
    game_id: Any,
    seed: Any,
    options: Any,
    threads: Any,
    out: Any,
    max_retries: Any,
    connect_timeout: Any,
) -> Any:
    try:
        import ray
    except ImportError:
        raise ImportError(
            "address=... runs the campaign on Ray, which is not installed: "
            'pip install "ray>=2.9" (or address=None to run in this process)'
        ) from None
    started_here = False
    if not ray.is_initialized():
        kwargs = {"log_to_driver": False, "include_dashboard": False}
        if address == "local":
            ray.init(**kwargs)
        else:
            if address != "auto":
                _check_reachable(address, connect_timeout)
            ray.init(address=address, **kwargs)
        started_here = True
    try:
        cpus = 1 if KINDS[kind].single_core else _cluster_cpus(ray)
        task = ray.remote(_run_shard).options(
            num_cpus=cpus, max_retries=max_retries, retry_exceptions=False
        )
        threads = threads or cpus
        pending = {}
        for p in todo:
            ref = task.remote(kind, game_id, seed, p[0], p[1], p[2], options, threads, out)
            pending[ref] = p
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                p = pending.pop(ref)
                try:
                    outcome = ray.get(ref)
                except Exception as e:  # lost after max_retries (worker or node died)
                    outcome = ("error", f"lost after {max_retries} retries: "
                               f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
                               0.0)
                finish(p, outcome)
        nodes = sum(1 for n in ray.nodes() if n.get("Alive"))
        return nodes, threads
    finally:
        if started_here:
            ray.shutdown()


def _parse_options(words: Any) -> dict[str, Any]:
    """``-o`` values: each ``NAME=VALUE`` (the value read as JSON when it is JSON, else as
    text: ``-o bots=random,king-only`` is one option); several at once as
    ``NAME=VALUE,NAME=VALUE`` when every comma-separated piece has an ``=``. A name given
    twice is a ``ValueError``."""
    options = {}
    for word in words:
        pieces = word.split(",")
        pairs = pieces if all("=" in q for q in pieces) else [word]
        for pair in pairs:
            if "=" not in pair:
                raise ValueError(f"bad option {pair!r} (expected name=value)")
            k, v = pair.split("=", 1)
            if not k:
                raise ValueError(f"bad option {pair!r} (no name before '=')")
            if k in options:
                raise ValueError(f"option {k!r} given twice (-o {k}=...); give it once")
            try:
                options[k] = json.loads(v)
            except ValueError:
                options[k] = v
    return options


def main(argv: Sequence[str] | None = None) -> int:
    """``cardvec-campaign KIND GAME [--games N] [--shard N] [--seed S] [--address A]
    [--out DIR] [-o name=value ...]``: runs ``run`` and prints the summary as ``cardvec``
    prints it (``diff``: the same lines as ``cardvec diff``). Exit status 1 when a shard
    failed or a mismatch was found, 2 for bad input, 130 when interrupted (Ctrl-C: the
    finished shards are kept in ``--out``; the same command resumes)."""
    import argparse

    p = argparse.ArgumentParser(
        prog="cardvec-campaign", description=main.__doc__,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("kind", help=f"the campaign: one of {', '.join(KINDS)}")
    p.add_argument("game", help=f"the game id: one of {', '.join(_game_ids())}")
    p.add_argument("--games", type=int, default=100_000, help="games in the campaign")
    p.add_argument("--shard", type=int, default=None,
                   help="games per shard (default: the games split in about 64 shards)")
    p.add_argument("--seed", type=int, default=0, help="the campaign's seed")
    p.add_argument("--first", type=int, default=0,
                   help="index of the first game (games first..first+games of the seed)")
    p.add_argument("--address", default=None,
                   help="where to run: none (this process), local (a Ray cluster started "
                        "here), auto (the running cluster) or HOST:PORT")
    p.add_argument("--connect-timeout", type=float, default=10.0,
                   help="seconds a HOST:PORT address has to answer")
    p.add_argument("--out", default=None,
                   help="directory for finished shards (resumable; rollouts write .npz here)")
    p.add_argument("--max-retries", type=int, default=3,
                   help="times a shard lost with its worker or node is run again")
    p.add_argument("--threads", type=int, default=None,
                   help="engine threads per shard (default: the CPUs a shard takes)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON line")
    p.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a campaign or game option (repeatable; -o bots=random,king-only "
                        "is one option)")
    a = p.parse_args(argv)
    try:
        options = _parse_options(a.option)
    except ValueError as e:
        print(f"cardvec-campaign: {e}", file=sys.stderr)
        return 2
    address = None if a.address in (None, "none") else a.address
    try:
        summary = run(a.kind, a.game, games=a.games, shard=a.shard, seed=a.seed,
                      first=a.first, address=address, out=a.out, max_retries=a.max_retries,
                      progress=not a.quiet, threads=a.threads,
                      connect_timeout=a.connect_timeout, **options)
    except Interrupted as e:
        print(f"cardvec-campaign: {e}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print("cardvec-campaign: interrupted before any shard ran", file=sys.stderr)
        return 130
    except (ValueError, TypeError, ImportError, ConnectionError) as e:
        print(f"cardvec-campaign: {e}", file=sys.stderr)
        return 2
    if a.json:
        print(json.dumps(summary))
    else:
        for line in KINDS[a.kind].lines(summary):
            print(line)
        for f in summary["failed_shards"]:
            print(f"FAILED shard {f['label'] + ' ' if f['label'] else ''}games "
                  f"{f['first']}..{f['first'] + f['count']}: {f['error']} "
                  f"(reproduce: {f['reproduce']})")
    bad = summary["failed_shards"] or summary.get("mismatches") or summary.get("failed_games")
    return 1 if bad else 0


__all__ = ["FULL_LADDER", "Interrupted", "JobKind", "KINDS", "TIMING", "main", "read_rollouts",
           "run"]


if __name__ == "__main__":
    sys.exit(main())
