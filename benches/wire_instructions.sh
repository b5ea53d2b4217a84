#!/usr/bin/env bash
# Instructions per message for rows of the wire benchmark, counted by callgrind.
#
# Instruction counts are deterministic, so unlike MB/s they can be compared across runs on
# a loaded machine. Each row runs twice under `valgrind --tool=callgrind`, once with
# WIRE_BENCH_PASSES=0 and once with WIRE_BENCH_PASSES=$PASSES (corpus generation and the
# checks are the same in both), and the difference is divided by the messages and bytes
# those passes handled.
#
#   benches/wire_instructions.sh                 the default rows
#   benches/wire_instructions.sh "ROW" ...       the named rows (exact names from the table)
#   PASSES=5 benches/wire_instructions.sh        more passes per row (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."

PASSES=${PASSES:-3}
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }

rows=("$@")
if [[ ${#rows[@]} -eq 0 ]]; then
    rows=(
        "serde_json envelope, &RawValue members  [baseline]"
        "serde_json into IgnoredAny (validate only)"
        "ours: Message::parse (scan + classify)"
        "serde_json typed by method (Cow text, RawValue)"
        "ours: typed by method (dispatch, items walked)"
        "ours: typed by method (dispatch, items not walked)"
        "ours: typed by method, no spans (items walked)"
        "ours: typed by method, no spans (items not walked)"
        "ours: parse + typed params (span decoder, JsonStr)"
        "small: serde_json envelope, &RawValue  [baseline]"
        "small: serde_json into IgnoredAny"
        "small: ours Message::parse"
        "small: serde_json typed by method"
        "small: ours typed by method"
        "small: ours typed by method, items not walked"
        "small: ours typed by method, no spans"
        "small: ours typed by method, no spans, items not walked"
    )
fi

bin=$(cargo bench --bench wire --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*\))$/\1/p' | tail -1)
[[ -x $bin ]] || { echo "wire bench binary not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() { # row passes -> "instructions messages bytes"
    WIRE_BENCH_ONLY="=$1" WIRE_BENCH_PASSES=$2 valgrind --tool=callgrind --callgrind-out-file="$tmp/out" \
        "$bin" >"$tmp/stdout" 2>"$tmp/stderr"
    local ir
    ir=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/stderr")
    local line
    line=$(grep -F -- "$(printf 'passes\t%s\t' "$1")" "$tmp/stdout" || true)
    [[ -n $line ]] || { echo "no row named '$1'" >&2; exit 1; }
    echo "$ir $(cut -f4 <<<"$line") $(cut -f5 <<<"$line")"
}

echo "instructions per pass-message, callgrind ($(valgrind --version)), $PASSES passes per row"
printf '%-52s %9s %10s %13s %9s\n' row messages bytes instr/message instr/byte
for row in "${rows[@]}"; do
    read -r base _ _ < <(count "$row" 0)
    read -r total messages bytes < <(count "$row" "$PASSES")
    awk -v r="$row" -v d="$((total - base))" -v p="$PASSES" -v m="$messages" -v b="$bytes" \
        'BEGIN { printf "%-52s %9d %10d %13.0f %9.2f\n", r, m, b, d / p / m, d / p / b }'
done
