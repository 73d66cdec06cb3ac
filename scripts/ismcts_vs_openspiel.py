"""OpenSpiel's IS-MCTS bot and cardvec's ``ismcts`` side by side, per simulation.

For each game, the same decision positions (random play from seeded deals, states with two
or more legal actions) are searched by:

- ``openspiel-cpp``: OpenSpiel's C++ ``pyspiel.ISMCTSBot`` on OpenSpiel's own C++ game
  (``kuhn_poker``, ``leduc_poker`` only: the C++ bot crashes on games written in Python,
  such as the ``cardvec_*`` games, so it runs on OpenSpiel's own Kuhn and Leduc, on the
  same histories);
- ``openspiel-py``: OpenSpiel's Python ``open_spiel.python.algorithms.ismcts.ISMCTSBot``
  on the same game as cardvec, ``cardvec_<id>`` (``cardvec.openspiel``: each iteration
  samples its world with ``resample_from_infostate``, the engine's determinization, and
  clones states, which replays the actions in the engine), and on ``kuhn_poker`` /
  ``leduc_poker``;
- ``cardvec``: cardvec's ``ismcts:iters=N,value=reward,c=2,playout=random`` (one thread)
  through ``cardvec.openspiel.bot`` on the very same ``cardvec_<id>`` states.

Every bot does ``N`` iterations per decision, each a determinization, a descent with UCT
(``c = 2`` on the game's returns, OpenSpiel's default), one expansion and one random
rollout to the end (OpenSpiel's ``RandomRolloutEvaluator(1)``, cardvec's ``random``
playout). The figure is simulations per second of process CPU time (``time.process_time``,
one thread), summed over the positions and repetitions; the bots are alternated within
each repetition (the order rotated), so a load change on a shared machine hits all of them.
The ratio column is cardvec's rate over the row's.

    python scripts/ismcts_vs_openspiel.py                 # every game, the default sizes
    python scripts/ismcts_vs_openspiel.py --small         # seconds: what CI runs
    python scripts/ismcts_vs_openspiel.py --games kuhn,leduc --positions 8 --repeats 5

Needs OpenSpiel (``pip install open-spiel``) and cardvec. Prints a Markdown table, the
command and the machine (CPU model, cores, load average); ``--json`` prints the rows as
JSON instead.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from typing import Any, Callable

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from cardvec import openspiel as cos

# game id -> (OpenSpiel's own game or None, iterations per decision, plies of random play
# before the position at most)
GAMES: dict[str, tuple[str | None, int, int]] = {
    "kuhn": ("kuhn_poker", 1000, 2),
    "leduc": ("leduc_poker", 1000, 3),
    "lost-cities": (None, 100, 20),
    "flip7": (None, 100, 6),
    "151": (None, 20, 10),
    "holdem": (None, 200, 3),
}
SMALL = {"kuhn": 20, "leduc": 20, "lost-cities": 5, "flip7": 5, "151": 2, "holdem": 5}
UCT_C = 2.0


def positions(game_id: str, count: int, plies: int, seed: int) -> list[Any]:
    """``count`` decision states of ``cardvec_<game_id>`` with two or more legal actions,
    each after up to ``plies`` random decisions from deal ``seed + k`` (chance: the first
    outcome of a random draw)."""
    out = []
    k = 0
    while len(out) < count and k < 50 * count:
        game = pyspiel.load_game(f"{cos.game_name(game_id)}(rng_seed={seed + k})")
        rng = np.random.RandomState(seed + k)
        state = game.new_initial_state()
        k += 1
        target = rng.randint(0, plies + 1)
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            legal = state.legal_actions()
            if decisions >= target and len(legal) >= 2:
                out.append(state)
                break
            state.apply_action(int(rng.choice(legal)))
            decisions += 1
    return out


def native_twin(native: Any, state: Any) -> Any:
    """The state of OpenSpiel's own game reached by ``state``'s history (Kuhn, Leduc: the
    cardvec tree games take OpenSpiel's action ids), checked to have the same player and
    legal actions."""
    twin = native.new_initial_state()
    for a in state.history():
        twin.apply_action(a)
    if twin.current_player() != state.current_player() or twin.legal_actions() != (
        state.legal_actions()
    ):
        raise SystemExit(f"{native} does not follow the history {state.history()}")
    return twin


def timed(step: Callable[[], int]) -> float:
    began = time.process_time()
    step()
    return time.process_time() - began


def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    rows = []
    for game_id in args.games:
        native_name, iters, plies = GAMES[game_id]
        if args.iters:
            iters = args.iters
        elif args.small:
            iters = SMALL[game_id]
        states = positions(game_id, args.positions, plies, args.seed)
        native = pyspiel.load_game(native_name) if native_name else None
        twins = [native_twin(native, s) for s in states] if native else []
        # kind -> (game, state of position p, bot factory for seed r and seat)
        kinds: dict[str, tuple[Any, Callable[[int], Any], Callable[[int, int], Any]]] = {}
        game = states[0].get_game()

        def os_py(g: Any) -> Callable[[int, int], Any]:
            return lambda r, seat: ismcts.ISMCTSBot(
                g,
                mcts.RandomRolloutEvaluator(1, np.random.RandomState(r)),
                UCT_C,
                iters,
                random_state=np.random.RandomState(r + 1),
            )

        if native is not None:
            kinds["openspiel-cpp"] = (
                native,
                lambda p: twins[p],
                lambda r, seat: pyspiel.ISMCTSBot(
                    r,
                    pyspiel.RandomRolloutEvaluator(1, r + 1),
                    UCT_C,
                    iters,
                    -1,
                    pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
                    False,
                    False,
                ),
            )
            kinds[f"openspiel-py ({native_name})"] = (native, lambda p: twins[p], os_py(native))
        kinds[f"openspiel-py ({cos.game_name(game_id)})"] = (game, lambda p: states[p], os_py(game))
        kinds["cardvec"] = (
            game,
            lambda p: states[p],
            lambda r, seat: cos.bot(
                f"ismcts:iters={iters},value=reward,c={UCT_C},playout=random", game, seat, seed=r
            ),
        )
        names = list(kinds)
        cpu = dict.fromkeys(names, 0.0)
        sims = dict.fromkeys(names, 0)
        for r in range(args.repeats):
            for p in range(len(states)):
                order = names[(r + p) % len(names) :] + names[: (r + p) % len(names)]
                for name in order:
                    _, state_of, make = kinds[name]
                    state = state_of(p).clone()
                    bot = make(args.seed + r, state.current_player())
                    cpu[name] += timed(lambda: bot.step(state))
                    sims[name] += iters
        rate = {n: sims[n] / max(cpu[n], 1e-9) for n in names}
        for n in names:
            rows.append(
                {
                    "game": game_id,
                    "bot": n,
                    "iterations": iters,
                    "decisions": len(states) * args.repeats,
                    "cpu_s": cpu[n],
                    "sims_per_cpu_s": rate[n],
                    "cardvec_over_this": rate["cardvec"] / rate[n],
                }
            )
    return rows


def machine() -> str:
    model = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return f"{model}, {os.cpu_count()} logical CPUs, load average {load}, {platform.system()}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma separated game ids")
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--iters", type=int, default=0, help="iterations per decision (0: per game)")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--small", action="store_true", help="tiny budgets (CI)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    args.games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in args.games if g not in GAMES]
    if unknown:
        ap.error(f"unknown game(s) {unknown}; known: {', '.join(GAMES)}")
    if args.small:
        args.positions, args.repeats = min(args.positions, 2), 1
    if args.positions < 1 or args.repeats < 1 or args.iters < 0:
        ap.error("--positions and --repeats must be >= 1, --iters >= 0")
    rows = run(args)
    if args.json:
        print(json.dumps(rows))
        return
    print("python " + " ".join(sys.argv))
    print(machine())
    print()
    print("| game | bot | iterations | decisions | simulations per CPU s | cardvec / this |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(
            f"| `{r['game']}` | {r['bot']} | {r['iterations']} | {r['decisions']} | "
            f"{r['sims_per_cpu_s']:,.0f} | {r['cardvec_over_this']:.1f} |"
        )


if __name__ == "__main__":
    main()
