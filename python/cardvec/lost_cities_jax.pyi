import numpy as np
import numpy.typing as npt

OBS_DIM: int
N_ACTIONS: int
State: np.dtype[np.void]

def reset(rng: npt.ArrayLike) -> npt.NDArray[np.void]: ...
def reset_from_order(deck_order: npt.ArrayLike) -> npt.NDArray[np.void]: ...
def legal_action_mask(state: npt.ArrayLike) -> npt.NDArray[np.bool_]: ...
def step(
    state: npt.ArrayLike, action: int
) -> tuple[npt.NDArray[np.void], npt.NDArray[np.float32], bool]: ...
def score(state: npt.ArrayLike) -> npt.NDArray[np.float32]: ...
def board_score(state: npt.ArrayLike) -> npt.NDArray[np.float32]: ...
def observation(state: npt.ArrayLike, player: int) -> npt.NDArray[np.float32]: ...
def batched_reset(rngs: npt.ArrayLike) -> npt.NDArray[np.void]: ...
def batched_step(
    states: npt.ArrayLike, actions: npt.ArrayLike
) -> tuple[npt.NDArray[np.void], npt.NDArray[np.float32], npt.NDArray[np.bool_]]: ...
def batched_obs(states: npt.ArrayLike, players: npt.ArrayLike) -> npt.NDArray[np.float32]: ...
def batched_legal_mask(states: npt.ArrayLike) -> npt.NDArray[np.bool_]: ...

__all__ = [
    "OBS_DIM",
    "N_ACTIONS",
    "State",
    "batched_legal_mask",
    "batched_obs",
    "batched_reset",
    "batched_step",
    "board_score",
    "legal_action_mask",
    "observation",
    "reset",
    "reset_from_order",
    "score",
    "step",
]
