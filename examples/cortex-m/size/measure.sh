#!/usr/bin/env bash
# Flash and RAM of the firmware, per build: the complete example and the tools-only
# server, at opt-level "z" and "s", what each optional feature adds, and what the general
# vocabulary types cost against the small forms the firmware uses (the typed-* features).
#
#   examples/cortex-m/size/measure.sh            the table
#   examples/cortex-m/size/measure.sh --detail   also where the bytes go (size/report.py)
#                                                for the complete and the tools-only builds
#
# Every build: thumbv7em-none-eabihf, LTO, codegen-units 1, panic = "abort" (the crate's
# release profile), linked with --icf=all (.cargo/config.toml). RAM = statics (.data + .bss + .uninit) + the stack's high-water mark
# over a session (size/ram.py drives one under QEMU and asks the `stats` tool; builds
# without `stats` show statics only). Needs qemu-system-arm, python3 and rustup's
# llvm-tools. Takes about ten minutes on two cores; not part of CI.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
fw=$(dirname "$here")
root=$(cd "$fw/../.." && pwd)
TARGET=thumbv7em-none-eabihf
host=$(rustc -vV | sed -n 's/^host: //p')
tools="$(rustc --print sysroot)/lib/rustlib/$host/bin"
[ -x "$tools/llvm-size" ] || rustup component add llvm-tools
out=$root/target/cortex-m-size
mkdir -p "$out"
cd "$fw"

# name | opt-level | cargo feature arguments
VARIANTS=(
    "complete|z|"
    "complete|s|"
    "complete, typed|z|--features typed"
    "tools-only|z|--no-default-features --features stats"
    "tools-only|s|--no-default-features --features stats"
    "tools-only, typed|z|--no-default-features --features typed,stats"
    "tools-only, no stats|z|--no-default-features"
    "tools-only, typed, no stats|z|--no-default-features --features typed"
    "  typed-params only|z|--no-default-features --features typed-params"
    "  typed-lists only|z|--no-default-features --features typed-lists"
    "  typed-results only|z|--no-default-features --features typed-results"
    "  + blink|z|--no-default-features --features blink"
    "  + resources|z|--no-default-features --features resources"
    "  + prompts|z|--no-default-features --features prompts"
    "  + logging|z|--no-default-features --features logging"
    "  + defmt|z|--no-default-features --features defmt"
)

section() { "$tools/llvm-size" -A "$1" | awk -v s="$2" '$1 == s { n = $2 } END { print n + 0 }'; }

printf '%-28s %3s %7s %7s %6s %6s %7s %6s %6s %6s %6s %8s\n' build opt .text .rodata .data .bss statics stack boot serve RAM endpoint
i=0
for v in "${VARIANTS[@]}"; do
    IFS='|' read -r name opt features <<<"$v"
    i=$((i + 1))
    # shellcheck disable=SC2086
    cargo build --quiet --release $features --config "profile.release.opt-level=\"$opt\"" --target-dir "$out/$opt"
    elf=$out/variant-$i.elf
    cp "$out/$opt/$TARGET/release/mcp-firmware" "$elf"
    text=$(section "$elf" .text)
    ro=$(section "$elf" .rodata)
    data=$(section "$elf" .data)
    bss=$(section "$elf" .bss)
    statics=$((data + bss + $(section "$elf" .uninit)))
    stack=- boot=- serve=- ram=- ep=-
    if [[ $features != *--no-default-features* || $features == *stats* ]]; then
        stats=$(python3 "$here/ram.py" "$elf" 2>/dev/null || echo '{}')
        get() { python3 -c 'import json,sys; print(json.loads(sys.argv[1]).get(sys.argv[2], "-"))' "$stats" "$1"; }
        stack=$(get stack_high_water) boot=$(get boot_high_water) serve=$(get serving_high_water) ep=$(get endpoint)
        [ "$stack" = - ] || ram=$((statics + stack))
    fi
    printf '%-28s %3s %7d %7d %6d %6d %7d %6s %6s %6s %6s %8s\n' "$name" "$opt" "$text" "$ro" "$data" "$bss" "$statics" \
        "$stack" "$boot" "$serve" "$ram" "$ep"
    [ "$name" = "complete" ] && [ "$opt" = z ] && cp "$elf" "$out/complete-z.elf"
    [ "$name" = "tools-only, no stats" ] && cp "$elf" "$out/tools-only-z.elf"
done
echo "(bytes; stack = the high-water mark, the larger of boot (building the endpoint and moving it into"
echo " its static) and serve (size/ram.py's session, measured after repainting); RAM = statics + stack;"
echo " endpoint = size_of::<Endpoint<0, IN>>: IN = 2 with blink, 1 without)"

if [ "${1:-}" = --detail ]; then
    for f in complete-z tools-only-z; do
        echo
        echo "== $f"
        python3 "$here/report.py" "$out/$f.elf" --tools "$tools" --top 25
    done
fi
