#!/usr/bin/env bash
# The stdio round-trip benchmark (benches/stdio_roundtrip.rs), side by side in one run:
#
#   ours    examples/server (release, --features stdio)
#   min     examples/stdio_min: the stdio adapter and the session with one canned tool
#           result (what the adapter costs without the example's application)
#   bare    examples/stdio_toolkit --bare: an echo that decodes its arguments by hand on
#           the bare endpoint (what an application writes without the toolkit)
#   toolkit examples/stdio_toolkit: the same echo on the toolkit (a typed tool from a
#           static table, Server::serve_stdio): bare/toolkit is what the toolkit costs
#   floor   examples/stdio_floor: a bare std loop over serde_json with canned replies
#   rmcp    a minimal server on the official Rust SDK (rmcp 3.11.0, one echo tool, tokio,
#           serve(stdio_pipes()), its faster stdio transport; benches/rmcp-server, built
#           into target/rmcp-server; add `--stdio` to its command for serve(stdio()))
#   ts      a minimal server on the official TypeScript SDK (McpServer, one echo tool;
#           tests/interop/ts_echo_server.mjs), @modelcontextprotocol/sdk 1.32.2
#   ts2     tests/interop/ts2_server.mjs on the TypeScript SDK 2.x (@modelcontextprotocol/server
#           2.4.0, McpServer through serveStdio; dual-era, tests/interop/ts2)
#   py      tests/interop/py_server.py on the official Python SDK (mcp 2.3.0, low-level Server;
#           dual-era)
#
# Every server is also measured in the stateless 2026-07-28 era (issue 10, "Targets"): a
# second process, never initialized, gets tools/call requests with the required
# params._meta (protocolVersion 2026-07-28, clientCapabilities {}), runs alternating with
# the legacy ones, and the table ends with modern/legacy ratios per server and the error
# count of every tools/call phase. A server that does not answer a modern request with a
# 2026-07-28 result (ts, rmcp, floor, ...) shows "n/a" in the modern rows, with the reason.
#
#   ours@REV, min@REV  the same built from another revision (in a temporary worktree, into
#           target/stdio-roundtrip-REV): before/after figures side by side in one run
#
#   benches/stdio_roundtrip.sh [--seconds S] [NAME...]    (default: all, 2 s per phase)
#
# The SDKs are installed by tests/interop/run.sh --install-only into .ci/cache/interop
# (MCP_INTEROP_CACHE overrides it; run.sh copies ts2_server.mjs next to its node_modules).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=2
if [ "${1:-}" = --seconds ]; then
    seconds=$2
    shift 2
fi
names=("$@")
[ "${#names[@]}" -gt 0 ] || names=(ours min bare toolkit floor rmcp ts ts2 py)
cache=${MCP_INTEROP_CACHE:-$PWD/.ci/cache/interop}
tests/interop/run.sh --install-only
cp tests/interop/ts_echo_server.mjs "$cache/node/"
servers=()
root_target=$PWD/target
for n in "${names[@]}"; do
    case "$n" in
        ours)
            cargo build --quiet --release --features stdio --example server
            servers+=("ours=$PWD/target/release/examples/server") ;;
        min)
            cargo build --quiet --release --features stdio --example stdio_min
            servers+=("min=$PWD/target/release/examples/stdio_min") ;;
        bare)
            cargo build --quiet --release --features stdio --example stdio_toolkit
            servers+=("bare=$PWD/target/release/examples/stdio_toolkit --bare") ;;
        toolkit)
            cargo build --quiet --release --features stdio --example stdio_toolkit
            servers+=("toolkit=$PWD/target/release/examples/stdio_toolkit") ;;
        floor)
            cargo build --quiet --release --example stdio_floor
            servers+=("floor=$PWD/target/release/examples/stdio_floor") ;;
        rmcp)
            (cd benches/rmcp-server && cargo build --quiet --release --locked --target-dir ../../target/rmcp-server)
            servers+=("rmcp=$PWD/target/rmcp-server/release/rmcp-echo-server") ;;
        ours@* | min@*)
            rev=${n#*@}
            example=server
            [ "${n%@*}" = min ] && example=stdio_min
            wt=$(mktemp -d)
            git worktree add --detach "$wt" "$rev" >/dev/null 2>&1
            (cd "$wt" && cargo build --quiet --release --features stdio --example "$example" \
                --target-dir "$root_target/stdio-roundtrip-$rev")
            servers+=("$n=$root_target/stdio-roundtrip-$rev/release/examples/$example")
            git worktree remove --force "$wt" ;;
        ts) servers+=("ts=node $cache/node/ts_echo_server.mjs") ;;
        ts2) servers+=("ts2=node $cache/ts2/ts2_server.mjs") ;;
        py) servers+=("py=$cache/venv/bin/python $PWD/tests/interop/py_server.py") ;;
        *) echo "stdio_roundtrip: unknown server $n" >&2; exit 2 ;;
    esac
done
cargo bench --quiet --bench stdio_roundtrip -- --seconds "$seconds" "${servers[@]}"
