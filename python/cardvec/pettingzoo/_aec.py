"""The AEC bookkeeping cardvec's PettingZoo environments share: spaces, seeding and reset,
the action mask of the agent to act, the legality check before a step, what follows a step,
and pickling. Each game supplies ``self.game`` (a one-game engine with ``reset(seed)``,
``step(action) -> bool``, ``current_player``, ``legal_mask()``), its spaces,
``_apply(agent, action)``, ``_render_text()`` and, for pickling, its constructor's keyword
arguments (``_init_config``).

Seeds: ``reset(seed=S)`` deals the game that lane 0 of the game's batch environment deals
after ``reset(S)``; every ``reset()`` without a seed deals the next game from a seed derived
from ``(S, k)`` (the k-th game since ``S``; ``episode_seed`` gives it). So the state of an
environment is its configuration, ``(S, k)`` and the actions applied since the last reset,
which is what it pickles: a copy (``copy.deepcopy``, ``pickle``, SuperSuit's
``concat_vec_envs_v1``) replays them and goes on exactly as the original would.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._args import seed_arg
from .._raster import frame

if TYPE_CHECKING:
    from typing import Any, ClassVar, SupportsIndex

    from gymnasium.spaces import Dict, Discrete
    from numpy import uint8
    from numpy.typing import NDArray


def wrap(raw: "CardvecAEC") -> "_OrderEnforcing":
    """The wrapped AEC environment: out-of-order calls raise (PettingZoo's order
    enforcement); an action outside the space or the mask is the raw environment's
    ``ValueError`` naming the agent and its legal actions (PettingZoo's
    ``AssertOutOfBoundsWrapper`` would make it an ``AssertionError``, which ``python -O``
    drops)."""
    return _OrderEnforcing(raw)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # untyped base
    """PettingZoo's order enforcement, checking the seed before the wrapper marks the
    environment as reset (a bad seed leaves the wrapper as it was, too)."""

    def reset(
        self,
        seed: SupportsIndex | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        self.unwrapped._seed_arg(seed)
        super().reset(seed=seed, options=options)


def episode_seed(seed: int, episode: int) -> int:
    """The engine seed of the ``episode``-th game after ``reset(seed=seed)``: ``seed``
    itself for the first game, then seeds derived by numpy's ``SeedSequence``."""
    if episode == 0:
        if seed < 2**64:
            return seed
        # A seed beyond 64 bits (flip7_v0 takes any non-negative integer, as game-room).
        return int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0])
    sequence = np.random.SeedSequence(seed, spawn_key=(episode,))
    return int(sequence.generate_state(1, np.uint64)[0])


def _restore(cls: Any, config: Any, snapshot: Any) -> Any:
    """Unpickles an environment: built from its configuration, then replayed."""
    env = cls(**config)
    if snapshot is not None:
        env._replay(snapshot)
    return env


