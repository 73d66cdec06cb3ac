"""Postflop hold'em spots solved range against range (see docs/spot.md).

A spot is a board (flop, turn or river: 3 to 5 cards), the pot and the effective stack in
chips, the out-of-position (OOP, acts first) and in-position (IP) ranges in the notation of
``cardvec.holdem`` (weights ``AKs:0.5`` and percentages ``15%`` included), and a bet tree
(``bets`` and ``raises``: ``60%`` of the pot, ``2.5x`` a bet faced, ``e`` geometric, ``a``
all-in). ``solve`` runs the range-vector solver of the Rust library
(``cardvec::solve::spot``: DCFR by default, ``"cfr+"`` or ``"pcfr+"``) until the exact
exploitability of the average strategy is at most ``target`` % of the pot, after
``max_iterations`` iterations, or at ``time_limit`` seconds (the strategy reached is
returned, ``stop == "time_limit"``), without the GIL. Ctrl-C stops the solve after the
iteration under way and raises ``Interrupted``, a ``KeyboardInterrupt`` (so code catching
that, or nothing, behaves as with any long call) that keeps the strategy reached: its
``solution`` is the ``Solution`` so far (``stop == "interrupted"``, ``iterations`` those done,
the exploitability that of the strategy kept; ``history`` empty and ``seconds`` the time to
evaluate it), which ``save`` writes and ``solve`` continues exactly; ``Solution.solve``
interrupted updates the solution itself and raises the same.

The result is a ``Solution``. Its attributes (also readable as ``solution["key"]``, the
dict of earlier versions): ``exploitability`` (chips) and ``exploitability_pct``,
``iterations`` (over every solve of this solution), ``seconds``, ``memory_bytes``,
``nodes``, ``stop``, ``history`` (iteration, exploitability %), ``root_ev`` and
``root_equity`` (per player, OOP first: the EVs sum to the pot), ``hands`` (each player's
combos after card removal), ``hand_ev`` (per player, float64 per hand: its EV given that it
holds the hand, NaN where no opponent hand can be dealt), ``root_player``, ``root_actions``
(``"check"``, ``"bet:120"``, ...) and ``root_strategy`` (float32 ``actions x hands`` of the
root player's average strategy, each column a distribution) and ``root_action_ev``
(float64 ``actions x hands``: the EV of taking each root action with each hand and playing
the average strategy after it; mixed by ``root_strategy`` it gives ``hand_ev`` of the root
player).

``Solution.save(path)`` writes the spot, its options and the solver's whole state to a
compact binary file (docs/spot.md, "Spot files"); ``load(path)`` reads it back (also the
files of ``cardvec spot solve --save``), and ``Solution.solve(...)`` continues the solve
exactly where it stopped: N iterations, save, load, M more give the same bits as N + M.
``Solution.node(line, cards)`` reads any node (each hand's strategy, EV, equity and reach,
and the same by class and category, as numpy arrays) and ``Solution.subtree(...)`` exports
a subtree's strategies.

``locks`` fixes strategies at chosen nodes (node locking; docs/spot.md, "Node locking"): a
list of lock strings ``"[oop:|ip:]LINE=ACTION:FREQ,...[@HANDS]"`` as the CLI's ``--lock``
takes them, such as ``"check,bet:75%=call:1"`` (OOP always calls IP's 75% bet after its
check) or ``"bet:120=fold:0.3,call:0.7@QQ-99,AKo"`` (only those hands), ``*`` in a line
standing for every dealt card. The rest is solved against the locks; ``root_strategy`` and
``hand_ev`` follow them, ``exploitability`` is then the locked game's (each player's gain
by deviating where it is not locked), and the solution's ``locks`` (as given) and
``locked_nodes`` say what is locked. ``Solution.set_locks(...)`` replaces them (``[]``
unlocks) before a ``Solution.solve()`` that re-solves the rest; saved files keep them. A
bad lock (an unknown node or action, the other player's node, frequencies that are
negative or do not sum to 1) raises ``ValueError`` and changes nothing; ``locks`` that is
not a list of strings raises ``TypeError``.

Bad input (overlapping cards, an unknown size word, an empty range, a spot above
``max_memory`` bytes) raises ``ValueError`` (``MemoryError`` is not used: the spot is
refused before anything is allocated); so does a file that is not a spot file, from another
format version, truncated or corrupt.

    from cardvec import spot
    s = spot.solve("Td9d6hQc2s", 200, 900, "AA,KK,72o", "QQ,JJ", bets="75%", target=0.1)
    s.root_ev        # [oop, ip], summing to 200
    s.save("river.cvspot")
    t = spot.load("river.cvspot").solve(target=0.01)
"""
from __future__ import annotations

