from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

# PettingZoo ships no type information (no py.typed): its classes are Any to a checker.
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

def wrap(raw: CardvecAEC) -> _OrderEnforcing: ...

class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    def reset(
        self, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None
    ) -> None: ...

class CardvecAEC(AECEnv):  # type: ignore[misc]
    """Base of cardvec's AEC environments (one engine game per environment)."""

    possible_agents: list[str]
    agents: list[str]
    agent_selection: str
    rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]
    render_mode: str | None
    action_spaces: dict[str, spaces.Discrete]
    observation_spaces: dict[str, spaces.Dict]
    def render(self) -> str | None: ...
    def observation_space(self, agent: str) -> spaces.Dict: ...
    def action_space(self, agent: str) -> spaces.Discrete: ...
    def reset(
        self, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None
    ) -> None: ...
    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]: ...
    def step(self, action: SupportsIndex | None) -> None: ...
    def close(self) -> None: ...
