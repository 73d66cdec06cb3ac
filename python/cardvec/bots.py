"""Built-in bots of every game, played on a whole batch at once.

``names(game_id)`` lists a game's bots (the registry's names: families are written as
patterns, ``threshold-<K>``, ``equity-<N>``, ``minmax_d<D>w<W>[t]``, to be filled in:
``threshold-27``, ``equity-500``, ``minmax_d2w8``). ``act(env, bot)`` returns the action the
bot picks in every lane, computed in Rust over the lanes in parallel with the GIL
released::

    env = cardvec.make("lost-cities", 4096)
    actions = cardvec.bots.act(env, "safe-heuristic", seed=1)   # int64 [4096]
    env.step(actions)

Determinism: the bot's random stream for lane ``l`` is keyed by ``(seed, l, a hash of the
lane's state)``, so the actions depend only on ``seed`` and the states, never on the
thread count, the chunk size or the calls made before (the same seed and states give the
same actions).
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

import numpy as np

from ._cardvec import BatchEnv, LearnerEnv
from ._games import game_class, games

if TYPE_CHECKING:
    from typing import SupportsIndex

    from numpy import float32, int64
    from numpy.typing import ArrayLike, NDArray


def names(game_id: str) -> list[str]:
    """The built-in bots of game ``game_id``, as the registry lists them (a new list);
    ``ValueError`` for an unknown game."""
    if not isinstance(game_id, str):
        raise TypeError(f"game_id must be a str, got {game_id!r}")
    game_class(game_id)  # the ValueError for an unknown id, listing the known ones
    return next(list(info["bots"]) for info in games() if info["id"] == game_id)


def act(
    env: BatchEnv | LearnerEnv,
    bot: str,
    lanes: ArrayLike | None = None,
    seed: SupportsIndex | None = 0,
) -> NDArray[int64]:
    """The action bot ``bot`` picks for the seat to act in every lane of ``env``.

    ``env`` is a ``BatchEnv`` (any game's class: the bot plays the seat to act) or a
    ``LearnerEnv`` (the bot plays in the learner's place, a baseline). ``bot`` is one of
    ``names(env.game_id)`` (a pattern filled in). ``lanes`` is ``None`` (every lane) or a
    bool array with one entry per lane. ``seed`` is an integer in ``0..2**64`` (``None``
    is 0).

    Returns a new int64 array [num_envs]: the bot's action in each selected lane whose
    game is not over, ``-1`` elsewhere. An unknown bot is a ``ValueError`` naming the
    game's bots; a ``lanes`` array of another length or dtype is a ``ValueError``; a bot
    that remembers between decisions (151's tracking search bots, ``minmax_d...t``) is a
    ``ValueError`` too, as it cannot play many lanes at once. Nothing changes in ``env``.
    """
    if not isinstance(env, (BatchEnv, LearnerEnv)):
        raise TypeError(
            f"env must be a cardvec BatchEnv or LearnerEnv, got {type(env).__name__}"
        )
    if not isinstance(bot, str):
        raise TypeError(f"bot must be a bot name (str), got {bot!r}")
    return env._bot_actions(bot, lanes, seed)


def policy_probs(
    env: BatchEnv | LearnerEnv,
    path: str | os.PathLike[str],
    lanes: ArrayLike | None = None,
) -> NDArray[float32]:
    """The action probabilities of the policy file ``path`` (docs/policies.md) for the
    seat to act in every lane of ``env``, as the ``policy:<path>`` bot computes them in
    Rust: the softmax of the network's logits over the legal actions (0 for the illegal
    ones; ``policy:<path>`` plays the argmax, ``policy:<path>,sample=1`` draws from them).

    ``env`` is a ``BatchEnv`` (the seat to act) or a ``LearnerEnv`` (the learner's seat).
    ``lanes`` is ``None`` (every lane) or a bool array with one entry per lane. Returns a
    new float32 array [num_envs, num_actions], all zero in the lanes not selected or whose
    game is over. A missing, truncated or invalid file, or one trained on another game or
    configuration, is a ``ValueError`` naming the problem. Nothing changes in ``env``.
    """
    if not isinstance(env, (BatchEnv, LearnerEnv)):
        raise TypeError(
            f"env must be a cardvec BatchEnv or LearnerEnv, got {type(env).__name__}"
        )
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a path (str or os.PathLike), got {path!r}")
    return env._policy_probs(os.fspath(path), lanes)


def action_values(
    env: BatchEnv | LearnerEnv,
    bot: str,
    lanes: ArrayLike | None = None,
    seed: SupportsIndex | None = 0,
) -> NDArray[float32]:
    """The action values of the search bot ``bot`` (a ``pimc`` name,
    ``"pimc:sims=40,playout=safe-heuristic"``) for the seat to act in every lane of
    ``env``: for each legal action, the mean return of its determinized rollouts for that
    seat (in the game's reward unit: Lost Cities' points), computed in Rust over the lanes in
    parallel (one lane per work item, on the environment's threads) with the GIL released.
    What imitation learning of the search bot reads as soft targets
    (``examples/imitate_lost_cities.py``).

    ``env``, ``lanes`` and ``seed`` are as in ``act``. Returns a new float32 array
    [num_envs, num_actions]: ``NaN`` for the illegal actions and in the rows of the lanes
    not selected or whose game is over. Lane ``l`` searches with the stream ``act`` gives
    the bot, so ``act(env, bot, lanes, seed)`` plays the legal action with the highest
    value (the first such; with ``halving=1`` the actions with the most rollouts come first,
    the ones dropped early have means over fewer rollouts). With a ``sims`` budget the
    values depend only on ``seed`` and the states, never on the thread count; with ``ms``
    they are not reproducible. A name that is not ``pimc`` (or a bad ``pimc`` option), or a
    game without a determinization, is a ``ValueError``. Nothing changes in ``env``.
    """
    if not isinstance(env, (BatchEnv, LearnerEnv)):
        raise TypeError(
            f"env must be a cardvec BatchEnv or LearnerEnv, got {type(env).__name__}"
        )
    if not isinstance(bot, str):
        raise TypeError(f"bot must be a pimc bot name (str), got {bot!r}")
    return env._search_values(bot, lanes, seed)


__all__ = ["act", "action_values", "names", "policy_probs"]
