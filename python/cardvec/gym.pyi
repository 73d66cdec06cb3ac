from typing import Any, ClassVar, SupportsIndex

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import VectorEnv

from ._cardvec import LearnerEnv

__all__ = ["CardvecEnv", "CardvecVectorEnv", "ids", "make", "make_vec"]

_Opponents = str | list[str] | tuple[str, ...]
_Seat = SupportsIndex | str

class CardvecVectorEnv(
    VectorEnv[npt.NDArray[np.float32], npt.NDArray[np.int64], npt.NDArray[Any]]
):
    metadata: ClassVar[dict[str, Any]]  # type: ignore[misc]
    env: LearnerEnv
    copy: bool
    single_observation_space: spaces.Box
    single_action_space: spaces.Discrete
    def __init__(
        self,
        game_id: str,
        num_envs: SupportsIndex,
        opponents: _Opponents = "random",
        seat: _Seat = 0,
        seed: SupportsIndex | None = None,
        copy: bool = True,
        **options: Any,
    ) -> None: ...
    @property
    def game_id(self) -> str: ...
    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]: ...
    def _started(self, obs: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32], dict[str, Any]]: ...
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]: ...
    def close_extras(self, **kwargs: Any) -> None: ...

class CardvecEnv(gymnasium.Env[npt.NDArray[np.float32], int]):
    metadata: ClassVar[dict[str, Any]]  # type: ignore[misc]
    env: LearnerEnv
    observation_space: spaces.Box  # type: ignore[assignment]
    action_space: spaces.Discrete  # type: ignore[assignment]
    render_mode: str | None
    def __init__(
        self,
        game_id: str,
        opponents: _Opponents = "random",
        seat: _Seat = 0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None: ...
    def render(self) -> str | npt.NDArray[np.uint8] | None: ...  # type: ignore[override]
    @property
    def game_id(self) -> str: ...
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[npt.NDArray[np.float32], dict[str, Any]]: ...
    def step(
        self, action: int
    ) -> tuple[npt.NDArray[np.float32], float, bool, bool, dict[str, Any]]: ...
    def close(self) -> None: ...

def make_vec(
    game_id: str,
    num_envs: SupportsIndex,
    opponents: _Opponents = "random",
    seat: _Seat = 0,
    seed: SupportsIndex | None = None,
    copy: bool = True,
    **options: Any,
) -> CardvecVectorEnv: ...
def make(
    game_id: str,
    opponents: _Opponents = "random",
    seat: _Seat = 0,
    render_mode: str | None = None,
    **options: Any,
) -> CardvecEnv: ...
def ids() -> dict[str, str]: ...
