#!/usr/bin/env bash
# The project's test command: bash scripts/test.sh
#
# Runs every check on a fresh machine (Rust toolchain and Python 3.11; no venv needed):
# formatting, clippy, the Rust tests (the conformance suite over every registered game
# included), the differential CI profile (100,000 games of every game, one process), then
# builds the Python wheel once, installs it into a fresh .venv with its test extra (the
# dependency bounds of pyproject.toml), checks the type stubs (stubtest, mypy --strict) and
# runs the Python tests (oracles included) against the installed wheel on every core.
#
# Tests, the differential runs and the wheel use the `ci` profile (optimized, no LTO: the
# test binaries link fast, the runs are as fast as release).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT="$PWD"
START=$SECONDS
PYTHON="${PYTHON:-python3}"
JOBS="$(nproc 2>/dev/null || echo 2)"

section() {
    printf '\n==== %s  [%ds]\n' "$1" "$((SECONDS - START))"
}

section "cargo fmt --check"
cargo fmt --all --check

section "cargo clippy (workspace, all targets, -D warnings)"
cargo clippy --workspace --all-targets -- -D warnings

section "cargo test --profile ci (library, CLI, conformance suite, per-game tests)"
cargo test --profile ci

section "differential runs: cardvec diff all --games 100000 (every registered game)"
cargo build --profile ci -p cardvec-cli
export CARDVEC_BIN="$ROOT/target/ci/cardvec"
"$CARDVEC_BIN" diff all --games 100000 --quiet

section "python: a fresh venv (.venv) and the wheel, built once (maturin build --profile ci)"
"$PYTHON" -m venv --clear .venv
export VIRTUAL_ENV="$ROOT/.venv"
export PATH="$VIRTUAL_ENV/bin:$PATH"
python -m pip install --quiet --disable-pip-version-check "maturin>=1.9,<2"
rm -rf dist
maturin build --profile ci --out dist
WHEELS=(dist/cardvec-*.whl)
if [ "${#WHEELS[@]}" -ne 1 ]; then
    echo "expected one wheel in dist/, found: ${WHEELS[*]}" >&2
    exit 1
fi
WHEEL="${WHEELS[0]}"

section "python: install the wheel with its test extra (numpy and every bound from pyproject.toml)"
# The test extra includes the campaign extra, ray and tqdm (python/tests/test_campaign.py runs
# simulated Ray clusters): ray 2.60 is a binary wheel (240 MB installed), 17 s to install
# here with its dependencies (measured 2026-12-01).
# open-spiel: the Kuhn/Leduc oracle (python/tests/test_kuhn_leduc_openspiel.py); a binary
# wheel, about 8 s to install with its dependencies (measured 2026-12-01).
python -m pip install --quiet --disable-pip-version-check "$WHEEL[test]" "open-spiel>=1.5,<3"
# These two declare Python >= 3.14 but run on 3.11 (see shared oracles notes).
python -m pip install --quiet --disable-pip-version-check \
    --no-deps --ignore-requires-python game-room==0.1.0 i151-engine==0.2.4
# PyTorch, PufferLib and matplotlib: env.torch(), cardvec.puffer and the examples that learn
# (python/tests/test_torch.py, test_puffer.py, test_examples.py; each skips without them).
# pufferlib-core pins torch 2.9.0, the default build with its CUDA libraries (PyPI has no
# CPU-only torch; 6.9 GB installed): 3 min 38 s here with the downloads, 1 min 26 s from
# pip's cache (2 cores).
python -m pip install --quiet --disable-pip-version-check "$WHEEL[puffer,examples]"
# The tests import the installed wheel, never the source tree python/cardvec
# (python/tests/test_packaging.py checks it when this is set).
export CARDVEC_WHEEL_TEST=1
python -c 'import cardvec, numpy; print("cardvec", cardvec.__version__, "from", cardvec.__file__, "| numpy", numpy.__version__)'

section "type stubs: stubtest against the installed package, mypy --strict on a typed user"
python -m mypy.stubtest --allowlist python/stubtest-allowlist.txt cardvec
python -m mypy --strict --enable-error-code deprecated python/tests/typing_check.py

section "web table: Debian's chromium for the browser tests (python/tests/test_web_table.py)"
# Playwright drives the system browser (never a browser download of its own); the tests skip,
# saying why, if it cannot be installed (on CI, CI=true, a missing chromium fails the run).
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) ||
        echo "chromium could not be installed: the browser tests will skip" >&2
fi
if command -v chromium >/dev/null 2>&1; then
    chromium --version 2>/dev/null | tail -1 || true
elif [ "${CI:-}" = true ]; then
    echo "CI: chromium is missing, so the browser tests would only skip; failing instead" >&2
    exit 1
fi

section "pytest python/tests (on $JOBS workers)"
python -m pytest -q -n "$JOBS" python/tests

section "all checks passed"
