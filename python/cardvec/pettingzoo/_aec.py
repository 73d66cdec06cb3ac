"""The AEC bookkeeping cardvec's PettingZoo environments share: spaces, seeding and reset,
the action mask of the agent to act, the legality check before a step, and what follows a
step. Each game supplies ``self.game`` (a one-game engine with ``reset(seed=None)``,
``current_player``, ``legal_mask()``), its spaces, ``_apply(agent, action)`` and
``_render_text()``.
"""

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .._args import seed_arg


def wrap(raw):
    """The wrapped AEC environment: out-of-range and out-of-order calls raise."""
    return _OrderEnforcing(wrappers.AssertOutOfBoundsWrapper(raw))


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcement, checking the seed before the wrapper marks the
    environment as reset (a bad seed leaves the wrapper as it was, too)."""

    def reset(self, seed=None, options=None):
        seed_arg(seed)
        super().reset(seed=seed, options=options)


class CardvecAEC(AECEnv):
    """Base of cardvec's AEC environments (one engine game per environment)."""

    def _init_agents(self, num_players: int):
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._indices = {agent: i for i, agent in enumerate(self.possible_agents)}
        self._seeded = False

    def _set_render_mode(self, render_mode):
        if render_mode not in (None, "ansi", "human"):
            raise ValueError("render_mode must be None, 'ansi', or 'human'")
        self.render_mode = render_mode

    def render(self):
        """The table as text (``ansi``), printed (``human``), or nothing (no render mode)."""
        if self.render_mode is None:
            return None
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Starts a new game. ``seed`` is ``None`` (a fresh seed the first time, else the
        game's stream goes on) or an integer in ``0..2**64`` (a Python or numpy integer).
        A seed of another type (``"1"``, ``1.0``) is a ``TypeError``; a bool or an integer
        out of range is a ``ValueError``. Either is raised before anything changes.
        ``options`` is accepted but unused."""
        seed = seed_arg(seed)
        if seed is not None:
            self.game.reset(seed)
            for i, agent in enumerate(self.possible_agents):
                self.action_space(agent).seed(seed + i)
        elif not self._seeded:
            self.game.reset(int(np.random.SeedSequence().entropy % 2**64))
        else:
            self.game.reset()
        self._seeded = True
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._accumulate_rewards()

    def _mask(self, agent):
        if (
            agent not in self.agents
            or self.terminations[agent]
            or self.truncations[agent]
            or agent != self.agent_selection
        ):
            return np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        return self.game.legal_mask()

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if (
            isinstance(action, (bool, np.bool_))
            or not self.action_space(agent).contains(action)
            or not self._mask(agent)[action]
        ):
            raise ValueError(f"Illegal action {action!r} for {agent}")
        self._apply(agent, int(action))

    def _after_step(self):
        """The next agent, rewards accumulated, and a human render after a step."""
        self.agent_selection = self.possible_agents[self.game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def close(self):
        pass
