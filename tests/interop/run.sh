#!/usr/bin/env bash
# Interop checks against the official MCP SDKs over stdio (issue 5, "Interop checks") and
# over HTTP (issue 9, "Checks": Streamable HTTP and legacy HTTP+SSE).
#
#   tests/interop/run.sh                 the stdio scenarios below, then the HTTP ones
#                                        (MCP_HTTP_CHECKS=0: stdio only)
#   tests/interop/run.sh --http          the HTTP scenarios only
#   tests/interop/run.sh SCENARIO...     some of them (names as printed)
#   tests/interop/run.sh --self-check    the official clients against the official
#                                        servers too: shows the checks themselves pass on
#                                        reference implementations
#   tests/interop/run.sh --stand-ins     ONLY the official clients against the official
#                                        servers, stdio and HTTP: what can run before
#                                        examples/server --http and examples/client --http
#                                        exist
#   tests/interop/run.sh --install-only  only install the peers (benches/*.sh)
#   MCP_INTEROP_BIN=DIR tests/interop/run.sh ...   use DIR/server and DIR/client instead of
#                                        building examples/
#
# Scenarios over stdio:
#   ts-client/ours      the TypeScript SDK's Client + StdioClientTransport against
#                       examples/server --page-size 2, once per protocol version it offers
#   py-client/ours      the Python SDK's ClientSession + stdio_client, likewise
#   ours/everything     examples/client against @modelcontextprotocol/server-everything (stdio)
#   ours/py-server      examples/client against tests/interop/py_server.py (Python SDK)
# Scenarios over HTTP (examples/server --http ADDR --page-size 2 serves /mcp and /sse):
#   ts-client/ours-http  StreamableHTTPClientTransport against /mcp
#   ts-client/ours-sse   SSEClientTransport against /sse
#   py-client/ours-http  streamable_http_client against /mcp
#   py-client/ours-sse   sse_client against /sse
#   ours/everything-http examples/client --http against server-everything streamableHttp
#   ours/everything-sse  examples/client --http against server-everything sse (the URL
#                        of an SSE-only server: it must fall back), plus one session with
#                        --transport sse
#   ours/py-server-http  examples/client --http against py_server.py --http
#   ours/py-server-sse   examples/client --http against py_server.py --sse, likewise
# The 2026-07-28 era with the TypeScript SDK 2.x (tests/interop/ts2/, pinned):
#   ts2-client/ours       ts2_client.mjs (its Client, versionNegotiation modern and auto)
#                         against examples/server over stdio: discover, tools/list, a
#                         stateless call, an input_required round
#   ts2-client/ours-http  likewise against examples/server --http (/mcp)
#   ours/ts2-server       examples/client --era modern and --era auto against
#                         ts2_server.mjs (its McpServer through serveStdio)
#   ours/ts2-server-http  likewise with --http against ts2_server.mjs --http
#                         (createMcpHandler behind node:http)
#   ours/py-server-modern      examples/client --era modern and auto against py_server.py
#                              (the Python SDK 2.3 server is dual-era), lists walked
#   ours/py-server-modern-http likewise with --http against py_server.py --http
# The stand-ins (--self-check, --stand-ins) pair the official clients with the official
# servers in the same ways: ts-client/everything-http, ts-client/everything-sse (the TS
# client in the SDK README's fallback mode: Streamable HTTP, then SSE), ...-py-server-*.
#
# Every stdio session runs through shim.py, every HTTP session through its own
# http_shim.py (a recording proxy that also cuts the progress tool's SSE stream once, so
# the client has to resume with Last-Event-ID); wire_check.py asserts on the JSON-RPC
# messages of the log and http_check.py on its HTTP exchanges (see their docstrings). The
# SDK-side checks assert what the SDK hands back. A results table is printed; the exit
# status is 1 if any check failed. A scenario whose example lacks --http (a build without
# the http feature) is reported "not built yet" and FAILS.
#
# Peers are pinned (package.json + package-lock.json, requirements.txt) and installed
# once into $MCP_INTEROP_CACHE (default .ci/cache/interop, git-ignored); the Rust
# examples are built in release mode with the stdio feature. Needs node >= 20, npm,
# python3 >= 3.10 with venv.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
here=$root/tests/interop
cache=${MCP_INTEROP_CACHE:-$root/.ci/cache/interop}
mkdir -p "$cache"
cache=$(cd "$cache" && pwd)

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
    echo "interop: node >= 20 needed, found $(node --version)" >&2
    exit 1
