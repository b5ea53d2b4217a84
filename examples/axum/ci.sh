#!/usr/bin/env bash
# The smoke check of .ci/run's http step: builds this example (its own workspace; cargo
# fetches axum and tokio from crates.io), serves on a free port, once with JSON answers
# and once with SSE answers, and drives each with smoke.py.
set -euo pipefail
cd "$(dirname "$0")"
target=${CARGO_TARGET_DIR:-../../target/axum}
cargo build --release --target-dir "$target"
bin=$target/release/mcp-axum-example
log=$(mktemp)
pid=
cleanup() {
    if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; fi
    rm -f "$log"
}
trap cleanup EXIT
for form in json sse; do
    flag=()
    if [ "$form" = sse ]; then flag=(--sse); fi
    "$bin" 127.0.0.1:0 "${flag[@]}" 2>"$log" &
    pid=$!
    for _ in $(seq 100); do
        grep -q 'listening on' "$log" && break
        sleep 0.1
    done
    url=$(grep -o 'http://[^ ]*' "$log" | head -1)
    [ -n "$url" ] || { cat "$log" >&2; exit 1; }
    echo "examples/axum ($form answers) at $url"
    timeout 60 python3 smoke.py "$url" "$form"
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    pid=
done
