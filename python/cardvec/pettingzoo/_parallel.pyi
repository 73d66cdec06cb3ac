from collections.abc import Mapping
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

# PettingZoo ships no type information (no py.typed): its classes are Any to a checker.
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from ._aec import CardvecAEC

class CardvecParallel(ParallelEnv):  # type: ignore[misc]
    """A cardvec game under the Parallel API, driving one raw AEC environment (``aec``)."""

    aec: CardvecAEC
    metadata: dict[str, Any]
    render_mode: str | None
    possible_agents: list[str]
    agents: list[str]
    def __init__(self, aec: CardvecAEC) -> None: ...
    @property
    def observation_spaces(self) -> dict[str, spaces.Dict]: ...
    @property
    def action_spaces(self) -> dict[str, spaces.Discrete]: ...
    def observation_space(self, agent: str) -> spaces.Dict: ...
    def action_space(self, agent: str) -> spaces.Discrete: ...
    @property
    def active_agent(self) -> str | None:
        """The agent to act, or ``None`` when nobody is to act."""
    def reset(
        self, seed: SupportsIndex | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, npt.NDArray[Any]]], dict[str, dict[str, Any]]]:
        """Starts a new game; ``(observations, infos)`` for every agent."""
    def step(
        self, actions: Mapping[str, SupportsIndex | None]
    ) -> tuple[
        dict[str, dict[str, npt.NDArray[Any]]],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        """Applies ``actions[active_agent]``; ``(observations, rewards, terminations,
        truncations, infos)`` for every agent live before the step."""
    def render(self) -> str | npt.NDArray[np.uint8] | None: ...
    def close(self) -> None: ...
