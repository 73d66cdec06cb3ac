"""Kuhn poker and Leduc hold'em checked step by step against OpenSpiel (``kuhn_poker``,
``leduc_poker``; ``pip install open-spiel``).

A playthrough is played on a one-lane cardvec environment dealt with
``reset_lane_from_order`` and on OpenSpiel fed the same chance outcomes, comparing after
every step: the current player, the legal actions, the terminal flag, the returns, and for
both seats the information state: OpenSpiel's ``information_state_tensor`` against
cardvec's observation (the same tensor), and OpenSpiel's ``information_state_string``
against the string built from cardvec's observation by :func:`kuhn_info_state_string` /
:func:`leduc_info_state_string` (docs/kuhn.md, docs/leduc.md).

``replay_range(game_id, seed, first, count)`` plays the games ``first..first + count`` of a
run: game ``g`` deals its chance outcomes (Kuhn: two distinct cards of 3; Leduc: two
private cards and the public card, distinct, of 6) and chooses its uniformly random
actions from ``random.Random(f"{game_id}/{seed}/{g}")``, so a game depends only on its
seed and index (``python/tests/test_kuhn_leduc_openspiel.py`` and ``cardvec.campaign``'s
``oracle`` kind).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from . import require

require("kuhn")

import pyspiel  # noqa: E402

import cardvec  # noqa: E402

#: cardvec game id -> (OpenSpiel game name, cards in the deck, chance outcomes dealt).
GAMES: dict[str, tuple[str, int, int]] = {"kuhn": ("kuhn_poker", 3, 2), "leduc": ("leduc_poker", 6, 3)}


def kuhn_info_state_string(obs: Any, current_player: int = 0, returns: Any = None) -> str:
    """OpenSpiel's kuhn_poker information-state string from a cardvec Kuhn observation
    (11 floats): the card id, then ``p`` (pass) or ``b`` (bet) per action. (The other
    arguments are ignored: the signature of :func:`leduc_info_state_string`.)"""
    card = int(np.argmax(obs[2:5]))
    history = ""
    for slot in range(3):
        bits = obs[5 + 2 * slot : 7 + 2 * slot]
        if bits[0]:
            history += "p"
        elif bits[1]:
            history += "b"
    return f"{card}{history}"


def _leduc_sequences(obs: Any) -> Any:
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


def _closed(seq: Any) -> bool:
    """Whether a round's betting is closed: two checks, or a raise called."""
    if 2 in seq:
        return bool(seq) and seq[-1] == 1
    return len(seq) == 2


def leduc_info_state_string(obs: Any, current_player: int, returns: Any = None) -> str:
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


def info_state_string(game_id: str) -> Callable[[Any, int, Any], str]:
    """The function building OpenSpiel's information-state string for ``game_id``."""
    return {"kuhn": kuhn_info_state_string, "leduc": leduc_info_state_string}[game_id]


