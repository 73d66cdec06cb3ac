"""cardvec's Flip 7 against game-room 0.1.0's ``flip7_v0`` (the specification), step for step.

Each game is played by ``cardvec.Flip7Game`` with a random policy; game-room replays it
with the same actions and with cardvec's card order, fed through a stub ``np_random`` whose
``shuffle`` takes cardvec's logged shuffles (the opening deck and every recycled discard
pile). After every step the observation of the seat to act (every seat's at round ends),
the action mask, rewards, termination/truncation, scores and infos (``scores``,
``round_scores``, ``completed_round``, ``winners``) must agree exactly.

1,000 games by default, spread over 3, 4, 6, 10 and 18 players; `scripts/test.sh --long`
plays 30,000, and a longer run is
``FLIP7_ORACLE_GAMES=100000 python -m pytest python/tests/test_flip7_oracle.py``.
"""

import os

import numpy as np
import pytest

import cardvec

game_room = pytest.importorskip("game_room.flip7_v0")

GAMES = int(os.environ.get("FLIP7_ORACLE_GAMES", "1000"))

# The comparison lives in the package (cardvec.campaign runs it too).
from cardvec.oracles.flip7 import PLAYERS, play  # noqa: E402


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