class CardvecAEC(AECEnv):  # type: ignore[misc]  # PettingZoo is not typed
    """Base of cardvec's AEC environments (one engine game per environment)."""

    metadata: ClassVar[dict[str, Any]]
    num_players: int
    agents: list[str]
    agent_selection: str
    rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]

    possible_agents: list[str]
    observation_spaces: dict[str, Dict]
    action_spaces: dict[str, Discrete]
    render_mode: str | None
    _init_config: dict[str, Any]
    _indices: dict[str, int]
    _root_seed: int | None
    _episode: int
    _log: list[Any]

    def _seed_arg(self, seed: object) -> int | None:
        """The seed ``reset`` takes, checked before anything changes (see ``reset``)."""
        return seed_arg(seed)

    def _init_agents(self, num_players: int, config: dict[str, Any]) -> None:
        """Agents ``player_0`` .. for the seats; ``config`` is the constructor's keyword
        arguments, kept to rebuild the environment when it is unpickled."""
        self._init_config = dict(config)
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._indices = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._root_seed = None
        self._episode = 0
        self._log = []

    def _set_render_mode(self, render_mode: str | None) -> None:
        if render_mode not in (None, "ansi", "human", "rgb_array"):
            raise ValueError(
                "render_mode must be None, 'ansi', 'human' or 'rgb_array', "
                f"got {render_mode!r}"
            )
        self.render_mode = render_mode

    def render(self) -> str | NDArray[uint8] | None:
        """The table as text (``ansi``), printed (``human``), drawn as an RGB frame
        (``rgb_array``: numpy uint8 [H, W, 3] of one fixed size, the ``ansi`` text in a
        small bitmap font, for video wrappers), or nothing (no render mode)."""
        if self.render_mode is None:
            return None
        text: str = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        if self.render_mode == "rgb_array":
            return frame(text)
        return text

    def observation_space(self, agent: str) -> Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Discrete:
        return self.action_spaces[agent]

    @property
    def episode_seed(self) -> int | None:
        """The engine seed of the current game (``None`` before the first reset): the game
        ``cardvec.make(game_id, n, seed=episode_seed, **options)`` deals in lane 0."""
        if self._root_seed is None:
            return None
        return episode_seed(self._root_seed, self._episode)

    def reset(
        self,
        seed: SupportsIndex | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        """Starts a new game. ``seed`` is ``None`` (a fresh seed the first time, else the
        next game of the current seed's sequence) or an integer in ``0..2**64`` (a Python
        or numpy integer). A seed of another type (``"1"``, ``1.0``) is a ``TypeError``; a
        bool or an integer out of range is a ``ValueError``. Either is raised before
        anything changes. ``options`` is accepted but unused."""
        seed = self._seed_arg(seed)
        if seed is not None:
            self._root_seed, self._episode = seed, 0
            for i, agent in enumerate(self.possible_agents):
                self.action_space(agent).seed(seed + i)
        elif self._root_seed is None:
            entropy = np.random.SeedSequence().entropy
            assert isinstance(entropy, int)  # a fresh SeedSequence draws one integer
            self._root_seed = entropy % 2**64
        else:
            self._episode += 1
        self._deal()

    def _deal(self) -> None:
        """Deals the game of ``episode_seed`` and starts the AEC bookkeeping."""
        self.game.reset(self.episode_seed)
        self._log = []
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[0]
        self._select_to_act()
        self._after_deal()
        self._accumulate_rewards()

    def _select_to_act(self) -> None:
        """``agent_selection`` is the engine's seat to act (kept as it is when the engine
        names no seat, as a game over may)."""
        seat = self.game.current_player
        if 0 <= seat < len(self.possible_agents):
            self.agent_selection = self.possible_agents[seat]

    def _after_deal(self) -> None:
        """What a game does once dealt (hold'em ends a hand decided at the deal)."""

    def _mask(self, agent: str) -> NDArray[np.int8]:
        if (
            agent not in self.agents
            or self.terminations[agent]
            or self.truncations[agent]
            or agent != self.agent_selection
        ):
            return np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        mask: NDArray[np.int8] = self.game.legal_mask()
        return mask

    def step(self, action: SupportsIndex | None) -> None:
        """Applies ``action`` for ``agent_selection``. An action outside the action space
        or not in the mask (a bool included) is a ``ValueError`` that changes nothing; a
        terminated or truncated agent takes only ``None``, which removes it."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            self._log.append(None)
            return
        if (
            isinstance(action, (bool, np.bool_))
            or action is None
            or not self.action_space(agent).contains(action)
            or not self._mask(agent)[action]
        ):
            legal = [int(a) for a in np.flatnonzero(self._mask(agent))]
            raise ValueError(
                f"Illegal action {action!r} for {agent}: the legal actions are {legal} "
                f"(nothing was changed)"
            )
        self._play(agent, int(action))

    def _play(self, agent: Any, action: int) -> None:
        """Applies an engine action (checked by the engine too) and logs it for pickling."""
        self._apply(agent, action)
        self._log.append(action)

    def _after_step(self) -> None:
        """The next agent, rewards accumulated, and a human render after a step."""
        self._select_to_act()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def close(self) -> None:
        pass

    def __reduce__(self) -> Any:
        snapshot = None
        if self._root_seed is not None:
            snapshot = {
                "root_seed": self._root_seed,
                "episode": self._episode,
                "log": list(self._log),
                "action_spaces": self.action_spaces,
                "observation_spaces": self.observation_spaces,
            }
        return (_restore, (type(self), self._init_config, snapshot))

    def _replay(self, snapshot: Any) -> None:
        """Deals the pickled game again and replays its actions (silently), then takes the
        pickled spaces (their random streams included)."""
        render_mode, self.render_mode = self.render_mode, None
        try:
            self._root_seed, self._episode = snapshot["root_seed"], snapshot["episode"]
            self._deal()
            for action in snapshot["log"]:
                if action is None:
                    self.step(None)
                else:
                    self._play(self.agent_selection, action)
        finally:
            self.render_mode = render_mode
        self.action_spaces = snapshot["action_spaces"]
        self.observation_spaces = snapshot["observation_spaces"]