import json
import os
from typing import TYPE_CHECKING, Any

from ._cardvec import spot as _spot

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import SupportsFloat, SupportsIndex

    import numpy as np
    import numpy.typing as npt

    from ._cardvec.spot import _Node, _Solver, _Summary

__all__ = ["Interrupted", "Solution", "load", "solve"]


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a solve (``solve`` or ``Solution.solve``): a ``KeyboardInterrupt``
    whose ``solution`` keeps the strategy reached (``stop == "interrupted"``)."""

    def __init__(self, solution: Solution) -> None:
        super().__init__(
            f"spot solve interrupted after {solution.iterations} iterations "
            "(the strategy reached is in this exception's solution)"
        )
        #: The solution as the solve left it (``stop == "interrupted"``).
        self.solution = solution


def _interrupted(solver: _Solver) -> _Summary:
    """The summary of a solver that Ctrl-C stopped: the strategy as it is."""
    summary = solver.summary()
    summary["stop"] = "interrupted"
    return summary


class Solution:
    """A solved (or partly solved) spot: the solver's state and the summary of its last
    solve (see the module documentation for the attributes)."""

    __slots__ = ("_solver", "_summary")

    def __init__(self, solver: _Solver, summary: _Summary) -> None:
        self._solver = solver
        self._summary = summary

    @property
    def summary(self) -> _Summary:
        """The summary as a dict (the keys are the attribute names)."""
        return self._summary

    def __getitem__(self, key: str) -> Any:
        return self._summary[key]  # type: ignore[literal-required]

    def keys(self) -> list[str]:
        """The summary's keys."""
        return list(self._summary.keys())

    def __repr__(self) -> str:
        s = self._summary
        return (
            f"<cardvec.spot.Solution {s['algorithm']} {s['iterations']} iterations, "
            f"exploitability {s['exploitability_pct']:.4f}% of the pot>"
        )

    @property
    def algorithm(self) -> str:
        """``"dcfr"``, ``"cfr+"`` or ``"pcfr+"``."""
        return self._summary["algorithm"]

    @property
    def iterations(self) -> int:
        """Iterations run in all."""
        return self._summary["iterations"]

    @property
    def exploitability(self) -> float:
        """Exploitability of the average strategy, in chips."""
        return self._summary["exploitability"]

    @property
    def exploitability_pct(self) -> float:
        """The same in % of the starting pot."""
        return self._summary["exploitability_pct"]

    @property
    def root_ev(self) -> list[float]:
        """Each player's EV in chips (OOP first; they sum to the pot)."""
        return self._summary["root_ev"]

    @property
    def root_equity(self) -> list[float]:
        """Each player's equity at the root (the board run out, no betting)."""
        return self._summary["root_equity"]

    @property
    def seconds(self) -> float:
        """Seconds spent in the last solve."""
        return self._summary["seconds"]

    @property
    def memory_bytes(self) -> int:
        """The memory the solve needs."""
        return self._summary["memory_bytes"]

    @property
    def storage(self) -> str:
        """``"f32"``, or ``"16-bit"`` for a solve with ``compress=True``."""
        return self._summary["storage"]

    @property
    def isomorphism(self) -> bool:
        """Whether the last solve's training went through suit isomorphism (asked for, mirror
        nodes in the tree, no node locks)."""
        return self._summary["isomorphism"]

    @property
    def mirrors(self) -> int:
        """Nodes of the tree that mirror another under suit isomorphism (0 when no two suits
        are interchangeable on the board and in both ranges)."""
        return self._summary["mirrors"]

    @property
    def nodes(self) -> int:
        """Nodes of the public tree."""
        return self._summary["nodes"]

    @property
    def stop(self) -> str:
        """Why the last solve stopped: ``"target"``, ``"iterations"``, ``"time_limit"``,
        ``"cancelled"``, ``"interrupted"`` (Ctrl-C: see ``Interrupted``), or ``"loaded"``
        for a solution read by ``load`` and not solved since."""
        return self._summary["stop"]

    @property
    def history(self) -> list[tuple[int, float]]:
        """(iterations, exploitability %) at each check of the last solve."""
        return self._summary["history"]

    @property
    def hands(self) -> list[list[str]]:
        """Each player's combos after card removal."""
        return self._summary["hands"]

    @property
    def hand_ev(self) -> list[npt.NDArray[np.float64]]:
        """Each player's EV per hand at the root (NaN where no opponent hand is dealt)."""
        return self._summary["hand_ev"]

    @property
    def root_player(self) -> int | None:
        """The player to act at the root (None if the spot starts all-in)."""
        return self._summary["root_player"]

    @property
    def root_actions(self) -> list[str]:
        """The root's actions (``"check"``, ``"bet:120"``, ...)."""
        return self._summary["root_actions"]

    @property
    def root_strategy(self) -> npt.NDArray[np.float32]:
        """The root player's average strategy, ``actions x hands``."""
        return self._summary["root_strategy"]

    @property
    def root_action_ev(self) -> npt.NDArray[np.float64]:
        """Each root action's EV per hand, ``actions x hands``."""
        return self._summary["root_action_ev"]

    @property
    def locks(self) -> list[str]:
        """The node locks of the last solve, in the ``--lock`` form."""
        return self._summary["locks"]

    @property
    def locked_nodes(self) -> int:
        """How many decision nodes the locks lock (a ``*`` line locks one per card)."""
        return self._summary["locked_nodes"]

    def set_locks(self, locks: Iterable[str] | None) -> Solution:
        """Replaces the node locks (lock strings; ``[]`` or None unlocks) for the next
        ``solve``, which solves the rest against them from where the solution is; a bad lock
        raises ``ValueError`` and changes nothing. Returns this solution (its summary is
        the last solve's until the next one)."""
        self._solver.set_locks(locks)
        return self

    def solve(
        self,
        target: SupportsFloat | None = None,
        max_iterations: SupportsIndex | None = None,
        time_limit: SupportsFloat | None = None,
        check_every: SupportsIndex | None = None,
    ) -> Solution:
        """Continues the solve from where it stopped (the iterations count on; the options
        given replace the solution's own for this and later solves, None keeps them) and
        returns this solution, updated. Ctrl-C stops it after the iteration under way,
        updates this solution to the strategy reached (``stop == "interrupted"``) and
        raises ``Interrupted`` (a ``KeyboardInterrupt``) with it."""
        try:
            self._summary = self._solver.solve(target, max_iterations, time_limit, check_every)
        except KeyboardInterrupt as e:
            self._summary = _interrupted(self._solver)
            raise Interrupted(self) from e
        return self

    def node(self, line: str = "", cards: str | Sequence[str] | None = None) -> _Node:
        """The node of ``line`` (comma-separated actions from the root: ``check``,
        ``bet:75%``, ``bet:120``, ``raise:2.5x``, ``call``, ``fold``, ``allin``, and at a
        chance node the card, ``Kh``) with ``cards`` dealt in order at the chance nodes the
        line reaches without one. A dict: ``line`` (the words as matched), ``kind``
        (``"decision"``, ``"chance"``, ``"fold"``, ``"showdown"``), ``street``, ``board``,
        ``pot``, ``spent``, ``player`` (to act, or None), ``actions`` and ``action_pct``
        (a bet's or raise's size in % of the pot after the call), ``cards`` (those a chance
        node can deal); per player (OOP first) ``hands``, ``reach`` (float32: the range
        weight reaching the node), ``weight`` (float64: reach times the compatible
        opponent reach, the hand's probability weight there), ``ev`` and ``equity``
        (float64 per hand, NaN where undefined), ``classes`` and ``categories`` (the
        13x13 classes and the shape and made-hand groups: ``name``, ``hands``, and float64
        arrays ``combos``, ``weight``, ``ev``, ``equity``, ``strategy`` ``actions x
        groups`` for the player to act, weight-averaged); ``strategy`` (float32 ``actions x
        hands``) and ``action_ev`` (float64) of the player to act, or None. An unknown
        action, a missing or impossible card is a ``ValueError`` saying what is
        possible (docs/spot.md, "Reading a solved spot")."""
        return self._solver.node(line, cards)

    def subtree(
        self,
        line: str = "",
        cards: str | Sequence[str] | None = None,
        depth: SupportsIndex | None = None,
    ) -> dict[str, Any]:
        """The subtree below the node of ``line`` as ``cardvec spot show --subtree`` exports
        it (parsed JSON): ``line``, ``hands`` and ``node``, each node with ``action``,
        ``kind``, ``pot``, ``board``, a decision's ``player``, ``actions`` and
        ``strategy[action][hand]``, and ``children`` down to ``depth`` levels (None: all;
        ``truncated`` marks where it stops)."""
        text = self._solver.subtree(line, cards, None if depth is None else int(depth))
        value: dict[str, Any] = json.loads(text)
        return value

    def save(self, path: str | os.PathLike[str]) -> int:
        """Writes the spot, its tree and options and the solver's state to ``path`` (a
        temporary file renamed at the end); returns the file's size in bytes."""
        return self._solver.save(os.fspath(path))


