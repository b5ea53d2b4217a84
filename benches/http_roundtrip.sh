#!/usr/bin/env bash
# The Streamable HTTP benchmark (issue 9, "Targets"), side by side in one run: the same load
# generator (benches/http_load.rs) against each server, in two configurations each, one
# table at the end.
#
#   ours/sse    examples/server --http ADDR                 (release; every POST answered
#                                                           with an SSE stream)
#   ours/json   examples/server --http ADDR --json-response (JSON when nothing precedes
#                                                           the response)
#               Both are "not built yet" until examples/server has --http.
#   rmcp/sse    rmcp 3.11.0 StreamableHttpService on axum/tokio, its defaults: stateful
#               sessions (LocalSessionManager), SSE answers (benches/rmcp-server --http)
#   rmcp/json   the same with json_response, which rmcp only honours stateless
#               (legacy_session_mode: false), so it keeps no sessions
#   ts/sse      @modelcontextprotocol/sdk 1.32.2 StreamableHTTPServerTransport, one
#               McpServer per session (tests/interop/ts_http_echo_server.mjs)
#   ts/json     the same with enableJsonResponse: true (--json)
#   ts2/default tests/interop/ts2_server.mjs --http PORT: the TypeScript SDK 2.x
#               (@modelcontextprotocol/server 2.4.0, createMcpHandler), dual-era
#   py/sse      tests/interop/py_server.py --http PORT: the Python SDK (mcp 2.3.0,
#               streamable_http_app with an event store), dual-era, SSE answers
#
# The 2026-07-28 era (issue 10, "Targets"): every dual-era server is also measured with
# `--era modern` (config NAME/modern): stateless POSTs, no session, the required _meta
# in every body and the MCP-Protocol-Version / Mcp-Method / Mcp-Name headers
# (src/http/server/modern.rs). The table then gives modern/legacy rate and CPU per call for
# each server, against its legacy configuration with the same response form where there is
# one (ours/json; ts2 and py answer modern requests with JSON, their legacy ones as they
# do). The rows count the errors per phase: a modern answer counts only if it is a 200
# result with resultType and the echo. ours/modern is examples/server --http without
# --json-response (its modern answers are JSON either way).
#
#   benches/http_roundtrip.sh [--seconds S] [--idle-sessions N] [NAME...]
#       NAME: ours, rmcp, ts, ts2, py (default: all); S: seconds per phase (default 6);
#       N: idle sessions opened for the memory figure (default 10000)
#
# Every server is started on 127.0.0.1 and must print `listening on http://ADDR` on stderr
# when ready. The TypeScript and Python SDKs are installed by tests/interop/run.sh
# --install-only into .ci/cache/interop (MCP_INTEROP_CACHE overrides it); rmcp is built from benches/rmcp-server (its own Cargo.lock) into
# target/rmcp-server. Linux only (the load generator reads /proc).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
seconds=6
idle=10000
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) seconds=$2; shift 2 ;;
        --idle-sessions) idle=$2; shift 2 ;;
        *) break ;;
    esac
done
names=("$@")
[ "${#names[@]}" -gt 0 ] || names=(ours rmcp ts ts2 py)
cache=${MCP_INTEROP_CACHE:-$root/.ci/cache/interop}
out=$(mktemp -d)
rows=$out/rows.tsv
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$out"
}
trap cleanup EXIT

cargo bench --quiet --bench http_load --no-run
load() { cargo bench --quiet --bench http_load -- "$@"; }

# Starts a server, waits for its `listening on http://ADDR` line; sets PID and ADDR.
start() { # log, command...
    local log=$1 i
    shift
    "$@" 2> "$log" &
    PID=$!
    pids+=("$PID")
    for i in $(seq 300); do
        if grep -qs 'listening on http://' "$log"; then
            ADDR=$(grep -o 'listening on http://[^/ ]*' "$log" | head -1 | sed 's|listening on http://||')
            return 0
        fi
        kill -0 "$PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "http_roundtrip: $* did not say it was listening:" >&2
    tail -5 "$log" >&2
    return 1
}

