#!/usr/bin/env python3
"""Decodes a defmt log with defmt-print and checks it holds the expected events.

    check_log.py DEFMT_PRINT ELF LOG LABEL REGEX...

Prints one JSON row per expected event ({"label", "check": "log: REGEX", "ok", "detail"})
and one for the decoding itself; the decoded text is written beside LOG (LOG.txt).
Exits 1 if something is missing. Stdlib only.
"""

import re
import subprocess
import sys

import qemu


def main():
    defmt_print, elf, log, label, *expected = sys.argv[1:]
    with open(log, "rb") as f:
        proc = subprocess.run([defmt_print, "-e", elf, "--show-skipped-frames"], stdin=f, capture_output=True)
    text = proc.stdout.decode("utf-8", "replace")
    with open(log + ".txt", "w") as out:
        out.write(text)
    lines = text.splitlines()
    skipped = [l for l in lines if "skipped" in l.lower() and "misbehavior" not in l]
    ok = proc.returncode == 0 and len(lines) > 0 and not skipped
    qemu.row(label, "log: decodes", ok, f"{len(lines)} lines, exit {proc.returncode}"
             + (f", {skipped[:2]}" if skipped else "") + (f", {proc.stderr.decode()[:200]}" if proc.stderr else ""))
    failed = not ok
    for pattern in expected:
        hit = next((l for l in lines if re.search(pattern, l)), None)
        qemu.row(label, f"log: {pattern}", hit is not None, hit or "not found")
        failed |= hit is None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