def solve(
    board: str,
    pot: SupportsIndex,
    stack: SupportsIndex,
    oop_range: str,
    ip_range: str,
    bets: str = "60%,e,a",
    raises: str = "2.5x",
    target: SupportsFloat | None = 0.5,
    max_iterations: SupportsIndex | None = 1000,
    time_limit: SupportsFloat | None = None,
    algorithm: str = "dcfr",
    check_every: SupportsIndex | None = 10,
    max_memory: SupportsIndex | None = None,
    locks: Iterable[str] | None = None,
    *,
    oop_bets: str | None = None,
    ip_bets: str | None = None,
    oop_raises: str | None = None,
    ip_raises: str | None = None,
    donk: str | None = None,
    compress: bool = False,
    isomorphism: bool = True,
) -> Solution:
    """Solves a spot (see the module documentation); ``max_memory`` defaults to the
    library's limit; ``locks`` are node locks in the CLI's ``--lock`` form. Ctrl-C raises
    ``Interrupted`` (a ``KeyboardInterrupt``) holding the solution reached.

    Sizes are size specs, as ``cardvec spot solve`` takes them (docs/spot.md, "Bet
    sizes"): a list for every street (``"60%,e,a"``) or per street
    (``"flop:33%,75%;turn:60%;river:75%,a"``; for ``bets`` and ``raises`` a street not named
    has no size). ``oop_bets``, ``ip_bets``, ``oop_raises``, ``ip_raises`` replace ``bets``
    or ``raises`` for one player (streets not named keep them); ``donk`` gives OOP's sizes
    when it leads on the turn or river into IP, the last to bet or raise on the previous
    street (``"turn:"`` alone: no donk bet on the turn). A bad spec (unknown street or size
    word, a street twice, ``2.5x`` as a bet, donk sizes on the flop) is a ``ValueError``.

    ``compress=True`` keeps 16-bit storage: about half the memory, a strategy a little less
    precise (docs/spot.md, "16-bit storage"). ``isomorphism=False`` solves every turn and
    river card instead of solving a card of a suit interchangeable with another (on the
    board and in both ranges) through its twin (docs/spot.md, "Suit isomorphism")."""
    solver = _spot._Solver(
        board,
        pot,
        stack,
        oop_range,
        ip_range,
        bets,
        raises,
        target,
        max_iterations,
        time_limit,
        algorithm,
        check_every,
        max_memory,
        locks,
        oop_bets=oop_bets,
        ip_bets=ip_bets,
        oop_raises=oop_raises,
        ip_raises=ip_raises,
        donk=donk,
        compress=compress,
        isomorphism=isomorphism,
    )
    try:
        summary = solver.solve()
    except KeyboardInterrupt as e:
        raise Interrupted(Solution(solver, _interrupted(solver))) from e
    return Solution(solver, summary)


def load(path: str | os.PathLike[str]) -> Solution:
    """Reads a spot file written by ``Solution.save`` or ``cardvec spot solve --save``; the
    solution's summary describes the strategy as loaded (``stop == "loaded"``) and
    ``Solution.solve`` continues it."""
    solver = _spot._Solver.load(os.fspath(path))
    return Solution(solver, solver.summary())
