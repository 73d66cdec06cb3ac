"""Gymnasium adapters over the learner view (optional: needs ``gymnasium>=1.0``).

``make_vec(game_id, num_envs, opponents="random", seat=0, seed=None, copy=True, **options)``
is a ``gymnasium.vector.VectorEnv`` over ``cardvec.LearnerEnv``: the learner plays one seat
of every lane, the built-in bots ``opponents`` play the others inside Rust, and each step
returns the learner's next decision::

    envs = cardvec.gym.make_vec("lost-cities", 1024, opponents="safe-heuristic", seat="rotate")
    obs, info = envs.reset(seed=0)
    obs, rewards, terminated, truncated, info = envs.step(actions)   # actions: int [N]
    info["action_mask"]        # bool [N, num_actions], the legal actions of the next step
    info["illegal"]            # bool [N], after a step: the lane's action was illegal
    info["episode"]["r"]       # where info["_episode"]: the finished episodes' returns

- Spaces: ``single_observation_space`` ``Box(-inf, inf, (obs_dim,), float32)`` (the games'
  observations have no common bound), ``single_action_space`` ``Discrete(num_actions)``;
  ``observation_space`` and ``action_space`` are their batched forms (``Box`` [N, obs_dim],
  ``MultiDiscrete([num_actions] * N)``).
- Autoreset: ``metadata["autoreset_mode"]`` is ``AutoresetMode.NEXT_STEP``: the step after a
  lane finished deals a new game and ignores its action (reward 0, not done).
- ``info``: ``"action_mask"`` (bool [N, A]) and ``"seat"`` (int32 [N], the learner's seat),
  and after every step ``"illegal"`` (bool [N]: the lane's action was illegal, whatever
  ``on_illegal`` did with it), each with its ``"_key"`` mask (all true); when some lane finished, ``"episode"``
  (``{"r", "l", "t"}``: return, learner decisions, seconds since the episode's deal, 0 where
  not finished) and ``"_episode"`` (bool [N]), the format of Gymnasium's
  ``RecordEpisodeStatistics`` vector wrapper. A game that ended before the learner's first
  decision is never shown and not in these statistics (see ``LearnerEnv.skipped``).
- ``copy=True`` (Gymnasium's default) returns new arrays every call; ``copy=False`` returns
  the learner view's own read-only arrays (no copy; overwritten by the next step).
- Seeds: ``reset(seed=s)`` deals lane ``l`` from the stream ``(s, l)``, exactly as
  ``LearnerEnv.reset(seed=s)``; ``reset(seed=[s0, s1, ...])`` (``num_envs`` integers) seeds
  each lane: lane ``l`` plays the games a one-lane ``make_vec(..., 1)`` reset with ``s_l``
  plays (a wrong length or a value outside ``0..2**64-1`` is a ``ValueError`` that changes
  nothing); the first ``reset()`` without a seed uses ``seed`` of
  ``make_vec`` (``None``: a random one), and each later one a seed drawn from ``np_random``,
  so every unseeded reset deals new games, reproducibly after a seeded one.
- Render: ``render_mode="ansi"`` or ``"rgb_array"`` (``make_vec(..., render_mode=...)``,
  also through ``gymnasium.make_vec``): ``envs.render()`` is a tuple of one frame per lane
  (Gymnasium's ``VectorEnv.render`` convention), each lane's table as the learner sees it,
  the text or the numpy uint8 [H, W, 3] frame the single environment renders.
- Illegal actions: ``on_illegal=`` (passed to ``LearnerEnv``): ``"noop"`` (default: a no-op
  counted toward ``max_steps``, so a lane fed only illegal actions is truncated after
  ``max_steps`` steps), ``"raise"`` (``cardvec.IllegalActionError``, nothing changed) or
  ``"lose"`` (the lane ends, ``terminated``, the learner taking the game's worst result).

``make(game_id, opponents="random", seat=0, **options)`` is a single ``gymnasium.Env`` (one
lane of the same view; ``info["action_mask"]`` bool [A]); call ``reset()`` after the end
of a game. Both pass Gymnasium's checkers (python/tests/test_gym.py).

Registered ids: importing ``cardvec.gym`` registers ``cardvec/<Class>-v0`` for every
registered game (``cardvec/LostCities-v0``, ``cardvec/Flip7-v0``, ``cardvec/I151-v0``,
``cardvec/NoLimitHoldem-v0``, ``cardvec/KuhnPoker-v0``, ``cardvec/LeducHoldem-v0``: the names of the
game classes, ``ids()`` lists them), so Gymnasium's own calls work::

    import gymnasium
    env = gymnasium.make("cardvec.gym:cardvec/KuhnPoker-v0", opponents="random")   # imports cardvec.gym
    envs = gymnasium.make_vec("cardvec/LostCities-v0", num_envs=256,
                              vectorization_mode="vector_entry_point", opponents="random")

``gymnasium.make`` builds ``make(game_id, ...)`` and ``gymnasium.make_vec`` with
``vectorization_mode="vector_entry_point"`` builds ``make_vec(game_id, num_envs, ...)`` (one
batch in Rust; Gymnasium's "sync"/"async" modes would step copies of the single env from
Python instead). Keyword arguments go to them.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, cast

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.utils import seeding
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as _missing:  # pragma: no cover - exercised only without gymnasium
    raise ImportError(
        "cardvec.gym needs Gymnasium 1.x, which is not installed (pip install 'gymnasium>=1,<2')"
    ) from _missing

from ._args import seed_arg
from ._cardvec import ACTION_ILLEGAL, LearnerEnv
from ._raster import frame, view_lines

if TYPE_CHECKING:
    from typing import Any, Literal, SupportsIndex

    from gymnasium.spaces import Box, Discrete
    from numpy import bool_, float32, int64, uint8
    from numpy.typing import ArrayLike, NDArray
    from typing_extensions import TypeAlias

    _Opponents: TypeAlias = "str | list[str] | tuple[str, ...]"
    _Seat: TypeAlias = "SupportsIndex | Literal['rotate']"

__all__ = ["CardvecEnv", "CardvecVectorEnv", "ids", "make", "make_vec"]

_SEED_SPAN = 2**63  # unseeded resets draw their seed in 0..2**63


def _spaces(env: LearnerEnv) -> tuple[spaces.Box, spaces.Discrete]:
    obs = spaces.Box(-np.inf, np.inf, (env.obs_dim,), np.float32)
    return obs, spaces.Discrete(env.num_actions)


def _check_render_mode(render_mode: object) -> None:
    if render_mode not in (None, "ansi", "rgb_array"):
        raise ValueError(f"render_mode must be None, 'ansi' or 'rgb_array', got {render_mode!r}")


def _check_options(options: Any) -> None:
    if options:
        raise ValueError(
            f"reset options are not supported (no partial reset), got {options!r}"
        )


class CardvecVectorEnv(VectorEnv):
    """A ``gymnasium.vector.VectorEnv`` over ``cardvec.LearnerEnv``; see ``cardvec.gym``
    (``make_vec`` builds one)."""

    env: LearnerEnv
    copy: bool
    single_observation_space: spaces.Box
    single_action_space: spaces.Discrete

    render_mode: str | None

    metadata: dict[str, Any] = {
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": ["ansi", "rgb_array"],
        "render_fps": 1,
    }

    def __init__(
        self,
        game_id: str,
        num_envs: SupportsIndex,
        opponents: _Opponents = "random",
        seat: _Seat = 0,
        seed: SupportsIndex | None = None,
        copy: bool = True,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        if not isinstance(copy, bool):
            raise TypeError(f"copy must be a bool, got {copy!r}")
        _check_render_mode(render_mode)
        self.render_mode = render_mode
        self._first_seed = seed_arg(seed)
        self.env = LearnerEnv(game_id, num_envs, opponents=opponents, seat=seat,
                              seed=self._first_seed, **options)
        self.num_envs = self.env.num_envs
        self.copy = copy
        self.single_observation_space, self.single_action_space = _spaces(self.env)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.metadata = dict(self.metadata)
        self._ones = np.ones(self.num_envs, dtype=bool)
        self._start = np.zeros(self.num_envs)
        self._prev_done = np.zeros(self.num_envs, dtype=bool)
        self._reset_done = False

    @property
    def game_id(self) -> str:
        """The game's registry id."""
        return self.env.game_id

    def _out(self, arr: np.ndarray) -> np.ndarray:
        return arr.copy() if self.copy else arr

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.env.legal_mask.astype(bool),
            "_action_mask": self._ones.copy(),
            "seat": self.env.seat.copy(),
            "_seat": self._ones.copy(),
        }

    def reset(
        self,
        *,
        seed: int | list[int] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[NDArray[float32], dict[str, Any]]:
        """Deals a new game in every lane; returns ``(obs, info)`` (see ``cardvec.gym``).
        ``seed`` may be a list of ``num_envs`` seeds, one per lane."""
        _check_options(options)
        if seed is not None and not isinstance(seed, (str, bytes)) and np.ndim(seed) == 1:
            # One seed per lane: the learner view checks them all (length, range) before
            # anything changes; np_random follows the whole list.
            obs = self.env.reset(seed=seed)
            self._np_random = np.random.Generator(
                np.random.PCG64(np.random.SeedSequence([int(s) for s in cast("list[int]", seed)]))
            )
            self._np_random_seed = -1
            return self._started(obs)
        seed = seed_arg(seed)
        if seed is None:
            if self._np_random is None:
                seed = self._first_seed
                self._np_random, self._np_random_seed = seeding.np_random(seed)
                if seed is None:
                    seed = int(self._np_random.integers(_SEED_SPAN))
            else:
                seed = int(self._np_random.integers(_SEED_SPAN))
        else:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        return self._started(self.env.reset(seed=seed))

    def _started(self, obs: NDArray[float32]) -> tuple[NDArray[float32], dict[str, Any]]:
        self._start[:] = time.perf_counter()
        self._prev_done[:] = False
        self._reset_done = True
        return self._out(obs), self._info()

    def step(
        self,
        actions: ArrayLike,
    ) -> tuple[
        NDArray[float32],
        NDArray[float32],
        NDArray[bool_],
        NDArray[bool_],
        dict[str, Any],
    ]:
        """One learner decision in every lane; returns ``(obs, rewards, terminated,
        truncated, info)`` (see ``cardvec.gym``)."""
        if not self._reset_done:
            raise RuntimeError("call reset() before step()")
        obs, rewards, terminated, truncated = self.env.step(np.asarray(actions))
        now = time.perf_counter()
        self._start[self._prev_done] = now  # autoreset steps deal new games
        done = terminated | truncated
        info = self._info()
        info["illegal"] = self.env.illegal == ACTION_ILLEGAL
        info["_illegal"] = self._ones.copy()
        if done.any():
            info["episode"] = {
                "r": np.where(done, self.env.episode_return, 0.0).astype(np.float32),
                "l": np.where(done, self.env.episode_length, 0).astype(np.int32),
                "t": np.where(done, np.round(now - self._start, 6), 0.0).astype(np.float32),
            }
            info["_episode"] = done.copy()
        self._prev_done = done.copy()
        return (
            self._out(obs),
            self._out(rewards),
            self._out(terminated),
            self._out(truncated),
            info,
        )

    def render(self) -> tuple[str, ...] | tuple[NDArray[uint8], ...] | None:
        """One frame per lane, in lane order (Gymnasium's ``VectorEnv.render`` convention,
        the tuple ``SyncVectorEnv`` builds from its environments): each lane's table as the
        learner sees it (every card once its game is over), the same text or RGB frame the
        single environment (``make``) renders: text for ``render_mode="ansi"``, numpy uint8
        [H, W, 3] frames of one fixed size for ``"rgb_array"``; ``None`` without a render
        mode."""
        if self.render_mode is None:
            return None
        done = self.env.terminated | self.env.truncated
        texts = tuple(
            view_lines(self.env.view_json(lane, reveal=bool(done[lane])))
            for lane in range(self.num_envs)
        )
        if self.render_mode == "rgb_array":
            return tuple(frame(text) for text in texts)
        return texts

    def close_extras(self, **kwargs: Any) -> None:
        """Closes the learner view (``VectorEnv.close`` calls it): later calls are a
        ``RuntimeError``."""
        self.env.close()

    def __repr__(self) -> str:
        return (
            f"CardvecVectorEnv({self.env.game_id!r}, num_envs={self.num_envs}, "
            f"opponents={self.env.opponents!r})"
        )


class CardvecEnv(gymnasium.Env):
    """A single ``gymnasium.Env`` over one lane of ``cardvec.LearnerEnv``; see
    ``cardvec.gym`` (``make`` builds one). ``render_mode``: ``None``, ``"ansi"`` (the
    game's view of the table as the learner sees it, as text) or ``"rgb_array"`` (that text
    drawn as a numpy uint8 [H, W, 3] frame of one fixed size, what ``RecordVideo`` takes)."""

    env: LearnerEnv
    observation_space: spaces.Box
    action_space: spaces.Discrete
    render_mode: str | None

    metadata: dict[str, Any] = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}

    def __init__(
        self,
        game_id: str,
        opponents: _Opponents = "random",
        seat: _Seat = 0,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        _check_render_mode(render_mode)
        self.render_mode = render_mode
        # One lane needs one worker (num_threads=1 unless asked; the pool is shared).
        options.setdefault("num_threads", 1)
        self.env = LearnerEnv(game_id, 1, opponents=opponents, seat=seat, **options)
        self.observation_space, self.action_space = _spaces(self.env)
        self._reset_done = False

    @property
    def game_id(self) -> str:
        """The game's registry id."""
        return self.env.game_id

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self.env.legal_mask[0].astype(bool),
            "seat": int(self.env.seat[0]),
        }

    def reset(
        self,
        *,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[NDArray[float32], dict[str, Any]]:
        """Deals a new game; returns ``(obs, info)``. ``seed`` seeds ``np_random``, from
        which every reset draws the game's seed."""
        _check_options(options)
        super().reset(seed=seed_arg(seed))
        self.env.reset(seed=int(self.np_random.integers(_SEED_SPAN)))
        self._reset_done = True
        return self.env.obs[0].copy(), self._info()

    def step(self, action: int) -> tuple[NDArray[float32], float, bool, bool, dict[str, Any]]:
        """The learner's action, then the bots' until its next decision; returns ``(obs,
        reward, terminated, truncated, info)``; ``info["illegal"]`` is true when the action
        was illegal (a no-op, or with ``on_illegal="lose"`` the end of the game)."""
        if not self._reset_done:
            raise RuntimeError("call reset() before step()")
        self.env.step(np.asarray([action]))
        info = self._info()
        info["illegal"] = bool(self.env.illegal[0] == ACTION_ILLEGAL)
        return (
            self.env.obs[0].copy(),
            float(self.env.rewards[0]),
            bool(self.env.terminated[0]),
            bool(self.env.truncated[0]),
            info,
        )

    def render(self) -> str | NDArray[uint8] | None:
        """The table as the learner sees it (every card once the game is over): text for
        ``render_mode="ansi"``, an RGB frame for ``"rgb_array"``, ``None`` without a render
        mode (the game's own view, ``Words::view``, the one the web table draws)."""
        if self.render_mode is None:
            return None
        done = bool(self.env.terminated[0] or self.env.truncated[0])
        text = view_lines(self.env.view_json(0, reveal=done))
        return frame(text) if self.render_mode == "rgb_array" else text

    def close(self) -> None:
        """Closes the learner view: later calls are a ``RuntimeError`` (closing twice is
        allowed)."""
        self.env.close()
        super().close()

    def __repr__(self) -> str:
        return f"CardvecEnv({self.env.game_id!r}, opponents={self.env.opponents!r})"


def make_vec(
    game_id: str,
    num_envs: SupportsIndex,
    opponents: _Opponents = "random",
    seat: _Seat = 0,
    seed: SupportsIndex | None = None,
    copy: bool = True,
    render_mode: str | None = None,
    **options: Any,
) -> CardvecVectorEnv:
    """A ``gymnasium.vector.VectorEnv`` of ``num_envs`` lanes of game ``game_id`` against
    ``opponents`` (see ``cardvec.gym``; ``render_mode`` ``None``, ``"ansi"`` or
    ``"rgb_array"``: ``render()`` gives one frame per lane; the other arguments as for
    ``cardvec.LearnerEnv``)."""
    return CardvecVectorEnv(game_id, num_envs, opponents=opponents, seat=seat, seed=seed,
                            copy=copy, render_mode=render_mode, **options)


def make(
    game_id: str,
    opponents: _Opponents = "random",
    seat: _Seat = 0,
    render_mode: str | None = None,
    **options: Any,
) -> CardvecEnv:
    """A single ``gymnasium.Env`` of game ``game_id`` against ``opponents`` (see
    ``cardvec.gym``; ``render_mode`` ``None``, ``"ansi"`` or ``"rgb_array"``)."""
    return CardvecEnv(game_id, opponents=opponents, seat=seat, render_mode=render_mode,
                      **options)


def _class_name(game_id: str) -> str:
    from ._games import game_class

    return game_class(game_id).__name__


def _entry(game_id: str) -> Any:
    def entry(**kwargs: Any) -> CardvecEnv:
        return make(game_id, **kwargs)

    entry.__name__ = entry.__qualname__ = f"make_{_class_name(game_id)}"
    entry.__doc__ = f"``cardvec.gym.make({game_id!r}, **kwargs)`` (Gymnasium's entry point)."
    return entry


def _vector_entry(game_id: str) -> Any:
    def entry(num_envs: int = 1, **kwargs: Any) -> CardvecVectorEnv:
        return make_vec(game_id, num_envs, **kwargs)

    entry.__name__ = entry.__qualname__ = f"make_vec_{_class_name(game_id)}"
    entry.__doc__ = (f"``cardvec.gym.make_vec({game_id!r}, num_envs, **kwargs)`` (Gymnasium's "
                     "vector entry point).")
    return entry


def ids() -> dict[str, str]:
    """The Gymnasium id of every registered game: ``{"cardvec/LostCities-v0": "lost-cities",
    ...}``."""
    from ._games import games

    return {f"cardvec/{_class_name(g['id'])}-v0": g["id"] for g in games()}


def _register() -> None:
    from gymnasium.envs.registration import register, registry

    for env_id, game_id in ids().items():
        if env_id in registry:
            continue
        register(id=env_id, entry_point=_entry(game_id),
                 vector_entry_point=_vector_entry(game_id))


_register()
