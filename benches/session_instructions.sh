#!/usr/bin/env bash
# Instructions per message for each scenario of the session benchmark, counted by
# callgrind, for the working tree and for any other revision side by side.
#
# Instruction counts are deterministic, so unlike ns/message they compare across runs on a
# loaded machine. Each scenario runs twice under callgrind, with SESSION_BENCH_ROUND_TRIPS
# set to $SMALL and to $LARGE (setup and the size table are the same in both); the
# difference is divided by the extra messages.
#
#   benches/session_instructions.sh                 this tree
#   benches/session_instructions.sh c76cc18 HEAD    those revisions (built in temporary
#                                                   worktrees; an older bench without the
#                                                   environment overrides gets them patched in)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
SMALL=${SMALL:-200}
LARGE=${LARGE:-1200}
scenarios=(
    "tools/list, 1 in flight"
    "tools/list, 8 in flight"
    "tools/call, 8 in flight"
    "tools/call, 8 in flight, 64-byte reads"
    "tools/call, 8 in flight, 1-byte reads"
)
tmp=$(mktemp -d)
cleanup() {
    for wt in "$tmp"/wt-*; do [[ -d $wt ]] && git worktree remove --force "$wt" >/dev/null 2>&1; done
    rm -rf "$tmp"
}
trap cleanup EXIT

build() { # dir -> path of the bench binary
    (cd "$1" && CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$PWD/target} cargo bench --bench session --no-run 2>&1) |
        sed -n 's/.*Executable .*(\(.*\))$/\1/p' | tail -1
}

patch_overrides() { # older benches read neither variable
    local f=$1/benches/session.rs
    grep -q SESSION_BENCH_ROUND_TRIPS "$f" && return 0
    sed -i \
        -e 's|let round_trips: u64 = if quick { 2_000 } else { 200_000 };|let round_trips: u64 = std::env::var("SESSION_BENCH_ROUND_TRIPS").ok().and_then(\|v\| v.parse().ok()).unwrap_or(if quick { 2_000 } else { 200_000 });|' \
        -e 's|    for s in &scenarios {|    for s in scenarios.iter().filter(\|s\| std::env::var("SESSION_BENCH_ONLY").map_or(true, \|o\| o == s.name)) {|' \
        "$f"
}

count() { # bin scenario round_trips -> instructions
    SESSION_BENCH_ONLY=$2 SESSION_BENCH_ROUND_TRIPS=$3 valgrind --tool=callgrind \
        --callgrind-out-file="$tmp/out" "$1" >"$tmp/stdout" 2>"$tmp/stderr"
    grep -qF "| $2 |" "$tmp/stdout" || { echo "scenario '$2' did not run" >&2; exit 1; }
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/stderr"
}

revs=("$@")
[[ ${#revs[@]} -gt 0 ]] || revs=(.)
bins=()
for rev in "${revs[@]}"; do
    if [[ $rev == . ]]; then
        bins+=("$(build .)")
    else
        wt=$tmp/wt-${#bins[@]}
        git worktree add --detach "$wt" "$rev" >/dev/null 2>&1
        patch_overrides "$wt"
        bins+=("$(CARGO_TARGET_DIR=$PWD/target/session-instructions build "$wt")")
    fi
done

echo "instructions per message, callgrind ($(valgrind --version)); $SMALL and $LARGE round trips (1-byte reads: a tenth)"
printf '%-42s' scenario
for rev in "${revs[@]}"; do printf ' %14s' "$rev"; done
[[ ${#revs[@]} -eq 2 ]] && printf ' %8s' ratio
echo
for s in "${scenarios[@]}"; do
    printf '%-42s' "$s"
    per=()
    for bin in "${bins[@]}"; do
        small=$(count "$bin" "$s" "$SMALL")
        large=$(count "$bin" "$s" "$LARGE")
        trips=$((LARGE - SMALL))
        [[ $s == *"1-byte"* ]] && trips=$((LARGE / 10 - SMALL / 10))
        v=$(awk -v d="$((large - small))" -v m="$((2 * trips))" 'BEGIN { printf "%.0f", d / m }')
        per+=("$v")
        printf ' %14s' "$v"
    done
    [[ ${#per[@]} -eq 2 ]] && awk -v a="${per[0]}" -v b="${per[1]}" 'BEGIN { printf " %7.2fx", b / a }'
    echo
done
