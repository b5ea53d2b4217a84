#!/usr/bin/env python3
"""A recording shim between an MCP client and a stdio server.

    shim.py LOG -- COMMAND [ARG...]

Spawns COMMAND, relays this process's stdin to the child's stdin and the child's stdout
to this process's stdout, line by line, and appends every line to LOG as a JSON object:

    {"t": seconds since start, "dir": "c2s" | "s2c", "line": "<the raw line>"}

plus events: {"event": "stdin-eof"} when the client closes our stdin (the child's stdin
is closed right then), {"event": "signal", "signal": N} when the client signals us (it is
passed on to the child), and finally {"event": "exit", "code": C, "after_eof_ms": M}
with the child's exit code (negative: killed by that signal) and how long after our
stdin closed it exited (null if it exited first). The shim exits with the child's code.

The child's stderr is passed through. Stdlib only.
"""

import json
import signal
import subprocess
import sys
import threading
import time


def main() -> int:
    if len(sys.argv) < 4 or sys.argv[2] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    log_path, command = sys.argv[1], sys.argv[3:]
    start = time.monotonic()
    log = open(log_path, "a", encoding="utf-8", buffering=1)
    lock = threading.Lock()
    eof_at: list[float] = []

    def record(entry: dict) -> None:
        entry["t"] = round(time.monotonic() - start, 6)
        with lock:
            log.write(json.dumps(entry) + "\n")

    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def on_signal(signum, _frame):
        record({"event": "signal", "signal": signum})
        try:
            child.send_signal(signum)
        except ProcessLookupError:
            pass

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)

    def client_to_server() -> None:
        stdin = sys.stdin.buffer
        try:
            for line in iter(stdin.readline, b""):
                record({"dir": "c2s", "line": line.rstrip(b"\n").decode("utf-8", "replace")})
                try:
                    child.stdin.write(line)
                    child.stdin.flush()
                except BrokenPipeError:
                    record({"event": "server-stdin-broken"})
                    break
        finally:
            eof_at.append(time.monotonic())
            record({"event": "stdin-eof"})
            try:
                child.stdin.close()
            except BrokenPipeError:
                pass

    def server_to_client() -> None:
        out = sys.stdout.buffer
        for line in iter(child.stdout.readline, b""):
            record({"dir": "s2c", "line": line.rstrip(b"\n").decode("utf-8", "replace")})
            try:
                out.write(line)
                out.flush()
            except BrokenPipeError:
                record({"event": "client-stdout-broken"})
                break

    threading.Thread(target=client_to_server, daemon=True).start()
    relay = threading.Thread(target=server_to_client, daemon=True)
    relay.start()
    code = child.wait()
    exited = time.monotonic()
    relay.join(timeout=2)
    after = round((exited - eof_at[0]) * 1000, 1) if eof_at else None
    record({"event": "exit", "code": code, "after_eof_ms": after})
    log.close()
    return 128 - code if code < 0 else code


if __name__ == "__main__":
    sys.exit(main())
