"""cardvec.pettingzoo.flip7_v0 as a drop-in for game-room 0.1.0's flip7_v0: the state
attributes scripts read (round_number, dealer, hands, status, deck, discard, pending_card,
flip7_player, tasks, deferred), read-only and of game-room's types, compared with game-room's
on the same game (game-room fed cardvec's shuffles, as the oracle does); seeds as
game-room takes them."""

from collections import Counter, deque

import gymnasium
import numpy as np
import pytest

game_room = pytest.importorskip("game_room.flip7_v0")

from cardvec.oracles.flip7 import StubRandom  # noqa: E402
from cardvec.pettingzoo import flip7_v0  # noqa: E402

ATTRS = ("round_number", "dealer", "hands", "status", "deck", "discard", "pending_card",
         "flip7_player", "tasks", "deferred")


def same(ref, cv, where):
    for name in ATTRS:
        a, b = getattr(ref, name), getattr(cv, name)
        assert type(a) is type(b) or (a is None) == (b is None), f"{where}: type of {name}"
        if name in ("hands",):
            assert [sorted(h) for h in a] == b, f"{where}: {name}"
            assert all(type(c) is int for h in b for c in h)
        elif name == "discard":
            assert sorted(a) == b, f"{where}: {name}"
        elif name == "tasks":
            assert [tuple(int(x) for x in t) for t in a] == list(b), f"{where}: {name}"
            assert all(type(t) is tuple for t in b)
        elif name in ("deck", "deferred", "status"):
            assert [int(x) for x in a] == b, f"{where}: {name}"
            assert all(type(x) is int for x in b)
        else:
            assert a == b and (b is None or type(b) is int), f"{where}: {name}"


@pytest.mark.parametrize("num_players, seed", [(3, 1), (4, 7), (6, 2), (18, 5)])
def test_state_attributes_match_game_room(num_players, seed):
    rng = np.random.default_rng(seed)
    cv = flip7_v0.raw_env(num_players=num_players)
    ref = game_room.raw_env(num_players=num_players)
    stub = StubRandom()
    ref.np_random = stub
    cv.reset(seed=seed)
    stub.orders.extend(cv.game.take_shuffles())
    ref.reset()
    same(ref, cv, "reset")
    seen = Counter()
    for step in range(3000):
        if all(cv.terminations.values()) or all(cv.truncations.values()):
            break
        mask = cv.observe(cv.agent_selection)["action_mask"]
        action = 0 if mask[0] and mask[1] and rng.random() < 0.85 else int(
            rng.choice(np.flatnonzero(mask))
        )
        cv.step(action)
        stub.orders.extend(cv.game.take_shuffles())
        ref.step(action)
        assert not stub.orders
        same(ref, cv, f"step {step}")
        seen.update(n for n in ("pending_card", "flip7_player") if getattr(cv, n) is not None)
        seen["deferred"] += bool(cv.deferred)
        seen["round"] = cv.round_number
    assert seen["round"] > 1 and seen["pending_card"] > 0


def test_attributes_are_read_only():
    env = flip7_v0.raw_env()
    env.reset(seed=0)
    for name in ATTRS:
        with pytest.raises(AttributeError):
            setattr(env, name, 1)
    assert isinstance(env.tasks, deque)


@pytest.mark.parametrize("seed", [-1, 1.0, "1", np.int64(3), -(2**70)])
def test_bad_seeds_raise_gymnasium_error_as_game_room(seed):
    for make in (flip7_v0.raw_env, game_room.raw_env, flip7_v0.env):
        with pytest.raises(gymnasium.error.Error):
            make().reset(seed=seed)


@pytest.mark.parametrize("seed", [2**64, 2**64 + 1, 2**100, True])
def test_large_seeds_are_accepted_as_game_room(seed):
    game_room.raw_env().reset(seed=seed)
    a, b = flip7_v0.raw_env(), flip7_v0.raw_env()
    a.reset(seed=seed)
    b.reset(seed=seed)
    assert a.deck == b.deck and a.hands == b.hands  # deterministic
    c = flip7_v0.raw_env()
    c.reset(seed=seed + 1)
    assert c.deck != a.deck
