"""Flip 7 as a PettingZoo AEC environment, a drop-in for game-room 0.1.0's ``flip7_v0``.

Same constructor (``num_players=3, target_score=200, max_rounds=None, render_mode=None``),
agents (``player_0`` ..), action ids (0 Hit, 1 Stay, 2 + seat), observation dictionary
(``observation`` float64 [419 + 24 N], ``action_mask`` int8 [2 + N]), rewards (points at
each round's end), infos (``scores``, ``round_scores``, ``completed_round``, ``winners``
after a round ends), termination/truncation, and ``ValueError`` on an illegal action
(nothing changes). The rules run in cardvec's Rust engine; only the random stream differs
from game-room (the same seed deals different cards: ``reset(seed=S)`` deals what lane 0
of ``cardvec.Flip7(n, seed=S)`` deals). Rendering lists each seat's cards by card id
(game-room lists them in arrival order). ``parallel_env(...)`` takes the same arguments
(the Parallel API, see ``cardvec.pettingzoo._parallel``).
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

import gymnasium.error
import numpy as np
from gymnasium import spaces

from .._cardvec import Flip7Game
from ._aec import CardvecAEC, wrap
from ._parallel import CardvecParallel
from ._words import render_table

if TYPE_CHECKING:
    from typing import Any, ClassVar

    from numpy.typing import NDArray

    from ._aec import CardvecAEC, _OrderEnforcing
ACTIVE: int
STAYED: int
BUSTED: int
FROZEN: int

HIT: int = 0
STAY: int = 1
TARGET_OFFSET: int = 2
CARD_COUNT: int = 22
ACTIVE, STAYED, BUSTED, FROZEN = range(4)


def _cards(counts: Any) -> list[Any]:
    """Card ids from counts per id, in id order."""
    return [card for card, k in enumerate(counts) for _ in range(k)]


def env(
    *,
    num_players: int = 3,
    target_score: int = 200,
    max_rounds: int | None = None,
    render_mode: str | None = None,
) -> _OrderEnforcing:
    """Create a wrapped AEC environment; illegal actions raise an exception."""
    return wrap(
        raw_env(
            num_players=num_players,
            target_score=target_score,
            max_rounds=max_rounds,
            render_mode=render_mode,
        )
    )


def parallel_env(
    *,
    num_players: int = 3,
    target_score: int = 200,
    max_rounds: int | None = None,
    render_mode: str | None = None,
) -> CardvecParallel:
    """Create a Parallel environment (turn-based: only the agent to act's action is
    applied; see ``cardvec.pettingzoo._parallel``)."""
    return CardvecParallel(
        raw_env(
            num_players=num_players,
            target_score=target_score,
            max_rounds=max_rounds,
            render_mode=render_mode,
        )
    )


class raw_env(CardvecAEC):

    game: Flip7Game
    num_players: int
    target_score: int
    max_rounds: int | None
    metadata: ClassVar[dict[str, Any]] = {
        "name": "flip7_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 3,
        target_score: int = 200,
        max_rounds: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        # The Rust side validates with flip7_v0's messages (ValueError).
        self.game = Flip7Game(num_players, target_score, max_rounds, 0)
        # Validated integers (numpy integers included) as Python ints from here on, as
        # game-room keeps them (Gymnasium's spaces refuse numpy integers as sizes).
        num_players, target_score = int(num_players), int(target_score)
        max_rounds = None if max_rounds is None else int(max_rounds)
        self._set_render_mode(render_mode)
        self.num_players = num_players
        self.target_score = target_score
        self.max_rounds = max_rounds
        self._init_agents(
            num_players,
            {
                "num_players": num_players,
                "target_score": target_score,
                "max_rounds": max_rounds,
                "render_mode": render_mode,
            },
        )
        self.action_spaces = {
            agent: spaces.Discrete(TARGET_OFFSET + num_players) for agent in self.possible_agents
        }
        self._observation_size = 10 + num_players * 24 + CARD_COUNT + 128 * 3 + 3
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0, np.inf, (self._observation_size,), dtype=np.float64
                    ),
                    "action_mask": spaces.MultiBinary(TARGET_OFFSET + num_players),
                }
            )
            for agent in self.possible_agents
        }

    @property
    def scores(self) -> list[int]:
        return self.game.scores

    # game-room's state attributes, read-only, with game-room's types (see the module doc).
    @property
    def round_number(self) -> int:
        """The round being played, from 1."""
        return int(self.game.round)

    @property
    def dealer(self) -> int:
        """The dealer seat (dealing and turns start on its left)."""
        return int(self.game.dealer)

    @property
    def hands(self) -> list[list[int]]:
        """The cards in front of each seat, one list of card ids per seat, in card-id
        order (game-room keeps arrival order: the same cards, perhaps in another order)."""
        return [_cards(counts) for counts in self.game.hands]

    @property
    def status(self) -> list[int]:
        """Round status of each seat (0 active, 1 stayed, 2 busted, 3 frozen)."""
        return [int(x) for x in self.game.status]

    @property
    def deck(self) -> list[int]:
        """The draw pile, bottom first: the next card drawn is the last."""
        return [int(c) for c in self.game.draw_pile]

    @property
    def discard(self) -> list[int]:
        """The discard pile's card ids, in card-id order (game-room keeps the order cards
        were discarded: the same cards, perhaps in another order)."""
        return _cards(self.game.discard)

    @property
    def pending_card(self) -> int | None:
        """The action card waiting for a target (an int), or None."""
        card = self.game.pending_card
        return None if card is None else int(card)

    @property
    def flip7_player(self) -> int | None:
        """The seat that flipped seven numbers this round (an int), or None."""
        seat = self.game.flip7_player
        return None if seat is None else int(seat)

    @property
    def tasks(self) -> deque[tuple[int, int, int]]:
        """The scheduled events, next first, as ``(kind, seat, card)`` tuples in a
        ``collections.deque`` (kinds: 1 deal, 2 forced draw, 3 end of Flip Three, 4 resolve
        an action card, 5 turn; card 0 unless resolving)."""
        return deque((int(k), int(p), int(c)) for k, p, c in self.game.tasks)

    @property
    def deferred(self) -> list[int]:
        """Action cards drawn during a Flip Three, held until it ends, in draw order."""
        return [int(c) for c in self.game.deferred]

    def _seed_arg(self, seed: object) -> int | None:
        """game-room's seeds: ``None`` or any non-negative Python integer (a bool is 0 or
        1); anything else is gymnasium's ``gymnasium.error.Error``, as game-room's
        ``seeding.np_random`` raises it."""
        if seed is None:
            return None
        if not isinstance(seed, int):
            raise gymnasium.error.Error(
                f"Seed must be a python integer, actual type: {type(seed)}"
            )
        if seed < 0:
            raise gymnasium.error.Error(
                f"Seed must be greater or equal to zero, actual value: {seed}"
            )
        return int(seed)

    @property
    def winners(self) -> list[str]:
        return [self.possible_agents[i] for i in self.game.winners]

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        observation = self.game.observe(self._indices[agent])
        # The acting seat is the AEC's agent_selection (it moves while finished agents are
        # removed); during play it is the engine's seat to act.
        observation[1] = self._indices[self.agent_selection]
        return {"observation": observation, "action_mask": self._mask(agent)}

    def _apply(self, agent: str, action: int) -> None:
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        completed = self.game.completed_round
        if not self.game.step(action):
            raise ValueError(f"Illegal action {action!r} for {agent}")
        if self.game.completed_round != completed:
            scores = dict(zip(self.possible_agents, self.game.scores))
            round_scores = dict(zip(self.possible_agents, self.game.round_scores))
            winners = self.winners
            for i, a in enumerate(self.possible_agents):
                self.rewards[a] += float(self.game.rewards[i])
                self.infos[a] = {
                    "scores": dict(scores),
                    "round_scores": dict(round_scores),
                    "completed_round": self.game.completed_round,
                    "winners": winners[:],
                }
                self.terminations[a] = self.game.terminated
                self.truncations[a] = self.game.truncated
        self._after_step()

    def _render_text(self) -> str:
        to_act = self.agent_selection if self.agents and not self.game.terminated else None
        return render_table("Flip 7", self.game, self.possible_agents, to_act)
