"""No-limit hold'em against pokerkit 0.7 (see holdem_pokerkit_oracle.py).

`HOLDEM_POKERKIT_HANDS` (default 20000) random hands over 2, 3, 6 and 10 seats with random
stacks (a third of them short), blinds and antes, replayed in pokerkit with the same cards
and actions and compared at every decision (actor, legal fold/check/call/raise, call amount,
min and max raise-to) and at the end (every pot of a showdown, every final stack);
`HOLDEM_POKERKIT_JOBS` processes (default 2).
"""
import os

import pytest

import pokerkit  # noqa: F401  (installed by scripts/test.sh; a missing oracle is a failure, not a skip)

import holdem_pokerkit_oracle as oracle

HANDS = int(os.environ.get("HOLDEM_POKERKIT_HANDS", "20000"))
JOBS = int(os.environ.get("HOLDEM_POKERKIT_JOBS", "2"))


@pytest.fixture(scope="module")
def binary():
    return oracle.cardvec_bin()


def test_every_decision_pot_and_stack_matches_pokerkit(binary):
    report = oracle.run(HANDS, seed=0, jobs=JOBS, binary=binary)
    assert report.mismatches == []
    assert report.hands == HANDS
    assert set(report.by_seats) == {2, 3, 6, 10}
    # The random stacks make side pots and closed betting common, not rare.
    assert report.decisions > 5 * HANDS
    assert report.side_pot_hands > HANDS // 10
    assert report.raise_closed_with_chips > HANDS // 10
    # pokerkit's merged-pot odd chip (module docstring) stays a rare, explained exception.
    assert report.merged_pot_odd_chip < HANDS // 100


def test_a_wrong_cardvec_answer_is_caught(binary):
    """The replay is not vacuous: corrupting one recorded number makes it fail."""
    import json
    import subprocess

    out = subprocess.run([binary, "trace", "holdem", "--hands", "40", "--seed", "7"],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert oracle.replay(out).mismatches == []
    for key in ("call", "min", "max"):
        bad = []
        for line in out:
            h = json.loads(line)
            for d in h["decisions"]:
                if d["raise"]:
                    d[key] += 1
                    break
            bad.append(json.dumps(h))
        assert oracle.replay(bad).mismatches, key
    h = json.loads(out[0])
    h["final"][0] += 1
    h["final"][1] -= 1
    assert oracle.replay([json.dumps(h)]).mismatches
