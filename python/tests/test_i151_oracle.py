"""151 against the official engine i151-engine 0.2.4 (see i151_oracle.py).

`I151_ORACLE_MATCHES` (default 1000; `scripts/test.sh --long`: 20,000) matches of 2, 3
and 4 players in turn, each from its own seed, compared at every decision;
`I151_ORACLE_JOBS` processes (default 2).
"""
import os

import pytest

import i151_engine  # noqa: E402,F401  (installed by scripts/test.sh; a missing oracle is a failure, not a skip)

import i151_oracle  # noqa: E402

MATCHES = int(os.environ.get("I151_ORACLE_MATCHES", "1000"))
JOBS = int(os.environ.get("I151_ORACLE_JOBS", "2"))


@pytest.fixture(scope="module")
def binary():
    return i151_oracle.cardvec_bin()


def test_every_decision_matches_the_official_engine(binary):
    report = i151_oracle.run(MATCHES, seed=0, jobs=JOBS, binary=binary)
    assert report.mismatches == []
    assert report.matches == MATCHES
    assert set(report.players) == {2, 3, 4}
    assert report.decisions > 50 * MATCHES


def test_queen_refill_defect_is_the_only_difference(binary):
    """Without the correction, 0.2.4 diverges exactly where the 2-player Queen draw
    refilled the bank (the played pile stays and cards are duplicated)."""
    fixed = i151_oracle.run(60, seed=0, jobs=1, binary=binary)
    raw = i151_oracle.run(60, seed=0, jobs=1, binary=binary, fix=False)
    assert fixed.mismatches == [] and fixed.defect_refills > 0
    assert raw.mismatches and all(m["what"].startswith("pile:") for m in raw.mismatches)
    assert sorted(m["seed"] for m in raw.mismatches) == sorted(fixed.defect_seeds)


def test_deals_match_random_shuffle_for_many_seeds():
    """Each round's deck is `random.Random(seed + round).shuffle(standard_deck())`;
    cardvec's committed expectations come from the same call."""
    import random

    from i151_engine.models.card import standard_deck

    deck = standard_deck()
    index = {c: i for i, c in enumerate(deck)}
    path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "i151_python_shuffles.txt")
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            seed, order = line.split(";")[:2]
            d = standard_deck()
            random.Random(int(seed)).shuffle(d)
            assert [index[c] for c in d] == [int(x) for x in order.split()]


def test_python_binding_lanes_play_the_official_matches():
    """The `cardvec.i151` batch environment, each lane set to an official match with
    `official_order(seed)`, stepped with random legal actions: at every step the same seat
    to act, the same legal set, the same hand in the observation of every seat, rewards
    equal to minus the official score changes, and the same match ends."""
    np = pytest.importorskip("numpy")
    cardvec = pytest.importorskip("cardvec")
    from i151_engine.game.round import create_match

    from cardvec.i151 import I151, official_order

    rng = np.random.default_rng(0)
    lanes = 40
    for players in (2, 3, 4):
        env = I151(lanes, num_players=players, num_threads=1)
        seeds = [1000 * players + i for i in range(lanes)]
        for lane, seed in enumerate(seeds):
            env.reset_lane_from_order(lane, official_order(seed))
        env.observe()
        matches = [create_match(tuple(f"P{i}" for i in range(players)), seed=s) for s in seeds]
        _, steps = i151_oracle.lockstep(env, matches, rng)
        assert steps > 100
