"""The i151 arena: run a student's bot against the catalog bots with cardvec's match runner.

A bot is either a function ``decide(view, legal_actions, time_left_ms) -> Action`` or an
object with that ``decide`` method (and optional ``setup(path)`` / ``teardown()``), exactly
as the i151 SDK defines it: ``view`` is ``i151_engine.view.player_view.PlayerView`` and
``legal_actions`` a list of ``i151_engine.models.action.Action`` in the official order
(``i151-engine`` must be installed). The runner follows the official
``runner/match_runner.py``: the bot forfeits on an exception (a subclass of ``Exception``:
``reason="forfeit"``), on an action that is not one of ``legal_actions`` (``"forfeit"``)
and on a decision slower than
``decision_timeout_ms`` (``"timeout"``; on the main thread the call is interrupted with
``SIGALRM`` like the official runner, elsewhere it is measured after it returns); a round
longer than ``max_steps_per_round`` forfeits the seat to act (``"max_steps"``). The
forfeiting seat adds only its hand's points. ``KeyboardInterrupt``, ``SystemExit`` and
``GeneratorExit`` (exceptions that are not ``Exception``s) are not the bot's failure: they
stop the match and propagate out of ``play_match`` (after ``teardown``), so Ctrl-C stops
it. ``play_catalog_match`` also stops on Ctrl-C, at the next decision.

    from cardvec import arena
    result = arena.play_match(my_decide, "builtin:minmax_d3", seed=7)
    result["winner_id"], result["reason"], result["final_scores"], result["replay"]
"""

from __future__ import annotations

import json
import signal
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING

from ._cardvec import arena as _arena

if TYPE_CHECKING:
    from collections.abc import Callable
    from os import PathLike
    from typing import Any, Protocol, SupportsIndex

    from typing_extensions import TypeAlias

    # i151-engine's types (PlayerView, Action) are not typed; a bot sees them as Any.
    _Decide: TypeAlias = Callable[[Any, list[Any], int], Any]

    class _BotObject(Protocol):
        def decide(self, view: Any, legal_actions: list[Any], time_left_ms: int, /) -> Any: ...

__all__ = ["play_match", "play_catalog_match", "catalog", "load_replay", "UnknownOpponentError"]


class UnknownOpponentError(KeyError, ValueError):
    """An opponent id the catalog does not hold."""


def catalog() -> list[dict[str, Any]]:
    """The opponent catalog (stable ids, names, kinds, tiers, tags, ``implemented``)."""
    return _arena.opponent_catalog()


def _check_opponent(opponent_id: str) -> None:
    # A trained network (``policy:<path>``) is checked by the engine against the match's rules.
    if opponent_id.startswith("policy:"):
        return
    if opponent_id not in {s["id"] for s in catalog()}:
        raise UnknownOpponentError(opponent_id)


def _sdk() -> Any:
    from i151_engine.models.action import Action
    from i151_engine.models.card import Card, Suit
    from i151_engine.view.player_view import (
        MatchContext,
        OpponentState,
        PlayerView,
        TableState,
        TurnState,
        YouState,
    )

    return Action, Card, Suit, PlayerView, YouState, OpponentState, TableState, TurnState, MatchContext


_SUIT_CODES = "SHDC"


def _build(v: dict[str, Any], legal: list[int]) -> Any:
    Action, Card, Suit, PlayerView, YouState, OpponentState, TableState, TurnState, MatchContext = _sdk()
    suits = {s.short_code: s for s in Suit}
    card = Card.from_code
    you = dict(v["you"])
    you["hand"] = tuple(card(c) for c in you["hand"])
    table = dict(v["table"])
    table["recent_cards"] = tuple(card(c) for c in table["recent_cards"])
    table["last_play_cards"] = tuple(card(c) for c in table["last_play_cards"])
    table["required_suit"] = suits[table["required_suit"]] if table["required_suit"] else None
    m = dict(v["match"])
    m["seats"] = tuple(m["seats"])
    view = PlayerView(
        you=YouState(**you),
        opponents=tuple(OpponentState(**o) for o in v["opponents"]),
        table=TableState(**table),
        turn=TurnState(**v["turn"]),
        match=MatchContext(**m),
    )
    deck = [Card.from_code(r + s) for s in _SUIT_CODES for r in "AKQJT987"]
    actions = []
    for a in legal:
        if a < 32:
            actions.append(Action.play_card(deck[a]))
        elif a == 32:
            actions.append(Action.draw_card())
        elif a == 33:
            actions.append(Action.pass_turn())
        else:
            actions.append(Action.choose_suit(suits[_SUIT_CODES[a - 34]]))
    return view, actions


