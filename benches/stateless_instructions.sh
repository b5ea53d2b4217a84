#!/usr/bin/env bash
# Server instructions per tools/call, legacy against stateless (2026-07-28), counted by
# callgrind: issue 10's "per-request _meta validation" figure, over stdio and over HTTP.
#
# stdio: examples/server reads N pipelined `tools/call echo` requests from a file (legacy:
# after `initialize` and `notifications/initialized`; stateless: no handshake, the required
# `_meta` on every request) and answers them to /dev/null. Each era runs with 5,000 and
# with 25,000 requests, and the difference is divided by 20,000, so start-up and the
# handshake cancel out.
#
# http: examples/server --http 127.0.0.1:0 --json-response runs under callgrind, and a
# plain client (Python's http.client, one keep-alive connection, one request at a time)
# sends it what benches/http_load.rs sends: legacy, initialize + notifications/initialized
# on a session, then N `tools/call echo` with its Mcp-Session-Id; stateless, N
# `tools/call echo` with the required `_meta` and the MCP-Protocol-Version, Mcp-Method and
# Mcp-Name headers, no session. Answers are JSON (checked: a 200 result with the echo, and
# `resultType` for the stateless ones). The server is stopped with SIGTERM once the calls
# are answered; each era runs with $HTTP_SMALL and $HTTP_LARGE calls (default 300 and
# 1,500) and the difference is divided by the extra calls. Instruction counts are
# deterministic (all the server's threads are counted; what it does while idle is the
# same in both runs): the figures can be compared across runs on a loaded machine.
#
#   benches/stateless_instructions.sh           stdio and HTTP
#   benches/stateless_instructions.sh stdio     stdio only (a build with `stdio`)
#   benches/stateless_instructions.sh http      HTTP only (a build with `stdio,http`)
#
# META=full gives the stateless requests the `_meta` a real client tends to send rather
# than the required minimum: clientInfo and non-empty capabilities as well (stdio only;
# the HTTP client sends the minimum either way).
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is not installed" >&2; exit 1; }
mode=${1:-all}
case $mode in all | stdio | http) ;; *) echo "usage: $0 [stdio|http]" >&2; exit 2 ;; esac
HTTP_SMALL=${HTTP_SMALL:-300}
HTTP_LARGE=${HTTP_LARGE:-1500}
server=${CARGO_TARGET_DIR:-target}/release/examples/server
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ratio() { awk -v a="$2" -v b="$1" 'BEGIN { printf "%.3f", a / b }'; }

requests() { # era count
    local meta=''
    if [[ $1 == legacy ]]; then
        echo '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"stdio-roundtrip","version":"0.1.0"}}}'
        echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
    else
        meta=',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
        if [[ ${META:-} == full ]]; then
            meta=',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"sampling":{},"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"stdio-roundtrip","version":"0.1.0"}}'
        fi
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

if [[ $mode != http ]]; then
    cargo build --quiet --release --features stdio --example server
    legacy=$(per_call legacy)
    stateless=$(per_call stateless)
    echo "examples/server instructions per tools/call over stdio (callgrind, 25,000 - 5,000 requests)"
    echo "legacy $legacy, stateless${META:+ (META=$META)} $stateless: $(ratio "$legacy" "$stateless")x"
fi

[[ $mode == stdio ]] && exit 0
command -v python3 >/dev/null || { echo "python3 is not installed" >&2; exit 1; }
cargo build --quiet --release --features stdio,http --example server
cat > "$work/client.py" <<'PY'
import http.client, sys
host, port = sys.argv[1].rsplit(":", 1)
era, n = sys.argv[2], int(sys.argv[3])
conn = http.client.HTTPConnection(host, int(port), timeout=600)
base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

def post(body, headers):
    conn.request("POST", "/mcp", body=body.encode(), headers=headers)
    r = conn.getresponse()
    return r, r.read()

call = '{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"message":"hello"}%s}}'
if era == "legacy":
    r, body = post('{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",'
                   '"capabilities":{},"clientInfo":{"name":"http-load","version":"0.1.0"}}}', base)
    assert r.status == 200, (r.status, body)
    headers = dict(base, **{"Mcp-Session-Id": r.getheader("Mcp-Session-Id"), "MCP-Protocol-Version": "2025-11-25"})
    r, body = post('{"jsonrpc":"2.0","method":"notifications/initialized"}', headers)
    assert 200 <= r.status < 300, (r.status, body)
    meta, want = "", b'"result"'
else:
    headers = dict(base, **{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo"})
    meta = (',"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
            '"io.modelcontextprotocol/clientCapabilities":{}}')
    want = b'"resultType"'
for i in range(1, n + 1):
    r, body = post(call % (i, meta), headers)
    ok = r.status == 200 and r.getheader("Content-Type", "").startswith("application/json")
    assert ok and b'hello"' in body and want in body, (i, r.status, body)
PY

http_count() { # era calls
    local log vg addr='' pid
    log=$(mktemp -p "$work") vg=$(mktemp -p "$work")
    valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$vg" \
        "$server" --http 127.0.0.1:0 --json-response 2>>"$log" &
    pid=$!
    for _ in $(seq 600); do
        addr=$(sed -n 's/.*listening on http:\/\///p' "$log")
        [[ -n $addr ]] && break
        sleep 0.1
    done
    [[ -n $addr ]] || { echo "examples/server --http did not start" >&2; cat "$log" >&2; kill "$pid"; exit 1; }
    python3 "$work/client.py" "$addr" "$1" "$2" || { kill "$pid"; exit 1; }
    kill -TERM "$pid"
    wait "$pid" || true
    local n
    n=$(sed -n 's/.*Collected : //p' "$vg")
    [[ -n $n ]] || { echo "no callgrind total for the server" >&2; cat "$vg" >&2; exit 1; }
    echo "$n"
}

http_per_call() { # era
    local small large
    small=$(http_count "$1" "$HTTP_SMALL")
    large=$(http_count "$1" "$HTTP_LARGE")
    echo $(( (large - small) / (HTTP_LARGE - HTTP_SMALL) ))
}

legacy=$(http_per_call legacy)
stateless=$(http_per_call stateless)
echo "examples/server --http --json-response instructions per tools/call (callgrind, $HTTP_LARGE - $HTTP_SMALL calls)"
echo "legacy $legacy, stateless $stateless: $(ratio "$legacy" "$stateless")x"
