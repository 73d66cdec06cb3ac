"""cardvec's spot solver against OpenSpiel's ``universal_poker`` on a river subgame.

OpenSpiel (2.0.2) expresses a river subgame with ``universal_poker``: ``boardCards`` (the
five cards, dealt before the first action), one betting round (``numRounds=1``,
``numBoardCards=5``), ``firstPlayer=1`` (player 0 acts first, cardvec's OOP), no-limit
betting abstracted to fold, call, pot and all-in (``fcpa``), ``stack`` (each player's chips
in the hand) and the pot at the start as two equal blinds of half the pot each; cardvec's
bet tree ``100%,a`` for bets and raises is then the same tree (a pot-size raise is the call
plus the pot after the call in both; the test checks that the betting lines are the same).

Two of ``universal_poker``'s subgame parameters cannot be used as they are:

- ``potSize`` puts half the pot in each player's ``spent`` but leaves the ACPC state's
  ``maxSpent`` at the blind (``ACPCState::SetPotSize``), so a check "calls" the player's
  chips down to the blind and the pot-size bet is computed from the blind (with
  ``potSize=100, blind="1 1"`` a check leaves player 0 with 1 chip in, a pot bet goes to 52).
  Blinds of half the pot put the same chips in with a consistent state.
- ``handReaches`` (the ranges) turns the deal into one chance node over all 1,624,350 pairs
  of hands, most of probability 0 (every pair holding a board card), and OpenSpiel's CFR
  visits each of them: ``pyspiel.CFRPlusSolver`` on it stops at a failed check
  (``deck_.ContainsCards(card)``) applying a board card, and a pass over 1.6 million deals
  per iteration would be far too slow for a test anyway.

So the deal is a small Python game registered with pyspiel: one chance node over the pairs
of the two few-combo ranges (probability proportional to the product of the weights, pairs
sharing a card left out), then ``universal_poker``'s own state with those hole cards dealt,
its betting, pot, showdown and returns unchanged. OpenSpiel's C++ ``CFRPlusSolver`` solves
it, its ``exploitability`` and ``expected_returns`` measure it.

The check: both trees have the same betting lines, and the game values agree within the sum
of both NashConvs (a strategy profile of NashConv ``d`` has a value within ``d`` of the
game's value, so two such solutions differ by at most the sum; NashConv is twice the
exploitability both libraries report). OpenSpiel's returns count from the start of the
hand, with half the pot put in by each player: OOP's cardvec EV is its OpenSpiel return
plus half the pot.
"""

import itertools
import re

import numpy as np
import pytest

from cardvec import spot

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (pip install open-spiel) is the oracle")

BOARD = "AhKd7c4s2h"
POT = 100
STACK = 400  # behind, both players
OOP = {"AsAd": 1.0, "QcQh": 0.5, "6h5h": 1.0, "3c3d": 1.0, "Ac7d": 0.75}
IP = {"KsKc": 1.0, "JcJd": 1.0, "9s8s": 0.75, "7s6s": 1.0, "AdQd": 0.5}
ITERATIONS = 300


def universal_poker():
    return pyspiel.load_game("universal_poker", {
        "betting": "nolimit", "bettingAbstraction": "fcpa", "numPlayers": 2, "numRounds": 1,
        "numSuits": 4, "numRanks": 13, "numHoleCards": 2, "numBoardCards": "5",
        "boardCards": BOARD, "stack": f"{STACK + POT // 2} {STACK + POT // 2}",
        "blind": f"{POT // 2} {POT // 2}", "firstPlayer": "1",
    })


def two_cards(hand):
    return [hand[:2], hand[2:]]


def deal(state, card):
    """Deals ``card`` at a universal_poker chance node (its outcomes are named by card)."""
    for action, _ in state.chance_outcomes():
        if state.action_to_string(pyspiel.PlayerId.CHANCE, action).endswith("Deal " + card):
            state.apply_action(action)
            return
    raise AssertionError(f"{card} cannot be dealt")


