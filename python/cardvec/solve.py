"""Solvers and exploitability for games with a game tree (``tree_ids()``: Kuhn, Leduc, ...),
computed in Rust without the GIL (Ctrl-C stops them)::

    sol = cardvec.solve.cfr("leduc", 1000)              # CFR+ by default
    sol.exploitability, sol.game_value                    # of the average policy
    sol.policy["0"]                                       # {action: probability}
    cardvec.solve.exploitability("kuhn", "uniform")       # 0.4583333...

A policy is ``"uniform"`` or a table ``{info_state_string: probabilities}`` over every
information state of the game, the probabilities either a sequence over the game's
``num_actions`` actions or a dict ``{action: probability}`` (illegal actions absent or 0).
The strings are the game's information-state strings; for Kuhn and Leduc OpenSpiel's
``information_state_string``, so a policy goes to OpenSpiel and back unchanged
(``docs/cfr.md``). Exploitability is NashConv divided by the number of players, as
OpenSpiel's ``exploitability.exploitability``.

Game options are keyword arguments (``**options``), as in ``cardvec.make``.
"""
from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING

from ._cardvec import solve as _s

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from os import PathLike
    from typing import Any, Literal, SupportsIndex

    from typing_extensions import TypeAlias

    _Table: TypeAlias = Mapping[str, Sequence[float] | Mapping[int, float]]

__all__ = [
    "Solution",
    "ALGORITHMS",
    "tree_ids",
    "cfr",
    "evaluate",
    "exploitability",
    "nash_conv",
    "best_response_value",
    "policy_value",
    "save_policy",
    "load_policy",
]

#: The algorithms ``cfr`` runs.
ALGORITHMS: tuple[str, ...] = ("cfr", "cfr+", "dcfr", "pcfr+", "es-mccfr", "os-mccfr")


def tree_ids() -> list[str]:
    """The ids of the games the solvers accept (a new list)."""
    return _s.tree_ids()


class Solution:
    """What ``cfr`` returns: the average policy and its exact evaluation.

    Attributes: ``game_id``, ``algorithm``, ``iterations`` (done in all, a resumed run's
    included), ``resumed_from`` (the iterations of the ``resume`` file, 0 without),
    ``stopped`` (``None``, or
    ``"time-limit"`` when ``time_limit`` ended the run early), ``policy`` (``{info_state_string:
    {action: probability}}``), ``exploitability``, ``nash_conv``, ``game_value`` (the first
    player's expected return), ``values`` (every player's), ``best_response_values``,
    ``curve`` (``[(iteration, exploitability, seconds)]``, one point every ``every``
    iterations and one at the end), ``seconds`` (time spent iterating), ``nodes`` and
    ``infosets`` (the size of the game tree).
    """

    game_id: str
    options: dict[str, Any]
    algorithm: str
    iterations: int
    resumed_from: int
    stopped: str | None
    policy: dict[str, dict[int, float]]
    exploitability: float
    nash_conv: float
    game_value: float
    values: list[float]
    best_response_values: list[float]
    curve: list[tuple[int, float, float]]
    seconds: float
    nodes: int
    infosets: int

    def __init__(self, game_id: str, options: Mapping[str, Any], raw: Mapping[str, Any]) -> None:
        self.game_id = game_id
        self.options = dict(options)
        self.algorithm = raw["algorithm"]
        self.iterations = raw["iterations"]
        self.resumed_from = raw["resumed_from"]
        self.stopped = raw["stopped"]
        self.policy = raw["policy"]
        self.exploitability = raw["exploitability"]
        self.nash_conv = raw["nash_conv"]
        self.game_value = raw["game_value"]
        self.values = raw["values"]
        self.best_response_values = raw["best_response_values"]
        self.curve = [tuple(p) for p in raw["curve"]]
        self.seconds = raw["seconds"]
        self.nodes = raw["nodes"]
        self.infosets = raw["infosets"]

    def __repr__(self) -> str:
        return (
            f"Solution(game_id={self.game_id!r}, algorithm={self.algorithm!r}, "
            f"iterations={self.iterations}, exploitability={self.exploitability:.6g}, "
            f"game_value={self.game_value:.6g})"
        )


