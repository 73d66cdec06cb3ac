from typing import Any, ClassVar, SupportsIndex

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

# PettingZoo ships no type information (no py.typed): its classes are Any to a checker.
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

def wrap(raw: CardvecAEC) -> _OrderEnforcing: ...
def episode_seed(seed: int, episode: int) -> int:
    """The engine seed of the ``episode``-th game after ``reset(seed=seed)``."""

class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    def reset(
        self, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None
    ) -> None: ...

class CardvecAEC(AECEnv):  # type: ignore[misc]
    """Base of cardvec's AEC environments (one engine game per environment)."""

    metadata: ClassVar[dict[str, Any]]
    num_players: int
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
    def render(self) -> str | npt.NDArray[np.uint8] | None: ...
    def observation_space(self, agent: str) -> spaces.Dict: ...
    def action_space(self, agent: str) -> spaces.Discrete: ...
    @property
    def episode_seed(self) -> int | None:
        """The engine seed of the current game (``None`` before the first reset)."""
    def reset(
        self, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None
    ) -> None: ...
    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]: ...
    def step(self, action: SupportsIndex | None) -> None: ...
    def close(self) -> None: ...
