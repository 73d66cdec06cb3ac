"""The race: cardvec against EnvPool, PGX, RLCard, OpenSpiel and pokerkit on the same machine,
random legal play, the same lanes and threads, rounds alternated in one run, ratios with their
spread (docs/performance.md, "The race").

    python scripts/race.py --setup --wheel /tmp/whl/cardvec-*.whl   # the peers' venv, once
    python scripts/race.py --lanes 1024 --steps 200 --rounds 5 --threads 1 \\
        --cardvec-cli target/release/cardvec

``--setup`` creates ``target/race-venv`` (or ``--venv``) and installs there, one by one, the
cardvec wheel given, numpy and the peers: ``envpool==1.2.5``, ``pgx==2.6.0`` (with JAX on CPU),
``rlcard``, ``open-spiel``, ``pokerkit``. A peer whose wheel cannot be installed is skipped
later with a message (EnvPool's and PGX's JAX pins stay out of the test venv). Without
``--setup`` the script runs itself inside that venv.

Contenders, each driven from Python the way its users drive it, one step = one decision
of one game (chance nodes are not steps):

- Kuhn and Leduc: cardvec (``cardvec.make(game, lanes, num_threads=threads,
  autoreset=True)``: read ``legal_mask``, pick uniformly among the legal actions with numpy,
  ``step``); EnvPool 1.2.5's native ``KuhnPoker-v1`` / ``LeducHoldem-v1`` (``envpool.make(...,
  num_envs=lanes, batch_size=lanes, num_threads=threads)``, the mask read from the
  observation info, the same numpy choice, ``step``); PGX 2.6.0 (``jax.jit(jax.vmap(step))`` on
  CPU, the mask pulled to numpy, the same choice, auto-reset of finished games inside the jitted
  step); RLCard (``rlcard.make("leduc-holdem")``, one game at a time: ``step`` with a random
  legal action, ``reset`` at the end); OpenSpiel's C++ ``kuhn_poker`` / ``leduc_poker``
  through ``pyspiel`` (``legal_actions``, ``apply_action``, chance sampled with
  ``chance_outcomes``); and cardvec's OpenSpiel adapter ``cardvec_kuhn`` / ``cardvec_leduc``
  (one lane through Python, the same loop: what the adapter costs).
- No-limit hold'em (2 seats, 100 big blinds): cardvec ``holdem``; RLCard
  ``no-limit-holdem``; OpenSpiel ``universal_poker`` (a no-limit game string, ``legal_actions``
  / ``apply_action``); pokerkit (scripts/bench_holdem_pokerkit.py's random hands).
- Engine-only figures where a peer has one: cardvec ``cardvec bench GAME --repeats 3 --json``
  (its random legal driver in Rust, ``with_policy_steps_per_sec`` of the best repeat;
  ``--cardvec-cli``) and PGX's random play inside one jitted ``jax.lax.scan`` (the policy on
  device, nothing back to Python per step; the best of 3 runs).

Each round runs every contender once, in an order that rotates every round; the figure is the
median over rounds of steps per second, and the ratio cardvec / peer is given with its range
over the rounds (each round's own ratio). Results print as a Markdown table (``--json PATH``
also writes them).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_VENV = ROOT / "target" / "race-venv"
PEERS = [
    ("envpool", ["envpool==1.2.5"]),
    ("pgx", ["pgx==2.6.0", "jax[cpu]"]),
    ("rlcard", ["rlcard"]),
    ("open_spiel", ["open-spiel"]),
    ("pokerkit", ["pokerkit"]),
]


def setup(venv: Path, wheel: str | None) -> None:
    """Creates the venv and installs the peers one by one (a failure skips that peer)."""
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    subprocess.run(pip + ["numpy"], check=True)
    if wheel:
        subprocess.run(pip + ["--force-reinstall", "--no-deps", wheel], check=True)
    for name, packages in PEERS:
        done = subprocess.run(pip + packages)
        print(f"{name}: {'installed' if done.returncode == 0 else 'NOT installed (skipped later)'}")


# ---------------------------------------------------------------------------------------
# Contenders: each returns (decisions, seconds) for about `steps` batch steps of `lanes`.


def _choose(rng, mask):
    """A uniformly random legal action per row of a 0/1 mask (numpy, vectorized)."""
    import numpy as np

    scores = rng.random(mask.shape, dtype=np.float32) * mask
    return scores.argmax(axis=1)


def cardvec_batch(game, lanes, steps, threads, seed, **options):
    import numpy as np

    import cardvec

    env = cardvec.make(game, lanes, seed=seed, num_threads=threads, autoreset=True, **options)
    rng = np.random.default_rng(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(steps):
        mask = env.legal_mask
        live = mask.any(axis=1)
        env.step(_choose(rng, mask))
        decisions += int(live.sum())
    return decisions, time.perf_counter() - start


def envpool_batch(game, lanes, steps, threads, seed):
    import envpool
    import numpy as np

    task = {"kuhn": "KuhnPoker-v1", "leduc": "LeducHoldem-v1"}[game]
    env = envpool.make(task, env_type="gymnasium", num_envs=lanes, batch_size=lanes,
                       num_threads=threads, seed=seed)
    _, info = env.reset()
    rng = np.random.default_rng(seed)
    done = np.zeros(lanes, dtype=bool)
    decisions = 0
    start = time.perf_counter()
    for _ in range(steps):
        # EnvPool resets a finished game on the next step (its action ignored): not a decision.
        decisions += lanes - int(done.sum())
        mask = info["legal_action_mask"]
        _, _, terminated, truncated, info = env.step(_choose(rng, mask))
        done = terminated | truncated
    return decisions, time.perf_counter() - start


def _pgx_env(game):
    import jax
    import pgx

    env = pgx.make({"kuhn": "kuhn_poker", "leduc": "leduc_holdem"}[game])
    init = jax.jit(jax.vmap(env.init))

    def step_reset(state, action, key):
        state = env.step(state, action)
        fresh = env.init(key)
        done = state.terminated | state.truncated
        return jax.tree_util.tree_map(lambda a, b: jax.numpy.where(done, a, b), fresh, state)

    return env, init, jax.jit(jax.vmap(step_reset))


def pgx_batch(game, lanes, steps, threads, seed):
    import jax
    import numpy as np

    _, init, step = _pgx_env(game)
    key = jax.random.PRNGKey(seed)
    state = init(jax.random.split(key, lanes))
    rng = np.random.default_rng(seed)
    keys = jax.random.split(jax.random.PRNGKey(seed + 1), lanes)
    # Compile outside the clock.
    state = step(state, jax.numpy.asarray(_choose(rng, np.asarray(state.legal_action_mask))), keys)
    decisions = 0
    start = time.perf_counter()
    for _ in range(steps):
        mask = np.asarray(state.legal_action_mask)
        state = step(state, jax.numpy.asarray(_choose(rng, mask)), keys)
        decisions += lanes
    state.legal_action_mask.block_until_ready()
    return decisions, time.perf_counter() - start


def pgx_engine(game, lanes, steps, threads, seed):
    import jax

    _, init, step = _pgx_env(game)
    key = jax.random.PRNGKey(seed)
    state = init(jax.random.split(key, lanes))
    keys = jax.random.split(jax.random.PRNGKey(seed + 1), lanes)

    @jax.jit
    def run(state, key):
        def body(carry, _):
            state, key = carry
            key, sub = jax.random.split(key)
            logits = jax.numpy.where(state.legal_action_mask, 0.0, -jax.numpy.inf)
            action = jax.random.categorical(sub, logits)
            return (step(state, action, keys), key), None

        (state, _), _ = jax.lax.scan(body, (state, key), None, length=steps)
        return state

    run(state, key).legal_action_mask.block_until_ready()  # compile
    best = float("inf")
    for _ in range(3):  # the best of 3, as cardvec bench --repeats 3
        start = time.perf_counter()
        run(state, key).legal_action_mask.block_until_ready()
        best = min(best, time.perf_counter() - start)
    return lanes * steps, best


def rlcard_loop(game, lanes, steps, threads, seed):
    import random

    import rlcard

    env = rlcard.make({"kuhn": None, "leduc": "leduc-holdem", "holdem": "no-limit-holdem"}[game],
                      config={"seed": seed})
    rng = random.Random(seed)
    state, _ = env.reset()
    total = lanes * steps
    start = time.perf_counter()
    for _ in range(total):
        state, _ = env.step(rng.choice(list(state["legal_actions"])))
        if env.is_over():
            state, _ = env.reset()
    return total, time.perf_counter() - start


UNIVERSAL_NLHE = (
    "universal_poker(betting=nolimit,numPlayers=2,numRounds=4,blind=1 2,firstPlayer=2 1 1 1,"
    "numSuits=4,numRanks=13,numHoleCards=2,numBoardCards=0 3 1 1,stack=200 200)"
)


def openspiel_loop(game, lanes, steps, threads, seed):
    import random

    import pyspiel

    if game.startswith("cardvec_"):
        import cardvec.openspiel  # noqa: F401  (registers the adapter's games)
    name = {"kuhn": "kuhn_poker", "leduc": "leduc_poker", "holdem": UNIVERSAL_NLHE}.get(game, game)
    spiel = pyspiel.load_game(name)
    rng = random.Random(seed)
    total = lanes * steps
    done = 0
    start = time.perf_counter()
    state = spiel.new_initial_state()
    while done < total:
        if state.is_terminal():
            state = spiel.new_initial_state()
        elif state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return total, time.perf_counter() - start


def pokerkit_loop(game, lanes, steps, threads, seed):
    sys.path.insert(0, str(ROOT / "scripts"))
    import random

    import bench_holdem_pokerkit as pk

    rng = random.Random(seed)
    total = lanes * steps
    done = 0
    start = time.perf_counter()
    while done < total:
        done += pk.random_hand(2, rng)
    return done, time.perf_counter() - start


def cardvec_engine(game, lanes, steps, threads, seed, cli=None):
    out = subprocess.run(
        [cli, "bench", game, "--envs", str(lanes), "--steps", str(steps), "--threads",
         str(threads), "--seed", str(seed), "--repeats", "3", "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    report = json.loads(out)
    mode = next(m for m in report["modes"] if m["mode"] == "step+mask")
    # The engine with its own random legal policy in Rust (decisions per second).
    return mode["with_policy_steps_per_sec"], 1.0


# (race, label, function, kind, args); kind: "python" (Python-driven) or "engine".
def contenders(args):
    peers = []
    for game in ("kuhn", "leduc"):
        peers += [
            (game, "cardvec", cardvec_batch, "python", (game,)),
            (game, "EnvPool 1.2.5 (native C++)", envpool_batch, "python", (game,)),
            (game, "PGX 2.6.0 (JAX CPU)", pgx_batch, "python", (game,)),
            (game, "OpenSpiel C++ (pyspiel)", openspiel_loop, "python", (game,)),
            (game, "cardvec OpenSpiel adapter (one lane)", openspiel_loop, "python",
             ("cardvec_" + game,)),
            (game, "PGX 2.6.0 (jax.lax.scan)", pgx_engine, "engine", (game,)),
        ]
        if game == "leduc":
            peers.append((game, "RLCard", rlcard_loop, "python", (game,)))
        if args.cardvec_cli:
            peers.append((game, "cardvec (cardvec bench)", cardvec_engine, "engine", (game,)))
    peers += [
        ("holdem", "cardvec", cardvec_batch, "python", ("holdem",)),
        ("holdem", "RLCard", rlcard_loop, "python", ("holdem",)),
        ("holdem", "OpenSpiel universal_poker", openspiel_loop, "python", ("holdem",)),
        ("holdem", "pokerkit", pokerkit_loop, "python", ("holdem",)),
    ]
    if args.cardvec_cli:
        peers.append(("holdem", "cardvec (cardvec bench)", cardvec_engine, "engine", ("holdem",)))
    return peers


def run(args) -> None:
    import importlib

    if args.threads == 1:
        # JAX (PGX) on one thread, as the others.
        os.environ["XLA_FLAGS"] = (
            "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1 "
            + os.environ.get("XLA_FLAGS", "")
        )

    import numpy as np

    available = {}
    for module in ("cardvec", "envpool", "pgx", "rlcard", "pyspiel", "pokerkit"):
        try:
            importlib.import_module(module)
            available[module] = True
        except Exception as e:  # a missing or broken wheel: the peer is skipped
            available[module] = False
            print(f"skipped: {module} cannot be imported ({type(e).__name__}: {e})")
    needs = {cardvec_batch: "cardvec", envpool_batch: "envpool", pgx_batch: "pgx",
             pgx_engine: "pgx", rlcard_loop: "rlcard", openspiel_loop: "pyspiel",
             pokerkit_loop: "pokerkit", cardvec_engine: "cardvec"}
    peers = [p for p in contenders(args) if available[needs[p[2]]]]
    # The sequential loops (RLCard, OpenSpiel, pokerkit, the adapter) step one game at a
    # time: they play `loop_fraction` of the batch's decisions, enough for a stable rate.
    rates: dict[tuple[str, str, str], list[float]] = {}
    # Round 0 warms up (imports, JIT compilation, caches) and is not counted.
    for r in range(-1, args.rounds):
        shift = r % len(peers)
        order = peers[shift:] + peers[:shift]
        for race, label, fn, kind, fargs in order:
            steps = args.steps
            lanes = args.lanes
            kwargs = {}
            if fn in (rlcard_loop, openspiel_loop, pokerkit_loop):
                lanes = max(1, int(args.lanes * args.loop_fraction))
            if fn is cardvec_engine:
                kwargs["cli"] = args.cardvec_cli
            try:
                decisions, seconds = fn(*fargs, lanes, steps, args.threads, args.seed + r + 1, **kwargs)
            except Exception as e:
                print(f"skipped: {race} {label}: {type(e).__name__}: {e}")
                peers = [p for p in peers if p[1] != label or p[0] != race]
                continue
            if r >= 0:
                rates.setdefault((race, label, kind), []).append(decisions / seconds)
        print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    rows = []
    for race in ("kuhn", "leduc", "holdem"):
        for (rc, label, kind), values in rates.items():
            if rc != race:
                continue
            # The ratio against cardvec's figure of the same kind.
            mine = "cardvec" if kind == "python" else "cardvec (cardvec bench)"
            base = rates.get((race, mine, kind))
            median = statistics.median(values)
            ratio = ""
            if base and label != mine and len(base) == len(values):
                per_round = [b / v for b, v in zip(base, values)]
                ratio = f"{statistics.median(per_round):.1f}× ({min(per_round):.1f}–{max(per_round):.1f})"
            rows.append((race, label, kind, median, ratio, values))
    print(f"\nmachine: {_cpu_name()}, {os.cpu_count()} CPUs; "
          f"lanes {args.lanes}, steps {args.steps}, threads {args.threads}, rounds {args.rounds}, "
          f"sequential loops {args.loop_fraction} of the batch's decisions")
    print("\n| game | contender | figure | decisions/s (median) | cardvec ÷ it, same figure (range over rounds) |")
    print("| --- | --- | --- | ---: | --- |")
    for race, label, kind, median, ratio, _ in rows:
        what = "Python-driven" if kind == "python" else "engine only"
        print(f"| {race} | {label} | {what} | {median:,.0f} | {ratio} |")
    if args.json:
        Path(args.json).write_text(json.dumps(
            [{"game": r[0], "contender": r[1], "kind": r[2], "rates": r[5]} for r in rows], indent=1))
    del np


def _cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setup", action="store_true", help="create the venv and install the peers")
    parser.add_argument("--wheel", help="the cardvec wheel to install in the venv (--setup)")
    parser.add_argument("--venv", default=str(DEFAULT_VENV))
    parser.add_argument("--lanes", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=200, help="batch steps per measurement")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--loop-fraction", type=float, default=0.05,
                        help="share of the batch's decisions the one-game loops play")
    parser.add_argument("--cardvec-cli", help="the cardvec binary, for the engine-only figure")
    parser.add_argument("--json", help="also write the rates per round here")
    parser.add_argument("--here", action="store_true", help="run in this interpreter (no venv)")
    args = parser.parse_args()
    venv = Path(args.venv)
    if args.setup:
        setup(venv, args.wheel)
        return
    python = venv / "bin" / "python"
    if not args.here and Path(sys.prefix).resolve() != venv.resolve():
        if not python.exists():
            sys.exit(f"no venv at {venv}: run python scripts/race.py --setup --wheel WHEEL first")
        os.execv(str(python), [str(python), __file__, *sys.argv[1:]])
    run(args)


if __name__ == "__main__":
    main()
