#!/usr/bin/env bash
# A fuzz campaign on one target: build, fuzz for MINUTES on the kept corpus, minimize the
# corpus, keep crash artifacts, log a summary line. See docs/fuzzing.md.
#
#   scripts/fuzz_campaign.sh TARGET MINUTES [JOBS] [-- LIBFUZZER_ARGS...]
#
# TARGET   a [[bin]] of fuzz/Cargo.toml (games, states, phh, cards, replay, ...)
# MINUTES  how long to fuzz (each job runs that long; JOBS jobs run side by side)
# JOBS     parallel fuzzing processes (libFuzzer -jobs/-workers), default 1
# after -- extra libFuzzer flags, e.g. -- -max_len=512
#
# Stable toolchain, no sanitizer (`-s none`), debug assertions and overflow checks on
# (`-a`); override the build flags with FUZZ_BUILD_FLAGS="-s none". Runs under `nice`.
# New inputs go to fuzz/corpus/TARGET (committed once minimized), failures to
# fuzz/artifacts/TARGET (not committed; a fixed one is copied to fuzz/regressions/TARGET),
# the libFuzzer output to fuzz/artifacts/TARGET/campaign-DATE.log. The summary line is
# appended to docs/fuzz-campaigns.tsv (FUZZ_LOG=path to change). Exit status 0 when no
# failure was found, 1 when one was, 2 on a usage error.
set -euo pipefail