def _call_with_timeout(decide: Any, view: Any, legal: Any, timeout_ms: int) -> Any:
    """The official runner's `_decide_with_timeout`: SIGALRM on the main thread, else a
    check after the call."""
    can_signal = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not can_signal:
        started = time.monotonic()
        action = decide(view, legal, timeout_ms)
        if int((time.monotonic() - started) * 1000) > timeout_ms:
            raise TimeoutError()
        return action

    def _on_alarm(signum: Any, frame: Any) -> None:
        raise TimeoutError()

    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout_ms / 1000.0)
    try:
        return decide(view, legal, timeout_ms)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _adapter(decide: Any) -> Any:
    def adapter(view_dict: dict[str, Any], legal: list[int], time_left_ms: int) -> int:
        view, actions = _build(view_dict, legal)
        action = _call_with_timeout(decide, view, actions, time_left_ms)
        try:
            return int(legal[actions.index(action)])
        except ValueError:
            return -1  # not a legal action: the runner forfeits the bot

    return adapter


def _result(raw: dict[str, Any]) -> dict[str, Any]:
    out = dict(raw)
    out["replay"] = json.loads(out.pop("replay_json"))
    return out


def play_match(
    bot: _Decide | _BotObject,
    opponent_id: str,
    seed: SupportsIndex,
    *,
    challenger_name: str = "Challenger",
    decision_timeout_ms: SupportsIndex = 1000,
    max_steps_per_round: SupportsIndex = 500,
    cards_per_player: SupportsIndex = 8,
    target_score: SupportsIndex = 151,
    bot_seed: SupportsIndex = 0,
    submission_dir: Path | None = None,
) -> dict[str, Any]:
    """Plays ``bot`` (seat ``p0``, the challenger) against the catalog bot ``opponent_id``
    (seat ``p1``; or a trained network, ``policy:<path>``, docs/policies.md) in the match of
    ``seed``. Returns ``winner_id``, ``reason``
    (``normal | forfeit | timeout | max_steps``), ``forfeited_player_id``, ``detail``,
    ``final_scores``, ``rounds_played``, ``steps_played`` and ``replay`` (the official
    recorder's dict). ``UnknownOpponentError`` for an id the catalog does not hold;
    ``ValueError`` for a time limit <= 0 or a policy file that cannot be read or was trained
    with other rules. ``KeyboardInterrupt`` or ``SystemExit`` raised by
    the bot stops the match and propagates (an ``Exception`` forfeits the bot)."""
    _check_opponent(opponent_id)
    decide = getattr(bot, "decide", bot)
    if not callable(decide):
        raise TypeError("bot must be a decide(view, legal_actions, time_left_ms) function or have .decide")
    setup = getattr(bot, "setup", None)
    teardown = getattr(bot, "teardown", None)
    if callable(setup) and setup is not decide:
        setup(submission_dir or Path("."))
    try:
        raw = _arena.play_python_match(
            _adapter(decide),
            opponent_id,
            seed,
            challenger_name=challenger_name,
            decision_timeout_ms=decision_timeout_ms,
            max_steps_per_round=max_steps_per_round,
            cards_per_player=cards_per_player,
            target_score=target_score,
            bot_seed=bot_seed,
        )
    finally:
        if callable(teardown):
            teardown()
    return _result(raw)


def play_catalog_match(
    challenger_id: str,
    opponent_id: str,
    seed: SupportsIndex,
    *,
    decision_timeout_ms: SupportsIndex = 1000,
    max_steps_per_round: SupportsIndex = 500,
    bot_seed: SupportsIndex = 0,
) -> dict[str, Any]:
    """Catalog bot against catalog bot through the same runner (the result as ``play_match``);
    either may be a trained network, ``policy:<path>``."""
    _check_opponent(challenger_id)
    _check_opponent(opponent_id)
    return _result(
        _arena.play_catalog_match(
            challenger_id,
            opponent_id,
            seed,
            decision_timeout_ms=decision_timeout_ms,
            max_steps_per_round=max_steps_per_round,
            bot_seed=bot_seed,
        )
    )


def load_replay(path: str | PathLike[str]) -> dict[str, Any]:
    """Reads and checks a replay file; ``ValueError`` if it is malformed."""
    text = Path(path).read_text(encoding="utf-8")
    replay: dict[str, Any] = json.loads(_arena.check_replay(text))
    return replay
