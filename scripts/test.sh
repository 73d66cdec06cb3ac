#!/usr/bin/env bash
# The project's test command: bash scripts/test.sh          (the full run; what CI runs)
#                     a quick run: bash scripts/test.sh --quick
#                      a long run: bash scripts/test.sh --long   (the full run at release sizes)
#
# The full run checks everything on a fresh machine (Rust toolchain and Python 3.11; no venv
# needed): formatting, clippy, the Rust tests (the conformance suite over every registered
# game included), the differential CI profile (20,000 games of every game, one process), then
# builds the Python wheel once, installs it into the test run's own venv with its test extra
# (the dependency bounds of pyproject.toml), checks the types (the generated game classes are
# current, mypy --strict on the package, stubtest, a typed user) and runs the Python tests
# (oracles and browser included) against the installed wheel on every core.
#
# --long: the full run with the differential runs and the external oracles at release sizes
# (1,000,000 games of every game, 20,000 official 151 matches, 30,000 game-room Flip 7 games,
# 100,000 pokerkit hands; each size can still be set by its variable: CARDVEC_DIFF_GAMES,
# I151_ORACLE_MATCHES, FLIP7_ORACLE_GAMES, HOLDEM_POKERKIT_HANDS). Hours of CPU: a release
# check, not CI. The full run keeps CI under 20 minutes with the smaller sizes (20,000;
# 1,000; 1,000; 6,000).
#
# --quick: formatting, the Rust tests, the wheel, the generated classes' check and mypy
# --strict on the package, and the Python tests without the slow ones
# (the external oracles, Ray campaigns, PyTorch/PufferLib, the examples that learn, the
# browser: the `slow` marker of python/tests/conftest.py); no clippy, no differential
# runs, no stubtest; the venv is reused when it exists.
#
# A contributor's checkout is left alone: the run's venv is .venv-test (CARDVEC_TEST_VENV
# to move it), its wheel goes to target/test-wheel/, never to .venv or dist/ (the run
# checks at the end that both are as they were). System packages (Debian's chromium for the
# browser tests) are installed only on CI (CI=true, which .ci/run sets) or when asked
# (CARDVEC_INSTALL_SYSTEM=1); otherwise the command is printed and the browser tests skip.
#
# Tests, the differential runs and the wheel use the `ci` profile (optimized, no LTO: the
# test binaries link fast, the runs are as fast as release).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT="$PWD"
START=$SECONDS
PYTHON="${PYTHON:-python3}"
JOBS="$(nproc 2>/dev/null || echo 2)"
QUICK=0
LONG=0
for arg in "$@"; do
    case "$arg" in
        --quick) QUICK=1 ;;
        --long) LONG=1 ;;
        -h | --help)
            sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *)
            echo "scripts/test.sh: unknown argument '$arg' (expected --quick, --long or --help)" >&2
            exit 2
            ;;
    esac
done
if [ "$QUICK" = 1 ] && [ "$LONG" = 1 ]; then
    echo "scripts/test.sh: --quick and --long exclude each other" >&2
    exit 2
fi
# The sizes of the differential runs and the external oracles (python/tests/test_i151_oracle.py,
# test_flip7_oracle.py, test_holdem_pokerkit.py read theirs from the environment).
if [ "$LONG" = 1 ]; then
    DIFF_GAMES="${CARDVEC_DIFF_GAMES:-1000000}"
    export I151_ORACLE_MATCHES="${I151_ORACLE_MATCHES:-20000}"
    export FLIP7_ORACLE_GAMES="${FLIP7_ORACLE_GAMES:-30000}"
    export HOLDEM_POKERKIT_HANDS="${HOLDEM_POKERKIT_HANDS:-100000}"
else
    DIFF_GAMES="${CARDVEC_DIFF_GAMES:-20000}"
fi
TEST_VENV="${CARDVEC_TEST_VENV:-$ROOT/.venv-test}"
WHEEL_DIR="$ROOT/target/test-wheel"
case "$(realpath -m "$TEST_VENV")" in
    "$ROOT/.venv" | "$ROOT/dist")
        echo "scripts/test.sh: CARDVEC_TEST_VENV must not be the checkout's .venv or dist/" >&2
        exit 2
        ;;
esac

section() {
    printf '\n==== %s  [%ds]\n' "$1" "$((SECONDS - START))"
}

