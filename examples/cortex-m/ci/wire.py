#!/usr/bin/env python3
"""Checks on what crossed the serial line in an official client's session, from the
log relay.py wrote.

    wire.py LOG LABEL

Prints one JSON row per check; exits 1 if one failed. The checks:

  cancelled   every request the client cancelled got no response at all (at least one
              cancellation seen, of a `blink` call)
  answered    every other request got exactly one response
  progress    per progress token: values strictly increasing, none after the response;
              the finished `blink` reported every step
  malformed   the line relay.py slipped in got -32700, and a later request was answered
  pages       resources/list walked through 3 pages, each cursor the last nextCursor
  unknown     the unknown method got -32601
"""

import json
import sys

import qemu


def main():
    path, label = sys.argv[1:3]
    entries = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    msgs = []
    for i, e in enumerate(entries):
        if "line" not in e:
            continue
        try:
            m = json.loads(e["line"])
        except ValueError:
            m = None
        msgs.append((i, e["dir"], m))
    key = json.dumps
    requests = [(i, m) for i, d, m in msgs if d == "c2s" and isinstance(m, dict) and "method" in m and "id" in m]
    responses = {}
    for i, d, m in msgs:
        if d == "s2c" and isinstance(m, dict) and "id" in m and "method" not in m:
            responses.setdefault(key(m["id"]), []).append((i, m))
    cancelled = {key(m["params"]["requestId"]) for i, d, m in msgs
                 if d == "c2s" and isinstance(m, dict) and m.get("method") == "notifications/cancelled"}
    failed = False

    def row(check, ok, detail):
        nonlocal failed
        failed |= not ok
        qemu.row(label, f"wire: {check}", bool(ok), detail)

    by_id = {key(m["id"]): m for _, m in requests}
    blinks = [c for c in cancelled if by_id.get(c, {}).get("params", {}).get("name") == "blink"]
    answered_cancelled = [c for c in cancelled if c in responses]
    row("cancelled", blinks and not answered_cancelled,
        f"cancelled {sorted(cancelled)}; answered anyway: {answered_cancelled}")

    bad = [(m["method"], m["id"], len(responses.get(key(m["id"]), []))) for _, m in requests
           if key(m["id"]) not in cancelled and len(responses.get(key(m["id"]), [])) != 1]
    row("answered", not bad, f"{len(requests) - len(cancelled)} requests answered once" if not bad else bad)

    tokens = {}
    for i, d, m in msgs:
        if d == "s2c" and isinstance(m, dict) and m.get("method") == "notifications/progress":
            tokens.setdefault(key(m["params"]["progressToken"]), []).append((i, m["params"]["progress"]))
    problems, finished = [], []
    for i, m in requests:
        token = ((m.get("params") or {}).get("_meta") or {}).get("progressToken")
        if token is None:
            continue
        got = tokens.get(key(token), [])
        values = [v for _, v in got]
        resp = responses.get(key(m["id"]))
        if any(b <= a for a, b in zip(values, values[1:])):
            problems.append(f"{token}: not increasing {values}")
        if resp and any(j > resp[0][0] for j, _ in got):
            problems.append(f"{token}: progress after the response")
        if resp and m["method"] == "tools/call" and m["params"].get("name") == "blink":
            times = m["params"].get("arguments", {}).get("times")
            if values != list(range(1, times + 1)):
                problems.append(f"{token}: {values} for {times} blinks")
            finished.append(f"{token}: {values}")
    row("progress", finished and not problems, "; ".join(finished + problems))

    inject = next((i for i, e in enumerate(entries) if e.get("dir") == "inject"), None)
    held = [e for e in entries if e.get("dir") == "s2c-held"]
    later = [m for i, m in requests if inject is not None and i > inject and key(m["id"]) in responses]
    row("malformed", inject is not None and held and json.loads(held[0]["line"])["error"]["code"] == -32700 and later,
        f"held {held[0]['line'] if held else None}; {len(later)} later requests answered")

    pages = [(m, responses.get(key(m["id"]), [(0, {})])[0][1].get("result", {})) for _, m in requests
             if m["method"] == "resources/list"]
    expect, ok = None, len(pages) == 3
    for m, res in pages:
        ok &= (m.get("params") or {}).get("cursor") == expect
        expect = res.get("nextCursor")
    row("pages", ok and expect is None, f"{len(pages)} pages, {sum(len(r.get('resources', [])) for _, r in pages)} resources")

    unknown = [responses.get(key(m["id"]), [(0, {})])[0][1] for _, m in requests if m["method"] == "device/self-destruct"]
    row("unknown", unknown and all(u.get("error", {}).get("code") == -32601 for u in unknown), unknown)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