def register_spot_game(inner, deals):
    """A pyspiel game: one chance node over ``deals`` ((oop, ip), weight), then ``inner``
    with those hole cards. States hold only their history (a pyspiel state kept in a Python
    state would be deep-copied through its game's parameters, which do not round-trip)."""
    total = sum(w for _, w in deals)
    game_type = pyspiel.GameType(
        short_name="cardvec_test_river_spot", long_name="cardvec river spot (universal_poker)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2,
        provides_information_state_string=True, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False,
        parameter_specification={})
    game_info = pyspiel.GameInfo(
        num_distinct_actions=inner.num_distinct_actions(),
        max_chance_outcomes=max(len(deals), inner.max_chance_outcomes()), num_players=2,
        min_utility=inner.min_utility(), max_utility=inner.max_utility(), utility_sum=0.0,
        max_game_length=inner.max_game_length() + 1)
    cache = {}

    def inner_state(key):
        s = cache.get(key)
        if s is None:
            if len(key) == 1:
                (a, b), _ = deals[key[0]]
                s = inner.new_initial_state()
                for c in two_cards(a) + two_cards(b):
                    deal(s, c)
            else:
                s = inner_state(key[:-1]).child(key[-1])
            cache[key] = s
        return s

    class State(pyspiel.State):
        def __init__(self, game):
            super().__init__(game)
            self.key = ()

        def current_player(self):
            if not self.key:
                return pyspiel.PlayerId.CHANCE
            s = inner_state(self.key)
            return pyspiel.PlayerId.TERMINAL if s.is_terminal() else s.current_player()

        def _legal_actions(self, player):
            return inner_state(self.key).legal_actions(player)

        def chance_outcomes(self):
            return [(i, w / total) for i, (_, w) in enumerate(deals)]

        def _apply_action(self, action):
            self.key = self.key + (action,)

        def _action_to_string(self, player, action):
            if not self.key:
                return f"deal {deals[action][0]}"
            return inner_state(self.key).action_to_string(player, action)

        def is_terminal(self):
            return bool(self.key) and inner_state(self.key).is_terminal()

        def returns(self):
            return inner_state(self.key).returns() if self.key else [0.0, 0.0]

        def __str__(self):
            return str(self.key)

    class Observer:
        def __init__(self):
            self.tensor = np.zeros(0, np.float32)  # no tensor: strings only
            self.dict = {}

        def set_from(self, state, player):
            pass

        def string_from(self, state, player):
            return inner_state(state.key).information_state_string(player)

    class Game(pyspiel.Game):
        def __init__(self, params=None):
            super().__init__(game_type, game_info, params or {})

        def new_initial_state(self):
            return State(self)

        def make_py_observer(self, iig_obs_type=None, params=None):
            return Observer()

    pyspiel.register_game(game_type, Game)
    return pyspiel.load_game(game_type.short_name)


def spent(state):
    m = re.search(r"Spent: \[P0: (\d+)\s+P1: (\d+)", str(state))
    return [int(m.group(1)), int(m.group(2))]


def openspiel_lines(state, line=()):
    """The betting lines of a universal_poker state with cards dealt, in cardvec's words
    (``bet:100`` and ``raise:400`` are street totals: the chips beyond the half pot)."""
    if state.is_terminal():
        return {line}
    p = state.current_player()
    before = spent(state)
    out = set()
    for a in state.legal_actions():
        child = state.child(a)
        after = spent(child)
        if a == 0:
            word = "fold"
        elif after[p] == before[p]:
            word = "check"
        elif after[p] == before[1 - p]:
            word = "call"
        else:
            word = ("raise:" if before[1 - p] > before[p] else "bet:") + str(after[p] - POT // 2)
        out |= openspiel_lines(child, line + (word,))
    return out


def cardvec_lines(node, line=()):
    kids = node.get("children", [])
    if not kids:
        return {line}
    out = set()
    for child in kids:
        out |= cardvec_lines(child, line + (child["action"],))
    return out


def test_river_value_equals_openspiel_cfr_plus():
    deals = [((a, b), wa * wb) for (a, wa), (b, wb) in itertools.product(OOP.items(), IP.items())
             if not set(two_cards(a)) & set(two_cards(b))]
    inner = universal_poker()
    mine = spot.solve(BOARD, POT, STACK, ",".join(f"{h}:{w}" for h, w in OOP.items()),
                      ",".join(f"{h}:{w}" for h, w in IP.items()), bets="100%,a",
                      raises="100%,a", algorithm="cfr+", target=0.01, max_iterations=5000)
    assert mine.stop == "target", mine

    # The same betting tree: every line of one deal in OpenSpiel is a line of cardvec's.
    dealt = inner.new_initial_state()
    (a, b), _ = deals[0]
    for c in two_cards(a) + two_cards(b):
        deal(dealt, c)
    theirs = openspiel_lines(dealt)
    ours = cardvec_lines(mine.subtree()["node"])
    assert theirs == ours
    assert len(ours) == 13  # check-check, bets of 100 and 400, calls, folds, a raise to 400

    game = register_spot_game(inner, deals)
    solver = pyspiel.CFRPlusSolver(game)
    for _ in range(ITERATIONS):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    nash_conv_os = 2 * pyspiel.exploitability(game, policy)
    value_os = pyspiel.expected_returns(game.new_initial_state(), policy, -1, True)
    assert abs(value_os[0] + value_os[1]) < 1e-9
    nash_conv_mine = 2 * mine.exploitability
    ev_os = value_os[0] + POT / 2
    assert abs(sum(mine.root_ev) - POT) < 1e-3 * POT
    gap = abs(mine.root_ev[0] - ev_os)
    # The figures of docs/spot.md (pytest -s shows them).
    print(f"cardvec CFR+: {mine.iterations} iterations, {mine.seconds:.3f} s, OOP EV "
          f"{mine.root_ev[0]:.5f}, exploitability {mine.exploitability:.5f}; OpenSpiel CFR+: "
          f"{ITERATIONS} iterations, OOP EV {ev_os:.5f}, exploitability "
          f"{nash_conv_os / 2:.5f}; gap {gap:.5f}, bound {nash_conv_mine + nash_conv_os:.5f}")
    # Both near equilibrium (OpenSpiel's 300 iterations to about 0.1% of the pot), and the
    # values within the bound.
    assert nash_conv_os < 0.5, nash_conv_os
    assert gap <= nash_conv_mine + nash_conv_os + 1e-6, (mine.root_ev, ev_os, nash_conv_mine,
                                                           nash_conv_os)
