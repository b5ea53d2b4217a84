#!/usr/bin/env bash
# Server instructions per tools/call over stdio, legacy against stateless (2026-07-28),
# counted by callgrind: issue 10's "per-request _meta validation" figure.
#
# examples/server reads N pipelined `tools/call echo` requests from a file (legacy: after
# `initialize` and `notifications/initialized`; stateless: no handshake, the required
# `_meta` on every request) and answers them to /dev/null. Each era runs with 5,000 and
# with 25,000 requests, and the difference is divided by 20,000, so start-up and the
# handshake cancel out. Instruction counts are deterministic: the figure can be compared
# across runs on a loaded machine.
#
#   benches/stateless_instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }

cargo build --quiet --release --features stdio --example server
server=${CARGO_TARGET_DIR:-target}/release/examples/server
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

requests() { # era count
    local meta=''
    if [[ $1 == legacy ]]; then
        echo '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"stdio-roundtrip","version":"0.1.0"}}}'
        echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    else
        meta=',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
    fi
    awk -v n="$2" -v meta="$meta" 'BEGIN { for (i = 1; i <= n; i++) printf "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\"hello\"}%s}}\n", i, meta }'
}

count() { # era count
    requests "$1" "$2" > "$work/in"
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$server" < "$work/in" 2>&1 >/dev/null \
        | sed -n 's/.*Collected : //p'
}

per_call() { # era
    local small large
    small=$(count "$1" 5000)
    large=$(count "$1" 25000)
    echo $(( (large - small) / 20000 ))
}

legacy=$(per_call legacy)
stateless=$(per_call stateless)
echo "examples/server instructions per tools/call over stdio (callgrind, 25,000 - 5,000 requests)"
echo "legacy $legacy, stateless $stateless: $(awk -v a="$stateless" -v b="$legacy" 'BEGIN { printf "%.3f", a / b }')x"
