#!/usr/bin/env bash
# Records the JSON-RPC lines the official MCP SDKs exchange over stdio and writes them
# to tests/fixtures/sdk-capture.jsonl (tests/sdk_capture.rs decodes every one).
#
# Sessions, each through record.py (a recording stdio pass-through):
#   everything-ts       TypeScript client (sdk 1.32.2) <-> @modelcontextprotocol/server-everything
#                       (stdio; 2025-11-25 handshake, sampling, elicitation, roots, tasks)
#   python-legacy       Python client (mcp 2.3.0, mode=legacy) <-> py_server.py (MCPServer)
#   python-2026-07-28   Python client (mode=2026-07-28) <-> py_server.py: the stateless era
#   py-auto-everything  Python client (mode=auto: server/discover probe, then initialize)
#                       <-> server-everything
#
# Needs node >= 20, npm, python3 with venv. Packages (pinned here) are installed into
# $MCP_CAPTURE_CACHE (default .ci/cache/capture, git-ignored).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
here=$root/tests/sdk-capture
cache=${MCP_CAPTURE_CACHE:-$root/.ci/cache/capture}
mkdir -p "$cache"

stamp=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)
if [ "$(cat "$cache/node/.stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$cache/node"
    mkdir -p "$cache/node"
    cp "$here/package.json" "$here/package-lock.json" "$cache/node/"
    (cd "$cache/node" && npm ci --no-audit --no-fund --loglevel=error)
    echo "$stamp" > "$cache/node/.stamp"
fi
cp "$here/ts_client.mjs" "$here/record.py" "$cache/node/"
stamp=$(sha256sum < "$here/requirements.txt" | cut -c1-16)
if [ "$(cat "$cache/venv/.stamp" 2>/dev/null)" != "$stamp" ]; then
    rm -rf "$cache/venv"
    python3 -m venv "$cache/venv"
    "$cache/venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
    echo "$stamp" > "$cache/venv/.stamp"
fi

py=$cache/venv/bin/python
everything=(node "$cache/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js" stdio)
out=$root/tests/fixtures/sdk-capture.jsonl
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

(cd "$cache/node" && timeout 180 node ts_client.mjs "$tmp" everything-ts -- "${everything[@]}")
for mode in legacy 2026-07-28; do
    timeout 180 "$py" "$here/py_client.py" "$tmp" "python-$mode" "$mode" -- "$py" "$here/py_server.py" 2>/dev/null
done
(cd "$cache/node" && timeout 180 "$py" "$here/py_client.py" "$tmp" py-auto-everything auto -- "${everything[@]}" 2>/dev/null)

cp "$tmp" "$out"
echo "sdk capture: $(wc -l < "$out") messages written to tests/fixtures/sdk-capture.jsonl"
