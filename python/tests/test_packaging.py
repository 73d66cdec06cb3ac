"""The package as installed: every module is typed (the pure-Python ones inline, checked by
``mypy --strict python/cardvec`` in scripts/test.sh; the compiled module by its stubs) and
``py.typed`` is there; the per-game classes are the ones scripts/gen_stubs.py generates from
the registry, each game's options typed with the registry's names and kinds; and, when
``CARDVEC_WHEEL_TEST`` is set (scripts/test.sh, after installing the wheel), the tests run
against the installed wheel, not the source tree. (``python -m mypy.stubtest cardvec``
compares the types with the runtime objects; this file checks what stubtest cannot see.)"""

import ast
import collections
import importlib.metadata
import importlib.util
import json
import os
import re
import types
from pathlib import Path

import pytest

import cardvec

PACKAGE = Path(cardvec.__file__).parent
SOURCE_TREE = Path(__file__).resolve().parents[1] / "cardvec"
GENERATOR = Path(__file__).resolve().parents[2] / "scripts" / "gen_stubs.py"
GENERATED = "_game_classes.py"


def _modules(root: Path) -> list:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def _unannotated(path: Path) -> list:
    """The functions of a module (nested ones included) with a parameter or the return
    left without an annotation (``self`` and ``cls`` excepted)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        a = node.args
        params = a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p]
        bare = [p.arg for p in params if p.annotation is None and p.arg not in ("self", "cls")]
        if bare or node.returns is None:
            out.append(f"{path.name}:{node.lineno} {node.name}({', '.join(bare)})")
    return out


@pytest.mark.parametrize("root", [PACKAGE, SOURCE_TREE], ids=["installed", "source"])
def test_every_module_is_typed_once_and_the_package_is_marked_typed(root):
    """Type information is written once: a pure-Python module is annotated inline (no
    ``.pyi`` twin beside it); stubs exist only for the compiled module ``_cardvec``."""
    if not root.is_dir():
        pytest.skip(f"{root} is not here")
    assert (root / "py.typed").is_file()
    twins = [str(p.relative_to(root)) for p in _modules(root) if p.with_suffix(".pyi").exists()]
    assert twins == [], f"pure-Python modules with a hand-kept .pyi twin: {twins}"
    stubs = sorted(str(p.relative_to(root)) for p in root.rglob("*.pyi"))
    assert stubs and all(s.startswith("_cardvec/") for s in stubs), stubs
    unannotated = [f for p in _modules(root) for f in _unannotated(p)]
    assert unannotated == [], f"functions without annotations: {unannotated}"


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


def _generator():
    spec = importlib.util.spec_from_file_location("gen_stubs", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("root", [PACKAGE, SOURCE_TREE], ids=["installed", "source"])
def test_the_generated_game_classes_are_current(root):
    """What scripts/gen_stubs.py writes from this registry is what the package holds (the
    check CI runs as ``python scripts/gen_stubs.py --check``)."""
    if not (root / GENERATED).is_file():
        pytest.skip(f"{root} is not here")
    expected = _generator().render(list(cardvec._cardvec.games()))
    assert (root / GENERATED).read_text(encoding="utf-8") == expected, (
        f"{root / GENERATED} is stale: run python scripts/gen_stubs.py"
    )


def test_the_generator_check_fails_on_a_stale_module(tmp_path, monkeypatch, capsys):
    gen = _generator()
    stale = tmp_path / GENERATED
    stale.write_text(gen.render(list(cardvec._cardvec.games())[:-1]), encoding="utf-8")
    monkeypatch.setattr(gen, "TARGET", stale)
    monkeypatch.setattr(gen, "ROOT", tmp_path)
    monkeypatch.setattr("sys.argv", ["gen_stubs.py", "--check"])
    assert gen.main() == 1
    assert "+class " in capsys.readouterr().out
    monkeypatch.setattr("sys.argv", ["gen_stubs.py"])
    assert gen.main() == 0 and gen.main() == 0
    monkeypatch.setattr("sys.argv", ["gen_stubs.py", "--check"])
    assert gen.main() == 0


def _annotation_admits(annotation: str, option: dict) -> bool:
    kind = option["type"]
    if kind == "choice":
        return annotation.startswith("Literal[") and all(
            repr(c) in annotation for c in option["choices"]
        )
    if kind in ("int", "optional int"):
        base = "SupportsIndex" in annotation
    elif kind == "int list":
        base = "list[SupportsIndex]" in annotation
    else:
        base = "list[float]" in annotation
    needs_none = kind == "optional int" or option["default"] in (None, "auto")
    return base and (("None" in annotation) == needs_none)


def _generated_tree(root: Path = PACKAGE) -> ast.Module:
    return ast.parse((root / GENERATED).read_text(encoding="utf-8"))


@pytest.mark.parametrize("info", cardvec.games(), ids=lambda g: g["id"])
def test_each_game_class_takes_the_registry_options_typed(info):
    name = info["python_class"]
    tree = _generated_tree()
    classes = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
    assert name in classes, f"{GENERATED} has no class {name}"
    cls = classes[name]
    assert [ast.unparse(b) for b in cls.bases] == ["BatchEnv"]
    new = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__new__")
    assert [a.arg for a in new.args.args] == [
        "cls", "num_envs", "seed", "num_threads", "autoreset", "observe", "chunk_size",
        "max_steps",
    ]
    assert [ast.literal_eval(d) for d in new.args.defaults] == [
        None, None, False, True, None, None
    ]
    assert [a.arg for a in new.args.kwonlyargs] == [
        "obs_dtype", "mask_dtype", "on_illegal", "obs_seats"
    ]
    assert new.args.kwarg is not None and new.args.kwarg.arg == "options"
    assert ast.unparse(new.args.kwarg.annotation) == f"Unpack[_{name}Options]"
    # The options' TypedDict: the registry's names, in order, each with a type that
    # admits the registry's kind.
    typed = classes[f"_{name}Options"]
    fields = [(n.target.id, ast.unparse(n.annotation)) for n in typed.body
              if isinstance(n, ast.AnnAssign)]
    assert [f for f, _ in fields] == [o["name"] for o in info["options"]]
    for (field, annotation), option in zip(fields, info["options"]):
        assert _annotation_admits(annotation, option), (field, annotation, option["type"])
    # At run time: the class of the game id, exported by cardvec under its name.
    runtime = getattr(cardvec, name)
    assert cardvec.game_class(info["id"]) is runtime and runtime.GAME_ID == info["id"]
    assert issubclass(runtime, getattr(cardvec._game_classes, name))
    assert name in cardvec.__all__
    assert info["title"] in (runtime.__doc__ or "")


# The PettingZoo environments over a lane of the batch environment take the game's options
# as the generated TypedDict of its class (so a misspelt option is a type error).
LANE_PETTINGZOO = ["lost_cities_v0", "i151_v0", "kuhn_v0", "leduc_v0"]


@pytest.mark.parametrize("module", LANE_PETTINGZOO)
def test_lane_pettingzoo_environments_take_the_generated_option_types(module):
    pz = __import__(f"cardvec.pettingzoo.{module}", fromlist=["_"])
    info = next(g for g in cardvec.games() if g["id"] == pz.GAME_ID)
    expected = f"Unpack[_{info['python_class']}Options]"
    tree = ast.parse((PACKAGE / "pettingzoo" / f"{module}.py").read_text(encoding="utf-8"))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef)}
    raw = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "raw_env")
    # raw_env.__init__: its first definition (the first overload where there are several).
    functions["raw_env"] = next(
        n for n in raw.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"
    )
    for name in ("env", "parallel_env", "raw_env"):
        kwarg = functions[name].args.kwarg
        assert kwarg is not None, (module, name)
        assert ast.unparse(kwarg.annotation) == expected, (module, name)


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
    for path in ("cardvec/py.typed", "cardvec/_game_classes.py", "cardvec/_cardvec/__init__.pyi"):
        assert path in files, path
    assert any(f.startswith("cardvec/_cardvec.") and f.endswith((".so", ".pyd")) for f in files)
    # Installed from a wheel file, not in editable mode (`maturin develop`, `pip install -e`).
    direct_url = dist.read_text("direct_url.json")
    if direct_url is not None:
        origin = json.loads(direct_url)
        assert not origin.get("dir_info", {}).get("editable", False), origin
        assert origin["url"].endswith(".whl"), origin
