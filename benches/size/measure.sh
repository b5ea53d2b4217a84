#!/usr/bin/env bash
# Code size of the core on a Cortex-M4F (wire layer, framers, HTTP headers, session).
#
# Builds the no_std, no_main probes in src/bin for thumbv7em-none-eabihf with
# opt-level "z", LTO, panic = "abort", codegen-units = 1, linked by rust-lld with
# --gc-sections from a single `_start` root, and prints their section sizes.
# Installs the target and the llvm-tools component it needs.
#
#   benches/size/measure.sh             the table
#   benches/size/measure.sh --symbols   also the largest symbols of the `full` probe
set -euo pipefail
cd "$(dirname "$0")"

TARGET=thumbv7em-none-eabihf
TARGET_DIR=../../target/size-probe
PROBES=(empty classify decode decode_f64 encode framer full session session_full tools_bare toolkit sse_decode sse_encode http_headers http_server http_client)

rustup --quiet target add "$TARGET"
rustup --quiet component add llvm-tools

host=$(rustc -vV | sed -n 's/^host: //p')
tools="$(rustc --print sysroot)/lib/rustlib/$host/bin"
SIZE="$tools/llvm-size"
NM="$tools/llvm-nm"
if [[ ! -x $SIZE || ! -x $NM ]]; then
    SIZE=$(command -v llvm-size) && NM=$(command -v llvm-nm) || {
        echo "llvm-size/llvm-nm not found (rustup component add llvm-tools failed?)" >&2
        exit 1
    }
fi

# RUSTFLAGS from the environment would replace the link arguments in .cargo/config.toml.
unset CARGO_ENCODED_RUSTFLAGS
export RUSTFLAGS="-C link-arg=--entry=_start -C link-arg=--gc-sections"
cargo build --quiet --release --target "$TARGET" --target-dir "$TARGET_DIR" --bins

section() { # file section -> size in bytes (0 if absent)
    "$SIZE" -A "$1" | awk -v s="$2" '$1 == s { n = $2 } END { print n + 0 }'
}
builtins() { # file -> bytes of .text that are compiler-builtins (mem*, integer division)
    "$NM" -S --size-sort --demangle --radix=d "$1" |
        awk '$3 ~ /^[tT]$/ && ($4 ~ /compiler_builtins::/ || $4 ~ /^__aeabi_/ || $4 ~ /^__(u)?(div|mod)/ ||
             $4 ~ /^(memcpy|memmove|memset|memcmp|bcmp)$/) { n += $2 } END { print n + 0 }'
}

out="$TARGET_DIR/$TARGET/release"
echo "wire layer code size, $TARGET, opt-level=z, lto, panic=abort, codegen-units=1, --gc-sections"
echo "(rustc $(rustc -V | cut -d' ' -f2); bytes; 'builtins' = compiler-builtins mem*/division routines"
echo " inside .text, which any firmware links anyway; 'own' = .text - builtins - empty probe)"
printf '\n%-11s %7s %7s %6s %6s %9s %7s  %s\n' probe .text .rodata .data .bss builtins own what
base_text=$(section "$out/empty" .text)
for p in "${PROBES[@]}"; do
    f="$out/$p"
    text=$(section "$f" .text)
    b=$(builtins "$f")
    own=$((text - b - base_text))
    what=$(sed -n '1s|^//! *||p' "src/bin/$p.rs")
    printf '%-11s %7d %7d %6d %6d %9d %7d  %s\n' "$p" "$text" "$(section "$f" .rodata)" \
        "$(section "$f" .data)" "$(section "$f" .bss)" "$b" "$own" "$what"
done

if [[ ${1:-} == --symbols ]]; then
    echo
    echo "largest symbols of the full probe:"
    "$NM" -S --size-sort --demangle --radix=d -r "$out/full" |
        awk '{ printf "%6d %s %s\n", $2, $3, substr($0, index($0, $4)) }' | head -25 |
        sed -E 's/::h[0-9a-f]{16}//; s/\$LT\$/</g; s/\$GT\$/>/g; s/\$RF\$/\&/g; s/\$u20\$/ /g; s/\.\./::/g; s/^( *[0-9]+ [tTrR] )_</\1</'
fi