fi

# ---- peers ----
install_node() {
    local stamp
    stamp=$(cat "$here/package.json" "$here/package-lock.json" | sha256sum | cut -c1-16)
    if [ "$(cat "$cache/node/.stamp" 2>/dev/null)" != "$stamp" ]; then
        rm -rf "$cache/node"
        mkdir -p "$cache/node"
        cp "$here/package.json" "$here/package-lock.json" "$cache/node/"
        (cd "$cache/node" && npm ci --no-audit --no-fund --loglevel=error)
        echo "$stamp" > "$cache/node/.stamp"
    fi
    # The scripts import the SDK, so they run from beside node_modules.
    cp "$here"/*.mjs "$cache/node/"
}
install_python() {
    local stamp
    stamp=$(sha256sum < "$here/requirements.txt" | cut -c1-16)
    if [ "$(cat "$cache/venv/.stamp" 2>/dev/null)" != "$stamp" ]; then
        rm -rf "$cache/venv"
        python3 -m venv "$cache/venv"
        "$cache/venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"
        echo "$stamp" > "$cache/venv/.stamp"
    fi
}
# The TypeScript SDK 2.x, apart: its packages are not the 1.x @modelcontextprotocol/sdk.
install_ts2() {
    local stamp
    stamp=$(cat "$here/ts2/package.json" "$here/ts2/package-lock.json" | sha256sum | cut -c1-16)
    if [ "$(cat "$cache/ts2/.stamp" 2>/dev/null)" != "$stamp" ]; then
        rm -rf "$cache/ts2"
        mkdir -p "$cache/ts2"
        cp "$here/ts2/package.json" "$here/ts2/package-lock.json" "$cache/ts2/"
        (cd "$cache/ts2" && npm ci --no-audit --no-fund --loglevel=error)
        echo "$stamp" > "$cache/ts2/.stamp"
    fi
    cp "$here"/ts2_*.mjs "$cache/ts2/"
}
install_node
install_ts2
install_python
if [ "${1:-}" = --install-only ]; then
    exit 0
fi
py=$cache/venv/bin/python
everything_js=$cache/node/node_modules/@modelcontextprotocol/server-everything/dist/index.js
everything=("node" "$everything_js" "stdio")
pyserver=("$py" "$here/py_server.py" "--page-size" "2")

# ---- ours ----
# MCP_INTEROP_BIN: a folder with already-built `server` and `client` to use instead of
# building examples/ (for trying these scripts on other builds or stand-ins).
bin=${MCP_INTEROP_BIN:-$root/target/release/examples}
server=("$bin/server" "--page-size" "2")
features=stdio
if grep -q '^http = ' Cargo.toml; then features=stdio,http; fi
declare -A built=()
build() { # example name; a build failure fails the scenarios that need it, not the run
    [ -z "${MCP_INTEROP_BIN:-}" ] || return 0
    if [ -z "${built[$1]:-}" ]; then
        if cargo build --quiet --release --features "$features" --example "$1"; then built[$1]=ok; else built[$1]=failed; fi
    fi
    [ "${built[$1]}" = ok ]
}
# Whether an example takes --http (its usage text names it; --help exits non-zero).
has_http() {
    local usage
    usage=$("$bin/$1" --help 2>&1 || true)
    grep -q -- '--http' <<<"$usage"
}

# ---- scenarios ----
logs=$cache/logs
results=$cache/results.jsonl
rm -rf "$logs"
mkdir -p "$logs"
: > "$results"
WIRE_ALL=(handshake ping lists progress cancel unknown answered server-req exit)

# Tags the rows a command prints with the scenario name; a command that dies is a row.
collect() { # scenario, command...
    local sc=$1
    shift
    local out rc=0
    out=$("$@" 2> >(sed "s|^|  [$sc] |" >&2)) || rc=$?
    printf '%s\n' "$out" | grep '^{' | SC=$sc "$py" -c '
import json, os, sys
for line in sys.stdin:
    r = json.loads(line); r["scenario"] = os.environ["SC"]; print(json.dumps(r))' >> "$results" || true
    if [ "$rc" -ne 0 ]; then
        printf '{"scenario":"%s","label":"%s","check":"sdk:ran","ok":false,"detail":"exited with %s"}\n' "$sc" "$sc" "$rc" >> "$results"
    fi
}

# Wire checks for every log of a scenario: label = the log's name.
wire() { # scenario, profile, logdir, expected checks...
    local sc=$1 profile=$2 dir=$3 f label
    shift 3
    for f in "$dir"/*.jsonl; do
        label=$(basename "$f" .jsonl)
        label=${label/-/ }
        collect "$sc" "$py" "$here/wire_check.py" "$f" "$profile" "$label" --expect "$@"
    done
}

official_clients() { # scenario prefix, profile, server command...
    local prefix=$1 profile=$2
    shift 2
    mkdir -p "$logs/$prefix-ts" "$logs/$prefix-py"
    echo "interop: ts-client/$prefix"
    collect "ts-client/$prefix" env INTEROP_DIR="$here" node "$cache/node/ts_client.mjs" "$profile" "$logs/$prefix-ts" -- "$@"
    wire "ts-client/$prefix" "$profile" "$logs/$prefix-ts" "${WIRE_ALL[@]}"
    echo "interop: py-client/$prefix"
    collect "py-client/$prefix" "$py" "$here/py_client.py" "$profile" "$logs/$prefix-py" -- "$@"
    # The auto-negotiation session makes one call: only some wire checks apply (no
    # handshake at all when the server answers server/discover: a 2026-07-28 session).
    mkdir -p "$logs/$prefix-py-auto"
    mv "$logs/$prefix-py"/py-auto.jsonl "$logs/$prefix-py-auto/" 2>/dev/null || true
    if [ "$(auto_version "$profile")" = 2026-07-28 ]; then
        wire "py-client/$prefix" "$profile" "$logs/$prefix-py-auto" answered exit
    else
        wire "py-client/$prefix" "$profile" "$logs/$prefix-py-auto" handshake answered exit
    fi
    wire "py-client/$prefix" "$profile" "$logs/$prefix-py" "${WIRE_ALL[@]}"
}

# examples/client against a server, through the shim, once per handshake version it can
# offer (--protocol-version), with the options servers.json gives for that server; its
# transcripts are kept beside the logs.
our_client() { # scenario, profile, server command...
    local sc=$1 profile=$2 dir v rc
    shift 2
    dir=$logs/${sc//\//-}
    mkdir -p "$dir"
    echo "interop: $sc"
    local -a opts
    for v in 2025-11-25 2025-06-18 2025-03-26 2024-11-05; do
        mapfile -t opts < <("$py" "$here/client_options.py" "$profile" "$v")
        rc=0
        timeout 120 "$bin/client" --protocol-version "$v" "${opts[@]}" -- \
            "$py" "$here/shim.py" "$dir/ours-$v.jsonl" -- "$@" > "$dir/transcript-$v.txt" 2>&1 || rc=$?
        printf '{"scenario":"%s","label":"ours %s","check":"sdk:client","ok":%s,"detail":"examples/client exited with %s (%s)"}\n' \
            "$sc" "$v" "$([ "$rc" -eq 0 ] && echo true || echo false)" "$rc" "$dir/transcript-$v.txt" >> "$results"
    done
    wire "$sc" "$profile" "$dir" "${WIRE_ALL[@]}"
}


# The TypeScript SDK 2.x client against our server in the 2026-07-28 era, in its modern
# and auto modes (ts2_client.mjs prints the rows).
ts2_client() { # scenario, target (COMMAND... or --http URL)
    local sc=$1 mode
    shift
    echo "interop: $sc"
    for mode in modern auto; do
        collect "$sc" env MODE="$mode" timeout 60 node "$cache/ts2/ts2_client.mjs" "$@"
    done
}

# examples/client --era modern and --era auto against a dual-era or modern official
# server: the probe must find a 2026-07-28 server (no handshake), every step behave, and
# the transcript show `expect` (an answer only the right arguments give).
ours_modern() { # scenario, expect, examples/client options (calls, then -- COMMAND... or --http URL)
    local sc=$1 expect=$2 dir era rc ok
    shift 2
    dir=$logs/${sc//\//-}
    mkdir -p "$dir"
    echo "interop: $sc"
    for era in modern auto; do
        rc=0
        timeout 60 "$bin/client" --era "$era" --no-listen --progress-tool none --cancel-tool none "$@" \
            > "$dir/transcript-$era.txt" 2>&1 || rc=$?
        ok=false
        if [ "$rc" -eq 0 ] && grep -q 'found a 2026-07-28 server' "$dir/transcript-$era.txt" \
            && grep -qF "$expect" "$dir/transcript-$era.txt"; then
            ok=true
        fi
        printf '{"scenario":"%s","label":"ours %s","check":"sdk:client","ok":%s,"detail":"examples/client --era %s exited with %s; 2026-07-28 found and %s: %s (%s)"}\n' \
            "$sc" "$era" "$ok" "$era" "$rc" "${expect//\"/\\\"}" "$ok" "$dir/transcript-$era.txt" >> "$results"
    done
}
ts2_calls=(--no-lists --call 'echo={"message":"hi"}' --call 'add={"a":2,"b":3}')
py_calls=(--call 'echo={"message":"hi"}')

# ---- HTTP servers: started once per scenario, stopped at the end ----
declare -a http_pids=()
stop_http() {
    local p
    for p in "${http_pids[@]}"; do kill "$p" 2>/dev/null || true; done
    for p in "${http_pids[@]}"; do wait "$p" 2>/dev/null || true; done
    http_pids=()
}
trap stop_http EXIT
free_port() {
    "$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
# Starts a server that listens on 127.0.0.1:PORT and waits until the port accepts
# connections (all of them do; not all say so on stderr). Sets HTTP_PID.
start_http() { # log, port, command... (PORT is also in the environment: server-everything reads it)
    local log=$1 port=$2 i
    shift 2
    PORT=$port "$@" > "$log" 2>&1 &
    HTTP_PID=$!
    http_pids+=("$HTTP_PID")
    for i in $(seq 200); do
        if "$py" -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close()' "$port" 2>/dev/null; then
            return 0
        fi
        kill -0 "$HTTP_PID" 2>/dev/null || break
        sleep 0.1
    done
    echo "interop: $* did not listen on port $port:" >&2
    tail -5 "$log" >&2
    return 1
}
WIRE_HTTP=(handshake ping lists progress cancel unknown answered server-req)
HTTP_STREAMABLE=(session version-header status delete resume)
sse_headers() { # profile: the checks to add when the profile requires the SSE headers
    "$py" -c 'import json, sys; print("sse-headers" if json.load(open(sys.argv[1]))[sys.argv[2]]["http"].get("sseHeaders") else "")' \
        "$here/servers.json" "$1"
}
# HTTP checks for every log of a scenario.
http_wire() { # scenario, profile, logdir, transport (http|sse), mode (auto|forced)
    local sc=$1 profile=$2 dir=$3 transport=$4 mode=$5 f label
    local -a checks
    if [ "$transport" = http ]; then
        checks=("${HTTP_STREAMABLE[@]}")
        mapfile -t -O "${#checks[@]}" checks < <(sse_headers "$profile" | grep . || true)
    else
        checks=(legacy fallback)
    fi
    for f in "$dir"/*.jsonl; do
        [ -e "$f" ] || continue
        label=$(basename "$f" .jsonl)
        label=${label/-/ }
        local m=$mode
        case "$label" in forced\ *) m=forced ;; esac
        if [ "$label" = "py auto" ]; then
            # mcp.Client(mode="auto"): a handshake session, or a modern (2026-07-28,
            # sessionless) one where the server answers server/discover.
            if [ "$(auto_version "$profile")" = 2026-07-28 ]; then
                collect "$sc" "$py" "$here/wire_check.py" "$f" "$profile" "$label" --expect answered
                collect "$sc" "$py" "$here/http_check.py" "$f" "$profile" "$label" --transport "$transport" --expect status
            else
                collect "$sc" "$py" "$here/wire_check.py" "$f" "$profile" "$label" --expect handshake answered
                collect "$sc" "$py" "$here/http_check.py" "$f" "$profile" "$label" --transport "$transport" --expect session version-header status delete
            fi
            continue
        fi
        collect "$sc" "$py" "$here/wire_check.py" "$f" "$profile" "$label" --expect "${WIRE_HTTP[@]}"
        collect "$sc" "$py" "$here/http_check.py" "$f" "$profile" "$label" --transport "$transport" --mode "$m" --expect "${checks[@]}"
    done
}
auto_version() { # profile
    "$py" -c 'import json, sys; p = json.load(open(sys.argv[1]))[sys.argv[2]]; print(p.get("autoVersion", p["versions"][-1]))' "$here/servers.json" "$1"
}
progress_tool() { # profile
    "$py" -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]]["progress"]["name"])' "$here/servers.json" "$1"
}
# The official clients against an HTTP server. ts_mode: http, sse or auto (Streamable
# HTTP, then SSE: the TS SDK README's fallback); mode: what http_check expects of sse.
official_clients_http() { # prefix, profile, transport (http|sse), ts_mode, url
    local prefix=$1 profile=$2 transport=$3 ts_mode=$4 url=$5 cut
    cut=$(progress_tool "$profile")
    mkdir -p "$logs/$prefix-ts" "$logs/$prefix-py"
    echo "interop: ts-client/$prefix ($url)"
    collect "ts-client/$prefix" env INTEROP_DIR="$here" node "$cache/node/ts_client.mjs" "$profile" "$logs/$prefix-ts" \
        --transport "$ts_mode" --url "$url" --cut-tool "$cut"
    http_wire "ts-client/$prefix" "$profile" "$logs/$prefix-ts" "$transport" "$([ "$ts_mode" = auto ] && echo auto || echo forced)"
    echo "interop: py-client/$prefix ($url)"
    collect "py-client/$prefix" "$py" "$here/py_client.py" "$profile" "$logs/$prefix-py" \
        --transport "$transport" --url "$url" --cut-tool "$cut"
    http_wire "py-client/$prefix" "$profile" "$logs/$prefix-py" "$transport" forced
}
# examples/client --http against a server, through one http_shim.py per session, once per
# handshake version. For an SSE-only server the URL is given as is (the client must fall
# back), plus one session forced onto HTTP+SSE with --transport sse.
our_client_http() { # scenario, profile, transport (http|sse), url
    local sc=$1 profile=$2 transport=$3 url=$4 dir v rc cut name log shim_pid shim_url origin path
    local -a opts extra
    dir=$logs/${sc//\//-}
    mkdir -p "$dir"
    cut=$(progress_tool "$profile")
    origin=$(grep -o '^http://[^/]*' <<<"$url")
    path=${url#"$origin"}
    echo "interop: $sc ($url)"
    local -a runs=(2025-11-25 2025-06-18 2025-03-26 2024-11-05)
    [ "$transport" = sse ] && runs+=(forced)
    for v in "${runs[@]}"; do
        extra=()
        name=ours-$v
        if [ "$v" = forced ]; then
            v=2025-11-25
            extra=(--transport sse)
            name=forced-$v
        fi
        log=$dir/$name.jsonl
        "$py" "$here/http_shim.py" "$log" --upstream "$origin" --cut-tool "$cut" 2> "$dir/$name.shim.txt" &
        shim_pid=$!
        shim_url=""
        for _ in $(seq 100); do
            shim_url=$(grep -o 'listening on http://[^/ ]*' "$dir/$name.shim.txt" | sed 's|listening on ||' || true)
            [ -n "$shim_url" ] && break
            sleep 0.05
        done
        mapfile -t opts < <("$py" "$here/client_options.py" "$profile" "$v")
        rc=0
        timeout 120 "$bin/client" --http "$shim_url$path" "${extra[@]}" --protocol-version "$v" "${opts[@]}" \
            > "$dir/transcript-$name.txt" 2>&1 || rc=$?
        kill "$shim_pid" 2>/dev/null || true
        wait "$shim_pid" 2>/dev/null || true
        printf '{"scenario":"%s","label":"%s","check":"sdk:client","ok":%s,"detail":"examples/client --http exited with %s (%s)"}\n' \
            "$sc" "${name/-/ }" "$([ "$rc" -eq 0 ] && echo true || echo false)" "$rc" "$dir/transcript-$name.txt" >> "$results"
    done
    http_wire "$sc" "$profile" "$dir" "$transport" auto
}
not_built() { # scenario, example
    printf '{"scenario":"%s","label":"build","check":"sdk:build","ok":false,"detail":"not built yet: examples/%s has no --http option"}\n' "$1" "$2" >> "$results"
}
# Starts (once) the HTTP server a scenario needs; sets URL. Fails the scenario if it
# does not start.
declare -A http_url=()
server_url() { # key: ours-http ours-sse everything-http everything-sse py-server-http py-server-sse ts2-server-http
    local key=$1 port
    if [ -z "${http_url[$key]:-}" ]; then
        port=$(free_port)
        case "$key" in
            ours-http | ours-sse) # one process serves both
                start_http "$logs/server-ours.txt" "$port" "$bin/server" --http "127.0.0.1:$port" --page-size 2 || return 1
                http_url[ours-http]=http://127.0.0.1:$port/mcp
                http_url[ours-sse]=http://127.0.0.1:$port/sse ;;
            everything-http)
                start_http "$logs/server-$key.txt" "$port" node "$everything_js" streamableHttp || return 1
                http_url[$key]=http://127.0.0.1:$port/mcp ;;
            everything-sse)
                start_http "$logs/server-$key.txt" "$port" node "$everything_js" sse || return 1
                http_url[$key]=http://127.0.0.1:$port/sse ;;
            py-server-http)
                start_http "$logs/server-$key.txt" "$port" "$py" "$here/py_server.py" --http "$port" --page-size 2 || return 1
                http_url[$key]=http://127.0.0.1:$port/mcp ;;
            py-server-sse)
                start_http "$logs/server-$key.txt" "$port" "$py" "$here/py_server.py" --sse "$port" --page-size 2 || return 1
                http_url[$key]=http://127.0.0.1:$port/sse ;;
            ts2-server-http)
                start_http "$logs/server-$key.txt" "$port" node "$cache/ts2/ts2_server.mjs" --http "$port" || return 1
                http_url[$key]=http://127.0.0.1:$port/mcp ;;
        esac
    fi
    URL=${http_url[$key]}
}

STDIO=(ts-client/ours py-client/ours ours/everything ours/py-server ts2-client/ours ours/ts2-server ours/py-server-modern)
STDIO_STAND_INS=(ts-client/everything py-client/everything ts-client/py-server py-client/py-server)
HTTP=(ts-client/ours-http ts-client/ours-sse py-client/ours-http py-client/ours-sse
    ours/everything-http ours/everything-sse ours/py-server-http ours/py-server-sse
    ts2-client/ours-http ours/ts2-server-http ours/py-server-modern-http)
HTTP_STAND_INS=(ts-client/everything-http ts-client/everything-sse py-client/everything-http py-client/everything-sse
    ts-client/py-server-http ts-client/py-server-sse py-client/py-server-http py-client/py-server-sse)
http_on=${MCP_HTTP_CHECKS:-1}
scenarios=("$@")
if [ "${#scenarios[@]}" -eq 0 ]; then
    scenarios=("${STDIO[@]}")
    [ "$http_on" = 1 ] && scenarios+=("${HTTP[@]}")
elif [ "${scenarios[0]}" = --self-check ]; then
    scenarios=("${STDIO[@]}" "${STDIO_STAND_INS[@]}")
    [ "$http_on" = 1 ] && scenarios+=("${HTTP[@]}" "${HTTP_STAND_INS[@]}")
elif [ "${scenarios[0]}" = --stand-ins ]; then
    scenarios=("${STDIO_STAND_INS[@]}" "${HTTP_STAND_INS[@]}")
elif [ "${scenarios[0]}" = --http ]; then
    scenarios=("${HTTP[@]}")
fi
declare -A done_pairs=()
for sc in "${scenarios[@]}"; do
    need=""
    case "$sc" in
        */ours | */ours-http | */ours-sse) need=server ;;
        ours/*) need=client ;;
    esac
    if [ -n "$need" ] && ! grep -q "^name = \"$need\"" Cargo.toml; then
        # Until examples/server and examples/client land, their scenarios are skipped.
        printf '{"scenario":"%s","label":"build","check":"sdk:build","ok":null,"detail":"no example named %s in Cargo.toml yet: skipped"}\n' "$sc" "$need" >> "$results"
        continue
    fi
    if [ -n "$need" ] && ! build "$need"; then
        printf '{"scenario":"%s","label":"build","check":"sdk:build","ok":false,"detail":"cargo build --release --features %s --example %s failed"}\n' "$sc" "$features" "$need" >> "$results"
        continue
    fi
    case "$sc" in
        *-http | *-sse)
            if [ -n "$need" ] && ! has_http "$need"; then
                not_built "$sc" "$need"
                continue
            fi ;;
    esac
    case "$sc" in
        ts-client/ours | py-client/ours)
            [ -n "${done_pairs[ours]:-}" ] || official_clients ours ours "${server[@]}"
            done_pairs[ours]=1 ;;
        ts-client/everything | py-client/everything)
            [ -n "${done_pairs[everything]:-}" ] || official_clients everything everything "${everything[@]}"
            done_pairs[everything]=1 ;;
        ts-client/py-server | py-client/py-server)
            [ -n "${done_pairs[py-server]:-}" ] || official_clients py-server python "${pyserver[@]}"
            done_pairs[py-server]=1 ;;
        ours/everything) our_client ours/everything everything "${everything[@]}" ;;
        ts2-client/ours) ts2_client "$sc" "$bin/server" ;;
        ours/ts2-server) ours_modern "$sc" 'add answered: "5"' "${ts2_calls[@]}" -- node "$cache/ts2/ts2_server.mjs" ;;
        ours/py-server-modern) ours_modern "$sc" 'echo answered: "hi"' "${py_calls[@]}" -- "${pyserver[@]}" ;;
        ts2-client/ours-http | ours/ts2-server-http | ours/py-server-modern-http)
            case "$sc" in
                ts2-client/*) key=ours-http ;;
                ours/ts2-*) key=ts2-server-http ;;
                *) key=py-server-http ;;
            esac
            if ! server_url "$key"; then
                printf '{"scenario":"%s","label":"server","check":"sdk:server","ok":false,"detail":"the %s server did not start (%s)"}\n' "$sc" "$key" "$logs" >> "$results"
                continue
            fi
            case "$sc" in
                ts2-client/*) ts2_client "$sc" --http "$URL" ;;
                ours/ts2-*) ours_modern "$sc" 'add answered: "5"' "${ts2_calls[@]}" --http "$URL" ;;
                *) ours_modern "$sc" 'echo answered: "hi"' "${py_calls[@]}" --http "$URL" ;;
            esac ;;
        ours/py-server) our_client ours/py-server python "${pyserver[@]}" ;;
        */ours-http | */ours-sse | */everything-http | */everything-sse | */py-server-http | */py-server-sse)
            key=${sc#*/}
            profile=$key
            profile=${profile%-http}
            profile=${profile%-sse}
            [ "$profile" = py-server ] && profile=python
            transport=${key##*-}
            [ "$transport" = sse ] || transport=http
            if ! server_url "$key"; then
                printf '{"scenario":"%s","label":"server","check":"sdk:server","ok":false,"detail":"the %s server did not start (%s)"}\n' "$sc" "$key" "$logs" >> "$results"
                continue
            fi
            case "$sc" in
                ours/*) our_client_http "$sc" "$profile" "$transport" "$URL" ;;
                *)
                    if [ -z "${done_pairs[$key]:-}" ]; then
                        ts_mode=$transport
                        # Against an SSE-only official server the TS client runs the SDK
                        # README's fallback (that is what shows the fallback check sound).
                        [ "$transport" = sse ] && [ "$profile" != ours ] && ts_mode=auto
                        official_clients_http "$key" "$profile" "$transport" "$ts_mode" "$URL"
                    fi
                    done_pairs[$key]=1 ;;
            esac ;;
        *) echo "interop: unknown scenario $sc" >&2; exit 2 ;;
    esac
done

# Only the scenarios asked for (official_clients runs both SDKs at once).
"$py" - "$results" "${scenarios[@]}" <<'EOF'
import json, sys
path, wanted = sys.argv[1], set(sys.argv[2:])
rows = [json.loads(l) for l in open(path) if l.strip()]
with open(path, "w") as f:
    for r in rows:
        if r["scenario"] in wanted:
            f.write(json.dumps(r) + "\n")
EOF
echo "interop: logs in $logs"
"$py" "$here/table.py" "$results"
