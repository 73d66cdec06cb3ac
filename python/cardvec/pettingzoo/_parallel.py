"""The Parallel API over cardvec's turn-based AEC environments (every game's
``parallel_env()``).

These games are turn-based: one seat decides at a time, and who decides next depends on
the play (a Queen skips a seat in 151, a folded or all-in player is passed over in
hold'em, a Flip Three picks a target in Flip 7), so no fixed cycle of simultaneous moves
exists. PettingZoo's ``aec_to_parallel`` needs such a cycle (it steps every agent once per
cycle, in list order, and lets agents die only at the end of one), which is why the AEC
environments declare ``is_parallelizable: False`` and ``aec_to_parallel`` refuses them.

``parallel_env()`` follows PettingZoo's convention for turn-based games instead (the one of
``pettingzoo.utils.conversions.turn_based_aec_to_parallel``), as a native ``ParallelEnv``:

- every live agent gets an observation each step; only the agent to act has a nonzero
  ``action_mask``, and ``infos[agent]["active_agent"]`` names it for every agent;
- ``step(actions)`` takes a dict with an action for (at least) the agent to act; that one is
  applied (an illegal one is a ``ValueError`` and changes nothing, as in the AEC
  environment); the others' actions are ignored (any value, ``None`` included);
- rewards are the rewards of that one decision, for every live agent;
- every agent stays live until the game ends, then all are terminated (or truncated)
  together and ``agents`` is empty;
- a hold'em hand decided at the deal (nobody has a decision) has no agent to act: the first
  ``step`` (any actions, ``{}`` included) pays its results and ends it.

``parallel_to_aec(parallel_env())`` gives back an AEC environment (each agent in turn
submits an action, the agent to act's is applied once all have), and ``aec_to_parallel`` of
that returns the parallel environment itself.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from pettingzoo import ParallelEnv

if TYPE_CHECKING:
    from typing import Any, SupportsIndex

    from gymnasium.spaces import Dict, Discrete
    from numpy import uint8
    from numpy.typing import NDArray

    from ._aec import CardvecAEC


class CardvecParallel(ParallelEnv):  # type: ignore[misc]  # PettingZoo is not typed
    """A cardvec game under the Parallel API, driving one raw AEC environment (``aec``,
    also ``unwrapped.aec``): see the module documentation for the step rules."""

    aec: CardvecAEC
    metadata: dict[str, Any]
    render_mode: str | None
    possible_agents: list[str]

    def __init__(self, aec: CardvecAEC) -> None:
        self.aec = aec
        self.metadata = aec.metadata
        self.render_mode = aec.render_mode
        self.possible_agents = aec.possible_agents
        self.agents: list[str] = []
        self._pending_end = False

    @property
    def observation_spaces(self) -> dict[str, Dict]:
        return self.aec.observation_spaces

    @property
    def action_spaces(self) -> dict[str, Discrete]:
        return self.aec.action_spaces

    def observation_space(self, agent: str) -> Dict:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> Discrete:
        return self.aec.action_space(agent)

    @property
    def active_agent(self) -> str | None:
        """The agent to act, or ``None`` when nobody is to act (the game is over, or was
        decided at the deal)."""
        if not self.agents or self._pending_end:
            return None
        return self.aec.agent_selection

    def reset(
        self,
        seed: SupportsIndex | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[dict[str, dict[str, NDArray[Any]]], dict[str, dict[str, Any]]]:
        """Starts a new game (``seed`` as the AEC environment's ``reset``). Returns
        ``(observations, infos)`` for every agent."""
        aec = self.aec
        aec.reset(seed=seed, options=options)
        self.agents = aec.agents[:]
        # A game over at the deal (hold'em) pays its results on the next step.
        self._pending_end = any(aec.terminations.values()) or any(aec.truncations.values())
        observations = {agent: aec.observe(agent) for agent in self.agents}
        return observations, self._infos(self.agents)

    def step(
        self,
        actions: Mapping[str, SupportsIndex | None],
    ) -> tuple[
        dict[str, dict[str, NDArray[Any]]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Applies the action of the agent to act (``actions[active_agent]``) and returns
        ``(observations, rewards, terminations, truncations, infos)`` for every agent live
        before the step. A missing action for the agent to act, an unknown agent, or an
        illegal action is a ``ValueError``; ``actions`` not a mapping is a ``TypeError``;
        each is raised before anything changes. Stepping before ``reset`` or after the
        game ended is a ``RuntimeError``."""
        aec = self.aec
        if not self.agents:
            raise RuntimeError("the game is over (or was never started): call reset() first")
        if not isinstance(actions, Mapping):
            raise TypeError(f"actions must be a dict of agent -> action, got {actions!r}")
        unknown = [agent for agent in actions if agent not in self.possible_agents]
        if unknown:
            raise ValueError(
                f"unknown agent(s) {unknown!r}; expected some of {self.possible_agents}"
            )
        live = self.agents
        if self._pending_end:
            self._pending_end = False
            rewards = {agent: aec.rewards[agent] for agent in live}
        else:
            agent = aec.agent_selection
            if agent not in actions:
                raise ValueError(f"no action for {agent}, the agent to act")
            aec.step(actions[agent])
            rewards = {a: aec.rewards[a] for a in live}
        terminations = {agent: aec.terminations[agent] for agent in live}
        truncations = {agent: aec.truncations[agent] for agent in live}
        observations = {agent: aec.observe(agent) for agent in live}
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, self._infos(live)

    def _infos(self, agents: Any) -> Any:
        active = self.active_agent
        return {agent: {**self.aec.infos[agent], "active_agent": active} for agent in agents}

    def render(self) -> str | NDArray[uint8] | None:
        """As the AEC environment's ``render``."""
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
