"""A PufferLib native environment over the learner view (optional: needs PufferLib 3,
``pip install pufferlib-core``; the full ``pufferlib`` 3.0.0 source package downloads raylib
while it builds, see docs/python.md).

``PufferEnv(game_id, num_envs, opponents="random", seat=0, seed=None, buf=None,
mask_in_obs=True, **options)`` is a ``pufferlib.PufferEnv`` whose ``num_agents`` are the
``num_envs`` lanes of a ``cardvec.LearnerEnv``: every agent is the learner of one lane, every
step a decision of each (``masks`` all true), the bots ``opponents`` playing the other seats
inside Rust, next-step autoreset as in ``LearnerEnv``::

    env = cardvec.puffer.PufferEnv("lost-cities", 1024, opponents="random")
    vecenv = pufferlib.vector.make(env_creator, backend=pufferlib.PufferEnv)  # native
    vecenv = pufferlib.vector.make(cardvec.puffer.PufferEnv, num_envs=2,
                                   env_kwargs={"game_id": "lost-cities", "num_envs": 512},
                                   backend=pufferlib.vector.Serial)           # or Multiprocessing

Buffers: PufferLib owns them (``observations``, ``rewards``, ``terminals``,
``truncations``, ``masks``, ``actions``: its own, or the slices of shared memory a
vectorization backend passes as ``buf``). Each ``step`` steps the learner view and copies its
outputs into them once (the engine writes only its own buffers). PufferLib's native API has
no action mask, so with ``mask_in_obs=True`` each observation row is the learner's
observation followed by its legal mask as 0.0/1.0 (``obs_dim + num_actions`` floats;
``split_obs`` splits a batch); ``mask_in_obs=False`` leaves the mask out (then read
``legal_mask``). ``infos`` is ``[]``, or when lanes finished
``[{"episode_return": mean, "episode_length": mean, "episodes": count}]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

try:
    import gymnasium
    import pufferlib
except ImportError as _missing:  # pragma: no cover - exercised only without PufferLib
    raise ImportError(
        "cardvec.puffer needs PufferLib 3 and Gymnasium (pip install pufferlib-core)"
    ) from _missing

from ._args import seed_arg
from ._cardvec import LearnerEnv

if TYPE_CHECKING:
    from typing import Any, Literal, SupportsIndex

    from numpy import bool_, float32, uint8
    from numpy.typing import ArrayLike, NDArray

__all__ = ["PufferEnv"]


class PufferEnv(pufferlib.PufferEnv):  # type: ignore[misc]  # PufferLib is not typed
    """A PufferLib native env over ``cardvec.LearnerEnv``; see ``cardvec.puffer``."""

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
        seat: SupportsIndex | Literal["rotate"] = 0,
        seed: SupportsIndex | None = None,
        buf: dict[str, NDArray[Any]] | None = None,
        mask_in_obs: bool = True,
        **options: Any,
    ) -> None:
        if not isinstance(mask_in_obs, bool):
            raise TypeError(f"mask_in_obs must be a bool, got {mask_in_obs!r}")
        self.seed = seed_arg(seed)
        self.env = LearnerEnv(game_id, num_envs, opponents=opponents, seat=seat, seed=self.seed,
                              **options)
        self.obs_dim, self.num_actions = self.env.obs_dim, self.env.num_actions
        self.mask_in_obs = mask_in_obs
        width = self.obs_dim + (self.num_actions if mask_in_obs else 0)
        self.single_observation_space = gymnasium.spaces.Box(
            -np.inf, np.inf, (width,), np.float32
        )
        self.single_action_space = gymnasium.spaces.Discrete(self.num_actions)
        self.num_agents = self.env.num_envs
        super().__init__(buf)

    @property
    def legal_mask(self) -> NDArray[uint8]:
        """The learner view's legal mask, uint8 [num_agents, num_actions] (read-only view)."""
        return self.env.legal_mask

    def split_obs(self, observations: Any) -> tuple[Any, Any]:
        """``(obs, legal_mask)`` of a batch of observation rows (numpy or torch, last axis
        ``obs_dim + num_actions``): views, the mask as 0.0/1.0 floats."""
        if not self.mask_in_obs:
            raise ValueError("split_obs needs mask_in_obs=True")
        return observations[..., : self.obs_dim], observations[..., self.obs_dim :]

    def _publish(self) -> None:
        env = self.env
        if self.mask_in_obs:
            np.copyto(self.observations[:, : self.obs_dim], env.obs)
            np.copyto(self.observations[:, self.obs_dim :], env.legal_mask)
        else:
            np.copyto(self.observations, env.obs)
        np.copyto(self.rewards, env.rewards)
        np.copyto(self.terminals, env.terminated)
        np.copyto(self.truncations, env.truncated)
        self.masks[:] = True

    def reset(self, seed: SupportsIndex | None = None) -> tuple[NDArray[float32], list[Any]]:
        """Deals a new game in every lane (``seed=None``: the constructor's seed); returns
        ``(observations, [])``."""
        seed = seed_arg(seed)
        self.env.reset(seed=self.seed if seed is None else seed)
        self._publish()
        return self.observations, []

    def step(
        self,
        actions: ArrayLike,
    ) -> tuple[
        NDArray[float32],
        NDArray[float32],
        NDArray[bool_],
        NDArray[bool_],
        list[dict[str, Any]],
    ]:
        """One decision of every agent; returns ``(observations, rewards, terminals,
        truncations, infos)``, PufferLib's buffers."""
        self.env.step(np.asarray(actions))
        self._publish()
        done = self.env.terminated | self.env.truncated
        infos = []
        if done.any():
            infos.append(
                {
                    "episode_return": float(self.env.episode_return[done].mean()),
                    "episode_length": float(self.env.episode_length[done].mean()),
                    "episodes": int(done.sum()),
                }
            )
        return self.observations, self.rewards, self.terminals, self.truncations, infos

    def close(self) -> None:
        """Nothing to release (the engine goes with the object)."""
