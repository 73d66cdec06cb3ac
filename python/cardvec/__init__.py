"""cardvec: card games simulated in bulk, for RL/CFR training.

Every registered game (``cardvec.games()`` lists them) has a batch class of the same shape,
derived from the registry and named by the game's ``python_class``, for example::

    env = cardvec.Flip7(num_envs=4096, seed=0, num_threads=None, autoreset=False,
                        observe=True, chunk_size=None, num_players=5)
    env = cardvec.make("flip7", 4096, seed=0, num_players=5)   # the same, by game id
    obs = env.reset()                      # float32 [N, obs_dim]
    obs, rewards, terminated, truncated = env.step(actions)   # actions: int array [N]

Game options are keyword arguments checked against the registry (a bad one is a
``ValueError`` naming the accepted options). Every class is a subclass of ``BatchEnv``.
``obs_dtype="u8"`` gives compact observations (``obs`` uint8 plus ``obs_tail`` float32;
``obs_f32()`` rebuilds the float32 rows exactly), ``mask_dtype="bool"`` a bool
``legal_mask``, ``legal_bits()`` the masks as bits (docs/python.md, "Compact observations
and masks").

Every output (``obs``, ``legal_mask``, ``rewards``, ``terminated``, ``truncated``,
``current_player``, ``illegal``) is a read-only numpy view of the engine's own buffers:
the same array objects on every call, at the same addresses for the environment's
lifetime, updated in place. Copy them (``arr.copy()``) to keep a value across steps.

Threads: ``step``, ``reset``, ``reset_lanes``, ``reset_lane_from_order``, ``gather``,
``set_state`` and ``observe`` write the views while the GIL is released; reading a view
from another thread during one of these calls is not allowed (its rows may be torn). Read
them between calls. A second call on the same environment from another thread meanwhile is
a ``RuntimeError``.

Fork: environments and ``cardvec.holdem`` keep working in a process forked after they were
used (``os.fork()``, ``multiprocessing`` "fork" pools, DataLoader workers).

Ctrl-C stops the long calls (``holdem.equity``, large ``holdem.evaluate_batch``,
``arena.play_catalog_match``, ``solve.cfr``) with ``KeyboardInterrupt``.

Learner view: ``cardvec.LearnerEnv(game_id, num_envs, opponents="random", seat=0, ...)``
(or ``cardvec.make(game_id, num_envs, opponents=..., seat=...)``) plays every seat but the
learner's with built-in bots inside Rust and shows the learner's decisions only;
``cardvec.bots.act(env, bot)`` plays a built-in bot on a whole batch (``cardvec.bots``).

Solvers: ``cardvec.solve.cfr("leduc", 1000)`` (CFR, CFR+, MCCFR) and
``cardvec.solve.exploitability(game_id, policy)`` for the games with a game tree
(``cardvec.solve.tree_ids()``; docs/cfr.md).

``illegal`` codes: 0 applied, 1 illegal action (no-op), 2 lane already finished (no-op),
3 lane was autoreset (action ignored).

``on_illegal=`` (every batch class, ``make``, ``LearnerEnv``, ``cardvec.gym``): what an
illegal action on a live lane does: ``"noop"`` (default; counted toward ``max_steps``, so a
lane fed only illegal actions is truncated), ``"raise"`` (``IllegalActionError``, a
``ValueError`` naming the lanes; nothing changed) or ``"lose"`` (the lane ends, the
offending seat taking the game's worst result; docs/architecture.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import (
    _game_classes,
    _games,
    arena,
    bots,
    errors,
    flip7,
    holdem,
    i151,
    learner,
    lost_cities,
    pushfold,
    solve,
    spot,
)
from ._cardvec import (
    ACTION_APPLIED,
    ACTION_FINISHED,
    ACTION_ILLEGAL,
    ACTION_RESET,
    MAX_THREADS,
    BatchEnv,
    Flip7Game,
    IllegalActionError,
    LearnerEnv,
    __version__,
)
from ._games import game_class, games, make
from .errors import UnknownOptionError

if TYPE_CHECKING:
    # The registry's dicts (cardvec.games()), types only.
    from ._cardvec import GameInfo as GameInfo
    from ._cardvec import OptionInfo as OptionInfo

# One class per registered game (cardvec.LostCities, cardvec.Flip7, ...), generated from the
# registry; a game module may replace its game's class by a subclass (cardvec.i151.I151 keeps
# the deprecated players= spelling), which _games.register_class records.
from ._game_classes import *  # noqa: F403
from .i151 import I151, I151P2, I151P3, I151P4  # type: ignore[deprecated]  # kept for compatibility

__all__ = [
    "ACTION_APPLIED",
    "ACTION_FINISHED",
    "ACTION_ILLEGAL",
    "ACTION_RESET",
    "MAX_THREADS",
    "UnknownOptionError",
    "errors",
    "BatchEnv",
    "Flip7Game",
    "IllegalActionError",
    "LearnerEnv",
    "I151P2",
    "I151P3",
    "I151P4",
    "game_class",
    "games",
    "make",
    "arena",
    "bots",
    "flip7",
    "holdem",
    "i151",
    "learner",
    "lost_cities",
    "pushfold",
    "solve",
    "spot",
    "__version__",
]
__all__ += _game_classes.__all__
