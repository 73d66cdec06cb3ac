"""The package as installed: every module has its type stub (``.pyi``) and ``py.typed``
is there; the stubs of the per-game classes (made at run time from the registry) list
each game's options with the registry's kinds and defaults; and, when
``CARDVEC_WHEEL_TEST`` is set (scripts/test.sh, after installing the wheel), the tests run
against the installed wheel, not the source tree. (``python -m mypy.stubtest cardvec``
compares the stubs with the runtime objects; this file checks what stubtest cannot see.)"""

import ast
import collections
import importlib.metadata
import json
import os
import re
import types
from pathlib import Path

import pytest

import cardvec

PACKAGE = Path(cardvec.__file__).parent
SOURCE_TREE = Path(__file__).resolve().parents[1] / "cardvec"


def test_every_module_has_a_stub_and_the_package_is_marked_typed():
    assert (PACKAGE / "py.typed").is_file()
    missing = [
        str(py.relative_to(PACKAGE))
        for py in sorted(PACKAGE.rglob("*.py"))
        if not py.with_suffix(".pyi").is_file()
    ]
    assert missing == [], f"modules without a stub beside them: {missing}"


def test_the_compiled_module_and_each_of_its_submodules_have_a_stub():
    compiled = cardvec._cardvec
    assert (PACKAGE / "_cardvec" / "__init__.pyi").is_file()
    submodules = sorted(
        name for name, value in vars(compiled).items() if isinstance(value, types.ModuleType)
    )
    assert {"arena", "flip7", "holdem", "i151", "lost_cities"} <= set(submodules)
    for name in submodules:
        assert (PACKAGE / "_cardvec" / f"{name}.pyi").is_file(), name
        # Importable by its full name, as the stub package says (python/src/lib.rs).
        module = __import__(f"cardvec._cardvec.{name}", fromlist=["_"])
        assert module is getattr(compiled, name)


def _stub_classes(path: Path) -> dict:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}


def _constructor(cls: ast.ClassDef) -> ast.FunctionDef:
    """The class's ``__new__`` (the first overload, which is the current spelling)."""
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and node.name == "__new__":
            return node
    raise AssertionError(f"{cls.name} has no __new__ in the stub")


def _expected_default(option: dict):
    """The default the stub must show: the registry's, None for "auto" (the game computes
    it) and ``...`` for a list."""
    if option["default"] == "auto":
        return None
    if isinstance(option["default"], list):
        return ...
    return option["default"]


def _annotation_admits(annotation: str, option: dict) -> bool:
    kind = option["type"]
    if kind == "choice":
        return annotation.startswith("Literal[") and all(
            repr(c) in annotation for c in option["choices"]
        )
    if kind in ("int", "optional int"):
        base = "SupportsIndex" in annotation
    elif kind == "int list":
        base = "Sequence[SupportsIndex]" in annotation
    else:
        base = "Sequence[float]" in annotation
    needs_none = kind == "optional int" or option["default"] in (None, "auto")
    return base and (("None" in annotation) == needs_none)


@pytest.mark.parametrize("info", cardvec.games(), ids=lambda g: g["id"])
def test_each_game_class_stub_lists_the_registry_options(info):
    classes = _stub_classes(PACKAGE / "_games.pyi")
    assert info["python_class"] in classes, f"_games.pyi has no class {info['python_class']}"
    cls = classes[info["python_class"]]
    assert [ast.unparse(b) for b in cls.bases] == ["BatchEnv"]
    new = _constructor(cls)
    positional = [a.arg for a in new.args.args]
    assert positional == [
        "cls", "num_envs", "seed", "num_threads", "autoreset", "observe", "chunk_size",
        "max_steps",
    ]
    assert [ast.literal_eval(d) for d in new.args.defaults] == [
        None, None, False, True, None, None
    ]
    assert new.args.vararg is None and new.args.kwarg is None
    # Keyword-only extras that are not options: the deprecated 151 spelling, typed None in
    # the current overload, and the dtypes of the outputs (every class, first).
    extras = {"players", "obs_dtype", "mask_dtype", "on_illegal"}
    assert [a.arg for a in new.args.kwonlyargs[:3]] == ["obs_dtype", "mask_dtype", "on_illegal"]
    stub_options = [
        (a.arg, ast.unparse(a.annotation), ast.literal_eval(d))
        for a, d in zip(new.args.kwonlyargs, new.args.kw_defaults)
        if a.arg not in extras
    ]
    registry = info["options"]
    assert [name for name, _, _ in stub_options] == [o["name"] for o in registry]
    for (name, annotation, default), option in zip(stub_options, registry):
        assert default == _expected_default(option), name
        assert _annotation_admits(annotation, option), (name, annotation, option["type"])
    init = (PACKAGE / "__init__.pyi").read_text(encoding="utf-8")
    assert f"import {info['python_class']} as {info['python_class']}" in init


