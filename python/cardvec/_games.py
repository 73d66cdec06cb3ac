"""The batch classes of the registered games, derived from the registry.

For every game in ``_cardvec.games()`` (the Rust registry, ``src/registry.rs``) this module
creates one subclass of ``BatchEnv`` named by the game's ``python_class`` and taking
``(num_envs, seed=None, num_threads=None, autoreset=False, observe=True, chunk_size=None,
max_steps=None, *, obs_dtype="f32", mask_dtype="u8", on_illegal="noop", **options)``: a game added to the registry gets its class without code here. ``make`` and
``game_class`` find a class by game id; nothing else picks a game by name.
"""

from ._cardvec import BatchEnv, LearnerEnv
from ._cardvec import games as _registry_games

#: Game id -> batch class.
CLASSES: dict = {}


def games() -> list:
    """The registered games, in the registry's order: one dict per game (``id``, ``title``,
    ``summary``, ``players``, ``python_class``, ``docs``, ``oracle``, ``options``, ``bots``,
    ``configurations``); see ``cardvec.games``."""
    return _registry_games()


def _docstring(info: dict) -> str:
    lines = [
        f"{info['title']}: {info['summary']} (see {info['docs']}).",
        "",
        f"``{info['python_class']}(num_envs, seed=None, num_threads=None, autoreset=False, "
        "observe=True, chunk_size=None, max_steps=None, *, obs_dtype=\"f32\", mask_dtype=\"u8\", "
        "on_illegal=\"noop\", "
        "**options)``, the batch environment of game "
        f"``{info['id']!r}`` (``cardvec.make({info['id']!r}, num_envs, ...)``); "
        f"{info['players'][0]} to {info['players'][1]} players.",
        "",
    ]
    if info["options"]:
        lines.append("Options:")
        for o in info["options"]:
            lines.append(f"- ``{o['name']}`` ({o['kind']}, default {o['default']!r}): {o['doc']}")
    else:
        lines.append("No options.")
    lines += ["", "See ``BatchEnv`` for the methods and outputs."]
    return "\n".join(lines)


def _game_class(info: dict) -> type:
    game_id = info["id"]

    def __new__(
        cls,
        num_envs,
        seed=None,
        num_threads=None,
        autoreset=False,
        observe=True,
        chunk_size=None,
        max_steps=None,
        *,
        obs_dtype="f32",
        mask_dtype="u8",
        on_illegal="noop",
        **options,
    ):
        return BatchEnv.__new__(
            cls,
            game_id,
            num_envs,
            seed,
            num_threads,
            autoreset,
            observe,
            chunk_size,
            max_steps,
            obs_dtype=obs_dtype,
            mask_dtype=mask_dtype,
            on_illegal=on_illegal,
            **options,
        )

    name = info["python_class"]
    __new__.__qualname__ = f"{name}.__new__"
    return type(
        name,
        (BatchEnv,),
        {
            "__new__": __new__,
            "__doc__": _docstring(info),
            "__module__": "cardvec",
            "__slots__": (),
            "GAME_ID": game_id,
        },
    )


def register_class(cls: type) -> None:
    """Makes ``cls`` (a subclass of a registered game's class, for backward-compatible
    arguments) the class of its game: ``make`` and ``cardvec.<python_class>`` return it."""
    CLASSES[cls.GAME_ID] = cls
    globals()[cls.__name__] = cls


def game_class(game_id: str) -> type:
    """The batch class of game ``game_id`` (``ValueError`` for an unknown id)."""
    try:
        return CLASSES[game_id]
    except KeyError:
        known = ", ".join(CLASSES)
        raise ValueError(f"unknown game {game_id!r}; expected one of: {known}") from None


def make(game_id: str, num_envs, **kwargs):
    """A batch environment of game ``game_id`` with ``num_envs`` lanes: an instance of the
    game's class, built with ``kwargs`` (``seed``, ``num_threads``, ``autoreset``,
    ``observe``, ``chunk_size``, ``max_steps`` (a step limit per episode that truncates,
    counting attempted steps, illegal no-ops included; ``None``: off), ``on_illegal``
    (``"noop"``, ``"raise"`` or ``"lose"``, see ``cardvec``), ``obs_dtype`` (``"f32"``, or ``"u8"``: compact observations),
    ``mask_dtype`` (``"u8"`` or ``"bool"``) and the game's options).

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
    return game_class(game_id)(num_envs, **kwargs)


for _info in games():
    register_class(_game_class(_info))
del _info
