"""One game of any registered game, played in lane 0 of a one-lane batch environment
(``cardvec.make(game_id, 1, ...)``), and the AEC environment over it: the engine of the
PettingZoo environments that have no single-game class of their own (``lost_cities_v0``,
``i151_v0``), and of ``GameAEC``, any registered game by its id (``cardvec.pettingzoo.env``). Options are checked by the registry, as for the batch classes (a bad one is a
``ValueError`` naming the accepted ones).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from gymnasium import spaces

from .._games import make
from ._aec import CardvecAEC
from ._words import render_table

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any, ClassVar, SupportsIndex

    from numpy import float32, int8
    from numpy.typing import NDArray

    from .._cardvec import BatchEnv


class LaneGame:
    """The interface ``CardvecAEC`` expects of ``self.game``, over lane 0 of a batch
    environment: ``reset(seed)``, ``step(action) -> bool``, ``observe(seat)``,
    ``legal_mask()``, ``current_player``, ``rewards``, ``terminated``, ``truncated``."""

    def __init__(self, game_id: str, **options: Any) -> None:
        # observe=False: the wrappers observe each seat on demand (observe_as). One game
        # needs one worker: num_threads=1 unless asked (the pool of one is shared by every
        # such environment of the process).
        options.setdefault("num_threads", 1)
        self.env: BatchEnv = make(game_id, 1, observe=False, **options)
        self._action = np.zeros(1, dtype=np.int64)

    @property
    def num_players(self) -> int:
        return self.env.num_players

    @property
    def num_actions(self) -> int:
        return self.env.num_actions

    @property
    def obs_dim(self) -> int:
        return self.env.obs_dim

    @property
    def config(self) -> dict[str, Any]:
        """The game's options, every one of them (the batch environment's ``config``)."""
        return self.env.config

    def reset(self, seed: SupportsIndex) -> None:
        """Deals the game lane 0 of ``cardvec.make(game_id, n, seed=seed)`` deals."""
        self.env.reset(seed)

    def step(self, action: SupportsIndex) -> bool:
        """Applies ``action`` for the seat to act; False (nothing changed) if illegal."""
        self._action[0] = action
        self.env.step(self._action)
        return int(self.env.illegal[0]) == 0

    def observe(self, seat: SupportsIndex) -> NDArray[float32]:
        """A new float32 array: the observation as seen by ``seat``."""
        return self.env.observe_as(0, seat)

    def legal_mask(self) -> NDArray[int8]:
        """A new int8 array: the legal actions of the seat to act (all zero once over)."""
        mask: NDArray[int8] = self.env.legal_mask[0].astype(np.int8)
        return mask

    def action_name(self, action: int) -> str:
        """The name of ``action`` for the seat to act (the game's words)."""
        return self.env.action_name(0, action)

    def view(self, seat: int, reveal: bool = False) -> dict[str, Any]:
        """What ``seat`` sees of the game (the game's words; ``reveal``: every card)."""
        return self.env.view(0, seat, reveal)

    def outcome(self) -> dict[str, Any] | None:
        """How the game ended (the game's words), or ``None`` while it runs."""
        return self.env.outcome(0)

    def state_text(self) -> str:
        """The state as one readable line (the game's docs page gives the format)."""
        return self.env.state_text(0)

    def set_state_text(self, text: str) -> None:
        """Sets the game from a state text; a bad one is a ``ValueError`` naming it."""
        self.env.set_state_text(0, text)

    @property
    def title(self) -> str:
        """The game's name for people."""
        return self.env.game_title

    @property
    def current_player(self) -> int:
        return int(self.env.current_player[0])

    @property
    def rewards(self) -> list[float]:
        """Every seat's reward of the last step, as Python floats."""
        return [float(r) for r in self.env.rewards[0]]

    @property
    def terminated(self) -> bool:
        return bool(self.env.terminated[0])

    @property
    def truncated(self) -> bool:
        return bool(self.env.truncated[0])

    @property
    def over(self) -> bool:
        return self.terminated or self.truncated


class LaneAEC(CardvecAEC):
    """Base of the AEC environments over a ``LaneGame``: observations are the batch
    environment's (float32) as seen by each seat; after each step every seat's reward is
    the batch reward of that step, and every agent is terminated or truncated when the
    game is."""

    game: LaneGame

    def _init_lane(
        self,
        game_id: str,
        render_mode: Any,
        options: Mapping[str, Any],
        obs_low: Any,
        obs_high: Any,
    ) -> None:
        """Builds the game (options checked by the registry), the agents and the spaces:
        ``Discrete(num_actions)`` actions, ``{"observation": Box(obs_low, obs_high),
        "action_mask": MultiBinary(num_actions)}`` observations."""
        self._set_render_mode(render_mode)
        self.game = LaneGame(game_id, **options)
        self.num_players = self.game.num_players
        self._init_agents(self.num_players, {"render_mode": render_mode, **options})
        n_actions = self.game.num_actions
        low = np.broadcast_to(np.float32(obs_low), (self.game.obs_dim,))
        self.action_spaces = {agent: spaces.Discrete(n_actions) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, obs_high, dtype=np.float32),
                    "action_mask": spaces.MultiBinary(n_actions),
                }
            )
            for agent in self.possible_agents
        }

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        return {
            "observation": self.game.observe(self._indices[agent]),
            "action_mask": self._mask(agent),
        }

    def _apply(self, agent: str, action: int) -> None:
        if not self.game.step(action):
            raise ValueError(f"Illegal action {action!r} for {agent}")
        self._cumulative_rewards[agent] = 0
        self._clear_rewards()
        rewards = self.game.rewards
        for i, a in enumerate(self.possible_agents):
            self.rewards[a] = rewards[i]
            self.terminations[a] = self.game.terminated
            self.truncations[a] = self.game.truncated
        self._after_step()

    def _render_text(self) -> str:
        to_act = self.agent_selection if self.agents and not self.game.over else None
        return render_table(self.game.title, self.game, self.possible_agents, to_act)


class GameAEC(LaneAEC):
    """The AEC environment of any registered game, by its id: what
    ``cardvec.pettingzoo.raw_env(game_id, **options)`` returns. Observations are the
    batch environment's float32 rows in an unbounded ``Box`` (the per-game modules such as
    ``lost_cities_v0`` give tight bounds and their drop-in names); actions, masks, rewards,
    seeds, rendering and pickling are those of every cardvec AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "cardvec",
        "render_modes": ["human", "ansi", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, game_id: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        self._init_lane(game_id, render_mode, options, -np.inf, np.inf)
        self._init_config["game_id"] = game_id
        # The class's metadata with this game's name, on the instance (where PettingZoo's
        # checkers and wrappers read it).
        setattr(self, "metadata", {**type(self).metadata, "name": game_id})
