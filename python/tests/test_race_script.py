"""scripts/race.py at a tiny size in this interpreter (``--here``: no venv, no network): the
peers that are not installed are skipped with a message, the others and cardvec give a row
each, and the ratios are cardvec's rate over the peer's of the same round. The race itself
(the peers' venv, the figures) is a documented command: docs/performance.md, "The race"."""

import json
import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "race.py"


def test_race_runs_tiny_and_skips_missing_peers(tmp_path):
    out = tmp_path / "race.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--here", "--lanes", "8", "--steps", "4", "--rounds", "2",
         "--loop-fraction", "0.5", "--json", str(out)],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    text = done.stdout
    rows = json.loads(out.read_text())
    by = {(r["game"], r["contender"]): r for r in rows}
    for game in ("kuhn", "leduc", "holdem"):
        mine = by[(game, "cardvec")]
        assert mine["kind"] == "python" and len(mine["rates"]) == 2
        assert all(rate > 0 for rate in mine["rates"])
        assert re.search(rf"\| {game} \| cardvec \| Python-driven \| [\d,]+ \|", text)
    for module in ("envpool", "pgx", "rlcard", "pyspiel", "pokerkit"):
        try:
            __import__(module)
        except ImportError:
            assert f"skipped: {module} cannot be imported" in text
    if "pyspiel" in sys.modules or _importable("pyspiel"):
        peer = by[("leduc", "OpenSpiel C++ (pyspiel)")]
        ratios = [m / p for m, p in zip(by[("leduc", "cardvec")]["rates"], peer["rates"])]
        line = next(l for l in text.splitlines() if "| leduc | OpenSpiel C++ (pyspiel) |" in l)
        assert f"{sorted(ratios)[0]:.1f}" in line and f"{sorted(ratios)[-1]:.1f}" in line


def _importable(module):
    try:
        __import__(module)
        return True
    except ImportError:
        return False


def test_race_without_its_venv_says_how_to_make_it(tmp_path):
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--venv", str(tmp_path / "none")],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode != 0
    assert "--setup" in done.stderr
