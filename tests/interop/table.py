#!/usr/bin/env python3
"""Prints the interop results (JSON rows from the check scripts) as one table per
scenario, with the failures spelled out below. Exit status 1 if any check failed.

    table.py RESULTS.jsonl
"""

import json
import sys

WIRE = ["handshake", "ping", "lists", "progress", "cancel", "unknown", "answered", "server-req", "exit"]
# http_check.py's columns, shown for the scenarios that have them.
HTTP = ["session", "version-header", "status", "delete", "resume", "sse-headers", "legacy", "fallback"]


def main():
    rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8") if line.strip()]
    scenarios = []
    for r in rows:
        if r["scenario"] not in scenarios:
            scenarios.append(r["scenario"])
    failed = []
    for sc in scenarios:
        srows = [r for r in rows if r["scenario"] == sc]
        labels = []
        for r in srows:
            if r["label"] not in labels:
                labels.append(r["label"])
        sdk_checks = [c for c in dict.fromkeys(r["check"] for r in srows) if c.startswith("sdk:")]
        present = {r["check"] for r in srows}
        cols = [("sdk", sdk_checks)] + [(w, [w]) for w in WIRE if w != "exit" or "exit" in present]
        cols += [(h, [h]) for h in HTTP if h in present]
        print(f"\n{sc}")
        short = {"version-header": "version-hdr", "sse-headers": "sse-hdrs"}
        header = f"  {'session':<24}" + "".join(f"{short.get(name, name):>12}" for name, _ in cols)
        print(header)
        print("  " + "-" * (len(header) - 2))
        for label in labels:
            cells = []
            for name, checks in cols:
                got = [r for r in srows if r["label"] == label and r["check"] in checks]
                known = [r for r in srows if r["label"] == label and r["check"] in {f"known:{c}" for c in checks}]
                if not got:
                    cells.append("known" if known else "")
                elif any(r["ok"] is False for r in got):
                    cells.append("FAIL")
                elif all(r["ok"] is None for r in got):
                    cells.append("-")
                else:
                    n = sum(1 for r in got if r["ok"])
                    ran = sum(1 for r in got if r["ok"] is not None)
                    cells.append(f"{n}/{ran} ok" if name == "sdk" else "ok")
            print(f"  {label:<24}" + "".join(f"{c:>12}" for c in cells))
            infos = [r for r in srows if r["label"] == label
                     and (r["check"].startswith(("info:", "known:")) or (r["check"] == "sdk:build" and r["ok"] is None))]
            for r in infos:
                print(f"  {'':<24} {r['check']}: {r['detail']}")
        failed += [r for r in srows if r["ok"] is False]
    passed = sum(1 for r in rows if r["ok"] is True)
    skipped = sum(1 for r in rows if r["ok"] is None)
    if failed:
        print("\nFailures:")
        for r in failed:
            print(f"  [{r['scenario']}] {r['label']} {r['check']}: {r['detail']}")
    print(f"\ninterop: {passed} passed, {len(failed)} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
