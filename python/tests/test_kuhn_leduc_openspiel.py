"""Kuhn poker and Leduc hold'em checked step by step against OpenSpiel (``kuhn_poker``,
``leduc_poker``, the oracle: ``pip install open-spiel``).

For every chance outcome (every deal; for Leduc every pair of private cards and every
public card) random playthroughs are played on a one-lane cardvec environment dealt with
``reset_lane_from_order`` and on OpenSpiel fed the same chance outcomes, comparing after
every step: the current player, the legal actions, the terminal flag, the returns, and
for both seats the information state: OpenSpiel's ``information_state_tensor`` against
cardvec's observation (the same tensor), and OpenSpiel's ``information_state_string``
against the string built from cardvec's observation by :func:`kuhn_info_state_string` /
:func:`leduc_info_state_string` (docs/kuhn.md, docs/leduc.md).
"""

import collections
import random

import numpy as np
import pytest

import cardvec

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel) is the oracle")

PLAYTHROUGHS = 12


def kuhn_info_state_string(obs) -> str:
    """OpenSpiel's kuhn_poker information-state string from a cardvec Kuhn observation
    (11 floats): the card id, then ``p`` (pass) or ``b`` (bet) per action."""
    card = int(np.argmax(obs[2:5]))
    history = ""
    for slot in range(3):
        bits = obs[5 + 2 * slot : 7 + 2 * slot]
        if bits[0]:
            history += "p"
        elif bits[1]:
            history += "b"
    return f"{card}{history}"


def _leduc_sequences(obs):
    """The betting of each round as OpenSpiel's action ids (call 1, raise 2), from the
    observation (a fold, the last action of a hand, shows as ``00``)."""
    seqs = []
    for r in range(2):
        seq = []
        for i in range(4):
            at = 14 + 8 * r + 2 * i
            if obs[at]:
                seq.append(1)
            elif obs[at + 1]:
                seq.append(2)
        seqs.append(seq)
    return seqs


def _closed(seq) -> bool:
    """Whether a round's betting is closed: two checks, or a raise called."""
    if 2 in seq:
        return bool(seq) and seq[-1] == 1
    return len(seq) == 2


def leduc_info_state_string(obs, current_player: int, returns=None) -> str:
    """OpenSpiel's leduc_poker information-state string from a cardvec Leduc observation
    (30 floats), the seat cardvec shows to act (after the end: the seat whose action ended
    the hand) and, once the hand is over, the returns. Pot and money follow from the
    betting (ante 1, raises 2 and 4, starting money 100); a fold, which the tensor does not
    show, is the last action of a hand that ended with its round's betting open."""
    observer = int(np.argmax(obs[0:2]))
    private = int(np.argmax(obs[2:8]))
    public = int(np.argmax(obs[8:14])) if obs[8:14].any() else None
    seqs = _leduc_sequences(obs)
    contributed = [1, 1]
    level = 1
    for r, seq in enumerate(seqs):
        seat = 0
        for a in seq:
            if a == 2:
                level += (2, 4)[r]
            contributed[seat] = level
            seat ^= 1
    round_ = 2 if public is not None else 1
    if returns is not None:
        if not (round_ == 2 and _closed(seqs[1])):
            seqs[round_ - 1].append(0)
        pot = 0
        money = [int(100 + r) for r in returns]
    else:
        pot = sum(contributed)
        money = [100 - c for c in contributed]
    text = (
        f"[Observer: {observer}][Private: {private}][Round {round_}][Player: {current_player}]"
        f"[Pot: {pot}][Money: {money[0]} {money[1]}]"
    )
    if public is not None:
        text += f"[Public: {public}]"
    round1 = " ".join(map(str, seqs[0]))
    round2 = " ".join(map(str, seqs[1]))
    return text + f"[Round1: {round1}][Round2: {round2}]"


def _compare(game_id, spiel_name, order, rng, to_string):
    env = cardvec.make(game_id, 1, seed=0)
    env.reset_lane_from_order(0, np.array(order, dtype=np.uint8))
    game = pyspiel.load_game(spiel_name)
    state = game.new_initial_state()
    chance = list(order)
    returns = None
    steps = 0
    while True:
        while state.is_chance_node():
            outcome = chance.pop(0)
            assert outcome in [o for o, _ in state.chance_outcomes()]
            state.apply_action(outcome)
        terminal = state.is_terminal()
        assert bool(env.terminated[0]) == terminal, (order, steps)
        assert not env.truncated[0]
        if terminal:
            returns = [float(r) for r in env.rewards[0]]
            assert returns == state.returns(), (order, state.history())
        else:
            assert int(env.current_player[0]) == state.current_player()
            legal = [int(a) for a in np.flatnonzero(env.legal_mask[0])]
            assert legal == state.legal_actions(), (order, state.history())
        for seat in range(2):
            obs = env.observe_as(0, seat)
            np.testing.assert_array_equal(obs, np.array(state.information_state_tensor(seat)))
            text = to_string(obs, int(env.current_player[0]), returns)
            assert text == state.information_state_string(seat), (order, state.history())
        if terminal:
            assert not env.legal_mask[0].any()
            # Steps, the history, and how many chance outcomes were dealt.
            return steps, state.history_str(), len(order) - len(chance)
        action = rng.choice(state.legal_actions())
        env.step(np.array([action], dtype=np.int64))
        assert env.illegal[0] == 0
        state.apply_action(action)
        steps += 1


def test_kuhn_matches_openspiel_over_every_deal():
    rng = random.Random(15)
    steps = 0
    histories = set()
    for c0 in range(3):
        for c1 in range(3):
            if c1 != c0:
                for _ in range(PLAYTHROUGHS):
                    n, history, _ = _compare(
                        "kuhn",
                        "kuhn_poker",
                        [c0, c1],
                        rng,
                        lambda obs, _p, _r: kuhn_info_state_string(obs),
                    )
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
                        _, history, dealt = _compare(
                            "leduc", "leduc_poker", [c0, c1, public], rng, leduc_info_state_string
                        )
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
