"""A drop-in for the seed's ``lost_cities_jax`` (docs/lost-cities.md): the same exports,
pure functions over numpy states, run by cardvec's Lost Cities engine.

Exports, as the seed lists them: ``OBS_DIM`` (454), ``N_ACTIONS`` (96), ``State``,
``reset(rng)``, ``reset_from_order(deck_order)``, ``legal_action_mask(state) -> bool[96]``,
``step(state, action) -> (State, float32[2], bool)``, ``score(state) -> float32[2]``,
``board_score(state) -> float32[2]``, ``observation(state, player) -> float32[454]``, and
``batched_reset(rngs)``, ``batched_step(states, actions)``, ``batched_obs(states, players)``,
``batched_legal_mask(states)`` over arrays of states.

A state is a numpy array of dtype ``State`` (a structured dtype holding the engine's lane
state as bytes): one state is a 0-d array, a batch a 1-d array; index, stack
(``np.stack``), copy and pass them back in as any numpy array. Every function is pure: it
returns new arrays and never changes its arguments. The seed's semantics hold: an illegal
action or an action on a finished game is a no-op with zero reward, ``done`` is one flag
(the natural end or the 400-ply limit), the mask is ``bool``, the observation is the seed's
layout (card-major ``[60, 7]``, ``obs[card * 7 + channel]``), ``score`` the zero-sum pair
``board[s] - board[1 - s]``.

Differences from the seed: no JAX (numpy in, numpy out; nothing is traced or jitted); the
``rng`` of ``reset`` is any integer or integer array (a JAX key ``uint32[2]`` included),
hashed to cardvec's 64-bit seed, so a key deals other cards than the seed's
``jax.random`` shuffle (``reset_from_order`` deals the same cards); ``State`` is a numpy
dtype, not a pytree of fields.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import numpy as np

from ._game_classes import LostCities
from .lost_cities import N_ACTIONS as _N_ACTIONS
from .lost_cities import OBS_DIM as _OBS_DIM

if TYPE_CHECKING:
    from typing import Any

    from numpy import bool_, dtype, float32, void
    from numpy.typing import ArrayLike, NDArray

OBS_DIM: int = _OBS_DIM
N_ACTIONS: int = _N_ACTIONS

_PROBE = LostCities(1, num_threads=1)
#: The dtype of a lane state: one field ``raw``, the engine's state bytes.
State: dtype[void] = np.dtype([("raw", np.uint8, (len(_PROBE.get_state(0)),))])
del _PROBE

_LOCK = threading.Lock()
_ENVS: dict[int, LostCities] = {}

# Observation channels (60 cards each, channel-major): 1 my board, 2 opponent's board.
_CARDS = 60
_MY_BOARD, _OPP_BOARD = 1, 2


def _env(n: int) -> LostCities:
    """The engine of ``n`` lanes (cached; used under ``_LOCK``)."""
    env = _ENVS.get(n)
    if env is None:
        env = _ENVS[n] = LostCities(n, num_threads=1, observe=False, obs_layout="card-major")
    return env


def _states(states: Any) -> np.ndarray:
    a = np.asarray(states)
    if a.dtype != State:
        raise TypeError(f"expected states of dtype lost_cities_jax.State, got {a.dtype}")
    return a


def _load(env: Any, flat: np.ndarray) -> None:
    for i, s in enumerate(flat):
        env.set_state(i, s["raw"].tobytes())


def _save(env: Any, n: int) -> np.ndarray:
    out = np.empty(n, dtype=State)
    for i in range(n):
        out[i]["raw"] = np.frombuffer(env.get_state(i), dtype=np.uint8)
    return out


def _seed(rng: Any) -> int:
    words = [int(x) for x in np.ravel(np.asarray(rng, dtype=object))]
    if any(w < 0 for w in words):
        raise ValueError(f"rng must hold non-negative integers, got {rng!r}")
    return int(np.random.SeedSequence(words).generate_state(1, np.uint64)[0])


def batched_reset(rngs: ArrayLike) -> NDArray[void]:
    """New games, one per rng (``rngs``: an integer array ``[N]``, or ``[N, k]`` keys)."""
    keys = np.asarray(rngs)
    keys = keys.reshape(keys.shape[0], -1) if keys.ndim else keys.reshape(1, 1)
    n = keys.shape[0]
    if n == 0:
        return np.empty(0, dtype=State)
    with _LOCK:
        env = _env(n)
        for i in range(n):
            single = _env(1)
            single.reset(_seed(keys[i]))
            env.set_state(i, single.get_state(0))
        return _save(env, n)


def reset(rng: ArrayLike) -> NDArray[void]:
    """A new game dealt from ``rng`` (an integer or an integer array, e.g. a JAX key)."""
    with _LOCK:
        env = _env(1)
        env.reset(_seed(rng))
        return _save(env, 1)[0:1].reshape(())


def reset_from_order(deck_order: ArrayLike) -> NDArray[void]:
    """The game dealt from ``deck_order``, a permutation of ``0..60``: cards 0..8 to player
    0, 8..16 to player 1, the deck drawn from index 16 (a bad order is a ``ValueError``)."""
    with _LOCK:
        env = _env(1)
        env.reset_lane_from_order(0, np.asarray(deck_order, dtype=np.int64))
        return _save(env, 1).reshape(())


def batched_step(
    states: ArrayLike,
    actions: ArrayLike,
) -> tuple[NDArray[void], NDArray[float32], NDArray[bool_]]:
    """``step`` of every state: ``(states [N], rewards float32 [N, 2], done bool [N])``."""
    flat = _states(states).reshape(-1)
    n = flat.shape[0]
    acts = np.asarray(actions, dtype=np.int64).reshape(-1)
    if acts.shape[0] != n:
        raise ValueError(f"expected {n} actions, got {acts.shape[0]}")
    if n == 0:
        return np.empty(0, dtype=State), np.zeros((0, 2), np.float32), np.zeros(0, bool)
    # An action outside the u32 range is illegal anyway: a no-op.
    acts = np.where((acts < 0) | (acts >= 2**32), 2**32 - 1, acts).astype(np.uint32)
    with _LOCK:
        env = _env(n)
        _load(env, flat)
        env.step(acts)
        rewards = np.array(env.rewards, dtype=np.float32)
        done = np.array(env.terminated | env.truncated)
        return _save(env, n), rewards, done


def step(state: ArrayLike, action: int) -> tuple[NDArray[void], NDArray[float32], bool]:
    """One ply: ``(new state, rewards float32[2], done)``; an illegal action, or any
    action once the game is over, is a no-op with zero reward."""
    new, rewards, done = batched_step(_states(state).reshape(1), [action])
    return new.reshape(()), rewards[0], bool(done[0])


def batched_legal_mask(states: ArrayLike) -> NDArray[bool_]:
    """The legal masks, bool ``[N, 96]`` (all False once the game is over)."""
    flat = _states(states).reshape(-1)
    if flat.shape[0] == 0:
        return np.zeros((0, N_ACTIONS), dtype=bool)
    with _LOCK:
        env = _env(flat.shape[0])
        _load(env, flat)
        return env.legal_mask.astype(bool)


def legal_action_mask(state: ArrayLike) -> NDArray[bool_]:
    """The legal mask of one state, bool ``[96]``."""
    mask: NDArray[bool_] = batched_legal_mask(_states(state).reshape(1))[0]
    return mask


def batched_obs(states: ArrayLike, players: ArrayLike) -> NDArray[float32]:
    """The observations float32 ``[N, 454]`` of ``players[i]`` (0 or 1) in ``states[i]``."""
    flat = _states(states).reshape(-1)
    n = flat.shape[0]
    seats = np.broadcast_to(np.asarray(players, dtype=np.int64), (n,))
    out = np.empty((n, OBS_DIM), dtype=np.float32)
    with _LOCK:
        env = _env(max(n, 1))
        _load(env, flat)
        for i in range(n):
            out[i] = env.observe_as(i, int(seats[i]))
    return out


def observation(state: ArrayLike, player: int) -> NDArray[float32]:
    """The observation of ``player`` (0 or 1), float32 ``[454]``."""
    obs: NDArray[float32] = batched_obs(_states(state).reshape(1), [player])[0]
    return obs


def _column_scores(board: np.ndarray) -> float:
    total = 0.0
    for color in range(5):
        cards = board[color * 12 : (color + 1) * 12] > 0
        if not cards.any():
            continue
        handshakes = int(cards[:3].sum())
        ranks = sum(slot - 1 for slot in range(3, 12) if cards[slot])
        total += (ranks - 20) * (1 + handshakes) + (20 if cards.sum() >= 8 else 0)
    return total


def board_score(state: ArrayLike) -> NDArray[float32]:
    """The two raw board scores (player 0, player 1), float32 ``[2]``."""
    # The observation is card-major: card c's channels are obs[c * 7 : c * 7 + 7].
    onehot = observation(state, 0)[: _CARDS * 7].reshape(_CARDS, 7)
    mine = onehot[:, _MY_BOARD]
    theirs = onehot[:, _OPP_BOARD]
    return np.array([_column_scores(mine), _column_scores(theirs)], dtype=np.float32)


def score(state: ArrayLike) -> NDArray[float32]:
    """The zero-sum pair ``board[s] - board[1 - s]``, float32 ``[2]`` (what the final step
    pays)."""
    b = board_score(state)
    return np.array([b[0] - b[1], b[1] - b[0]], dtype=np.float32)


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
