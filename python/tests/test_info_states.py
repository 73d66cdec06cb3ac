"""Batch information states (``info_state_tensor``, ``info_state_key``,
``info_state_string``, ``info_state_dim`` on every batch class).

Kuhn and Leduc are checked against OpenSpiel (the oracle) at every node of their game
trees: every history of every deal is played in its own lane (lanes whose history is over
are given an illegal action, a no-op), then each lane's tensor and string, for both seats,
are compared with OpenSpiel's ``information_state_tensor`` / ``information_state_string``
of the same history; keys are equal exactly when the strings are. Also: the tensor of the
seat to act is the observation, the results do not depend on the thread count, and bad
calls (a game without information states, a bad seat) are errors.
"""

import numpy as np
import pytest

import cardvec

NO_ACTION = 99


def _histories(pyspiel, name):
    """Every decision and terminal node of OpenSpiel game ``name``: (chance outcomes in
    order, actions in order, state)."""
    game = pyspiel.load_game(name)
    nodes = []

    def walk(state, chance, actions):
        if state.is_chance_node():
            for outcome, _ in state.chance_outcomes():
                walk(state.child(outcome), chance + [outcome], actions)
            return
        nodes.append((chance, actions, state))
        if not state.is_terminal():
            for a in state.legal_actions():
                walk(state.child(a), chance, actions + [a])

    walk(game.new_initial_state(), [], [])
    return nodes


@pytest.mark.parametrize(
    "game_id, spiel_name, deck, nodes, infosets",
    [("kuhn", "kuhn_poker", 3, 54, 12), ("leduc", "leduc_poker", 6, 9300, 936)],
)
def test_every_node_matches_openspiel(game_id, spiel_name, deck, nodes, infosets):
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is the oracle")
    tree = _histories(pyspiel, spiel_name)
    assert len(tree) == nodes
    env = cardvec.make(game_id, len(tree), seed=0, num_threads=2, chunk_size=13)
    for lane, (chance, _, _) in enumerate(tree):
        order = list(chance)
        if game_id == "leduc" and len(order) == 2:
            # The public card is not dealt yet: any card left (hidden in round 1).
            order.append(next(c for c in range(deck) if c not in order))
        env.reset_lane_from_order(lane, np.array(order, dtype=np.uint8))
    longest = max(len(a) for _, a, _ in tree)
    for t in range(longest):
        actions = np.array([a[t] if t < len(a) else NO_ACTION for _, a, _ in tree])
        env.step(actions)
        assert (env.illegal[actions != NO_ACTION] == 0).all()
    assert env.info_state_dim == len(tree[0][2].information_state_tensor(0))
    for seat in range(2):
        by_key = {}
        tensors = env.info_state_tensor(seat)
        assert tensors.dtype == np.float32 and tensors.shape == (len(tree), env.info_state_dim)
        for lane, (_, _, state) in enumerate(tree):
            np.testing.assert_array_equal(tensors[lane], state.information_state_tensor(seat))
            text = env.info_state_string(lane, seat)
            assert text == state.information_state_string(seat), (lane, seat)
            key = env.info_state_key(lane, seat)
            assert isinstance(key, bytes)
            if not state.is_terminal():
                # (At the end OpenSpiel's string shows the result, which the key need not.)
                assert by_key.setdefault(key, text) == text
        # At the decision nodes, equal keys exactly when the strings are equal.
        assert len(set(by_key.values())) == len(by_key)
    decision = {
        env.info_state_key(lane, state.current_player())
        for lane, (_, _, state) in enumerate(tree)
        if not state.is_terminal()
    }
    assert len(decision) == infosets


@pytest.mark.parametrize("game_id", ["kuhn", "leduc"])
def test_tensor_of_the_seat_to_act_is_the_observation(game_id):
    env = cardvec.make(game_id, 64, seed=3, autoreset=True)
    rng = np.random.default_rng(0)
    for _ in range(5):
        np.testing.assert_array_equal(env.info_state_tensor(), env.obs)
        seats = rng.integers(0, 2, 64)
        rows = env.info_state_tensor(seats)
        for lane in range(0, 64, 5):
            np.testing.assert_array_equal(rows[lane], env.observe_as(lane, int(seats[lane])))
        actions = cardvec.bots.act(env, "random", seed=int(rng.integers(1 << 30)))
        env.step(np.maximum(actions, 0))


@pytest.mark.parametrize("game_id", ["kuhn", "leduc", "holdem"])
def test_results_do_not_depend_on_threads_or_chunks(game_id):
    def run(threads, chunk):
        env = cardvec.make(
            game_id, 100, seed=11, num_threads=threads, chunk_size=chunk, autoreset=True
        )
        for t in range(6):
            env.step(np.maximum(cardvec.bots.act(env, "random", seed=t), 0))
        keys = [env.info_state_key(lane, s) for lane in range(100) for s in range(env.num_players)]
        return env.info_state_tensor(), env.info_state_tensor(1), keys

    a, b = run(1, 64), run(2, 3)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])
    assert a[2] == b[2]


def test_holdem_keys_recall_the_betting():
    from cardvec import holdem

    # Two lanes dealt alike: the button raises to 4 and the big blind calls, or the button
    # limps, the big blind raises to 4 and the button calls; the same pot on the flop.
    env = cardvec.make("holdem", 2, seed=0, button=0)
    order = np.arange(9, dtype=np.uint8)
    for lane in range(2):
        env.reset_lane_from_order(lane, order)
    call, raise4 = holdem.CHECK_CALL, holdem.raise_to(4)
    for actions in ([raise4, call], [call, raise4]):
        env.step(np.array(actions))
        assert (env.illegal == 0).all()
    # Lane 0 is on the flop (an illegal id is a no-op), lane 1's button calls.
    env.step(np.array([99, call]))
    assert env.illegal[0] != 0 and env.illegal[1] == 0
    assert env.get_state(0) != env.get_state(1)
    for seat in range(2):
        assert env.info_state_key(0, seat) != env.info_state_key(1, seat)
    assert env.info_state_string(1, 0) == (
        "seat 0 (button 0) 2c3c | board 6c7c8c | preflop: s0 call 1, s1 raise 4, s0 call 2"
    )
    rows = env.info_state_tensor(0)
    observed = np.stack([env.observe_as(lane, 0) for lane in range(2)])
    np.testing.assert_array_equal(rows[:, : env.obs_dim], observed)
    assert rows.shape == (2, env.info_state_dim) and env.info_state_dim > env.obs_dim


def test_bad_calls_are_errors():
    env = cardvec.make("leduc", 4, seed=0)
    for bad in (2, -1, [0, 1, 2, 0]):
        with pytest.raises(ValueError, match="player"):
            env.info_state_tensor(bad)
    with pytest.raises(ValueError):
        env.info_state_tensor([0, 1])
    with pytest.raises(ValueError, match="bool"):
        env.info_state_tensor(True)
    with pytest.raises(TypeError):
        env.info_state_tensor("0")
    with pytest.raises(ValueError, match="lane"):
        env.info_state_key(4, 0)
    with pytest.raises(ValueError, match="player"):
        env.info_state_string(0, 2)

    env = cardvec.make("lost-cities", 2, seed=0)
    assert env.info_state_dim is None
    for call in (
        lambda: env.info_state_tensor(),
        lambda: env.info_state_tensor(0),
        lambda: env.info_state_key(0, 0),
        lambda: env.info_state_string(0, 1),
    ):
        with pytest.raises(ValueError, match="lost-cities has no information states.*kuhn.*leduc"):
            call()
