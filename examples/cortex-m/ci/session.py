#!/usr/bin/env python3
"""A scripted session on the firmware's serial port, with exact expectations.

    session.py ELF DEFMT_LOG [--figures FILE]

Boots the firmware under QEMU (semihosting on, defmt frames to DEFMT_LOG), speaks
newline-delimited JSON-RPC to UART0 directly, and prints one JSON row per check
({"label", "check", "ok", "detail"}). Then two quick boots check that the firmware also
serves without semihosting (the plain command of README.md) and with semihosting on but
no log named. With --figures, writes what it measured (ping round trips, RAM use from the
`stats` tool) as JSON. Exits 1 if a check failed. Stdlib only.
"""

import json
import re
import statistics
import sys
import time

import qemu

LABEL = "serial"
failed = False


def check(name, ok, detail=""):
    global failed
    failed |= not ok
    qemu.row(LABEL, name, bool(ok), detail)


def text_of(resp):
    try:
        return resp["result"]["content"][0]["text"]
    except (KeyError, IndexError, TypeError):
        return None


def error_code(resp):
    return (resp or {}).get("error", {}).get("code")


def main():
    elf, log = sys.argv[1], sys.argv[2]
    figures_path = sys.argv[sys.argv.index("--figures") + 1] if "--figures" in sys.argv else None
    figures = {}
    s = qemu.Serial(qemu.command(elf, defmt_log=log))
    n = iter(range(1, 10_000))
    try:
        t0 = time.monotonic()
        r, _ = s.request(next(n), "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                                 "clientInfo": {"name": "ci-serial", "version": "1"}}, timeout=10)
        figures["boot_to_initialize_ms"] = round((time.monotonic() - t0) * 1000, 1)
        res = (r or {}).get("result", {})
        caps = set(res.get("capabilities", {}))
        check("initialize", res.get("protocolVersion") == "2025-06-18"
              and res.get("serverInfo", {}).get("name") == "mcp-sansio-cortex-m"
              and caps == {"tools", "resources", "prompts", "logging"}, json.dumps(res)[:200])
        s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

        r, _ = s.request(next(n), "ping")
        check("ping", r is not None and r.get("result") == {} and set(r) == {"jsonrpc", "id", "result"}, r)

        r, _ = s.request(next(n), "tools/list")
        names = [t["name"] for t in (r or {}).get("result", {}).get("tools", [])]
        check("tools/list", names == ["add", "read_sensor", "blink", "stats"], names)

        r, _ = s.request(next(n), "tools/call", {"name": "add", "arguments": {"a": 2, "b": 40}})
        check("add", text_of(r) == "42" and not r["result"].get("isError"), r)
        r, _ = s.request(next(n), "tools/call", {"name": "add", "arguments": {"a": 9223372036854775807, "b": 1}})
        check("add overflow is a tool error", (r or {}).get("result", {}).get("isError") is True, r)
        r, _ = s.request(next(n), "tools/call", {"name": "add", "arguments": {"a": 1}})
        check("add without b is a tool error", (r or {}).get("result", {}).get("isError") is True, r)
        r, _ = s.request(next(n), "tools/call", {"name": "read_sensor", "arguments": {"sensor": "temperature"}})
        check("read_sensor", re.fullmatch(r"temperature: \d+\.\d C", text_of(r) or "") is not None, text_of(r))
        r, _ = s.request(next(n), "tools/call", {"name": "read_sensor", "arguments": {"sensor": "pressure"}})
        check("read_sensor of an unknown sensor is a tool error", (r or {}).get("result", {}).get("isError") is True, r)
        r, _ = s.request(next(n), "tools/call", {"name": "no_such_tool", "arguments": {}})
        check("unknown tool is -32602", error_code(r) == -32602, r)

        # Every resource page, following nextCursor.
        uris, pages, cursor = [], 0, None
        while True:
            params = {"cursor": cursor} if cursor else {}
            r, _ = s.request(next(n), "resources/list", params)
            res = (r or {}).get("result")
            if res is None:
                break
            pages += 1
            uris += [x["uri"] for x in res["resources"]]
            cursor = res.get("nextCursor")
            if cursor is None or pages > 10:
                break
        want = ["sensor://temperature", "sensor://humidity", "device://led", "device://uptime", "device://info"]
        check("resources/list: every page", uris == want and pages == 3, f"{uris} in {pages} pages")
        forged = "00000004000000000000000000000000"
        r, _ = s.request(next(n), "resources/list", {"cursor": forged})
        check("a forged cursor is -32602", error_code(r) == -32602, r)
        bad = []
        for uri in want:
            r, _ = s.request(next(n), "resources/read", {"uri": uri})
            contents = (r or {}).get("result", {}).get("contents", [])
            if not contents or contents[0].get("uri") != uri or not contents[0].get("text"):
                bad.append((uri, r))
        check("resources/read each", not bad, bad or f"{len(want)} read")
        r, _ = s.request(next(n), "resources/read", {"uri": "device://nothing"})
        check("reading an unknown resource is an error", error_code(r) == -32602, r)

        r, _ = s.request(next(n), "prompts/list")
        check("prompts/list", [p["name"] for p in (r or {}).get("result", {}).get("prompts", [])] == ["diagnose"], r)
        r, _ = s.request(next(n), "prompts/get", {"name": "diagnose", "arguments": {"symptom": "warm \u00e9\\n"}})
        msg = ((r or {}).get("result", {}).get("messages") or [{}])[0]
        check("prompts/get", "warm \u00e9\\n" in msg.get("content", {}).get("text", ""), msg)
        # The symptom's limit is 288 bytes as sent: json.dumps writes each é as a six-byte
        # escape (48 of them: 288 bytes on the wire), and one more byte is refused.
        r, _ = s.request(next(n), "prompts/get", {"name": "diagnose", "arguments": {"symptom": "\u00e9" * 48}})
        msg = ((r or {}).get("result", {}).get("messages") or [{}])[0]
        check("prompts/get, a 288-byte symptom as sent", "\u00e9" * 48 + "." in msg.get("content", {}).get("text", ""), r)
        r, _ = s.request(next(n), "prompts/get", {"name": "diagnose", "arguments": {"symptom": "\u00e9" * 48 + "x"}})
        check("prompts/get, 289 bytes as sent is -32602", error_code(r) == -32602, r)
        r, _ = s.request(next(n), "prompts/get", {"name": "nope"})
        check("unknown prompt is -32602", error_code(r) == -32602, r)

        r, _ = s.request(next(n), "logging/setLevel", {"level": "info"})
        check("logging/setLevel", r is not None and r.get("result") == {}, r)

        # blink with progress: every step reported, in order, before the answer.
        bid = next(n)
        r, notes = s.request(bid, "tools/call", {"name": "blink", "arguments": {"times": 3, "interval_ms": 20},
                                                 "_meta": {"progressToken": "p1"}}, timeout=5)
        progress = [x["params"]["progress"] for x in notes if x["method"] == "notifications/progress"]
        logs = [x["params"]["data"] for x in notes if x["method"] == "notifications/message"]
        check("blink: progress 1..3, then the answer", progress == [1, 2, 3] and text_of(r) == "blinked 3 times",
              f"progress {progress}, answer {text_of(r)}")
        more, _ = s.collect(lambda m: False, 0.3)
        logs += [x["params"]["data"] for x in more if x.get("method") == "notifications/message"]
        check("blink: log messages", "blink: started 3" in logs and "blink: finished 3" in logs, logs)

        # A blink cancelled after its first progress is never answered; the server goes on.
        cid = next(n)
        s.send({"jsonrpc": "2.0", "id": cid, "method": "tools/call",
                "params": {"name": "blink", "arguments": {"times": 50, "interval_ms": 40},
                           "_meta": {"progressToken": "c1"}}})
        got, ok = s.collect(lambda m: m.get("method") == "notifications/progress", 3)
        check("cancel: the call started", ok, got)
        busy, _ = s.request(next(n), "tools/call", {"name": "blink", "arguments": {"times": 1}})
        check("a second blink meanwhile is a tool error", (busy or {}).get("result", {}).get("isError") is True, busy)
        s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": cid, "reason": "ci"}})
        after, _ = s.collect(lambda m: False, 0.6)
        answered = [m for m in after if m.get("id") == cid]
        late_progress = [m for m in after if m.get("method") == "notifications/progress"]
        check("cancel: never answered", not answered, answered)
        check("cancel: progress stops", len(late_progress) <= 1, f"{len(late_progress)} after the cancellation")
        r, _ = s.request(next(n), "tools/call", {"name": "blink", "arguments": {"times": 1, "interval_ms": 10}})
        check("cancel: the slot is free again", text_of(r) == "blinked 1 times", r)

        r, _ = s.request(next(n), "device/self-destruct")
        check("unknown method is -32601", error_code(r) == -32601, r)

        s.send_raw(b"this is not JSON\n")
        got, ok = s.collect(lambda m: "error" in m, 3)
        check("malformed line gets -32700", ok and error_code(got[-1]) == -32700 and got[-1].get("id") is None, got)
        s.send_raw(b'{"jsonrpc":"2.0","id":"long","method":"ping","params":{"pad":"' + b"x" * 700 + b'"}}\n')
        r, _ = s.request(next(n), "ping")
        check("a line longer than the receive buffer is skipped; serving goes on", r is not None and r.get("result") == {}, r)

        r, _ = s.request(next(n), "tools/call", {"name": "stats", "arguments": {}})
        stats = dict(kv.split("=") for kv in (text_of(r) or "").split())
        figures["stats"] = {k: int(v) for k, v in stats.items()}
        check("stats", "stack_high_water" in stats, text_of(r))

        rtts = []
        for _ in range(200):
            t = time.perf_counter()
            r, _ = s.request(next(n), "ping")
            rtts.append((time.perf_counter() - t) * 1000)
            if r is None:
                break
        rtts.sort()
        figures["ping_ms"] = {"n": len(rtts), "median": round(statistics.median(rtts), 3),
                              "p90": round(rtts[int(len(rtts) * 0.9) - 1], 3), "max": round(rtts[-1], 3)}
        check("200 pings", len(rtts) == 200, figures["ping_ms"])
    finally:
        s.close()

    # The plain command (no semihosting: the log's `bkpt` is skipped), and semihosting on
    # with nothing naming a log.
    for label, cmd in (("without semihosting", qemu.command(elf, semihosting=False)),
                       ("semihosting, no log", qemu.command(elf))):
        q = qemu.Serial(cmd)
        try:
            r, _ = q.request(1, "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                               "clientInfo": {"name": "ci", "version": "1"}}, timeout=10)
            q.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            a, _ = q.request(2, "tools/call", {"name": "add", "arguments": {"a": 1, "b": 1}})
            check(f"serves {label}", r is not None and "result" in r and text_of(a) == "2", a)
        finally:
            q.close()

    if figures_path:
        with open(figures_path, "w") as f:
            json.dump(figures, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
