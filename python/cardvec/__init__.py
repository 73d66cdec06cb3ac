"""cardvec: card games simulated in bulk, for RL/CFR training.

Each game is a class of the same shape, for example::

    env = cardvec.LostCities(num_envs=4096, seed=0, num_threads=None,
                             autoreset=False, observe=True, chunk_size=64)
    obs = env.reset()                      # float32 [N, obs_dim]
    obs, rewards, terminated, truncated = env.step(actions)   # actions: int array [N]

Every output (``obs``, ``legal_mask``, ``rewards``, ``terminated``, ``truncated``,
``current_player``, ``illegal``) is a read-only numpy view of the engine's own buffers:
the same array objects on every call, updated in place by each step. Copy them
(``arr.copy()``) to keep a value across steps.

``illegal`` codes: 0 applied, 1 illegal action (no-op), 2 lane already finished (no-op),
3 lane was autoreset (action ignored).
"""

from . import arena, flip7, holdem, i151, lost_cities
from ._cardvec import (
    ACTION_APPLIED,
    ACTION_FINISHED,
    ACTION_ILLEGAL,
    ACTION_RESET,
    Flip7,
    Flip7Game,
    I151P2,
    I151P3,
    I151P4,
    LostCities,
    NoLimitHoldem,
    __version__,
)

__all__ = [
    "ACTION_APPLIED",
    "ACTION_FINISHED",
    "ACTION_ILLEGAL",
    "ACTION_RESET",
    "Flip7",
    "Flip7Game",
    "I151P2",
    "I151P3",
    "I151P4",
    "LostCities",
    "NoLimitHoldem",
    "flip7",
    "holdem",
    "i151",
    "lost_cities",
    "__version__",
]
