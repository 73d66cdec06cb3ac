"""scripts/ismcts_vs_openspiel.py at a tiny size (``--small``): OpenSpiel's IS-MCTS bots and
cardvec's ``ismcts`` searched the same positions, each row's rate positive and its ratio
cardvec's rate over the row's; a bad game name is refused. The figures themselves come
from the documented command (docs/search.md, "OpenSpiel's IS-MCTS side by side")."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel)")

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "ismcts_vs_openspiel.py"


def _run(*args):
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=300
    )


def test_tiny_run_gives_every_bot_a_rate_and_a_ratio():
    done = _run("--small", "--games", "kuhn,151", "--json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    by = {(r["game"], r["bot"]): r for r in rows}
    assert set(by) == {
        ("kuhn", "openspiel-cpp"),
        ("kuhn", "openspiel-py (kuhn_poker)"),
        ("kuhn", "openspiel-py (cardvec_kuhn)"),
        ("kuhn", "cardvec"),
        ("151", "openspiel-py (cardvec_151)"),
        ("151", "cardvec"),
    }
    for (game, _), r in by.items():
        assert r["sims_per_cpu_s"] > 0 and r["decisions"] == 2
        mine = by[(game, "cardvec")]["sims_per_cpu_s"]
        assert r["cardvec_over_this"] == pytest.approx(mine / r["sims_per_cpu_s"])
    assert by[("kuhn", "cardvec")]["cardvec_over_this"] == pytest.approx(1.0)


def test_text_output_names_the_command_and_the_machine():
    done = _run("--small", "--games", "kuhn")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("python ") and "--small" in lines[0]
    assert "logical CPUs" in lines[1] and "load average" in lines[1]
    assert "| `kuhn` | cardvec | 20 | 2 |" in done.stdout


def test_unknown_game_is_refused():
    done = _run("--small", "--games", "kuhn,go")
    assert done.returncode != 0 and "unknown game" in done.stderr
