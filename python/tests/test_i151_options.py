"""151's options from Python (target score, cards per player, first dealer, round step limit)
with the official engine's accepted values, compared with i151-engine's `create_match` on
the same options and seeds, decision by decision."""

import numpy as np
import pytest

import i151_engine  # noqa: F401  (installed by scripts/test.sh; a missing oracle is a failure)
from i151_engine.game.round import create_match

import cardvec
import i151_oracle
from cardvec.i151 import I151, official_order


def compare(players, seeds, max_decisions, rounds=None, **options):
    """Lane i plays the official match of seeds[i] with `options` (cardvec's names);
    every decision is compared (seat, legal set, hands, rewards, end) for up to
    `max_decisions` steps. Returns the number of finished matches; `rounds`, if a list,
    receives the last round number each official match reached."""
    rng = np.random.default_rng(players)
    lanes = len(seeds)
    env = I151(lanes, num_players=players, num_threads=1, **options)
    for lane, seed in enumerate(seeds):
        env.reset_lane_from_order(lane, official_order(seed))
    official_kw = {
        "target_score": options.get("target_score", 151),
        "cards_per_player": options.get("cards_per_player", 8),
        "initial_dealer_index": options.get("initial_dealer", 0),
    }
    names = tuple(f"P{i}" for i in range(players))
    matches = [create_match(names, seed=s, **official_kw) for s in seeds]
    finished, _ = i151_oracle.lockstep(env, matches, rng, max_decisions)
    if rounds is not None:
        rounds.extend(m.round_number for m in matches)
    return finished


@pytest.mark.parametrize(
    "players, options",
    [
        (2, {"target_score": 0}),
        (3, {"target_score": 0, "initial_dealer": 2}),
        (2, {"target_score": 40, "cards_per_player": 5, "initial_dealer": 7}),
        (3, {"target_score": 60, "cards_per_player": 10, "initial_dealer": -1}),
        (4, {"target_score": 50, "cards_per_player": 4, "initial_dealer": 2**40 + 3}),
        (2, {"target_score": 20_000, "cards_per_player": 16}),
    ],
)
def test_options_play_the_official_matches(players, options):
    seeds = [-(2**63), 2**63 - 1, -1, 0, 12345, 2**40 + 7]
    finished = compare(players, seeds, 400, **options)
    if options.get("target_score") == 0:
        assert finished == len(seeds)  # every loser of round 1 is out


def test_options_are_registry_options_with_official_ranges():
    env = cardvec.make("151", 2, num_players=3, target_score=0, initial_dealer=-1,
                       cards_per_player=10, max_round_steps=0)
    assert env.current_player.tolist() == [0, 0]  # dealer 2 (= -1 mod 3), seat 0 starts
    env = I151(1, target_score=20_000, initial_dealer=2**70 + 1, max_round_steps=7)
    assert env.current_player.tolist() == [0]  # dealer 1 (mod 2): seat 0 starts


@pytest.mark.parametrize(
    "bad", [{"target_score": -1}, {"target_score": 20_001}, {"cards_per_player": 17},
            {"cards_per_player": 0}, {"initial_dealer": 1.5}, {"max_round_steps": -1}]
)
def test_out_of_range_options_are_refused(bad):
    with pytest.raises((ValueError, TypeError), match=next(iter(bad))):
        I151(1, **bad)


BIG_SEEDS = [2**64 + 5, -(2**70), 10**30, -(2**64), 2**255 + 7, 2**256 - 1, -(2**256 - 1), 2**256 - 2]


@pytest.mark.parametrize("players", [2, 3])
def test_seeds_beyond_int64_play_the_official_matches(players):
    """Any integer seed below 2**256 in magnitude deals the official engine's matches, in
    every round (2**256 - 1 + round needs a 9-word key from round 1 on)."""
    rounds = []
    compare(players, BIG_SEEDS, 600, rounds, target_score=60, cards_per_player=4)
    assert min(rounds) >= 2 and sum(rounds) >= 3 * len(BIG_SEEDS)  # later rounds compared


def test_big_seed_orders_carry_the_whole_seed():
    for seed in BIG_SEEDS:
        order = official_order(seed)
        assert int.from_bytes(bytes(order[32:]), "little", signed=True) == seed
    assert len(official_order(-(2**63))) == 40  # int64 seeds keep the 8-byte layout
    assert len(official_order(2**63)) == 48
    assert len(official_order(-(2**127))) == 48
    assert len(official_order(2**256 - 1)) == 72


@pytest.mark.parametrize("seed", [2**256, -(2**256), 10**100])
def test_seeds_beyond_the_bound_are_refused_naming_it(seed):
    with pytest.raises(ValueError, match=r"2\*\*256"):
        official_order(seed)


def test_orders_with_a_seed_beyond_the_bound_or_of_another_length_change_nothing():
    env = I151(1, num_threads=1)
    before = env.get_state(0)
    deck = list(range(32))
    for seed in (2**256, -(2**256), 2**319 - 1):
        raw = np.array(deck + list(seed.to_bytes(40, "little", signed=True)), dtype=np.uint8)
        with pytest.raises(ValueError, match=r"2\*\*256"):
            env.reset_lane_from_order(0, raw)
    for extra in (1, 7, 9, 33, 48):
        with pytest.raises(ValueError, match="8, 16, 24, 32 or 40 bytes"):
            env.reset_lane_from_order(0, np.array(deck + [0] * extra, dtype=np.uint8))
    assert env.get_state(0) == before


@pytest.mark.parametrize("dealer", [-1, 7, -6, 2**62 + 1])
def test_registry_initial_dealer_is_the_official_first_dealer(dealer):
    """The registry option itself (``BatchEnv("151", ...)``, without the ``I151`` class's own
    reduction) takes any integer modulo the seats, as ``create_match`` does: with 4 seats
    -1 and 7 make seat 3 deal and seat 0 start."""
    official = create_match(("P0", "P1", "P2", "P3"), seed=9, initial_dealer_index=dealer)
    env = cardvec.BatchEnv("151", 1, num_players=4, initial_dealer=dealer, num_threads=1)
    assert env.config["initial_dealer"] == official.dealer_index
    assert env.current_player[0] == official.current_round.current_player_index
    env.reset_lane_from_order(0, official_order(9))
    assert env.current_player[0] == official.current_round.current_player_index
    if dealer in (-1, 7):
        assert official.dealer_index == 3 and env.current_player[0] == 0
    learner = cardvec.LearnerEnv("151", 1, opponents="random", num_players=4, initial_dealer=dealer)
    assert learner.config["initial_dealer"] == official.dealer_index
