#!/usr/bin/env python3
"""Lines of code, counted the way tokei counts them: lines that hold something other
than whitespace and comments. Comments are `//` and `/* */` (Rust, JavaScript) and doc
comments (`///`, `//!`); a line with code and a trailing comment counts. String
literals are not looked inside (none of the counted files has comment markers in one).

    python loc.py FILE...
"""

import sys


def count(path):
    n = 0
    in_block = False
    for raw in open(path, encoding="utf-8"):
        line = raw.strip()
        code = False
        while line:
            if in_block:
                end = line.find("*/")
                if end < 0:
                    line = ""
                    break
                line = line[end + 2:].strip()
                in_block = False
                continue
            if line.startswith("//"):
                break
            if line.startswith("/*"):
                in_block = True
                line = line[2:]
                continue
            code = True
            break
        n += code
    return n


if __name__ == "__main__":
    for path in sys.argv[1:]:
        print(f"{count(path):5} {path}")
