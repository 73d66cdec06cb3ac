"""No-limit hold'em against pokerkit 0.7 (see holdem_pokerkit_oracle.py).

`HOLDEM_POKERKIT_HANDS` (default 6000; `scripts/test.sh --long`: 100,000) random hands over
2, 3, 6 and 10 seats with random stacks (a third of them short), blinds and antes, replayed
in pokerkit with the same cards and actions and compared at every decision (actor, legal
fold/check/call/raise, call amount, min and max raise-to) and at the end (every pot of a
showdown, every final stack); `HOLDEM_POKERKIT_JOBS` processes (default 2). Hands decided at
the deal (nobody has a decision): `HOLDEM_POKERKIT_DEALS` (default 1000) deals of each table
of `oracle.DEAL_TABLES` through the Python bindings, played out in pokerkit.
"""
import os

import pytest

import pokerkit  # noqa: F401  (installed by scripts/test.sh; a missing oracle is a failure, not a skip)

import holdem_pokerkit_oracle as oracle

HANDS = int(os.environ.get("HOLDEM_POKERKIT_HANDS", "6000"))
JOBS = int(os.environ.get("HOLDEM_POKERKIT_JOBS", "2"))


@pytest.fixture(scope="module")
def binary():
    return oracle.cardvec_bin()


def test_every_decision_pot_and_stack_matches_pokerkit(binary):
    report = oracle.run(HANDS, seed=0, jobs=JOBS, binary=binary)
    assert report.mismatches == []
    assert report.hands == HANDS
    assert set(report.by_seats) == {2, 3, 6, 10}
    # The random stacks make side pots and closed betting common, not rare, and deal hands
    # decided at the deal (nobody has a decision).
    assert report.decided_at_deal > HANDS // 100
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


DEALS = int(os.environ.get("HOLDEM_POKERKIT_DEALS", "1000"))


def test_hands_decided_at_the_deal_pay_as_in_pokerkit():
    """The tables of oracle.DEAL_TABLES (antes above the stacks, heads-up blinds above the
    stacks, the one seat with chips facing no bet, seats all-in from the forced bets beside
    seats with or without a decision), DEALS deals each through the batch environment (every
    button, explicit deals, results from the rewards) and NoLimitHoldemGame (results from
    its stacks and rewards): pokerkit asks for a decision exactly when cardvec does, from the
    same seat, and pays the decided hands the same chips."""
    report = oracle.run_deals(DEALS, seed=0)
    assert report.mismatches == []
    assert report.deals == DEALS * len(oracle.DEAL_TABLES)
    for name, (deals, decided) in report.by_table.items():
        assert deals == DEALS and decided > 0, name
    always = [name for name, _ in oracle.DEAL_TABLES[:3]]
    for name in always:
        assert report.by_table[name] == [DEALS, DEALS], name
    assert report.live > DEALS  # the mixed tables deal hands with a decision too
    assert report.merged_pot_odd_chip < report.decided // 100 + 1


def test_a_wrong_payout_at_the_deal_is_caught():
    """compare_deal is not vacuous: a chip moved, or a decision cardvec would have missed
    or invented, is a mismatch."""
    table = dict(ante=0, small_blind=1, big_blind=2, stacks=[1, 1000])
    holes, board = ["AsAd", "KcKd"], "2c7d9hJs3c"
    good = oracle.DealReport()
    oracle.compare_deal(good, "t", table, 0, holes, board, None, [2, 999])
    assert good.mismatches == [] and good.decided == 1
    for actor, final in ((None, [1, 1000]), (None, [3, 998]), (1, None)):
        bad = oracle.DealReport()
        oracle.compare_deal(bad, "t", table, 0, holes, board, actor, final)
        assert bad.mismatches, (actor, final)
    live = dict(ante=0, small_blind=1, big_blind=2, stacks=[100, 100])
    bad = oracle.DealReport()
    oracle.compare_deal(bad, "t", live, 0, holes, board, None, [102, 98])
    assert bad.mismatches
