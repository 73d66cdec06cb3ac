"""PettingZoo environments backed by cardvec's engines (``pettingzoo`` must be installed).

- ``cardvec.pettingzoo.lost_cities_v0``: Lost Cities, two players.
- ``cardvec.pettingzoo.flip7_v0``: Flip 7, a drop-in for game-room 0.1.0's
  ``game_room.flip7_v0``.
- ``cardvec.pettingzoo.i151_v0``: 151, 2 to 4 players, one match per episode.
- ``cardvec.pettingzoo.holdem_v0``: no-limit hold'em for 2 to 10 players (docs/holdem.md).
- ``cardvec.pettingzoo.kuhn_v0``: Kuhn poker as OpenSpiel's ``kuhn_poker`` (docs/kuhn.md).
- ``cardvec.pettingzoo.leduc_v0``: Leduc hold'em as OpenSpiel's ``leduc_poker`` (docs/leduc.md).

Each has ``env()`` (AEC, wrapped), ``raw_env()`` and ``parallel_env()`` (the Parallel API
for turn-based games: every agent is observed, only the agent to act has a nonzero action
mask and only its action is applied). Conventions, seeds and pickling: docs/python.md.

Every registered game, these six and any added to the registry later with no Python
written for it, is also here by its id: ``cardvec.pettingzoo.env("kuhn")``,
``raw_env(game_id, **options)``, ``parallel_env(game_id, **options)`` (options checked by
the registry; observations in an unbounded ``Box``, the modules above give tight bounds).
"""

from __future__ import annotations


from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._aec import _OrderEnforcing
    from ._lane import GameAEC
    from ._parallel import CardvecParallel

__all__ = ["env", "parallel_env", "raw_env"]

# The wrappers import PettingZoo; they are imported when an environment is made, so that
# `import cardvec.pettingzoo` works (and says what it holds) without it.


def raw_env(game_id: str, *, render_mode: str | None = None, **options: Any) -> GameAEC:
    """The AEC environment of registered game ``game_id`` (unwrapped: illegal actions
    raise ``ValueError`` and change nothing). An unknown id or option is a
    ``ValueError`` naming what is accepted."""
    from ._lane import GameAEC

    return GameAEC(game_id, render_mode=render_mode, **options)


def env(game_id: str, *, render_mode: str | None = None, **options: Any) -> _OrderEnforcing:
    """``raw_env(game_id, ...)`` wrapped in PettingZoo's order checks."""
    from ._aec import wrap

    return wrap(raw_env(game_id, render_mode=render_mode, **options))


def parallel_env(
    game_id: str, *, render_mode: str | None = None, **options: Any
) -> CardvecParallel:
    """The Parallel environment of registered game ``game_id`` (turn-based: only the agent
    to act's action is applied; see ``cardvec.pettingzoo._parallel``)."""
    from ._parallel import CardvecParallel

    return CardvecParallel(raw_env(game_id, render_mode=render_mode, **options))
