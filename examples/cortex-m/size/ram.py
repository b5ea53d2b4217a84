#!/usr/bin/env python3
"""RAM use of a firmware build over a session: boots it under QEMU, exercises what it
offers (each tool, blink with progress and a cancelled blink, every resource page and
resource, the prompt, logging), then asks its `stats` tool. Prints the stats as JSON.

    ram.py ELF
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ci"))
import qemu  # noqa: E402


def main():
    s = qemu.Serial(qemu.command(sys.argv[1], semihosting=False))
    n = iter(range(1, 1000))
    try:
        r, _ = s.request(next(n), "initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                                 "clientInfo": {"name": "ram", "version": "1"}}, timeout=10)
        caps = r["result"]["capabilities"]
        s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        tools = [t["name"] for t in s.request(next(n), "tools/list")[0]["result"]["tools"]]
        if "stats" not in tools:
            print(json.dumps({"error": "no stats tool in this build"}))
            return 1
        s.request(next(n), "tools/call", {"name": "add", "arguments": {"a": 1, "b": 2}})
        s.request(next(n), "tools/call", {"name": "read_sensor", "arguments": {"sensor": "humidity"}})
        if "logging" in caps:
            s.request(next(n), "logging/setLevel", {"level": "debug"})
        if "blink" in tools:
            s.request(next(n), "tools/call", {"name": "blink", "arguments": {"times": 2, "interval_ms": 10},
                                              "_meta": {"progressToken": 1}})
            cid = next(n)
            s.send({"jsonrpc": "2.0", "id": cid, "method": "tools/call",
                    "params": {"name": "blink", "arguments": {"times": 9, "interval_ms": 20}, "_meta": {"progressToken": 2}}})
            s.collect(lambda m: m.get("method") == "notifications/progress", 2)
            s.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": cid}})
        if "resources" in caps:
            cursor = None
            while True:
                res = s.request(next(n), "resources/list", {"cursor": cursor} if cursor else {})[0]["result"]
                for x in res["resources"]:
                    s.request(next(n), "resources/read", {"uri": x["uri"]})
                cursor = res.get("nextCursor")
                if not cursor:
                    break
        if "prompts" in caps:
            s.request(next(n), "prompts/list")
            s.request(next(n), "prompts/get", {"name": "diagnose", "arguments": {"symptom": "a \\u00e9 \\n b"}})
        s.send_raw(b"not json\n")
        s.request(next(n), "no/such/method")
        s.request(next(n), "ping")
        r, _ = s.request(next(n), "tools/call", {"name": "stats", "arguments": {}})
        text = r["result"]["content"][0]["text"]
        print(json.dumps({k: int(v) for k, v in (kv.split("=") for kv in text.split())}))
        return 0
    finally:
        s.close()


if __name__ == "__main__":
    sys.exit(main())
