#!/usr/bin/env bash
# The firmware's CI: build it, boot it under QEMU, and check it against a scripted
# session on the serial port and the official Python and TypeScript clients; decode the
# defmt logs of those runs and check they hold the expected events.
#
#   examples/cortex-m/ci/run.sh
#
# Installs what it needs: qemu-system-arm (apt), the thumbv7em target and llvm-tools
# (rustup), defmt-print (pinned, into .ci/cache/defmt-print), and the official clients
# (tests/interop/run.sh --install-only: the same pinned versions, in .ci/cache/interop).
# Work files (wire logs, defmt logs and their decoded text, figures) go to
# target/cortex-m/ci. Exit status 1 if any check failed.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fw=$(dirname "$here")
root=$(cd "$fw/../.." && pwd)
cache=$root/.ci/cache
work=$root/target/cortex-m/ci
DEFMT_PRINT_VERSION=1.2.0
TARGET=thumbv7em-none-eabihf

# ---- tools ----
if ! command -v qemu-system-arm >/dev/null; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get install -y qemu-system-arm >/dev/null || { $sudo apt-get update >/dev/null && $sudo apt-get install -y qemu-system-arm >/dev/null; }
fi
grep -qx "$TARGET" <<<"$(rustup target list --installed)" || rustup target add "$TARGET"
grep -q '^llvm-tools' <<<"$(rustup component list --installed)" || rustup component add llvm-tools
defmt_print=$cache/defmt-print/bin/defmt-print
if [ "$("$defmt_print" --version 2>/dev/null | head -1 || true)" != "defmt-print $DEFMT_PRINT_VERSION" ]; then
    cargo install defmt-print --locked --version "$DEFMT_PRINT_VERSION" --root "$cache/defmt-print"
fi
MCP_INTEROP_CACHE=$cache/interop "$root/tests/interop/run.sh" --install-only
py=$cache/interop/venv/bin/python
cp "$here/ts_client.mjs" "$cache/interop/node/firmware_ts_client.mjs"
qemu-system-arm --version | head -1

# ---- build ----
# (From the crate's folder: its .cargo/config.toml selects the target and linker script.)
cd "$fw"
cargo clippy --quiet --release -- -D warnings
cargo clippy --quiet --release --no-default-features --features typed -- -D warnings
cargo build --quiet --release
elf=$root/target/cortex-m/$TARGET/release/mcp-firmware
cd "$root"

# ---- sessions ----
rm -rf "$work"
mkdir -p "$work"
results=$work/results.jsonl
run() { # a check script; its rows go to the results, a crash is a failed row
    local label=$1
    shift
    local rc=0
    "$@" >>"$results" 2> >(grep -v 'terminating on signal 15' | sed "s|^|  [$label] |" >&2) || rc=$?
    if [ "$rc" -ne 0 ] && ! grep -q "\"label\": *\"$label\"" "$results"; then
        printf '{"label":"%s","check":"ran","ok":false,"detail":"exited with %s"}\n' "$label" "$rc" >>"$results"
    fi
}
echo "firmware: scripted session on the serial port"
run serial "$py" "$here/session.py" "$elf" "$work/serial.defmt" --figures "$work/serial-figures.json"
run serial "$py" "$here/check_log.py" "$defmt_print" "$elf" "$work/serial.defmt" serial \
    'negotiated V2025_06_18 with Some\(ci-serial\)' 'session ready' 'blink: finished 3' 'client cancelled request' \
    'blink: cancelled after [0-9]+ of 50' 'misbehavior: invalid message' 'misbehavior: line of [0-9]+ bytes skipped' \
    'unknown method device/self-destruct' 'stats: stack high-water [0-9]+ B'
echo "firmware: the official Python client"
run py "$py" -W "ignore::DeprecationWarning" "$here/py_client.py" "$elf" "$work"
run py "$py" "$here/wire.py" "$work/py-wire.jsonl" py
run py "$py" "$here/check_log.py" "$defmt_print" "$elf" "$work/py.defmt" py \
    'negotiated V2025_11_25 with Some\(ci-py-client\)' 'client cancelled request' 'blink: cancelled after' \
    'misbehavior: invalid message' 'blink: finished 4' 'unknown method device/self-destruct'
echo "firmware: the official TypeScript client"
run ts env CI_DIR="$here" node "$cache/interop/node/firmware_ts_client.mjs" "$elf" "$work"
run ts "$py" "$here/wire.py" "$work/ts-wire.jsonl" ts
run ts "$py" "$here/check_log.py" "$defmt_print" "$elf" "$work/ts.defmt" ts \
    'negotiated V2025_11_25 with Some\(ci-ts-client\)' 'client cancelled request' 'blink: cancelled after' \
    'misbehavior: invalid message' 'blink: finished 4' 'unknown method device/self-destruct'

# ---- report ----
host=$(rustc -vV | sed -n 's/^host: //p')
"$py" "$fw/size/report.py" "$elf" --tools "$(rustc --print sysroot)/lib/rustlib/$host/bin" --top 8 | sed -n '1,2p'
"$py" - "$results" "$work" <<'PY'
import json, sys
from pathlib import Path
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
work = Path(sys.argv[2])
for r in rows:
    mark = "ok  " if r["ok"] else "FAIL"
    print(f"  {mark} {r['label']:<6} {r['check']}" + ("" if r["ok"] else f"\n         {r['detail']}"))
for name in ("serial", "py", "ts"):
    f = work / f"{name}-figures.json"
    if f.exists():
        fig = json.loads(f.read_text())
        print(f"  {name}: " + ", ".join(f"{k} {v}" for k, v in fig.items() if k != "stats")
              + (f"; stack high-water {fig['stats']['stack_high_water']} B, statics {fig['stats']['statics']} B" if "stats" in fig else ""))
bad = [r for r in rows if not r["ok"]]
print(f"firmware: {len(rows) - len(bad)} of {len(rows)} checks passed (logs in {work})")
sys.exit(1 if bad else 0)
PY