def compare(game_id: str, order: list[int], rng: random.Random) -> tuple[int, str, int]:
    """Plays one playthrough of ``game_id`` (``kuhn`` or ``leduc``) dealt the chance
    outcomes ``order`` in cardvec and OpenSpiel, actions drawn by ``rng.choice`` from the
    legal ones, asserting after every step that both agree; returns the steps played,
    OpenSpiel's history string and how many chance outcomes were dealt. A difference is an
    ``AssertionError`` naming the deal, the history and what differs."""
    spiel_name = GAMES[game_id][0]
    to_string = info_state_string(game_id)
    env = cardvec.make(game_id, 1, seed=0)
    env.reset_lane_from_order(0, np.array(order, dtype=np.uint8))
    state = pyspiel.load_game(spiel_name).new_initial_state()
    chance = list(order)
    returns = None
    steps = 0
    while True:
        while state.is_chance_node():
            outcome = chance.pop(0)
            assert outcome in [o for o, _ in state.chance_outcomes()], (order, "chance")
            state.apply_action(outcome)
        where = f"deal {order} history [{state.history_str()}] step {steps}"
        terminal = state.is_terminal()
        assert bool(env.terminated[0]) == terminal, f"{where}: terminal"
        assert not env.truncated[0], f"{where}: truncated"
        if terminal:
            returns = [float(r) for r in env.rewards[0]]
            assert returns == state.returns(), f"{where}: returns {returns} != {state.returns()}"
        else:
            cp = int(env.current_player[0])
            assert cp == state.current_player(), f"{where}: current player {cp}"
            legal = [int(a) for a in np.flatnonzero(env.legal_mask[0])]
            assert legal == state.legal_actions(), (
                f"{where}: legal actions {legal} != {state.legal_actions()}")
        for seat in range(2):
            obs = env.observe_as(0, seat)
            tensor = np.array(state.information_state_tensor(seat), dtype=obs.dtype)
            assert np.array_equal(obs, tensor), f"{where}: seat {seat} information state tensor"
            text = to_string(obs, int(env.current_player[0]), returns)
            theirs = state.information_state_string(seat)
            assert text == theirs, f"{where}: seat {seat} information state {text!r} != {theirs!r}"
        if terminal:
            assert not env.legal_mask[0].any(), f"{where}: legal actions after the end"
            return steps, state.history_str(), len(order) - len(chance)
        action = rng.choice(state.legal_actions())
        env.step(np.array([action], dtype=np.int64))
        assert env.illegal[0] == 0, f"{where}: action {action} refused"
        state.apply_action(action)
        steps += 1


def deal(game_id: str, seed: int, g: int) -> tuple[list[int], random.Random]:
    """Game ``g`` of a run of ``seed``: its chance outcomes and the random source of its
    actions."""
    rng = random.Random(f"{game_id}/{seed}/{g}")
    _, cards, dealt = GAMES[game_id]
    return rng.sample(range(cards), dealt), rng


def ending(game_id: str, history: str, dealt: int) -> str:
    """How a playthrough ended, from OpenSpiel's history string: Kuhn, the betting (``pp``,
    ``bp``, ``bb``, ``pbp``, ``pbb``); Leduc, ``fold round 1``, ``fold round 2`` or
    ``showdown``."""
    actions = [int(a) for a in history.split(", ")]
    if game_id == "kuhn":
        return "".join("pb"[a] for a in actions[2:])
    if actions[-1] == 0:
        return f"fold round {dealt - 1}"
    return "showdown"


@dataclass
class Report:
    """What a range of games showed: games, steps (actions) and chance outcomes dealt,
    how the playthroughs ended (``endings``, by :func:`ending`),
    and mismatches ``{"game", "deal", "what"}``."""

    games: int = 0
    steps: int = 0
    dealt: int = 0
    endings: dict[str, int] = field(default_factory=dict)
    mismatches: list[dict[str, Any]] = field(default_factory=list)


def replay_range(game_id: str, seed: int, first: int, count: int) -> Report:
    """Games ``first..first + count`` of ``game_id`` (``kuhn`` or ``leduc``) for ``seed``,
    each compared step for step with OpenSpiel; a difference is a mismatch, not an
    exception."""
    if game_id not in GAMES:
        raise ValueError(f"no OpenSpiel oracle for game {game_id!r}; games: {', '.join(GAMES)}")
    report = Report()
    for g in range(first, first + count):
        order, rng = deal(game_id, seed, g)
        try:
            steps, history, dealt = compare(game_id, order, rng)
        except AssertionError as e:
            report.mismatches.append({"game": g, "deal": order, "what": str(e).strip()})
        else:
            report.steps += steps
            report.dealt += dealt
            end = ending(game_id, history, dealt)
            report.endings[end] = report.endings.get(end, 0) + 1
        report.games += 1
    return report


__all__ = [
    "GAMES",
    "Report",
    "compare",
    "deal",
    "ending",
    "info_state_string",
    "kuhn_info_state_string",
    "leduc_info_state_string",
    "replay_range",
]