def cfr(
    game_id: str,
    iterations: SupportsIndex,
    algorithm: str = "cfr+",
    seed: SupportsIndex | None = 0,
    every: SupportsIndex | None = 0,
    *,
    lanes: SupportsIndex = 1,
    epsilon: float = 0.6,
    max_nodes: SupportsIndex | None = None,
    time_limit: float | None = None,
    save: str | PathLike[str] | None = None,
    resume: str | PathLike[str] | None = None,
    **options: Any,
) -> Solution:
    """Runs ``algorithm`` (``"cfr"``, ``"cfr+"``, ``"dcfr"``, ``"pcfr+"``, ``"es-mccfr"``,
    ``"os-mccfr"``) for ``iterations`` iterations on game ``game_id`` and returns a
    ``Solution``.

    CFR and CFR+ are OpenSpiel's ``CFRSolver`` and ``CFRPlusSolver`` (alternating updates;
    CFR+ with regret matching+ and linear averaging) on the enumerated tree; DCFR is
    discounted CFR (alpha 1.5, beta 0, gamma 2) and PCFR+ predictive CFR+ with quadratic
    averaging (``docs/cfr.md``). The MCCFR
    algorithms play ``lanes`` sampled traversals per player per iteration in parallel
    (lane ``l`` of iteration ``i`` draws from stream ``(seed, l, i)``: the result depends on
    ``seed`` and ``lanes``, never on threads). ``every`` > 0 adds a curve point every that
    many iterations. After ``time_limit`` seconds the run stops and returns the solution
    reached (``stopped == "time-limit"``). A tree above ``max_nodes`` nodes is refused. Bad arguments are a
    ``ValueError`` (``TypeError`` for a wrong type) naming the value given.

    ``save`` (a path, checked for writing before the solve starts) is written with the
    run's state (regrets, averages, MCCFR's sets) when the solve stops, whatever the reason:
    the iterations done, ``time_limit``, or Ctrl-C (the file is written before
    ``KeyboardInterrupt`` is raised). ``resume`` (a path written by ``save`` or ``cardvec
    solve --save``) continues that run exactly: ``iterations`` more, counting on from the
    file's (``Solution.iterations`` is the total, ``Solution.resumed_from`` the file's), so
    N, save, resume, M give the same policy, bit for bit, as N + M at once. The game,
    options, ``algorithm``, ``seed``, ``lanes`` and ``epsilon`` must be the file's, and a
    file that is not a run file, of another format version, truncated or corrupt is
    refused: each a ``ValueError`` saying which.
    """
    if not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be a str, got {algorithm!r}")
    raw = _s.solve(_game_id(game_id), iterations, algorithm, seed=seed, every=every,
                   lanes=lanes, epsilon=_number(epsilon, "epsilon"), max_nodes=max_nodes,
                   options=options, time_limit=time_limit,
                   save=None if save is None else os.fspath(save),
                   resume=None if resume is None else os.fspath(resume))
    return Solution(game_id, options, raw)


def evaluate(
    game_id: str,
    policy: Literal["uniform"] | _Table | Solution = "uniform",
    *,
    max_nodes: SupportsIndex | None = None,
    **options: Any,
) -> dict[str, Any]:
    """The exact evaluation of ``policy`` on game ``game_id``: a dict with
    ``exploitability``, ``nash_conv``, ``values`` (every player's expected return) and
    ``best_response_values`` (every player's return when it best-responds to the others).
    A bad table (unknown information state, a missing one, a negative probability,
    probabilities not summing to 1, a sequence of the wrong length) is a ``ValueError``
    naming the information state."""
    if isinstance(policy, Solution):
        policy = policy.policy
    return _s.evaluate(_game_id(game_id), policy, max_nodes=max_nodes, options=options)


def exploitability(
    game_id: str,
    policy: Literal["uniform"] | _Table | Solution = "uniform",
    **options: Any,
) -> float:
    """NashConv / number of players of ``policy`` (OpenSpiel's ``exploitability``)."""
    return float(evaluate(game_id, policy, **options)["exploitability"])


def nash_conv(
    game_id: str,
    policy: Literal["uniform"] | _Table | Solution = "uniform",
    **options: Any,
) -> float:
    """The sum over players of what a best response gains over ``policy``."""
    return float(evaluate(game_id, policy, **options)["nash_conv"])


def best_response_value(
    game_id: str,
    policy: Literal["uniform"] | _Table | Solution,
    player: SupportsIndex,
    **options: Any,
) -> float:
    """``player``'s expected return when it best-responds to the others' ``policy``."""
    values = evaluate(game_id, policy, **options)["best_response_values"]
    return float(values[_player(player, len(values))])


def policy_value(
    game_id: str,
    policy: Literal["uniform"] | _Table | Solution,
    player: SupportsIndex = 0,
    **options: Any,
) -> float:
    """``player``'s expected return when every player plays ``policy``."""
    values = evaluate(game_id, policy, **options)["values"]
    return float(values[_player(player, len(values))])


def save_policy(path: str | PathLike[str], policy: _Table | Solution, game_id: str) -> None:
    """Writes ``policy`` (a table, or a ``Solution``'s) as JSON in the format of
    ``cardvec solve --policy-out``: ``{"game": id, "options": "", "policy":
    {info_state_string: {action: probability}}}``."""
    if isinstance(policy, Solution):
        policy = policy.policy
    table = {k: ({str(a): p for a, p in v.items()} if isinstance(v, dict)
                 else {str(a): p for a, p in enumerate(v)}) for k, v in policy.items()}
    with open(path, "w") as f:
        json.dump({"game": game_id, "options": "", "policy": table}, f, indent=1)


def load_policy(
    path: str | PathLike[str], game_id: str | None = None
) -> dict[str, dict[int, float]]:
    """Reads a policy written by ``save_policy`` or ``cardvec solve --policy-out``:
    ``{info_state_string: {action: probability}}``, checked against its game: the game the
    file names (and ``game_id`` when given) must have a tree, and the table must be a full
    policy of it (every information state and no other, each row a finite, non-negative
    distribution over the legal actions summing to 1). A bad file is a ``ValueError`` saying
    what is wrong (naming the information state for a bad row)."""
    if game_id is not None:
        game_id = _game_id(game_id)
    with open(path) as f:
        text = f.read()
    _game, _options, table = _s.load_policy(text, game_id)
    return table


def _game_id(game_id: object) -> str:
    if not isinstance(game_id, str):
        raise TypeError(f"game_id must be a str, got {game_id!r}")
    return game_id


def _number(x: object, what: str) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        raise TypeError(f"{what} must be a number, got {x!r}")
    return float(x)


def _player(player: SupportsIndex, n: int) -> int:
    if isinstance(player, bool) or not hasattr(player, "__index__"):
        raise TypeError(f"player must be an integer, got {player!r}")
    p = player.__index__()
    if not 0 <= p < n:
        raise ValueError(f"player must be in 0..={n - 1}, got {p}")
    return p