# The PettingZoo environments over a lane of the batch environment take the registry's
# options as **options at run time (so stubtest cannot compare them): their stubs spell the
# options out, which must be the registry's, in order, with its defaults and kinds.
LANE_PETTINGZOO = {
    "lost_cities_v0": "lost-cities",
    "i151_v0": "151",
    "kuhn_v0": "kuhn",
    "leduc_v0": "leduc",
}


@pytest.mark.parametrize("module", sorted(LANE_PETTINGZOO))
def test_lane_pettingzoo_stubs_list_the_registry_options(module):
    registry = next(g for g in cardvec.games() if g["id"] == LANE_PETTINGZOO[module])["options"]
    tree = ast.parse((PACKAGE / "pettingzoo" / f"{module}.pyi").read_text(encoding="utf-8"))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    functions["raw_env"] = next(
        n
        for cls in tree.body
        if isinstance(cls, ast.ClassDef) and cls.name == "raw_env"
        for n in cls.body
        if isinstance(n, ast.FunctionDef) and n.name == "__init__"
    )
    for name in ("env", "parallel_env", "raw_env"):
        args = functions[name].args
        assert args.vararg is None and args.kwarg is None, (module, name)
        no_default = [None] * (len(args.args) - len(args.defaults))
        positional = list(zip(args.args, no_default + args.defaults))
        stub = [
            (a.arg, ast.unparse(a.annotation), ast.literal_eval(d))
            for a, d in positional + list(zip(args.kwonlyargs, args.kw_defaults))
            if a.arg not in ("self", "render_mode")
        ]
        assert [n for n, _, _ in stub] == [o["name"] for o in registry], (module, name)
        for (option_name, annotation, default), option in zip(stub, registry):
            assert default == _expected_default(option), (module, name, option_name)
            assert _annotation_admits(annotation, option), (module, name, option_name, annotation)


def _requirements_by_extra() -> dict:
    """The installed metadata's requirements: extra name -> {(name, specifier, marker)},
    ``None`` for the unconditional ones."""
    from packaging.requirements import Requirement

    out = collections.defaultdict(set)
    for text in importlib.metadata.requires("cardvec") or []:
        req = Requirement(text)
        marker = str(req.marker) if req.marker else ""
        found = re.search(r"extra == \"([\w-]+)\"", marker)
        rest = re.sub(r"(\s*and\s*)?extra == \"[\w-]+\"", "", marker).strip()
        out[found.group(1) if found else None].add((req.name, str(req.specifier), rest))
    return out


def test_the_test_extra_holds_the_adapter_and_oracle_extras():
    extras = _requirements_by_extra()
    assert {"gym", "pettingzoo", "torch", "oracles", "test"} <= set(extras)
    for name in ("gym", "pettingzoo", "oracles", "campaign"):
        assert extras[name] <= extras["test"], (name, extras[name] - extras["test"])
    numpy = [r for r in extras[None] if r[0] == "numpy"]
    assert len(numpy) == 1 and "<" in numpy[0][1] and ">=" in numpy[0][1], numpy


@pytest.mark.skipif(
    not os.environ.get("CARDVEC_WHEEL_TEST"),
    reason="CARDVEC_WHEEL_TEST is not set (scripts/test.sh sets it after installing the wheel)",
)
def test_the_tests_import_the_installed_wheel_not_the_source_tree():
    assert SOURCE_TREE not in PACKAGE.resolve().parents and PACKAGE.resolve() != SOURCE_TREE
    assert PACKAGE.parent.name == "site-packages", PACKAGE
    dist = importlib.metadata.distribution("cardvec")
    assert dist.version == cardvec.__version__
    files = {str(f) for f in dist.files or []}
    for path in ("cardvec/py.typed", "cardvec/__init__.pyi", "cardvec/_cardvec/__init__.pyi"):
        assert path in files, path
    assert any(f.startswith("cardvec/_cardvec.") and f.endswith((".so", ".pyd")) for f in files)
    # Installed from a wheel file, not in editable mode (`maturin develop`, `pip install -e`).
    direct_url = dist.read_text("direct_url.json")
    if direct_url is not None:
        origin = json.loads(direct_url)
        assert not origin.get("dir_info", {}).get("editable", False), origin
        assert origin["url"].endswith(".whl"), origin
