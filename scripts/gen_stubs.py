#!/usr/bin/env python3
"""Writes python/cardvec/_game_classes.py, the batch class of every registered game, from the
registry (``cardvec._cardvec.games()``, the Rust registry ``src/registry.rs`` as the compiled
module reports it).

    python scripts/gen_stubs.py            # rewrite the module from the built cardvec._cardvec
    python scripts/gen_stubs.py --check    # exit 1 with a diff when the committed module is stale

The generated module is typed inline (each game's options are a ``TypedDict`` the class's
``**options`` take), so ``mypy --strict`` and stubtest read the same file that runs: a game
added to the registry gets its class, its types and its name in ``cardvec`` from this script
alone, with no hand-written Python. scripts/test.sh runs ``--check`` (quick and full runs);
python/tests/test_packaging.py checks it too.

The registry is read from the compiled module found beside the ``cardvec`` package that
Python imports (the installed wheel, or the source tree after ``maturin develop``), loaded
without running the package's ``__init__`` (which imports the module written here).
"""

from __future__ import annotations

import argparse
import difflib
import json
import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "python" / "cardvec" / "_game_classes.py"
GENERATOR = "scripts/gen_stubs.py"

# The arguments every batch class takes before the game's options (BatchEnv.__new__ in
# python/cardvec/_cardvec/__init__.pyi, less the game id): (name, annotation, default).
POSITIONAL = [
    ("num_envs", "SupportsIndex", None),
    ("seed", "SupportsIndex | None", "None"),
    ("num_threads", "SupportsIndex | None", "None"),
    ("autoreset", "bool", "False"),
    ("observe", "bool", "True"),
    ("chunk_size", "SupportsIndex | None", "None"),
    ("max_steps", "SupportsIndex | None", "None"),
]
KEYWORD = [
    ("obs_dtype", "_ObsDtype", '"f32"'),
    ("mask_dtype", "_MaskDtype", '"u8"'),
    ("on_illegal", "_OnIllegal", '"noop"'),
    ("obs_seats", "_ObsSeats", '"acting"'),
]


def compiled_module() -> ModuleType:
    """``cardvec._cardvec`` loaded from its file, without importing ``cardvec`` itself."""
    spec = importlib.util.find_spec("cardvec")
    if spec is None or not spec.submodule_search_locations:
        sys.exit(f"{GENERATOR}: cardvec is not importable (build it: maturin develop --profile ci)")
    for folder in spec.submodule_search_locations:
        for path in sorted(Path(folder).glob("_cardvec.*")):
            if path.suffix in (".so", ".pyd"):
                loader = importlib.machinery.ExtensionFileLoader("cardvec._cardvec", str(path))
                module_spec = importlib.util.spec_from_file_location(
                    "cardvec._cardvec", path, loader=loader
                )
                assert module_spec is not None
                module = importlib.util.module_from_spec(module_spec)
                loader.exec_module(module)
                return module
    sys.exit(f"{GENERATOR}: no compiled cardvec._cardvec beside {spec.submodule_search_locations}")


def option_annotation(option: dict[str, Any]) -> str:
    """The type of one registry option as a keyword argument (what ``options.rs`` accepts)."""
    kind = option["type"]
    if kind == "choice":
        annotation = "Literal[" + ", ".join(json.dumps(c) for c in option["choices"]) + "]"
    elif kind in ("int", "optional int"):
        annotation = "SupportsIndex"
    elif kind == "int list":
        annotation = (
            "list[SupportsIndex] | tuple[SupportsIndex, ...] | npt.NDArray[np.integer[Any]]"
        )
    elif kind == "float list":
        annotation = "list[float] | tuple[float, ...] | npt.NDArray[np.floating[Any]]"
    else:
        raise SystemExit(f"{GENERATOR}: option {option['name']!r} has an unknown type {kind!r}")
    if kind == "optional int" or option["default"] in (None, "auto"):
        annotation += " | None"
    return annotation


