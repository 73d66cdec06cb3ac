"""Shared pytest hooks: the `slow` marker of the quick test run (`bash scripts/test.sh
--quick` runs `pytest -m "not slow"`), and the terminal summary of the conformance suite
(test_conformance.py), listing every game and configuration it covered with the outcome
of its tests, so that a run shows what it checked (and what it skipped)."""

import collections
import pathlib

import pytest

# Modules left out of the quick run: the long comparisons with external engines, Ray
# campaigns, PyTorch / PufferLib, the examples that learn and the browser. The full run
# (scripts/test.sh, CI) runs them all.
SLOW_MODULES = frozenset(
    {
        "test_campaign.py",
        "test_examples.py",
        "test_flip7_oracle.py",
        "test_holdem_pokerkit.py",
        "test_i151_oracle.py",
        "test_kuhn_leduc_openspiel.py",
        "test_openspiel_algorithms.py",
        "test_openspiel_games.py",
        "test_policy_file.py",
        "test_puffer.py",
        "test_race_script.py",
        "test_solve_openspiel.py",
        "test_torch.py",
        "test_web_table.py",
    }
)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: left out of the quick run (scripts/test.sh --quick: -m 'not slow')"
    )


def pytest_collection_modifyitems(config, items):
    here = pathlib.Path(__file__).parent
    missing = sorted(m for m in SLOW_MODULES if not (here / m).exists())
    if missing:
        raise pytest.UsageError(f"conftest.SLOW_MODULES names missing test modules: {missing}")
    for item in items:
        if item.path.name in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)

_CONFORMANCE = collections.defaultdict(collections.Counter)


def pytest_runtest_logreport(report):
    if "test_conformance.py::" not in report.nodeid:
        return
    if report.when == "call" or (report.when == "setup" and report.outcome != "passed"):
        name = report.nodeid.split("::", 1)[1]
        case = name[name.index("[") + 1 : -1] if "[" in name else "(all)"
        _CONFORMANCE[case][report.outcome] += 1


def pytest_terminal_summary(terminalreporter):
    if not _CONFORMANCE:
        return
    terminalreporter.section("conformance coverage")
    for case in sorted(_CONFORMANCE):
        counts = _CONFORMANCE[case]
        text = ", ".join(f"{counts[k]} {k}" for k in ("passed", "failed", "skipped") if counts[k])
        terminalreporter.write_line(f"{case}: {text}")
