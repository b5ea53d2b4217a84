#!/usr/bin/env bash
# The weather server of issue 13 three ways (weather.rs on the toolkit, rmcp/ on rmcp
# 3.11, weather.mjs on the TypeScript SDK's McpServer), each checked with the official
# Python client (check.py; the toolkit's over stdio and over Streamable HTTP), then their
# lines of code (loc.py).
#
#   examples/compare/run.sh            build, check all three, count
#   examples/compare/run.sh --count    only count
#
# The SDKs come from tests/interop (pinned there; installed into .ci/cache/interop by its
# run.sh --install-only). rmcp is built with its own Cargo.lock into
# target/compare-rmcp.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=examples/compare
count() {
    echo "lines of code (non-blank, non-comment lines, tokei's rule; loc.py):"
    python3 "$here/loc.py" "$here/weather.rs" "$here/rmcp/src/main.rs" "$here/weather.mjs"
}
if [ "${1:-}" = --count ]; then
    count
    exit 0
fi
cache=${MCP_INTEROP_CACHE:-$PWD/.ci/cache/interop}
tests/interop/run.sh --install-only
cp "$here/weather.mjs" "$cache/node/compare-weather.mjs"
cargo build --quiet --release --features stdio,http --example weather
(cd "$here/rmcp" && cargo build --quiet --release --locked --target-dir ../../../target/compare-rmcp)
logs=$cache/logs/compare
mkdir -p "$logs"
rc=0
py=$cache/venv/bin/python
"$py" "$here/check.py" toolkit "$logs/toolkit.jsonl" -- "$PWD/target/release/examples/weather" || rc=1
# The same toolkit server over Streamable HTTP (no wire log there: see check.py).
port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$PWD/target/release/examples/weather" --http "127.0.0.1:$port" &
http_pid=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
"$py" "$here/check.py" toolkit-http --http "http://127.0.0.1:$port/mcp" || rc=1
kill "$http_pid"
wait "$http_pid" 2>/dev/null || true
"$py" "$here/check.py" rmcp "$logs/rmcp.jsonl" -- "$PWD/target/compare-rmcp/release/weather-rmcp" || rc=1
"$py" "$here/check.py" ts "$logs/ts.jsonl" -- node "$cache/node/compare-weather.mjs" || rc=1
count
exit "$rc"
