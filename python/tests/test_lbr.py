"""cardvec.holdem.lbr: local best response by name and with a Python policy batched over
holdings (docs/exploit.md)."""

from __future__ import annotations

import numpy as np
import pytest

from cardvec import holdem


def test_call_station_loses_thousands_and_threads_do_not_matter() -> None:
    one = holdem.lbr("call-station", hands=60, seed=5, threads=1)
    two = holdem.lbr("call-station", hands=60, seed=5, threads=2)
    assert one == two
    assert one["hands"] == 60 and one["policy"] == "call-station"
    assert one["mbb"] > 1000
    assert [p["hands"] for p in one["positions"]] == [30, 30]
    assert abs(sum(p["share"] for p in one["streets"]) - one["mbb"]) < 1e-6


def test_the_expected_estimator_and_the_control_variate() -> None:
    one = holdem.lbr("call-station", hands=8, seed=5, estimator="expect", control=True, threads=1)
    two = holdem.lbr("call-station", hands=8, seed=5, estimator="expect", control=True, threads=2)
    assert one == two
    assert one["options"]["estimator"] == "Expect" and one["options"]["control"] is True
    plain = holdem.lbr("call-station", hands=8, seed=5)
    assert one["ci95"] < plain["ci95"] / 5
    parts = sum(p["share"] for p in one["streets"]) + one["correction"]["share"]
    assert abs(parts - one["mbb"]) < 1e-6
    with pytest.raises(ValueError, match="estimator"):
        holdem.lbr("call-station", hands=8, estimator="exact")


def test_a_python_policy_equals_the_built_in_one() -> None:
    def call_station(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        assert obs.dtype == np.float32 and obs.shape[1] == holdem.observation_size(2)
        assert mask.dtype == np.uint8
        out = np.zeros((obs.shape[0], mask.shape[0]))
        out[:, holdem.CHECK_CALL] = 1.0
        return out

    py = holdem.lbr(call_station, hands=20, seed=2)
    built = holdem.lbr("call-station", hands=20, seed=2)
    assert py["mbb"] == built["mbb"] and py["ci95"] == built["ci95"]
    assert py["policy"] == "python"


def test_a_python_policy_sees_each_holding() -> None:
    seen: list[int] = []

    def by_cards(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        # Fold what is legal to fold with a hand holding an ace, else check or call.
        seen.append(obs.shape[0])
        aces = obs[:, [12, 25, 38, 51]].sum(axis=1) > 0
        out = np.zeros((obs.shape[0], mask.shape[0]))
        fold = aces & (mask[holdem.FOLD] == 1)
        out[fold, holdem.FOLD] = 1.0
        out[~fold, holdem.CHECK_CALL] = 1.0
        return out

    r = holdem.lbr(by_cards, hands=10, seed=1, threads=1)
    assert r["hands"] == 10
    assert max(seen) > 1000  # the whole range at once


def test_errors() -> None:
    with pytest.raises(ValueError, match="nit"):
        holdem.lbr("nit", hands=2)
    with pytest.raises(ValueError, match="hands"):
        holdem.lbr("random", hands=0)
    with pytest.raises(ValueError, match="bet size"):
        holdem.lbr("random", hands=2, bets="pot,x")
    with pytest.raises(ValueError, match="heads-up"):
        holdem.lbr("random", hands=2, num_players=3)
    with pytest.raises(TypeError):
        holdem.lbr(3, hands=2)  # type: ignore[arg-type]

    def wrong_shape(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.zeros((1, 1))

    with pytest.raises(ValueError, match="array of probabilities"):
        holdem.lbr(wrong_shape, hands=2)

    def boom(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        holdem.lbr(boom, hands=2)

    def not_a_distribution(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return np.full((obs.shape[0], mask.shape[0]), 0.5)

    with pytest.raises(ValueError, match="sum"):
        holdem.lbr(not_a_distribution, hands=2)


def test_a_solved_spot_as_the_policy_stays_below_its_exact_best_response() -> None:
    from cardvec import spot

    args = dict(
        board="AhKh7d4c2s",
        pot=100,
        stack=300,
        oop_range="77,44,QJs,T9s,86s,JTs",
        ip_range="AQ,KQ,QQ,JJ,TT",
        bets="50%,a",
        raises="a",
        target=0.0,
    )
    solved = spot.solve(**args, max_iterations=300)  # type: ignore[arg-type]
    bad = spot.solve(**args, max_iterations=1)  # type: ignore[arg-type]
    for solution, far in [(solved, False), (bad, True)]:
        one = holdem.lbr(solution, hands=600, seed=1, estimator="expect", threads=1)
        two = holdem.lbr(solution, hands=600, seed=1, estimator="expect", threads=2)
        assert one["spot"] == two["spot"]
        for p in one["spot"]["players"]:
            assert p["hands"] == 300
            assert p["value"] <= p["best_response"] + p["ci95"], p
            if far:
                assert p["value"] - p["ci95"] > p["strategy_ev"], p
                assert p["found"] > 0.5, p
    with pytest.raises(ValueError, match="control"):
        holdem.lbr(solved, hands=10, control=True)
    with pytest.raises(ValueError, match="table options"):
        holdem.lbr(solved, hands=10, stack=400)
    odd = spot.solve(**{**args, "pot": 101}, max_iterations=1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="even"):
        holdem.lbr(odd, hands=10)
