#!/usr/bin/env python3
"""A recording relay between an MCP client and a stdio server, which can also slip a
malformed line to the server.

    relay.py LOG [--garbage-after METHOD] -- COMMAND [ARG...]

Spawns COMMAND and relays this process's stdin to its stdin and its stdout to ours, line
by line, appending every line to LOG as {"t": seconds, "dir": "c2s"|"s2c", "line": ...}.
With --garbage-after METHOD, right after the first client message with that method it
writes a line that is not JSON to the server ({"dir": "inject"} in the log) and keeps
the server's -32700 answer to it from the client ({"dir": "s2c-held"}): the client
never sent that line, and the check is that the server answers it and goes on serving.
Signals are passed on to the child; the child's stderr is ours. Stdlib only.
"""

import json
import signal
import subprocess
import sys
import threading
import time

GARBAGE = b"this line is not JSON {\n"


def main() -> int:
    args = sys.argv[1:]
    if "--" not in args or not args:
        print(__doc__, file=sys.stderr)
        return 2
    sep = args.index("--")
    opts, command = args[:sep], args[sep + 1:]
    log_path = opts[0]
    garbage_after = opts[opts.index("--garbage-after") + 1] if "--garbage-after" in opts else None
    start = time.monotonic()
    log = open(log_path, "a", encoding="utf-8", buffering=1)
    lock = threading.Lock()
    injected = threading.Event()
    held = threading.Event()

    def record(entry):
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

    def client_to_server():
        for line in iter(sys.stdin.buffer.readline, b""):
            text = line.rstrip(b"\n").decode("utf-8", "replace")
            record({"dir": "c2s", "line": text})
            try:
                child.stdin.write(line)
                if garbage_after and not injected.is_set():
                    try:
                        method = json.loads(text).get("method")
                    except (ValueError, AttributeError):
                        method = None
                    if method == garbage_after:
                        injected.set()
                        record({"dir": "inject", "line": GARBAGE.decode().rstrip("\n")})
                        child.stdin.write(GARBAGE)
                child.stdin.flush()
            except BrokenPipeError:
                break
        record({"event": "stdin-eof"})
        try:
            child.stdin.close()
        except BrokenPipeError:
            pass

    def server_to_client():
        for line in iter(child.stdout.readline, b""):
            text = line.rstrip(b"\n").decode("utf-8", "replace")
            if injected.is_set() and not held.is_set() and is_parse_error(text):
                held.set()
                record({"dir": "s2c-held", "line": text})
                continue
            record({"dir": "s2c", "line": text})
            try:
                sys.stdout.buffer.write(line)
                sys.stdout.buffer.flush()
            except BrokenPipeError:
                break

    threading.Thread(target=client_to_server, daemon=True).start()
    relay = threading.Thread(target=server_to_client, daemon=True)
    relay.start()
    code = child.wait()
    relay.join(timeout=2)
    record({"event": "exit", "code": code})
    log.close()
    return 128 - code if code < 0 else code


def is_parse_error(text):
    try:
        msg = json.loads(text)
    except ValueError:
        return False
    return isinstance(msg, dict) and msg.get("id") is None and msg.get("error", {}).get("code") == -32700


if __name__ == "__main__":
    sys.exit(main())