usage() {
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[[ $# -ge 2 ]] || usage
TARGET=$1
MINUTES=$2
shift 2
JOBS=1
if [[ $# -gt 0 && $1 != -- ]]; then
    JOBS=$1
    shift
fi
if [[ $# -gt 0 ]]; then
    [[ $1 == -- ]] || usage
    shift
fi
EXTRA=("$@")
[[ $MINUTES =~ ^[1-9][0-9]*$ ]] || { echo "MINUTES must be a positive integer, got '$MINUTES'" >&2; exit 2; }
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "JOBS must be a positive integer, got '$JOBS'" >&2; exit 2; }

cd "$(dirname "$0")/.."
ROOT=$PWD
if ! grep -qx "name = \"$TARGET\"" fuzz/Cargo.toml; then
    echo "unknown fuzz target '$TARGET'; fuzz/Cargo.toml has:" >&2
    sed -n 's/^name = "\(.*\)"$/  \1/p' fuzz/Cargo.toml | grep -v cardvec-fuzz >&2
    exit 2
fi

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "cargo-fuzz is not installed: cargo install cargo-fuzz --locked" >&2
    cargo install cargo-fuzz --locked
fi

# Flags every campaign of a target needs (docs/architecture.md, "Proof of correctness").
DEFAULT_ARGS=()
case $TARGET in
    states) DEFAULT_ARGS=(-max_len=256 -len_control=0) ;;
    # A spot is decoded from its first 50 or so bytes: longer inputs add nothing.
    spots) DEFAULT_ARGS=(-max_len=64) ;;
esac
DICT="$ROOT/fuzz/dicts/$TARGET.dict"
if [[ -f $DICT ]]; then
    DEFAULT_ARGS+=("-dict=$DICT")
fi

read -r -a BUILD_FLAGS <<<"${FUZZ_BUILD_FLAGS:--s none -a}"
CORPUS="$ROOT/fuzz/corpus/$TARGET"
ARTIFACTS="$ROOT/fuzz/artifacts/$TARGET"
LOG="${FUZZ_LOG:-$ROOT/docs/fuzz-campaigns.tsv}"
STAMP=$(date -u +%Y-%m-%dT%H:%M:%SZ)
RUN_LOG="$ARTIFACTS/campaign-${STAMP//:/}.log"
mkdir -p "$CORPUS" "$ARTIFACTS"

count_files() { find "$1" -maxdepth 1 -type f ! -name '.*' | wc -l; }
count_bytes() { find "$1" -maxdepth 1 -type f ! -name '.*' -printf '%s\n' | awk '{s += $1} END {print s + 0}'; }
failures() { find "$ARTIFACTS" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort; }

# The commit of the code fuzzed: the one built (the checkout may move on during a long run).
COMMIT=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- src fuzz/fuzz_targets fuzz/Cargo.toml || COMMIT="$COMMIT+dirty"
echo "== build: cargo fuzz build ${BUILD_FLAGS[*]} $TARGET"
nice -n 10 cargo fuzz build "${BUILD_FLAGS[@]}" "$TARGET"
TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
BIN="$ROOT/fuzz/target/$TRIPLE/release/$TARGET"
[[ -x $BIN ]] || { echo "no fuzz binary at $BIN" >&2; exit 1; }

BEFORE_FILES=$(count_files "$CORPUS")
BEFORE_FAILURES=$(failures)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

ARGS=(-max_total_time=$((MINUTES * 60)) -timeout=60 -print_final_stats=1
    "-artifact_prefix=$ARTIFACTS/" "${DEFAULT_ARGS[@]}")
if ((JOBS > 1)); then
    ARGS+=("-jobs=$JOBS" "-workers=$JOBS")
fi
ARGS+=("${EXTRA[@]}")
echo "== fuzz: $TARGET for $MINUTES min x $JOBS job(s) on fuzz/corpus/$TARGET ($BEFORE_FILES files)"
echo "   $BIN ${ARGS[*]} $CORPUS"
STATUS=0
(cd "$WORK" && nice -n 10 "$BIN" "${ARGS[@]}" "$CORPUS") 2>&1 | tee "$RUN_LOG" || STATUS=$?
# With -jobs libFuzzer writes each job's output to fuzz-N.log in its working directory.
if ((JOBS > 1)); then
    for f in "$WORK"/fuzz-*.log; do
        if [[ -f $f ]]; then
            { echo "---- $(basename "$f")"; cat "$f"; } >>"$RUN_LOG"
        fi
    done
fi
# Executions: the final stats of every job, else the last "#N" status line.
EXECS=$(awk '/stat::number_of_executed_units:/ {s += $NF; n++} END {if (n) print s}' "$RUN_LOG")
if [[ -z $EXECS ]]; then
    EXECS=$(grep -oE '^#[0-9]+' "$RUN_LOG" | tr -d '#' | sort -n | tail -1 || true)
fi
EXECS=${EXECS:-0}
MID_FILES=$(count_files "$CORPUS")

echo "== minimize: cargo fuzz cmin ${BUILD_FLAGS[*]} $TARGET ($MID_FILES files)"
nice -n 10 cargo fuzz cmin "${BUILD_FLAGS[@]}" "$TARGET" "$CORPUS" -- "${DEFAULT_ARGS[@]}" >>"$RUN_LOG" 2>&1 \
    || { echo "cargo fuzz cmin failed (see $RUN_LOG); the corpus is left as it was" >&2; }
AFTER_FILES=$(count_files "$CORPUS")
AFTER_BYTES=$(count_bytes "$CORPUS")
NEW_FAILURES=$(comm -13 <(echo "$BEFORE_FAILURES") <(failures) | sed '/^$/d')
CRASHES=$(printf '%s' "$NEW_FAILURES" | grep -c . || true)

if [[ ! -s $LOG ]]; then
    printf 'date\tcommit\ttarget\tminutes\tjobs\texecutions\tcorpus_before\tcorpus_after\tcorpus_bytes\tfailures\tfuzzer_status\n' >"$LOG"
fi
LINE=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$STAMP" "$COMMIT" "$TARGET" "$MINUTES" "$JOBS" \
    "$EXECS" "$BEFORE_FILES" "$AFTER_FILES" "$AFTER_BYTES" "$CRASHES" "$STATUS")
echo "$LINE" >>"$LOG"
echo "== summary (appended to ${LOG#"$ROOT"/}):"
echo "   target $TARGET, $MINUTES min x $JOBS job(s), $EXECS executions, corpus $BEFORE_FILES -> $MID_FILES -> $AFTER_FILES files ($AFTER_BYTES bytes) after cmin, $CRASHES new failure(s), libFuzzer status $STATUS"
echo "   full output: ${RUN_LOG#"$ROOT"/}"
if ((CRASHES > 0)); then
    echo "== failures (reproduce: cargo fuzz run ${BUILD_FLAGS[*]} $TARGET FILE; once fixed, copy FILE to fuzz/regressions/$TARGET/):"
    echo "$NEW_FAILURES" | sed 's/^/   /'
    exit 1
fi
if ((STATUS != 0)); then
    echo "libFuzzer exited with status $STATUS without leaving a failure; see $RUN_LOG" >&2
    exit 1
fi
