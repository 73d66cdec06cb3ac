"""cardvec's Flip 7 against game-room 0.1.0's ``flip7_v0`` (the specification), step for step.

Each game is played by ``cardvec.Flip7Game`` with a random policy; game-room replays it
with the same actions and with cardvec's card order, fed through a stub ``np_random`` whose
``shuffle`` takes cardvec's logged shuffles (the opening deck and every recycled discard
pile). After every step the observation of the seat to act (every seat's at round ends),
the action mask, rewards, termination/truncation, scores and infos (``scores``,
``round_scores``, ``completed_round``, ``winners``) must agree exactly.

Game ``g`` of ``num_players`` seats is dealt from seed ``1_000_003 * num_players + g +
seed``; every fourth game has a round limit, every seventh a low target (``options``).
``replay_range(seed, first, count)`` plays the games ``first..first + count`` of a run in
which game index ``i`` has ``PLAYERS[i % 5]`` seats and is that count's game ``i // 5``
(``python/tests/test_flip7_oracle.py`` and ``cardvec.campaign``'s ``oracle`` kind).
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from . import require

require("flip7")

from game_room import flip7_v0 as game_room  # noqa: E402

import cardvec  # noqa: E402

if TYPE_CHECKING:
    from typing import Any

#: The seat counts of a run, in turn.
PLAYERS: tuple[int, ...] = (3, 4, 6, 10, 18)


class StubRandom:
    """Stands in for game-room's ``np_random``: ``shuffle`` takes cardvec's next order."""

    orders: deque[bytes]

    def __init__(self) -> None:
        self.orders = deque()

    def shuffle(self, items: Any) -> None:
        assert self.orders, "game-room shuffled but cardvec did not"
        order = self.orders.popleft()
        assert Counter(order) == Counter(int(c) for c in items), "not the same cards"
        items[:] = order


def options(g: int) -> tuple[int, int | None]:
    """Every fourth game has a round limit, every seventh a low target."""
    target = 30 + g % 50 if g % 7 == 3 else 200
    max_rounds = 1 + g // 4 % 5 if g % 4 == 1 else None
    return target, max_rounds


def compare(ref: Any, cv: Any, step: int, all_seats: bool) -> None:
    """Asserts game-room's env ``ref`` and cardvec's game ``cv`` agree after ``step``."""
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


def play(num_players: int, g: int, seed: int = 0) -> tuple[int, int]:
    """Plays game ``g`` of ``num_players`` seats in both and compares every step (an
    ``AssertionError`` at the first difference); returns ``(steps, recycled piles)``."""
    target, max_rounds = options(g)
    game_seed = 1_000_003 * num_players + g + seed
    rng = np.random.default_rng(game_seed)
    hit_prob = (0.5, 0.8, 0.95)[g % 3]
    cv = cardvec.Flip7Game(num_players, target, max_rounds, game_seed)
    ref: Any = game_room.raw_env(num_players=num_players, target_score=target, max_rounds=max_rounds)
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


@dataclass
class Report:
    """Totals of ``replay_range``."""

    games: int = 0
    steps: int = 0
    recycled: int = 0
    players: dict[int, int] = field(default_factory=dict)
    mismatches: list[Any] = field(default_factory=list)


def replay_range(seed: int, first: int, count: int) -> Report:
    """Games ``first..first + count`` of a run (game ``i``: ``PLAYERS[i % 5]`` seats, that
    count's game ``i // 5``), each compared step for step; a difference is a mismatch
    ``{"game", "players", "what"}``, not an exception."""
    report = Report()
    for i in range(first, first + count):
        n = PLAYERS[i % len(PLAYERS)]
        try:
            steps, recycled = play(n, i // len(PLAYERS), seed)
            report.steps += steps
            report.recycled += recycled
        except AssertionError as e:
            report.mismatches.append({"game": i, "players": n, "what": str(e).strip()})
        report.games += 1
        report.players[n] = report.players.get(n, 0) + 1
    return report


__all__ = ["PLAYERS", "Report", "StubRandom", "compare", "options", "play", "replay_range"]
