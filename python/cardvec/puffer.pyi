from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt
import pufferlib  # type: ignore[import-untyped]  # PufferLib has no types

from ._cardvec import LearnerEnv

__all__ = ["PufferEnv"]

class PufferEnv(pufferlib.PufferEnv):  # type: ignore[misc]  # PufferLib is not typed
    seed: int | None
    env: LearnerEnv
    obs_dim: int
    num_actions: int
    mask_in_obs: bool
    num_agents: int
    def __init__(
        self,
        game_id: str,
        num_envs: SupportsIndex,
        opponents: str | list[str] | tuple[str, ...] = "random",
        seat: SupportsIndex | str = 0,
        seed: SupportsIndex | None = None,
        buf: dict[str, npt.NDArray[Any]] | None = None,
        mask_in_obs: bool = True,
        **options: Any,
    ) -> None: ...
    @property
    def legal_mask(self) -> npt.NDArray[np.uint8]: ...
    def split_obs(self, observations: Any) -> tuple[Any, Any]: ...
    def reset(self, seed: SupportsIndex | None = None) -> tuple[npt.NDArray[np.float32], list[Any]]: ...
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        list[dict[str, Any]],
    ]: ...
    def close(self) -> None: ...
