"""Kuhn poker and Leduc hold'em checked step by step against OpenSpiel (``kuhn_poker``,
``leduc_poker``, the oracle: ``pip install open-spiel``).

For every chance outcome (every deal; for Leduc every pair of private cards and every
public card) random playthroughs are played on a one-lane cardvec environment dealt with
``reset_lane_from_order`` and on OpenSpiel fed the same chance outcomes, comparing after
every step: the current player, the legal actions, the terminal flag, the returns, and
for both seats the information state: OpenSpiel's ``information_state_tensor`` against
cardvec's observation (the same tensor), and OpenSpiel's ``information_state_string``
against the string built from cardvec's observation by ``kuhn_info_state_string`` /
``leduc_info_state_string`` (docs/kuhn.md, docs/leduc.md). The comparison lives in
``cardvec.oracles.openspiel`` (the campaign ``oracle`` kind runs it over seed ranges).
"""

import collections
import random

import numpy as np
import pytest

import cardvec

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel) is the oracle")

PLAYTHROUGHS = 12

from cardvec.oracles import openspiel  # noqa: E402  (the comparison, shared with cardvec.campaign)


def _compare(game_id, order, rng):
    return openspiel.compare(game_id, order, rng)


def test_kuhn_matches_openspiel_over_every_deal():
    rng = random.Random(15)
    steps = 0
    histories = set()
    for c0 in range(3):
        for c1 in range(3):
            if c1 != c0:
                for _ in range(PLAYTHROUGHS):
                    n, history, _ = _compare("kuhn", [c0, c1], rng)
                    steps += n
                    histories.add(history.split(", ", 2)[-1])
    assert steps > 6 * PLAYTHROUGHS * 2
    # Every terminal history was played (pp, bp, bb, pbp, pbb).
    assert len(histories) == 5, histories


def test_leduc_matches_openspiel_over_every_deal_and_public_card():
    rng = random.Random(16)
    deals = 0
    endings = collections.Counter()
    for c0 in range(6):
        for c1 in range(6):
            for public in range(6):
                if len({c0, c1, public}) == 3:
                    for _ in range(PLAYTHROUGHS):
                        _, history, dealt = _compare("leduc", [c0, c1, public], rng)
                        actions = [int(a) for a in history.split(", ")]
                        shown = dealt == 3
                        folded = actions[-1] == 0
                        tied = c0 // 2 == c1 // 2
                        endings[(shown, folded, tied and not folded)] += 1
                    deals += 1
    assert deals == 120
    # Folds in both rounds, showdowns won and split were all played.
    for ending in [(False, True, False), (True, True, False), (True, False, False)]:
        assert endings[ending] > 50, endings
    assert endings[(True, False, True)] > 5, endings


def test_every_kuhn_history_pays_as_openspiel():
    """Every terminal history of every deal (not only random ones)."""
    game = pyspiel.load_game("kuhn_poker")
    for c0 in range(3):
        for c1 in [c for c in range(3) if c != c0]:
            for history in ([0, 0], [1, 0], [1, 1], [0, 1, 0], [0, 1, 1]):
                env = cardvec.make("kuhn", 1, seed=0)
                env.reset_lane_from_order(0, np.array([c0, c1], dtype=np.uint8))
                state = game.new_initial_state()
                state.apply_action(c0)
                state.apply_action(c1)
                for a in history:
                    env.step(np.array([a], dtype=np.int64))
                    state.apply_action(a)
                assert state.is_terminal() and env.terminated[0]
                assert list(env.rewards[0]) == state.returns()
