"""The games' words from Python: action names, the view, the outcome and the readable state
text of every registered game, on the batch environment (per lane) and on the single-game
classes; the PettingZoo ``render`` drawn from them."""

import numpy as np
import pytest

import cardvec
from cardvec._cardvec import Flip7Game, NoLimitHoldemGame


def play_to_the_end(env, lane=0, limit=5000):
    rng = np.random.default_rng(1)
    actions = np.zeros(env.num_envs, dtype=np.int64)
    for _ in range(limit):
        if env.terminated[lane] or env.truncated[lane]:
            return
        actions[:] = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in env.legal_mask]
        env.step(actions)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game_id", [g["id"] for g in cardvec.games()])
def test_words_of_every_game(game_id):
    env = cardvec.make(game_id, 2, seed=3)
    text = env.state_text(1)
    assert not text.startswith("bytes:") and "\n" not in text
    # The text reads back to the same state, in another lane too.
    env.set_state_text(0, text)
    assert env.get_state(0) == env.get_state(1) and env.state_text(0) == text
    before = env.get_state(0)
    for bad in ("", text + " x", text.replace("=", ":", 1)):
        with pytest.raises(ValueError, match="state text"):
            env.set_state_text(0, bad)
    assert env.get_state(0) == before
    legal = np.flatnonzero(env.legal_mask[0])
    names = [env.action_name(0, int(a)) for a in legal]
    assert all(isinstance(n, str) and n for n in names) and len(set(names)) == len(names)
    assert env.action_name(0, 10**6) == f"action {10**6}"
    view = env.view(0, int(env.current_player[0]))
    assert isinstance(view, dict) and "kind" in view
    assert env.outcome(0) is None
    assert env.game_title == next(g["title"] for g in cardvec.games() if g["id"] == game_id)
    with pytest.raises(ValueError):
        env.view(0, env.num_players)
    with pytest.raises(ValueError):
        env.state_text(2)


def test_outcome_once_over():
    env = cardvec.make("kuhn", 1, seed=0)
    play_to_the_end(env)
    outcome = env.outcome(0)
    assert outcome is not None and set(outcome) >= {"results", "winners", "summary", "tie"}
    assert sum(outcome["results"]) == 0 and "wins" in outcome["summary"]


def test_a_written_state_text_sets_the_position():
    env = cardvec.make("leduc", 1)
    env.set_state_text(0, "cards=K0/Q1 public=K1 history=rc/r pot=7/3 to_act=1")
    assert int(env.current_player[0]) == 1
    assert env.action_name(0, 2) == "raise 4" and env.action_name(0, 1) == "call"
    with pytest.raises(ValueError, match="duplicate card K1"):
        env.set_state_text(0, "cards=K1/Q1 public=K1 history=/ pot=1/1 to_act=0")


def test_single_game_classes_have_the_words():
    game = Flip7Game(num_players=3, seed=5)
    text = game.state_text()
    assert "hands=" in text and game.action_name(0) == "hit" and game.outcome() is None
    assert game.view(0)["kind"] == "flip7"
    game.step(0)
    game.set_state_text(text)
    assert game.state_text() == text
    with pytest.raises(ValueError, match="state text"):
        game.set_state_text(text.replace("players=3", "players=4"))
    hand = NoLimitHoldemGame(7, num_players=3)
    assert hand.state_text().startswith("button=")
    assert hand.action_name(0) == "fold" and hand.view(0, True)["kind"] == "poker"
