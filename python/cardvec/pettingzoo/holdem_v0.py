"""No-limit Texas hold'em as a PettingZoo AEC environment, heads-up or multiway.

``env(num_players=2, stack=None, stacks=None, small_blind=1, big_blind=2, ante=0,
raise_fractions=(0.5, 1.0, 2.0), button=None, render_mode=None)``: one hand per episode,
every hand from the configured stacks (100 big blinds by default), the button random each
hand unless fixed. Agents ``player_0`` .. ``player_{n-1}`` are seats 0 .. n-1.

- Actions: ``Discrete(3 + K)``, cardvec's abstraction: 0 fold, 1 check/call, ``2 + k`` raise
  to ``max_bet + raise_fractions[k] * (pot + to_call)``, ``2 + K`` all-in (docs/holdem.md).
  ``raw_env.step_raise_to(chips)`` raises to an exact amount (``raw_env.legal()`` gives the
  bounds in chips).
- Observations: ``{"observation": float32 [118 + 9 n], "action_mask": int8 [3 + K]}``, the
  observation as the batch environment encodes it for that seat (chips in big blinds).
- Rewards: each seat's net result in big blinds, at the end of the hand (zero-sum).
- A hand in which nobody has a decision (stacks no larger than the antes and blinds) is
  played out at ``reset``: every agent is terminated at once with its result as reward (and
  ``infos[agent]["stacks"]``), and steps with ``None`` remove the agents as for any ended
  hand.
- An illegal action raises ``ValueError`` and changes nothing.
- ``reset(seed=S)`` deals what lane 0 of ``cardvec.make("holdem", n, seed=S, ...)`` deals.

``parallel_env(...)`` takes the same arguments (the Parallel API, see
``cardvec.pettingzoo._parallel``; a hand decided at the deal is paid by its first step).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from gymnasium import spaces

from .._cardvec import NoLimitHoldemGame
from .._cardvec import holdem as _h
from ._aec import CardvecAEC, wrap
from ._parallel import CardvecParallel
from ._words import render_table

if TYPE_CHECKING:
    from typing import Any, ClassVar, SupportsIndex

    from numpy.typing import NDArray

    from .._cardvec import NoLimitHoldemGame, _LegalDecision
    from ._aec import CardvecAEC, _OrderEnforcing



def env(
    *,
    num_players: int = 2,
    stack: int | None = None,
    stacks: list[SupportsIndex] | tuple[SupportsIndex, ...] | None = None,
    small_blind: int = 1,
    big_blind: int = 2,
    ante: int = 0,
    raise_fractions: list[float] | tuple[float, ...] = (0.5, 1.0, 2.0),
    button: int | None = None,
    render_mode: str | None = None,
) -> _OrderEnforcing:
    """Create a wrapped AEC environment; illegal actions raise an exception."""
    return wrap(
        raw_env(
            num_players=num_players,
            stack=stack,
            stacks=stacks,
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            raise_fractions=raise_fractions,
            button=button,
            render_mode=render_mode,
        )
    )


def parallel_env(
    *,
    num_players: int = 2,
    stack: int | None = None,
    stacks: list[SupportsIndex] | tuple[SupportsIndex, ...] | None = None,
    small_blind: int = 1,
    big_blind: int = 2,
    ante: int = 0,
    raise_fractions: list[float] | tuple[float, ...] = (0.5, 1.0, 2.0),
    button: int | None = None,
    render_mode: str | None = None,
) -> CardvecParallel:
    """Create a Parallel environment (turn-based: only the agent to act's action is
    applied; see ``cardvec.pettingzoo._parallel``)."""
    return CardvecParallel(
        raw_env(
            num_players=num_players,
            stack=stack,
            stacks=stacks,
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            raise_fractions=raise_fractions,
            button=button,
            render_mode=render_mode,
        )
    )


class raw_env(CardvecAEC):

    game: NoLimitHoldemGame
    num_players: int
    metadata: ClassVar[dict[str, Any]] = {
        "name": "holdem_v0",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 2,
        stack: int | None = None,
        stacks: list[SupportsIndex] | tuple[SupportsIndex, ...] | None = None,
        small_blind: int = 1,
        big_blind: int = 2,
        ante: int = 0,
        raise_fractions: list[float] | tuple[float, ...] = (0.5, 1.0, 2.0),
        button: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self._set_render_mode(render_mode)
        # The Rust side validates every option (ValueError).
        self.game = NoLimitHoldemGame(
            0,
            num_players=num_players,
            stack=stack,
            stacks=stacks,
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            raise_fractions=raise_fractions,
            button=button,
        )
        self.num_players = self.game.num_players
        self._init_agents(
            self.num_players,
            {
                "num_players": num_players,
                "stack": stack,
                "stacks": stacks,
                "small_blind": small_blind,
                "big_blind": big_blind,
                "ante": ante,
                "raise_fractions": raise_fractions,
                "button": button,
                "render_mode": render_mode,
            },
        )
        n_actions = self.game.num_actions
        self.action_spaces = {agent: spaces.Discrete(n_actions) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        0, np.inf, (self.game.obs_dim,), dtype=np.float32
                    ),
                    "action_mask": spaces.MultiBinary(n_actions),
                }
            )
            for agent in self.possible_agents
        }

    def _after_deal(self) -> None:
        if self.game.terminated:
            # Decided at the deal: the hand is over, its results paid now.
            self._end_hand()

    def _end_hand(self) -> None:
        """Every agent terminated, with its result (big blinds) and the final stacks."""
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = float(self.game.rewards[i])
            self.terminations[a] = True
            self.infos[a] = {"stacks": self.game.stacks}

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        return {
            "observation": self.game.observe(self._indices[agent]),
            "action_mask": self._mask(agent),
        }

    def legal(self) -> _LegalDecision | None:
        """The decision of the agent to act in chips (``seat``, ``fold``, ``check``,
        ``call_amount``, ``raise``, ``min_raise_to``, ``max_raise_to``), None once over."""
        return self.game.legal()

    def step_raise_to(self, chips: SupportsIndex) -> None:
        """Raises the agent to act to exactly ``chips`` (its bet on this street afterwards);
        ``ValueError`` (nothing changes) unless ``min_raise_to <= chips <= max_raise_to``."""
        agent = self.agent_selection
        if isinstance(chips, (bool, np.bool_)) or not isinstance(chips, (int, np.integer)):
            raise ValueError(f"raise to {chips!r}: chips must be an integer")
        legal = self.game.legal()
        if (
            legal is None
            or agent not in self.agents
            or not legal["raise"]
            or not legal["min_raise_to"] <= chips <= legal["max_raise_to"]
        ):
            raise ValueError(f"Illegal raise to {chips!r} for {agent}")
        self._play(agent, _h.EXACT_RAISE | int(chips))

    def _apply(self, agent: str, action: int) -> None:
        if not self.game.step(action):
            raise ValueError(f"Illegal action {action!r} for {agent}")
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        if self.game.terminated:
            self._end_hand()
        self._after_step()

    def _render_text(self) -> str:
        to_act = self.agent_selection if self.agents and not self.game.terminated else None
        return render_table("No-limit hold'em", self.game, self.possible_agents, to_act)
