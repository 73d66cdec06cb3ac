"""The i151 arena against the official engine (i151-engine 0.2.4).

For the same match (same seed, same decisions) cardvec's replay must equal the official
recorder's output field by field: cardvec plays the match, then the official
`play_bots_match` replays the same decisions (scripted bots, or the same deterministic
student function) and the two `ReplayLog` dicts are compared. The official engine's 2-player
Queen refill defect (docs/151.md) makes the official bank and pile diverge when it fires: in
such a match only the steps before the defect are compared, the divergence is checked to
start exactly there, and the number of such matches is reported.

Also: a cheating Python bot (illegal action, exception, sleeping past the time limit)
forfeits with the official reason, the other seat wins and the result is recorded, exactly as
the official runner records it; bad input is a clear error.
"""

import json
import time

import pytest

i151_engine = pytest.importorskip("i151_engine")

from i151_engine.core import reducer  # noqa: E402
from i151_engine.models.action import Action  # noqa: E402
from i151_engine.models.card import Card, Suit  # noqa: E402
from i151_engine.runner.config import MatchConfig  # noqa: E402
from i151_engine.runner.match_runner import play_bots_match  # noqa: E402

from cardvec import arena  # noqa: E402

SUITS = {s.short_code: s for s in Suit}

_defect = {"fired": False}
_original_draw_from_bank = reducer._draw_from_bank


def _watched_draw_from_bank(bank, played_pile, count):
    """Only the 2-player Queen draw calls this; a refill here is the 0.2.4 defect."""
    if len(bank) < count and played_pile:
        _defect["fired"] = True
    return _original_draw_from_bank(bank, played_pile, count)


reducer._draw_from_bank = _watched_draw_from_bank


def to_action(a: dict) -> Action:
    if a["type"] == "PLAY_CARD":
        return Action.play_card(Card.from_code(a["card"]))
    if a["type"] == "DRAW_CARD":
        return Action.draw_card()
    if a["type"] == "PASS_TURN":
        return Action.pass_turn()
    if a["type"] == "CHOOSE_SUIT":
        return Action.choose_suit(SUITS[a["chosen_suit"]])
    raise AssertionError(a)


class Scripted:
    """Plays a fixed list of actions, then (optionally) a final `tail` behaviour."""

    def __init__(self, actions, tail=None):
        self.actions = list(actions)
        self.tail = tail

    def setup(self, path):
        pass

    def teardown(self):
        pass

    def decide(self, view, legal, time_left_ms):
        if self.actions:
            return self.actions.pop(0)
        if self.tail is not None:
            return self.tail(view, legal, time_left_ms)
        raise AssertionError("scripted bot ran out of actions")


def actions_by_player(replay):
    out = {"p0": [], "p1": []}
    for r in replay["rounds"]:
        for st in r["steps"]:
            out[st["player_id"]].append(to_action(st["action"]))
    return out


def official_replay(replay, p0_bot=None, p1_tail=None, p0_tail=None, timeout_ms=1000):
    """The official runner on the same seed with the same decisions."""
    acts = actions_by_player(replay)
    names = {p["id"]: p["name"] for p in replay["players"]}
    opp = replay["players"][1]["opponent_id"]
    _defect["fired"] = False
    p0 = p0_bot if p0_bot is not None else Scripted(acts["p0"], p0_tail)
    result = play_bots_match(
        p0,
        Scripted(acts["p1"], p1_tail),
        MatchConfig(seed=replay["seed"], decision_timeout_ms=timeout_ms),
        challenger_name=names["p0"],
        opponent_name=names["p1"],
        opponent_id=opp,
    )
    return result, result.replay.to_dict(), _defect["fired"]


def steps(replay):
    return [st for r in replay["rounds"] for st in r["steps"]]


def assert_same(ours, official, defect):
    """Field by field; with the defect, the steps before it and the divergence at it."""
    if not defect:
        for key in ("version", "seed", "config", "players", "result"):
            assert ours[key] == official[key], key
        assert len(ours["rounds"]) == len(official["rounds"])
        for a, b in zip(ours["rounds"], official["rounds"]):
            assert a["round_number"] == b["round_number"]
            assert a["winner_id"] == b["winner_id"]
            assert len(a["steps"]) == len(b["steps"])
            for sa, sb in zip(a["steps"], b["steps"]):
                assert sa == sb, (sa, sb)
        assert ours == official
        # The JSON text too (key order and UTF-8 like `ReplayLog.to_json()`).
        assert json.dumps(ours, ensure_ascii=False) == json.dumps(official, ensure_ascii=False)
        return
    for key in ("version", "seed", "config", "players"):
        assert ours[key] == official[key], key
    sa, sb = steps(ours), steps(official)
    k = next(i for i, (x, y) in enumerate(zip(sa, sb)) if x != y)
    assert sa[:k] == sb[:k]
    a, b = sa[k]["snapshot"]["table"], sb[k]["snapshot"]["table"]
    assert a["played_pile_size"] == 0 and b["played_pile_size"] > 0, (a, b)


PAIRS = [
    ("builtin:greedy", "builtin:medium"),
    ("builtin:random", "builtin:greedy"),
    ("builtin:medium", "builtin:minmax_d3"),
    ("builtin:random", "builtin:random"),
]


def test_catalog_replays_equal_the_official_recorder():
    full = defect = 0
    for i in range(48):
        a, b = PAIRS[i % len(PAIRS)]
        ours = arena.play_catalog_match(a, b, seed=1000 + 7 * i, bot_seed=i)
        replay = ours["replay"]
        result, official, defect_step = official_replay(replay)
        assert_same(replay, official, defect_step)
        if not defect_step:
            full += 1
            assert result.winner_id == ours["winner_id"]
            assert result.reason == ours["reason"]
            assert result.final_scores == ours["final_scores"]
            assert result.rounds_played == ours["rounds_played"]
            assert result.steps_played == ours["steps_played"]
        else:
            defect += 1
    print(f"replays equal: {full} whole matches; {defect} compared up to the Queen refill defect")
    assert full >= 40