# What a contributor keeps in the checkout (the README's dev venv, a maturin dist/): a
# listing of names, sizes and modification times, compared at the end of the run.
snapshot() {
    if [ -e "$1" ]; then
        find "$1" -printf '%P %s %T@\n' 2>/dev/null | LC_ALL=C sort | sha256sum
    else
        echo absent
    fi
}
BEFORE_VENV="$(snapshot "$ROOT/.venv")"
BEFORE_DIST="$(snapshot "$ROOT/dist")"

section "cargo fmt --check"
cargo fmt --all --check

section "the tests and the wheel build the library's dependencies with the same features"
# Otherwise the wheel compiles the library and everything under it a second time
# (workspace-hack/Cargo.toml).
"$PYTHON" scripts/feature_sets.py

if [ "$QUICK" = 0 ]; then
    section "cargo clippy (workspace, all targets, -D warnings)"
    cargo clippy --workspace --all-targets -- -D warnings
    section "cargo doc (the library's public API and the CLI's docs, rustdoc warnings are errors)"
    RUSTDOCFLAGS="-D warnings" cargo doc --no-deps -p cardvec -p cardvec-cli --quiet
fi

section "cargo test --profile ci (library, CLI, conformance suite, per-game tests)"
# The test targets and then the doc tests, without building the examples (a plain `cargo
# test` would compile and link them: about 90 s of CPU here, 2026-12-05, `--timings`); the
# full run's clippy --all-targets checks that they compile.
cargo test --profile ci --lib --bins --tests
cargo test --profile ci --doc

# The CLI binary `cargo test` just built for the CLI's integration tests (a separate
# `cargo build -p cardvec-cli` would compile the library again without the dev-dependencies'
# feature unification: about 4 minutes on 2 cores for the same program).
export CARDVEC_BIN="$ROOT/target/ci/cardvec"
if [ ! -x "$CARDVEC_BIN" ] || [ "$CARDVEC_BIN" -ot cli/src/main.rs ]; then
    cargo build --profile ci -p cardvec-cli
fi
if [ "$QUICK" = 0 ]; then
    section "differential runs: cardvec diff all --games $DIFF_GAMES (every registered game)"
    "$CARDVEC_BIN" diff all --games "$DIFF_GAMES" --quiet
fi

if [ "$QUICK" = 0 ] || [ ! -x "$TEST_VENV/bin/python" ]; then
    section "python: a fresh venv ($(basename "$TEST_VENV")) and the wheel, built once (maturin build --profile ci)"
    "$PYTHON" -m venv --clear "$TEST_VENV"
    FRESH_VENV=1
else
    section "python: the wheel (maturin build --profile ci) into the existing $(basename "$TEST_VENV")"
    FRESH_VENV=0
fi
export VIRTUAL_ENV="$TEST_VENV"
export PATH="$VIRTUAL_ENV/bin:$PATH"
# The packages go in with uv (`uv pip install`, the same requirements and resolution as pip):
# it downloads in parallel and installs from its cache by links, where pip took 123 s for
# the test and examples extras (PyTorch with its CUDA libraries, Ray, SciPy: 6.9 GB) with a
# warm cache and 3 min 38 s with the downloads; uv took 24 s for PyTorch with its downloads
# (2 cores, 2026-12-06). Neither byte-compiles (pip's --no-compile, uv's default): Python
# compiles a module when the tests first import it, and most of PyTorch, Ray and SciPy is
# never imported here.
python -m pip install --quiet --no-compile --disable-pip-version-check "maturin>=1.9,<2" "uv>=0.9,<1"
rm -rf "$WHEEL_DIR"
maturin build --profile ci --out "$WHEEL_DIR"
WHEELS=("$WHEEL_DIR"/cardvec-*.whl)
if [ "${#WHEELS[@]}" -ne 1 ]; then
    echo "expected one wheel in $WHEEL_DIR, found: ${WHEELS[*]}" >&2
    exit 1
fi
WHEEL="${WHEELS[0]}"

