"""Shared pytest hooks: the terminal summary of the conformance suite
(test_conformance.py), listing every game and configuration it covered with the outcome
of its tests, so that a run shows what it checked (and what it skipped)."""

import collections

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
