"""The examples that learn (examples/ppo_*.py) run end to end at a tiny size and write their
outputs. Learning itself is not asserted (a threshold at this size would be noise); the
full-size figures are in docs/python.md. Skipped without PyTorch or matplotlib."""

import json
import os
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch", reason="PyTorch is not installed (pip install torch)")
pytest.importorskip("matplotlib", reason="matplotlib is not installed")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")
TINY = ["--minutes", "30", "--max-updates", "2", "--envs", "12", "--steps", "8",
        "--eval-games", "24", "--curve-games", "6", "--eval-every-updates", "1", "--seed", "3"]


@pytest.mark.parametrize(
    "script,opponents",
    [
        ("ppo_lost_cities.py", ["random", "safe-heuristic"]),
        ("ppo_flip7.py", ["random+random", "threshold-27+expected-value",
                          "expected-value+expected-value"]),
    ],
)
def test_example_runs_and_writes_its_outputs(tmp_path, script, opponents):
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, script), *TINY, "--out", str(out)],
        capture_output=True, text=True, timeout=600,
        env={**os.environ, "MPLBACKEND": "Agg"},
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "learner steps/s" in proc.stdout and "env share" in proc.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert list(summary["final"]) == opponents
    for name, r in summary["final"].items():
        assert r["games"] == 24, name
        assert 0.0 <= r["ci95"][0] <= r["win_rate"] <= r["ci95"][1] <= 1.0, name
        assert f"vs {name}" in proc.stdout
    perf = summary["throughput"]
    assert perf["updates"] == 2 and perf["learner_steps"] == 2 * 12 * 8
    assert 0.0 < perf["env_share"] < 1.0 and perf["learner_steps_per_s"] > 0
    assert len(summary["history"]) == 2 and len(summary["evals"]) == 2
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    saved = torch.load(out / "model.pt", weights_only=False)
    assert saved["game_id"] == summary["game"] and "agent" in saved and "norm" in saved
