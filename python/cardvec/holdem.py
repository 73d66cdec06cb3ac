"""Hold'em hand evaluator and equity calculator (see docs/holdem-evaluator.md).

Cards are ids ``13 * suit + rank`` (suits c, d, h, s; ranks 2..A as 0..12) or strings such
as ``"As"``, ``"Td"`` or ``"♠A"``. Ranks are ordinals 1..7462, higher wins
(phevaluator's rank of the same hand is ``7463 - rank``). Bad input raises ``ValueError``.

- ``evaluate(cards)`` -> ``HandValue`` (``rank``, ``category``, ``category_index``, ``name``,
  ``best_five``, ``best_five_ids``); ``hand_name(cards)``; ``rank_name(rank)``.
- ``evaluate_batch(ids)`` -> ``(ranks uint16, categories uint8)`` for an (N, 5..7) integer
  array, in parallel without the GIL; Ctrl-C stops a large batch.
- ``equity(players, board="", dead="", samples=None, seed=0, exact=None, max_work=None,
  time_limit=None)`` -> dict. Ctrl-C stops it (``KeyboardInterrupt``); ``max_work`` (an
  integer >= 1) refuses up front a computation above it (``ValueError``), ``time_limit``
  (seconds > 0) stops it with ``TimeoutError``. A player is hole cards (``"AsAh"``) or a
  range: classes and spans (``"TT+,AKs"``, ``"A5s-A2s"``, ``"random"``), weights
  (``"AKs:0.5,QQ+,T9s:0.25"``: a deal weighs the product of its combos' weights) and
  percentages (``"15%"``: the top 15% of the 1,326 combos by the ranking of
  docs/holdem-evaluator.md, whole classes).
- ``range_combos(text)`` -> ``[(combo, weight), ...]``: what a range text holds.
- ``lbr(policy, hands=1000, seed=0, ...)`` -> dict: local best response against a
  heads-up no-limit policy, a lower bound on its exploitability in mbb per game with a 95%
  interval (docs/exploit.md).

Both run on a thread pool that is rebuilt in a forked process, so they work after
``os.fork()`` and in ``multiprocessing`` "fork" pools.
- ``parse_cards``, ``card_id``, ``card_str``, ``format_cards``.

No-limit hold'em (see docs/holdem.md):

- ``NoLimitHoldem(num_envs, seed=None, num_threads=None, autoreset=False, observe=True,
  chunk_size=None, num_players=2, small_blind=1, big_blind=2, ante=0, stack=None (100 big
  blinds), stacks=None, raise_fractions=[0.5, 1.0, 2.0], button=None)``: the batch
  environment, one hand per lane (``cardvec.make("holdem", ...)``). Discrete actions ``FOLD``, ``CHECK_CALL``,
  ``RAISE_BASE + k`` (raise by pot fraction ``k``), ``RAISE_BASE + K`` (all-in), and the
  exact raise-to entry point ``raise_to(chips)`` (``EXACT_RAISE | chips``), checked against
  ``legal_bounds(env)`` (illegal amounts are flagged no-ops; ``env`` must be a hold'em
  environment, else ``ValueError``).
- ``NoLimitHoldemGame(seed=0, **same options)``: one hand at a time (the PettingZoo wrapper
  ``cardvec.pettingzoo.holdem_v0`` drives it).
- A hand in which nobody has a decision (stacks no larger than the antes and blinds) is
  played out at the deal: the lane (or the single game) is terminated at once with each
  seat's result as its rewards.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, overload

import json as _json

import numpy as _np

from ._args import int_arg
from ._cardvec import NoLimitHoldemGame
from ._game_classes import NoLimitHoldem
from ._cardvec import holdem as _h

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from numpy import float32, int64, integer, uint8
    from numpy.typing import ArrayLike, NDArray
    from typing import Any, SupportsIndex

    from .spot import Solution

HandValue = _h.HandValue
parse_cards = _h.parse_cards
card_id = _h.card_id
card_str = _h.card_str
format_cards = _h.format_cards
evaluate = _h.evaluate
hand_name = _h.hand_name
rank_name = _h.rank_name
evaluate_batch = _h.evaluate_batch
equity = _h.equity
range_combos = _h.range_combos
HAND_CLASSES: int = _h.HAND_CLASSES
CATEGORIES: list[Any] = list(_h.CATEGORIES)
legal_bounds = _h.legal_bounds
FOLD: int = _h.FOLD
CHECK_CALL: int = _h.CHECK_CALL
RAISE_BASE: int = _h.RAISE_BASE
EXACT_RAISE: int = _h.EXACT_RAISE
MIN_PLAYERS: int = _h.MIN_PLAYERS
MAX_PLAYERS: int = _h.MAX_PLAYERS
#: The old names of ``MIN_PLAYERS`` and ``MAX_PLAYERS`` (kept for compatibility).
MIN_SEATS: int = MIN_PLAYERS
MAX_SEATS: int = MAX_PLAYERS


# An array (of any shape; SupportsIndex too, through numpy's __index__) matches first.
@overload
def raise_to(  # type: ignore[overload-overlap]
    chips: Sequence[SupportsIndex] | NDArray[integer[Any]],
) -> NDArray[int64]: ...
@overload
def raise_to(chips: SupportsIndex) -> int: ...
def raise_to(chips: Any) -> int | NDArray[int64]:
    """The action id of an exact raise to ``chips`` (whole chips: an int, a numpy integer or
    an integer array): ``EXACT_RAISE | chips``. ``chips`` must be in ``0..EXACT_RAISE``. A
    float (even a whole one), a bool or an amount out of range is a ``ValueError`` showing
    the value given."""
    if isinstance(chips, (bool, _np.bool_)):
        raise ValueError(f"raise_to takes whole chips (an integer), got {chips!r}")
    if isinstance(chips, (int, _np.integer)):
        if not 0 <= chips < EXACT_RAISE:
            raise ValueError(f"raise-to amounts must be in 0..{EXACT_RAISE - 1}, got {chips!r}")
        return int(chips) | EXACT_RAISE
    try:
        arr = _np.asarray(chips)
    except (TypeError, ValueError) as e:
        raise ValueError(f"raise_to takes whole chips (integers), got {chips!r}") from e
    if arr.dtype.kind not in "iu":
        big = arr.dtype.kind == "O" and all(
            isinstance(x, int) and not isinstance(x, bool) for x in arr.ravel().tolist()
        )
        if not big:
            raise ValueError(f"raise_to takes whole chips (integers), got {chips!r}")
    bad = [x for x in arr.ravel().tolist() if not 0 <= x < EXACT_RAISE]
    if bad:
        raise ValueError(f"raise-to amounts must be in 0..{EXACT_RAISE - 1}, got {bad[0]!r}")
    out = arr.astype(_np.int64) | EXACT_RAISE
    return int(out) if out.ndim == 0 else out


def lbr(
    policy: str | Callable[[NDArray[float32], NDArray[uint8]], ArrayLike] | Solution,
    hands: SupportsIndex = 1000,
    seed: SupportsIndex = 0,
    *,
    bets: str = "pot,all-in",
    preflop: str = "call",
    limp: bool = True,
    exact_limit: SupportsIndex = 1081,
    samples: SupportsIndex = 500,
    estimator: str = "sample",
    control: bool = False,
    threads: SupportsIndex | None = None,
    time_limit: float | None = None,
    **game: Any,
) -> dict[str, Any]:
    """Local best response (LBR) against a heads-up no-limit hold'em policy: a lower bound
    on its exploitability, in mbb per game with a 95% interval (docs/exploit.md).

    ``policy`` is a name (``"random"``, ``"call-station"``, ``"all-in"``, ``"equity"``,
    ``"equity-N"``, ``"pushfold"``, ``"policy:<path>"``) or a callable
    ``f(obs, mask) -> probs`` batched over holdings: ``obs`` is a float32 array
    ``(holdings, obs_dim)``, the observation of the seat to act with each holding in place of
    its hole cards, ``mask`` the uint8 legal mask ``(num_actions,)``, and ``probs`` a
    ``(holdings, num_actions)`` array of probabilities (rows summing to 1, zero on illegal
    actions). ``bets`` are LBR's sizes (``"pot,all-in"``; fractions ``0.5`` or ``50%``; ``""``
    for fold or call only), ``preflop`` ``"call"`` (the paper's) or ``"act"``, ``limp=False``
    forbids limping; runouts are enumerated up to ``exact_limit`` and ``samples`` are drawn
    otherwise. ``estimator="expect"`` measures each hand as the expectation of LBR's result
    over the policy's holdings and actions (all-ins run out), ``control=True`` corrects it by
    the all-in control variate: the same value, a smaller variance (the report's
    ``correction`` is the control's part). ``**game`` are the table's options (``stack=``, ``big_blind=``,
    ``raise_fractions=``, ...; heads-up). The result: ``mbb``, ``ci95``, ``hands``,
    ``positions`` (button, big blind) and ``streets`` (preflop .. river, by the last street
    reached), each ``{hands, mbb, ci95, share}``, ``showdowns``, ``options``. Results do
    not depend on ``threads``. Runs without the GIL (a Python policy takes it for its
    calls); Ctrl-C raises ``KeyboardInterrupt``, ``time_limit`` ``TimeoutError``. Bad
    arguments raise ``ValueError`` (``TypeError`` for a policy of another type).

    ``policy`` may also be a solved spot (a ``cardvec.spot.Solution``): LBR then starts
    every hand at the spot's root (its board, pot, stacks and ranges; the pot must be even),
    bets only the spot tree's sizes (``bets``, ``preflop`` and ``limp`` are not used), and
    the result's ``spot`` holds, per player (``players[0]`` LBR as OOP, ``[1]`` as IP),
    LBR's ``value`` in chips as the spot counts them with ``ci95``, the exact
    ``best_response`` and ``strategy_ev`` of the solve's strategy, and ``found`` (the share
    of the best response's gain LBR finds). ``control=True`` and table options are then a
    ``ValueError`` (docs/exploit.md, "From a spot's root")."""
    from .spot import Solution as _Solution

    text = _h.lbr_json(
        policy._solver if isinstance(policy, _Solution) else policy,
        hands,
        seed,
        bets,
        preflop,
        limp,
        exact_limit,
        samples,
        estimator,
        control,
        threads,
        time_limit,
        **game,
    )
    out: dict[str, Any] = _json.loads(text)
    return out


def observation_size(num_players: SupportsIndex) -> int:
    """Length of a no-limit observation: 118 + 9 * num_players (``num_players`` from 2 to
    10; a bool or another count is a ``ValueError``)."""
    num_players = int_arg(num_players, "num_players", MIN_PLAYERS, MAX_PLAYERS)
    return 118 + 9 * num_players

__all__ = [
    "HandValue",
    "parse_cards",
    "card_id",
    "card_str",
    "format_cards",
    "evaluate",
    "hand_name",
    "rank_name",
    "evaluate_batch",
    "equity",
    "range_combos",
    "lbr",
    "HAND_CLASSES",
    "CATEGORIES",
    "NoLimitHoldem",
    "NoLimitHoldemGame",
    "legal_bounds",
    "raise_to",
    "observation_size",
    "FOLD",
    "CHECK_CALL",
    "RAISE_BASE",
    "EXACT_RAISE",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
    "MIN_SEATS",
    "MAX_SEATS",
]
