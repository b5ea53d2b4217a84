#!/usr/bin/env bash
# Code size the MCP vocabulary adds on a Cortex-M4F, without alloc.
#
# Same method as benches/size (the wire-layer probes): no_std, no_main probes for
# thumbv7em-none-eabihf, opt-level "z", LTO, panic = "abort", codegen-units = 1, linked by
# rust-lld with --gc-sections from a single `_start` root.
#
#   wire_server   a tools-and-resources server with hand-written structs (wire layer only)
#   vocab_server  the same server with the vocabulary's types
#   dispatch_all  decode_request/decode_notification (every params type)
#   results_all   decode_result (every result type)
#
#   benches/vocab-size/measure.sh [--symbols]
set -euo pipefail
cd "$(dirname "$0")"

TARGET=thumbv7em-none-eabihf
TARGET_DIR=../../target/vocab-size-probe
PROBES=(empty wire_server vocab_server dispatch_all results_all)

rustup --quiet target add "$TARGET"
host=$(rustc -vV | sed -n 's/^host: //p')
tools="$(rustc --print sysroot)/lib/rustlib/$host/bin"
SIZE="$tools/llvm-size"
NM="$tools/llvm-nm"
if [[ ! -x $SIZE || ! -x $NM ]]; then
    rustup --quiet component add llvm-tools || true
    [[ -x $SIZE && -x $NM ]] || { SIZE=$(command -v llvm-size) && NM=$(command -v llvm-nm); } || {
        echo "llvm-size/llvm-nm not found" >&2
        exit 1
    }
fi

unset CARGO_ENCODED_RUSTFLAGS
export RUSTFLAGS="-C link-arg=--entry=_start -C link-arg=--gc-sections"
cargo build --quiet --release --target "$TARGET" --target-dir "$TARGET_DIR" --bins

section() { "$SIZE" -A "$1" | awk -v s="$2" '$1 == s { n = $2 } END { print n + 0 }'; }

out="$TARGET_DIR/$TARGET/release"
echo "vocabulary code size, $TARGET, opt-level=z, lto, panic=abort, codegen-units=1, --gc-sections"
echo "(rustc $(rustc -V | cut -d' ' -f2); bytes; 'flash' = .text + .rodata; 'vs wire' = flash - wire_server's)"
printf '\n%-13s %7s %7s %7s %8s  %s\n' probe .text .rodata flash "vs wire" what
wire=$(( $(section "$out/wire_server" .text) + $(section "$out/wire_server" .rodata) ))
for p in "${PROBES[@]}"; do
    f="$out/$p"
    text=$(section "$f" .text)
    ro=$(section "$f" .rodata)
    what=$(sed -n '1s|^//! *||p' "src/bin/$p.rs")
    printf '%-13s %7d %7d %7d %+8d  %s\n' "$p" "$text" "$ro" $((text + ro)) $((text + ro - wire)) "$what"
done

if [[ ${1:-} == --symbols ]]; then
    for p in vocab_server wire_server; do
        echo
        echo "largest symbols of $p:"
        "$NM" -S --size-sort --demangle --radix=d -r "$out/$p" |
            awk '{ printf "%6d %s %s\n", $2, $3, substr($0, index($0, $4)) }' | head -20 |
            sed -E 's/::h[0-9a-f]{16}//'
    done
fi