def first_legal(view, legal, time_left_ms):
    return legal[0]


class Recording:
    """A deterministic student bot that records every view and legal list it is given."""

    def __init__(self):
        self.seen = []

    def setup(self, path):
        pass

    def teardown(self):
        pass

    def decide(self, view, legal, time_left_ms):
        self.seen.append((view, tuple(legal), time_left_ms))
        # Prefer the last legal play, else the first action: depends on the order given.
        plays = [a for a in legal if a.card is not None]
        return plays[-1] if plays else legal[0]


def test_python_bot_sees_the_sdk_view_and_replays_equal():
    full = 0
    for i, opp in enumerate(["builtin:random", "builtin:greedy", "builtin:medium", "builtin:minmax_d3"] * 3):
        ours_bot = Recording()
        ours = arena.play_match(ours_bot, opp, seed=500 + i, bot_seed=i, challenger_name="Team Alpha")
        assert all(type(v).__module__ == "i151_engine.view.player_view" for v, _, _ in ours_bot.seen)
        # The same student function in the official runner, the opponent scripted.
        off_bot = Recording()
        result, official, defect_step = official_replay(ours["replay"], p0_bot=off_bot)
        assert_same(ours["replay"], official, defect_step)
        if not defect_step:
            full += 1
            # Same views (every field of the SDK dataclasses), same legal lists, same order.
            assert len(ours_bot.seen) == len(off_bot.seen)
            for (va, la, ta), (vb, lb, tb) in zip(ours_bot.seen, off_bot.seen):
                assert la == lb
                assert va == vb, (va, vb)
                assert ta == tb == 1000
    assert full >= 9


def _cheat_after(n, how):
    state = {"calls": 0}

    def decide(view, legal, time_left_ms):
        state["calls"] += 1
        if state["calls"] < n:
            return legal[0]
        if how == "illegal":
            held = {c for c in view.you.hand}
            playable = {a.card for a in legal if a.card is not None}
            bad = [c for c in held if c not in playable]
            # A card it holds but may not play, or a pass it may not make.
            return Action.play_card(bad[0]) if bad else Action.choose_suit(Suit.HEARTS)
        if how == "exception":
            raise RuntimeError("bot crashed")
        if how == "sleep":
            time.sleep(0.5)
            return legal[0]
        if how == "garbage":
            return "not an action"
        raise AssertionError(how)

    return decide


@pytest.mark.parametrize(
    "how,reason",
    [("illegal", "forfeit"), ("exception", "forfeit"), ("sleep", "timeout"), ("garbage", "forfeit")],
)
def test_cheating_python_bot_forfeits(how, reason):
    r = arena.play_match(_cheat_after(5, how), "builtin:greedy", seed=42, decision_timeout_ms=200)
    assert r["reason"] == reason
    assert r["forfeited_player_id"] == "p0"
    assert r["winner_id"] == "p1"
    rep = r["replay"]
    assert rep["result"] == {
        "winner_id": "p1",
        "final_scores": r["final_scores"],
        "reason": reason,
        "forfeited_player_id": "p0",
    }
    # The forfeiting seat adds only its hand's points; the other seat's score stands.
    last = steps(rep)[-1]["snapshot"]
    assert r["final_scores"]["p1"] == last["scores"]["p1"]
    assert r["final_scores"]["p0"] > last["scores"]["p0"]
    # The official runner records the same forfeit for the same decisions.
    result, official, defect_step = official_replay(
        rep, p0_tail=_cheat_after(1, how), timeout_ms=200
    )
    assert not defect_step
    assert result.reason == reason and result.forfeited_player_id == "p0"
    assert official == rep


def test_step_limit_forfeits_the_seat_to_act():
    r = arena.play_match(first_legal, "builtin:random", seed=9, max_steps_per_round=5)
    assert r["reason"] == "max_steps"
    # The official runner with the same limit forfeits the same seat at the same step.
    acts = actions_by_player(r["replay"])
    res = play_bots_match(
        Scripted(acts["p0"], first_legal),
        Scripted(acts["p1"], first_legal),
        MatchConfig(seed=9, max_steps_per_round=5),
        challenger_name="Challenger",
        opponent_name="Aléatoire",
        opponent_id="builtin:random",
    )
    assert res.reason == "max_steps"
    assert res.replay.to_dict() == r["replay"]


def test_bad_input_is_a_clear_error(tmp_path):
    with pytest.raises(arena.UnknownOpponentError):
        arena.play_match(first_legal, "builtin:nobody", seed=1)
    with pytest.raises(ValueError, match="decision_timeout_ms"):
        arena.play_match(first_legal, "builtin:random", seed=1, decision_timeout_ms=0)
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "seed": 3}')
    with pytest.raises(ValueError, match="151 replay"):
        arena.load_replay(bad)
    good = tmp_path / "good.json"
    r = arena.play_match(first_legal, "builtin:random", seed=1)
    good.write_text(json.dumps(r["replay"], ensure_ascii=False))
    assert arena.load_replay(good) == r["replay"]
    ids = [s["id"] for s in arena.catalog()]
    assert ids[:6] == [
        "builtin:random",
        "builtin:greedy",
        "builtin:medium",
        "builtin:minmax_d3",
        "builtin:minmax_d5",
        "builtin:minmax_d6",
    ]
