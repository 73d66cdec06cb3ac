from typing import SupportsIndex

import numpy as np
import numpy.typing as npt

from ._cardvec import BatchEnv, LearnerEnv

__all__ = ["act", "names"]

def names(game_id: str) -> list[str]:
    """The built-in bots of game ``game_id`` (the registry's names; families as patterns)."""

def act(
    env: BatchEnv | LearnerEnv,
    bot: str,
    lanes: npt.ArrayLike | None = None,
    seed: SupportsIndex | None = 0,
) -> npt.NDArray[np.int64]:
    """The action bot ``bot`` picks in every lane of ``env``: int64 [num_envs], ``-1``
    where the lane is not selected or its game is over."""
