"""The registry's games from Python: ``games()``, ``make`` and ``game_class``.

The batch class of every registered game (a subclass of ``BatchEnv`` named by the game's
``python_class``, taking ``(num_envs, seed=None, num_threads=None, autoreset=False,
observe=True, chunk_size=None, max_steps=None, *, obs_dtype="f32", mask_dtype="u8",
on_illegal="noop", **options)``) is in ``_game_classes``, generated from the registry by
scripts/gen_stubs.py: a game added to the registry gets its class without code here.
``make`` and ``game_class`` find a class by game id; nothing else picks a game by name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, SupportsIndex, cast, overload

from . import _game_classes
from ._cardvec import BatchEnv, LearnerEnv
from ._cardvec import games as _registry_games

if TYPE_CHECKING:
    from ._cardvec import GameInfo, _OnIllegal, _OptionValue

#: Game id -> batch class.
CLASSES: dict[str, type[BatchEnv]] = {}


def games() -> list[GameInfo]:
    """The registered games, in the registry's order: one dict per game (``id``, ``title``,
    ``summary``, ``players``, ``python_class``, ``docs``, ``oracle``, ``options``, ``bots``,
    ``configurations``); see ``cardvec.games``."""
    return _registry_games()


def register_class(cls: type[BatchEnv]) -> None:
    """Makes ``cls`` (a subclass of a registered game's class, for backward-compatible
    arguments) the class of its game: ``make`` and ``cardvec.<python_class>`` return it."""
    CLASSES[getattr(cls, "GAME_ID")] = cls
    globals()[cls.__name__] = cls


def game_class(game_id: str) -> type[BatchEnv]:
    """The batch class of game ``game_id`` (``ValueError`` for an unknown id)."""
    try:
        return CLASSES[game_id]
    except KeyError:
        if any(info["id"] == game_id for info in games()):
            raise ValueError(
                f"game {game_id!r} is registered but has no class: python/cardvec/"
                "_game_classes.py predates it (run python scripts/gen_stubs.py)"
            ) from None
        known = ", ".join(CLASSES)
        raise ValueError(f"unknown game {game_id!r}; expected one of: {known}") from None


# make(...) is a LearnerEnv when opponents= is given (not None), else the game's BatchEnv.
@overload
def make(
    game_id: str,
    num_envs: SupportsIndex,
    *,
    opponents: str | list[str] | tuple[str, ...],
    seat: SupportsIndex | Literal["rotate"] = 0,
    seed: SupportsIndex | None = None,
    num_threads: SupportsIndex | None = None,
    chunk_size: SupportsIndex | None = None,
    max_steps: SupportsIndex | None = None,
    on_illegal: _OnIllegal = "noop",
    **options: _OptionValue,
) -> LearnerEnv: ...
@overload
def make(
    game_id: str,
    num_envs: SupportsIndex,
    *,
    opponents: None = None,
    **kwargs: Any,
) -> BatchEnv: ...
def make(game_id: str, num_envs: SupportsIndex, **kwargs: Any) -> BatchEnv | LearnerEnv:
    """A batch environment of game ``game_id`` with ``num_envs`` lanes: an instance of the
    game's class, built with ``kwargs`` (``seed``, ``num_threads``, ``autoreset``,
    ``observe``, ``chunk_size``, ``max_steps`` (a step limit per episode that truncates,
    counting attempted steps, illegal no-ops included; ``None``: off), ``on_illegal``
    (``"noop"``, ``"raise"`` or ``"lose"``, see ``cardvec``), ``obs_dtype`` (``"f32"``, or ``"u8"``: compact observations),
    ``mask_dtype`` (``"u8"`` or ``"bool"``), ``obs_seats`` (``"acting"``, or ``"all"``: every
    seat's float32 rows, ``obs`` ``[num_envs, num_players, obs_dim]``) and the game's options).

    With ``opponents`` (one bot name, or a list of ``num_players - 1``), a ``LearnerEnv``
    instead: the learner view, every seat but the learner's (``seat``: an int or
    ``"rotate"``, default 0) played by those bots; it takes ``seed``, ``num_threads``,
    ``chunk_size``, ``max_steps`` (plies of every seat per game), ``on_illegal`` and the game's options (it always autoresets and observes, so
    ``autoreset`` and ``observe`` are refused)."""
    if kwargs.get("opponents") is not None:
        for name in ("autoreset", "observe"):
            if name in kwargs:
                raise ValueError(
                    f"{name}= is not an argument of the learner view (opponents=...): it "
                    "always autoresets (next step) and observes"
                )
        return LearnerEnv(game_id, num_envs, **kwargs)
    kwargs.pop("opponents", None)
    if "seat" in kwargs:
        raise ValueError(
            f"seat={kwargs['seat']!r} places the learner of a learner view: give opponents= "
            "too (the bots of the other seats)"
        )
    cls: Any = game_class(game_id)  # a game's class takes (num_envs, ..., **options)
    return cast(BatchEnv, cls(num_envs, **kwargs))


for _name in _game_classes.__all__:
    register_class(getattr(_game_classes, _name))
del _name
