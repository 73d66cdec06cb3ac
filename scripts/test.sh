#!/usr/bin/env bash
# The project's test command: bash scripts/test.sh
#
# Runs every check on a fresh machine (Rust toolchain and Python 3.11; no venv needed):
# formatting, clippy, the Rust tests (the conformance suite over every registered game
# included), the differential CI profile (100,000 games of every game, one process), then
# builds the Python extension into .venv and runs the Python tests (oracles included) on
# every core.
#
# Tests and the differential runs use the `ci` profile (optimized, no LTO: the test binaries
# link fast, the runs are as fast as release); the Python extension is built once.
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

section "python venv (.venv) and test dependencies"
"$PYTHON" -m venv .venv
export VIRTUAL_ENV="$ROOT/.venv"
export PATH="$VIRTUAL_ENV/bin:$PATH"
python -m pip install --quiet --disable-pip-version-check \
    maturin "numpy<2.4" pytest pytest-xdist \
    pokerkit phevaluator eval7 treys "gymnasium<2" "pettingzoo>=1.24.3,<2" "supersuit>=3.9,<4"
# These two declare Python >= 3.14 but run on 3.11 (see shared oracles notes).
python -m pip install --quiet --disable-pip-version-check \
    --no-deps --ignore-requires-python game-room==0.1.0 i151-engine==0.2.4

section "build the cardvec Python extension (maturin develop --profile ci)"
maturin develop --profile ci --manifest-path python/Cargo.toml

section "pytest python/tests (on $JOBS workers)"
python -m pytest -q -n "$JOBS" python/tests

section "all checks passed"