def docstring(info: dict[str, Any]) -> str:
    """The class's documentation: the game, the arguments, each option with its default."""
    lines = [
        f"{info['title']}: {info['summary']} (see {info['docs']}).",
        "",
        f"``{info['python_class']}(num_envs, seed=None, num_threads=None, autoreset=False, "
        'observe=True, chunk_size=None, max_steps=None, *, obs_dtype="f32", mask_dtype="u8", '
        'on_illegal="noop", obs_seats="acting", **options)``, the batch environment of game '
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


def quoted_docstring(text: str, indent: str) -> str:
    body = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    lines = body.split("\n")
    out = [f'{indent}"""{lines[0]}']
    out += [f"{indent}{line}" if line else "" for line in lines[1:]]
    out[-1] += '"""'
    return "\n".join(out)


def options_class(info: dict[str, Any]) -> str:
    name = f"_{info['python_class']}Options"
    lines = [f"    class {name}(TypedDict, total=False):"]
    lines.append(f'        """The options of game {info["id"]!r} (``**options``)."""')
    if info["options"]:
        lines.append("")
    for option in info["options"]:
        lines.append(f"        {option['name']}: {option_annotation(option)}")
    return "\n".join(lines)


def game_class(info: dict[str, Any]) -> str:
    name = info["python_class"]
    params = ["        cls,"]
    for arg, annotation, default in POSITIONAL:
        params.append(f"        {arg}: {annotation}" + (f" = {default}," if default else ","))
    params.append("        *,")
    for arg, annotation, default in KEYWORD:
        params.append(f"        {arg}: {annotation} = {default},")
    params.append(f"        **options: Unpack[_{name}Options],")
    call = ", ".join(["cls", json.dumps(info["id"])] + [a for a, _, _ in POSITIONAL])
    keywords = ", ".join(f"{a}={a}" for a, _, _ in KEYWORD)
    return "\n".join(
        [
            f"class {name}(BatchEnv):",
            quoted_docstring(docstring(info), "    "),
            "",
            '    __module__ = "cardvec"',
            "    __slots__ = ()",
            f"    GAME_ID: ClassVar[str] = {json.dumps(info['id'])}",
            "",
            "    def __new__(",
            *params,
            "    ) -> Self:",
            "        return BatchEnv.__new__(",
            f"            {call},",
            f"            {keywords},",
            "            **options,",
            "        )",
        ]
    )


def render(games: list[dict[str, Any]]) -> str:
    names = [g["python_class"] for g in games]
    header = f'''"""The batch class of every registered game (``cardvec.<python_class>``), with its options
typed. GENERATED by {GENERATOR} from the registry: do not edit; after a change to a game's
registry entry run ``python {GENERATOR}`` (scripts/test.sh runs it with ``--check``).

Each class is a ``BatchEnv`` of one game id taking the game's options as keyword arguments
(checked by the engine: a bad one is a ``ValueError`` naming the accepted options);
``cardvec._games`` registers them for ``cardvec.make`` and ``cardvec.game_class``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ._cardvec import BatchEnv

if TYPE_CHECKING:
    from typing import Any, Literal, SupportsIndex, TypedDict

    import numpy as np
    import numpy.typing as npt
    from typing_extensions import Self, Unpack

    from ._cardvec import _MaskDtype, _ObsDtype, _ObsSeats, _OnIllegal

'''
    parts = [header.rstrip("\n"), ""]
    parts += [options_class(g) + "\n" for g in games]
    parts.append("")
    parts.append("__all__ = [" + ", ".join(json.dumps(n) for n in names) + "]")
    for info in games:
        parts += ["", "", game_class(info)]
    return "\n".join(parts) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 with a diff when the committed module differs",
    )
    args = parser.parse_args()
    text = render(list(compiled_module().games()))
    current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
    relative = TARGET.relative_to(ROOT)
    if args.check:
        if current == text:
            print(f"{relative} is current ({GENERATOR} --check)")
            return 0
        sys.stdout.writelines(
            difflib.unified_diff(
                current.splitlines(keepends=True),
                text.splitlines(keepends=True),
                f"{relative} (committed)",
                f"{relative} (from the registry)",
            )
        )
        print(f"\n{relative} is stale: run python {GENERATOR} and commit the result", file=sys.stderr)
        return 1
    if current != text:
        TARGET.write_text(text, encoding="utf-8")
        print(f"wrote {relative}")
    else:
        print(f"{relative} is current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