if [ "$FRESH_VENV" = 1 ]; then
    section "python: install the wheel with its test extra (numpy and every bound from pyproject.toml)"
    # The test extra includes the campaign extra, ray and tqdm (python/tests/test_campaign.py
    # runs simulated Ray clusters): ray 2.60 is a binary wheel (240 MB installed), 17 s to
    # install here with its dependencies (measured 2026-12-01).
    # open-spiel (in the oracles and test extras): the Kuhn/Leduc oracle
    # (python/tests/test_kuhn_leduc_openspiel.py); a binary wheel, about 8 s to install with
    # its dependencies (measured 2026-12-01).
    uv pip install --quiet "$WHEEL[test]"
    # These two declare Python >= 3.14 but run on 3.11 (see shared oracles notes): pip, whose
    # --ignore-requires-python uv does not have.
    python -m pip install --quiet --no-compile --disable-pip-version-check \
        --no-deps --ignore-requires-python game-room==0.1.0 i151-engine==0.2.4
    if [ "$QUICK" = 0 ]; then
        # PyTorch, PufferLib and matplotlib: env.torch(), cardvec.puffer and the examples that
        # learn (python/tests/test_torch.py, test_puffer.py, test_examples.py; each skips
        # without them). pufferlib-core pins torch 2.9.0, the default build with its CUDA
        # libraries (PyPI has no CPU-only torch; 6.9 GB installed).
        uv pip install --quiet "$WHEEL[puffer,examples]"
    fi
else
    section "python: reinstall the wheel alone (the venv's other packages kept)"
    python -m pip install --quiet --no-compile --disable-pip-version-check --no-deps --force-reinstall "$WHEEL"
fi
# The tests import the installed wheel, never the source tree python/cardvec
# (python/tests/test_packaging.py checks it when this is set).
export CARDVEC_WHEEL_TEST=1
python -c 'import cardvec, numpy; print("cardvec", cardvec.__version__, "from", cardvec.__file__, "| numpy", numpy.__version__)'

section "types: the generated game classes are current, mypy --strict on the package"
# python/cardvec/_game_classes.py is generated from the registry (scripts/gen_stubs.py; the
# installed wheel's compiled module is read): stale, it fails with a diff. The pure-Python
# modules are typed inline; the compiled module by its stubs (python/cardvec/_cardvec/).
python scripts/gen_stubs.py --check
python -m mypy --strict --enable-error-code deprecated python/cardvec

if [ "$QUICK" = 0 ]; then
    section "types: stubtest against the installed package, mypy --strict on a typed user"
    python -m mypy.stubtest --mypy-config-file pyproject.toml \
        --allowlist python/stubtest-allowlist.txt cardvec
    python -m mypy --strict --enable-error-code deprecated python/tests/typing_check.py

    section "web table: Debian's chromium for the browser tests (python/tests/test_web_table.py)"
    # Playwright drives the system browser (never a browser download of its own). System
    # packages are installed only on CI (CI=true) or when asked (CARDVEC_INSTALL_SYSTEM=1);
    # on CI a chromium that cannot be installed fails the run, elsewhere the tests skip,
    # saying why.
    CHROMIUM_INSTALL="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium"
    if ! command -v chromium >/dev/null 2>&1; then
        if [ "${CI:-}" = true ] || [ "${CARDVEC_INSTALL_SYSTEM:-0}" = 1 ]; then
            if [ "$(id -u)" = 0 ]; then
                (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) ||
                    echo "chromium could not be installed" >&2
            else
                (sudo -n sh -c "$CHROMIUM_INSTALL" >/dev/null) || echo "chromium could not be installed (sudo)" >&2
            fi
        else
            echo "chromium is missing: the browser tests will skip. Install it with" >&2
            echo "    sudo sh -c '$CHROMIUM_INSTALL'" >&2
            echo "or rerun with CARDVEC_INSTALL_SYSTEM=1 to let this script do it." >&2
        fi
    fi
    if command -v chromium >/dev/null 2>&1; then
        chromium --version 2>/dev/null | tail -1 || true
    elif [ "${CI:-}" = true ]; then
        echo "CI: chromium is missing, so the browser tests would only skip; failing instead" >&2
        exit 1
    fi

    section "pytest python/tests (on $JOBS workers)"
    python -m pytest -q -n "$JOBS" --durations=15 python/tests
else
    section "pytest python/tests -m 'not slow' (on $JOBS workers; quick mode)"
    python -m pytest -q -n "$JOBS" -m "not slow" python/tests
fi

section "the checkout's own .venv and dist/ are as they were"
if [ "$(snapshot "$ROOT/.venv")" != "$BEFORE_VENV" ] || [ "$(snapshot "$ROOT/dist")" != "$BEFORE_DIST" ]; then
    echo "scripts/test.sh changed the checkout's .venv or dist/ (it must use $TEST_VENV and $WHEEL_DIR only)" >&2
    exit 1
fi

section "all checks passed$([ "$QUICK" = 1 ] && echo ' (quick mode: no clippy, no differential runs, no stubtest, no slow Python tests)')"
