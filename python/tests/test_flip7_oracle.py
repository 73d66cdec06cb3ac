"""cardvec's Flip 7 against game-room 0.1.0's ``flip7_v0`` (the specification), step for step.

Each game is played by ``cardvec.Flip7Game`` with a random policy; game-room replays it
with the same actions and with cardvec's card order, fed through a stub ``np_random`` whose
``shuffle`` takes cardvec's logged shuffles (the opening deck and every recycled discard
pile). After every step the observation of the seat to act (every seat's at round ends),
the action mask, rewards, termination/truncation, scores and infos (``scores``,
``round_scores``, ``completed_round``, ``winners``) must agree exactly.

3,000 games by default, spread over 3, 4, 6, 10 and 18 players; the long run is
``FLIP7_ORACLE_GAMES=100000 python -m pytest python/tests/test_flip7_oracle.py``.
"""

import os
from collections import Counter, deque

import numpy as np
import pytest

import cardvec

game_room = pytest.importorskip("game_room.flip7_v0")

GAMES = int(os.environ.get("FLIP7_ORACLE_GAMES", "3000"))
PLAYERS = (3, 4, 6, 10, 18)


class StubRandom:
    """Stands in for game-room's ``np_random``: ``shuffle`` takes cardvec's next order."""

    def __init__(self):
        self.orders = deque()

    def shuffle(self, items):
        assert self.orders, "game-room shuffled but cardvec did not"
        order = self.orders.popleft()
        assert Counter(order) == Counter(int(c) for c in items), "not the same cards"
        items[:] = order


def options(g):
    """Every fourth game has a round limit, every seventh a low target."""
    target = 30 + g % 50 if g % 7 == 3 else 200
    max_rounds = 1 + g // 4 % 5 if g % 4 == 1 else None
    return target, max_rounds


def compare(ref, cv, step, all_seats):
    agents = ref.possible_agents
    where = f"step {step}"
    assert ref._indices[ref.agent_selection] == cv.current_player, where
    seats = range(len(agents)) if all_seats else [cv.current_player]
    for seat in seats:
        expected = ref.observe(agents[seat])
        if seat == cv.current_player:
            np.testing.assert_array_equal(
                expected["action_mask"], cv.legal_mask(), err_msg=f"{where}: mask"
            )
        np.testing.assert_array_equal(
            expected["observation"], cv.observe(seat), err_msg=f"{where}: observation of {seat}"
        )
    assert [ref.rewards[a] for a in agents] == cv.rewards, f"{where}: rewards"
    assert all(ref.terminations[a] == cv.terminated for a in agents), f"{where}: terminated"
    assert all(ref.truncations[a] == cv.truncated for a in agents), f"{where}: truncated"
    assert ref.scores == cv.scores, f"{where}: scores"
    if cv.completed_round == 0:
        assert all(ref.infos[a] == {} for a in agents), f"{where}: infos"
    else:
        info = {
            "scores": dict(zip(agents, cv.scores)),
            "round_scores": dict(zip(agents, cv.round_scores)),
            "completed_round": cv.completed_round,
            "winners": [agents[i] for i in cv.winners],
        }
        assert all(ref.infos[a] == info for a in agents), f"{where}: infos"


def play(num_players, g):
    target, max_rounds = options(g)
    seed = 1_000_003 * num_players + g
    rng = np.random.default_rng(seed)
    hit_prob = (0.5, 0.8, 0.95)[g % 3]
    cv = cardvec.Flip7Game(num_players, target, max_rounds, seed)
    ref = game_room.raw_env(num_players=num_players, target_score=target, max_rounds=max_rounds)
    stub = StubRandom()
    ref.np_random = stub
    stub.orders.extend(cv.take_shuffles())
    ref.reset()
    assert not stub.orders
    compare(ref, cv, 0, all_seats=True)
    step = 0
    recycled = 0
    while not (cv.terminated or cv.truncated):
        mask = cv.legal_mask()
        if mask[0] and mask[1]:
            action = 0 if rng.random() < hit_prob else 1
        else:
            action = int(rng.choice(np.flatnonzero(mask)))
        completed = cv.completed_round
        assert cv.step(action)
        shuffles = cv.take_shuffles()
        recycled += len(shuffles)
        stub.orders.extend(shuffles)
        ref.step(action)
        assert not stub.orders, "cardvec shuffled but game-room did not"
        step += 1
        compare(ref, cv, step, all_seats=cv.completed_round != completed)
    assert all(ref.terminations.values()) or all(ref.truncations.values())
    return step, recycled


@pytest.mark.parametrize("num_players", PLAYERS)
def test_flip7_matches_game_room_step_for_step(num_players):
    steps = recycled = 0
    for g in range(GAMES // len(PLAYERS)):
        s, r = play(num_players, g)
        steps += s
        recycled += r
    assert recycled > 0, "no discard pile was recycled: the check would miss reshuffles"
    print(f"players={num_players} games={GAMES // len(PLAYERS)} steps={steps} recycled={recycled}")


def test_illegal_action_is_rejected_without_change():
    cv = cardvec.Flip7Game(3, 200, None, 1)
    before = [cv.observe(p) for p in range(3)]
    mask = cv.legal_mask()
    for action in [a for a in range(5) if not mask[a]] + [-1, 5, 99, 2**40]:
        assert not cv.step(action)
    for p in range(3):
        np.testing.assert_array_equal(before[p], cv.observe(p))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"num_players": 2},
        {"num_players": 19},
        {"num_players": True},
        {"target_score": 0},
        {"max_rounds": 0},
    ],
)
def test_invalid_options_are_value_errors(kwargs):
    with pytest.raises(ValueError):
        cardvec.Flip7Game(**kwargs)
    with pytest.raises(ValueError):
        cardvec.Flip7(4, **kwargs)
