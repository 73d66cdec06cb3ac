#!/usr/bin/env bash
# The project's test command: bash scripts/test.sh
#
# Runs every check on a fresh machine (Rust toolchain and Python 3.11; no venv needed):
# formatting, clippy, the Rust tests, the differential CI profile (100,000 games), then builds
# the Python extension into .venv and runs the Python tests.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT="$PWD"
START=$SECONDS
PYTHON="${PYTHON:-python3}"

section() {
    printf '\n==== %s  [%ds]\n' "$1" "$((SECONDS - START))"
}

section "cargo fmt --check"
cargo fmt --all --check

section "cargo clippy (workspace, all targets, -D warnings)"
cargo clippy --workspace --all-targets -- -D warnings

section "cargo test --release"
cargo test --release

section "differential run: cardvec diff lost-cities --games 100000"
cargo run --release -- diff lost-cities --games 100000 --quiet

section "differential run: cardvec diff flip7 --games 100000"
cargo run --release -- diff flip7 --games 100000 --quiet

section "differential run: cardvec diff 151 --games 100000"
cargo run --release -- diff 151 --games 100000 --quiet

section "differential run: cardvec diff holdem --games 100000"
cargo run --release -- diff holdem --games 100000 --quiet

section "python venv (.venv) and test dependencies"
"$PYTHON" -m venv .venv
export VIRTUAL_ENV="$ROOT/.venv"
export PATH="$VIRTUAL_ENV/bin:$PATH"
python -m pip install --quiet --disable-pip-version-check \
    maturin "numpy<2.4" pytest \
    pokerkit phevaluator eval7 treys "gymnasium<2" "pettingzoo>=1.24.3,<2"
# These two declare Python >= 3.14 but run on 3.11 (see shared oracles notes).
python -m pip install --quiet --disable-pip-version-check \
    --no-deps --ignore-requires-python game-room==0.1.0 i151-engine==0.2.4

section "build the cardvec Python extension (maturin develop --release)"
maturin develop --release --manifest-path python/Cargo.toml

section "pytest python/tests"
python -m pytest -q python/tests

section "all checks passed"
