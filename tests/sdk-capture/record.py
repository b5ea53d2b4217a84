"""A stdio pass-through that records every line a client and a server exchange.

    python record.py LOG SOURCE -- COMMAND ARGS...

Runs COMMAND, copies this process's stdin to its stdin and its stdout to this process's
stdout, line by line, and appends each line to LOG as
`{"source": SOURCE, "dir": "c2s" | "s2c", "message": <the line, verbatim>}`.
The line is embedded as it was sent (escapes and all), so the fixture keeps the exact
bytes the SDKs wrote. Standard library only.
"""

import json
import subprocess
import sys
import threading

log_path, source = sys.argv[1], sys.argv[2]
command = sys.argv[sys.argv.index("--") + 1 :]
lock = threading.Lock()
log = open(log_path, "ab")


def record(direction, line):
    text = line.rstrip(b"\r\n")
    if not text:
        return
    try:
        json.loads(text)
        body = text
    except ValueError:
        body = json.dumps(text.decode("utf-8", "replace")).encode()
    with lock:
        log.write(b'{"source":%s,"dir":"%s","message":%s}\n' % (json.dumps(source).encode(), direction.encode(), body))
        log.flush()


child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)


def pump_in():
    for line in sys.stdin.buffer:
        record("c2s", line)
        try:
            child.stdin.write(line)
            child.stdin.flush()
        except BrokenPipeError:
            break
    try:
        child.stdin.close()
    except BrokenPipeError:
        pass


threading.Thread(target=pump_in, daemon=True).start()
for line in child.stdout:
    record("s2c", line)
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
sys.exit(child.wait())
