#!/usr/bin/env python3
"""Where a firmware's bytes go: sections, .text by crate and by source file, the largest
functions.

    report.py ELF [--tools DIR] [--top N] [--json]

Uses llvm-size, llvm-nm and llvm-objdump from DIR (rustup's llvm-tools). Code is
attributed through the line table (`llvm-objdump -l`): each instruction to the source
file of its innermost inlined frame. LTO inlines most of the library into a few large
functions, so symbol sizes alone cannot say which crate a byte came from; the line
table can. Generic helpers of `core` (Option::map, slice indexing, ...) inlined into a
crate's code are counted for that crate ("core folded into its caller"), the way one
would budget them; the `core` row then holds what is really core's own (formatting,
memchr, UTF-8 validation). Instructions without a line (some glue) count as `(no line)`.
"""

import argparse
import collections
import json
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent.parent  # examples/cortex-m/size -> repository root
FIRMWARE = HERE.parent / "src"


def tool(tools, name):
    return str(Path(tools) / name) if tools else name


def sections(tools, elf):
    out = subprocess.run([tool(tools, "llvm-size"), "-A", elf], check=True, capture_output=True, text=True).stdout
    sizes = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0].startswith(".") and parts[1].isdigit():
            sizes[parts[0]] = int(parts[1])
    return sizes


def crate_of(path):
    """(crate, detail) for a source path."""
    p = path
    m = re.search(r"/library/([^/]+)/", p)
    if p.startswith("/rustc/") and m:
        name = m.group(1)
        if name == "compiler-builtins":
            return "compiler_builtins", Path(p).name
        return name, Path(p).name
    m = re.search(r"/registry/src/[^/]+/([^/]+?)-\d+\.\d+\.\d+[^/]*/(.*)", p)
    if m:
        return m.group(1), m.group(2)
    try:
        rel = Path(p).resolve().relative_to(FIRMWARE.resolve())
        return "mcp-firmware", str(rel)
    except ValueError:
        pass
    try:
        rel = Path(p).resolve().relative_to((REPO / "src").resolve())
        return "mcp-sansio", str(rel)
    except ValueError:
        pass
    return "other", p


def text_by_source(tools, elf):
    """bytes of .text per (crate, file), with core/alloc folded into their caller."""
    out = subprocess.run(
        [tool(tools, "llvm-objdump"), "-d", "-l", "--no-show-raw-insn", "--section=.text", elf],
        check=True, capture_output=True, text=True,
    ).stdout
    insn = re.compile(r"^\s+([0-9a-f]+):\s")
    symbol = re.compile(r"^([0-9a-f]+) <(.*)>:$")
    rows = []  # (address, raw (crate, file), folded (crate, file))
    current = ("(no line)", "")
    caller = ("(no line)", "")
    for line in out.splitlines():
        if line.startswith("; /") or line.startswith("; <"):
            loc = line[2:].rsplit(":", 1)[0]
            current = crate_of(loc)
            if current[0] not in ("core", "alloc"):
                caller = current
            continue
        if symbol.match(line):
            current = caller = ("(no line)", "")
            continue
        m = insn.match(line)
        if m:
            fold = current[0] in ("core", "alloc") and caller[0] != "(no line)"
            rows.append((int(m.group(1), 16), current, caller if fold else current))
    raw, folded = collections.Counter(), collections.Counter()
    end = None
    for (addr, r, f), nxt in zip(rows, rows[1:] + [None]):
        size = (nxt[0] if nxt else addr + 2) - addr
        if size > 64:  # a gap (literal pool or padding before the next function)
            size = 2
        raw[r] += size
        folded[f] += size
    return raw, folded


def symbols(tools, elf, kinds="tT"):
    out = subprocess.run(
        [tool(tools, "llvm-nm"), "-S", "--size-sort", "-C", "--radix=d", "-r", elf],
        check=True, capture_output=True, text=True,
    ).stdout
    result = []
    for line in out.splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4 and parts[2] in kinds:
            name = demangle_leftovers(re.sub(r"::h[0-9a-f]{16}$", "", parts[3]))
            result.append((int(parts[1]), name))
    return result


def demangle_leftovers(name):
    """What llvm-nm leaves mangled in legacy symbols (those with an LLVM suffix)."""
    for a, b in (("$LT$", "<"), ("$GT$", ">"), ("$u20$", " "), ("$C$", ","), ("$RF$", "&"), ("$u7b$", "{"),
                 ("$u7d$", "}"), ("..", "::")):
        name = name.replace(a, b)
    return re.sub(r"^_<", "<", name)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("elf")
    ap.add_argument("--tools", default="")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--json", action="store_true", help="one JSON object instead of tables")
    a = ap.parse_args()
    sec = sections(a.tools, a.elf)
    raw, folded = text_by_source(a.tools, a.elf)
    by_crate = collections.Counter()
    for (crate, _), n in folded.items():
        by_crate[crate] += n
    total = sum(by_crate.values())
    if a.json:
        print(json.dumps({
            "sections": sec,
            "by_crate": dict(by_crate.most_common()),
            "by_file": {f"{c}:{f}": n for (c, f), n in folded.most_common(a.top)},
            "symbols": [[n, s] for n, s in symbols(a.tools, a.elf)[: a.top]],
        }))
        return
    names = [".vector_table", ".text", ".rodata", ".data", ".bss", ".uninit"]
    print("sections: " + ", ".join(f"{s} {sec.get(s, 0)}" for s in names))
    print(f"flash {sum(sec.get(s, 0) for s in names[:4])} B, statics in RAM {sum(sec.get(s, 0) for s in names[3:])} B")
    print(f"\n.text by crate (line table; core's inlined helpers folded into their caller; {total} B attributed):")
    for crate, n in by_crate.most_common():
        print(f"  {n:7d}  {100 * n / total:5.1f}%  {crate}")
    print(f"\n.text by source file, top {a.top}:")
    for (crate, f), n in folded.most_common(a.top):
        print(f"  {n:7d}  {crate}: {f}")
    print(f"\nlargest functions (with what LTO inlined into them), top {a.top}:")
    for n, s in symbols(a.tools, a.elf)[: a.top]:
        print(f"  {n:7d}  {s[:150]}")


if __name__ == "__main__":
    sys.exit(main())
