from typing import SupportsIndex

import numpy as np
import numpy.typing as npt

from ._cardvec import BatchEnv, LearnerEnv

__all__ = ["act", "names"]

def names(game_id: str) -> list[str]: ...
def act(
    env: BatchEnv | LearnerEnv,
    bot: str,
    lanes: npt.ArrayLike | None = None,
    seed: SupportsIndex | None = 0,
) -> npt.NDArray[np.int64]: ...
