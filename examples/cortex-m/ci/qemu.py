"""How the CI scripts start the firmware: the QEMU command line, and a small JSON-lines
peer over its serial port. Stdlib only."""

import json
import os
import queue
import subprocess
import threading
import time

BASE = ["qemu-system-arm", "-machine", "mps2-an386", "-cpu", "cortex-m4", "-display", "none", "-monitor", "none",
        "-serial", "stdio"]


def command(elf, defmt_log=None, semihosting=True):
    """The command an MCP client spawns: UART0 on stdio. With `defmt_log`, semihosting is
    on and the firmware writes its defmt frames to that file (never to stdout)."""
    cmd = BASE + ["-kernel", str(elf)]
    if semihosting:
        cmd += ["-semihosting-config", "enable=on,target=native"]
        if defmt_log:
            cmd += ["-append", f"defmt={defmt_log}"]
    return cmd


def row(label, check, ok, detail=""):
    print(json.dumps({"label": label, "check": check, "ok": ok, "detail": str(detail)[:300]}), flush=True)


class Serial:
    """The firmware under QEMU, spoken to directly: lines in, lines out."""

    def __init__(self, cmd, stderr=None):
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, bufsize=0)
        self.lines = queue.Queue()
        self.transcript = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in iter(self.proc.stdout.readline, b""):
            self.lines.put((time.monotonic(), raw))
        self.lines.put((time.monotonic(), None))

    def send_raw(self, data: bytes):
        self.transcript.append(("c2s", data.rstrip(b"\n").decode("utf-8", "replace")))
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, msg):
        self.send_raw(json.dumps(msg, separators=(",", ":")).encode() + b"\n")

    def recv(self, timeout):
        """The next line from the firmware, parsed (None on timeout or end)."""
        try:
            _, raw = self.lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if raw is None:
            return None
        text = raw.rstrip(b"\n").decode("utf-8", "replace")
        self.transcript.append(("s2c", text))
        try:
            return json.loads(text)
        except ValueError:
            return {"unparseable": text}

    def collect(self, until, timeout):
        """Messages until `until(msg)` is true (that one included) or `timeout` passes."""
        got, deadline = [], time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return got, False
            msg = self.recv(left)
            if msg is None:
                return got, False
            got.append(msg)
            if until(msg):
                return got, True

    def request(self, rid, method, params=None, timeout=5.0):
        """Sends a request; returns (its response or None, the notifications before it)."""
        msg = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        got, ok = self.collect(lambda m: m.get("id") == rid and "method" not in m, timeout)
        return (got[-1] if ok else None), [m for m in got if "method" in m]

    def close(self):
        """As an MCP client does: close stdin, then SIGTERM (the guest cannot see EOF)."""
        try:
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        self.proc.terminate()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def env_elf():
    return os.environ["FIRMWARE_ELF"]