# Measures one configuration, or records why it could not be measured. ERA (legacy or
# modern, default legacy) is the era the load generator speaks.
ERA=legacy
measure() { # name, config, description, command...
    local name=$1 config=$2 description=$3
    shift 3
    echo "http_roundtrip: $name/$config: $*" >&2
    if ! start "$out/$name-$config.log" "$@"; then
        load --missing "$name" --config "$config" --server "$description" \
            --reason "failed: the server did not start (see above)" --out "$rows"
        return 0
    fi
    load --url "http://$ADDR/mcp" --pid "$PID" --name "$name" --config "$config" --server "$description" \
        --seconds "$seconds" --idle-sessions "$idle" --era "$ERA" --out "$rows" > /dev/null
    kill "$PID" 2>/dev/null || true
    wait "$PID" 2>/dev/null || true
}

features=stdio
if grep -q '^http = ' Cargo.toml; then features=stdio,http; fi

for n in "${names[@]}"; do
    case "$n" in
        ours)
            bin=$root/target/release/examples/server
            usage=""
            if cargo build --quiet --release --features "$features" --example server; then
                usage=$("$bin" --help 2>&1 || true) # the usage text names --http once it exists
            fi
            if grep -q -- '--http' <<<"$usage"; then
                measure ours sse "examples/server --http" "$bin" --http 127.0.0.1:0
                measure ours json "examples/server --http --json-response" "$bin" --http 127.0.0.1:0 --json-response
                ERA=modern measure ours modern "examples/server --http, 2026-07-28 stateless POSTs" \
                    "$bin" --http 127.0.0.1:0
            else
                for c in sse json modern; do
                    load --missing ours --config "$c" --server "examples/server --http" \
                        --reason "not built yet: examples/server has no --http option" --out "$rows"
                done
            fi ;;
        rmcp)
            (cd benches/rmcp-server && cargo build --quiet --release --locked --target-dir ../../target/rmcp-server)
            rmcp=$root/target/rmcp-server/release/rmcp-echo-server
            measure rmcp sse "rmcp 3.11.0 StreamableHttpService, axum 0.8, stateful sessions, SSE answers" \
                "$rmcp" --http 127.0.0.1:0
            measure rmcp json "rmcp 3.11.0, json_response (stateless: rmcp has no JSON answers with sessions)" \
                "$rmcp" --http 127.0.0.1:0 --json ;;
        ts)
            tests/interop/run.sh --install-only
            cp tests/interop/ts_http_echo_server.mjs "$cache/node/"
            ts=("node" "$cache/node/ts_http_echo_server.mjs" "--port" "0")
            measure ts sse "TypeScript SDK 1.32.2 StreamableHTTPServerTransport, node $(node --version), SSE answers (default)" \
                "${ts[@]}"
            measure ts json "TypeScript SDK 1.32.2 StreamableHTTPServerTransport, enableJsonResponse" \
                "${ts[@]}" --json ;;
        ts2 | py)
            tests/interop/run.sh --install-only
            port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
            if [ "$n" = ts2 ]; then
                # ts2_server.mjs announces the port it was given, so it needs a real one.
                cmd=("node" "$cache/ts2/ts2_server.mjs" "--http" "$port")
                description="TypeScript SDK 2.4.0 createMcpHandler, node $(node --version)"
                config=default
            else
                cmd=("$cache/venv/bin/python" "$root/tests/interop/py_server.py" "--http" "$port")
                description="Python SDK 2.3.0 streamable_http_app (uvicorn), event store"
                config=sse
            fi
            measure "$n" "$config" "$description, a legacy session per client" "${cmd[@]}"
            ERA=modern measure "$n" modern "$description, 2026-07-28 stateless POSTs" "${cmd[@]}" ;;
        *) echo "http_roundtrip: unknown server $n (ours, rmcp, ts, ts2, py)" >&2; exit 2 ;;
    esac
done
load --table "$rows"
