#!/usr/bin/env python3
"""A recording HTTP proxy between an MCP client and an HTTP server (the HTTP sibling of
shim.py).

    http_shim.py LOG --upstream http://HOST:PORT [--port P] [--cut-tool NAME] [--cut-after N]

Listens on 127.0.0.1:P (default 0: any free port), prints `listening on
http://127.0.0.1:PORT` on stderr when ready, and relays every HTTP/1.1 request to the
upstream server, one upstream connection per client connection (keep-alive on both
sides). It appends to LOG one JSON object per line, each with "t" (seconds since start):

    {"kind": "request", "req": R, "conn": C, "method", "target", "headers": [[name, value]...],
     "body": "<text>"}
    {"kind": "response", "req": R, "status": S, "headers": [...]}
    {"kind": "body", "req": R, "body": "<text>"}          a whole non-SSE response body
    {"kind": "sse", "req": R, "id", "event", "data", "retry", "comment"}
                                                          one SSE event, as relayed
    {"kind": "end", "req": R}                             the response ended normally
    {"kind": "cut", "req": R, "after_id": ID}             the shim cut this stream (below)
    {"kind": "client-closed" | "server-closed", "req": R} a side went away mid-response

SSE bodies are re-framed one event per chunk (chunk boundaries carry no meaning in SSE),
which lets the shim stop exactly after an event. With --cut-tool NAME, the first SSE
response to a POSTed tools/call of NAME is cut once, after the N-th relayed event that
carries both an id and data (--cut-after, default 1): both connections are closed without
ending the body, as a dropped network would, so the client must resume with a GET and
Last-Event-ID. Request bodies are de-chunked and sent on with a Content-Length; Host is
set to the upstream's authority (nginx's default), other headers pass unchanged. An
absolute URL in a legacy `endpoint` event that names the upstream is rewritten to the shim.

Stdlib only.
"""

import argparse
import json
import socket
import sys
import threading
import time
from urllib.parse import urlsplit

HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "proxy-connection", "te", "upgrade"}


class Log:
    def __init__(self, path):
        self.f = open(path, "a", encoding="utf-8", buffering=1)
        self.lock = threading.Lock()
        self.start = time.monotonic()
        self.req = 0
        self.conn = 0

    def write(self, entry):
        entry["t"] = round(time.monotonic() - self.start, 6)
        with self.lock:
            self.f.write(json.dumps(entry) + "\n")

    def next_req(self):
        with self.lock:
            self.req += 1
            return self.req

    def next_conn(self):
        with self.lock:
            self.conn += 1
            return self.conn


class Closed(Exception):
    pass


class Reader:
    """Buffered reads from a socket: lines and exact byte counts."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""

    def fill(self):
        data = self.sock.recv(65536)
        if not data:
            raise Closed()
        self.buf += data

    def line(self, limit=1 << 20):
        while b"\n" not in self.buf:
            if len(self.buf) > limit:
                raise ValueError("line too long")
            self.fill()
        line, self.buf = self.buf.split(b"\n", 1)
        return line.rstrip(b"\r")

    def exact(self, n):
        while len(self.buf) < n:
            self.fill()
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def some(self):
        if not self.buf:
            self.fill()
        data, self.buf = self.buf, b""
        return data


def read_head(r):
    """Start line and headers; None at a clean end of the connection."""
    try:
        start = r.line()
        while start == b"":
            start = r.line()
    except Closed:
        return None
    headers = []
    while True:
        line = r.line()
        if line == b"":
            return start.decode("latin-1"), headers
        name, _, value = line.decode("latin-1").partition(":")
        headers.append([name.strip(), value.strip()])


def header(headers, name):
    for n, v in headers:
        if n.lower() == name:
            return v
    return None


def read_chunked(r):
    body = b""
    while True:
        size = int(r.line().split(b";")[0].strip() or b"0", 16)
        if size == 0:
            while r.line() != b"":
                pass
            return body
        body += r.exact(size)
        r.exact(2)


def read_request_body(r, headers):
    if "chunked" in (header(headers, "transfer-encoding") or "").lower():
        return read_chunked(r)
    n = int(header(headers, "content-length") or 0)
    return r.exact(n) if n else b""


class SseSplitter:
    """Splits an SSE byte stream into raw events (each ending with its blank line)."""

    def __init__(self):
        self.buf = b""

    def feed(self, data):
        self.buf += data
        out = []
        while True:
            cut = None
            for sep in (b"\r\n\r\n", b"\n\n", b"\r\r"):
                i = self.buf.find(sep)
                if i >= 0 and (cut is None or i + len(sep) < cut):
                    cut = i + len(sep)
            if cut is None:
                return out
            out.append(self.buf[:cut])
            self.buf = self.buf[cut:]


def parse_event(raw):
    ev = {"id": None, "event": None, "data": None, "retry": None, "comment": None}
    data = []
    for line in raw.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if line == "":
            continue
        if line.startswith(":"):
            ev["comment"] = line[1:].strip()
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "data":
            data.append(value)
        elif field in ("id", "event", "retry"):
            ev[field] = value
    if data:
        ev["data"] = "\n".join(data)
    return ev


class Shim:
    def __init__(self, args):
        self.log = Log(args.log)
        up = urlsplit(args.upstream)
        self.upstream = (up.hostname, up.port or 80)
        self.upstream_url = f"http://{up.hostname}:{up.port or 80}"
        self.upstream_authority = f"{up.hostname}:{up.port or 80}"
        self.cut_tool = args.cut_tool
        self.cut_after = args.cut_after
        self.cut_done = False
        self.lock = threading.Lock()
        self.port = None

    def serve(self, port):
        ls = socket.socket()
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind(("127.0.0.1", port))
        ls.listen(128)
        self.port = ls.getsockname()[1]
        print(f"listening on http://127.0.0.1:{self.port}", file=sys.stderr, flush=True)
        while True:
            c, _ = ls.accept()
            threading.Thread(target=self.connection, args=(c,), daemon=True).start()

    def wants_cut(self, method, body):
        if self.cut_tool is None or method != "POST" or self.cut_done:
            return False
        try:
            msg = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return False
        return (isinstance(msg, dict) and msg.get("method") == "tools/call"
                and (msg.get("params") or {}).get("name") == self.cut_tool)

    def connection(self, client):
        conn = self.log.next_conn()
        client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        cr = Reader(client)
        upstream = None
        ur = None
        try:
            while True:
                head = read_head(cr)
                if head is None:
                    return
                start, headers = head
                method, _, rest = start.partition(" ")
                target, _, _version = rest.rpartition(" ")
                if (header(headers, "expect") or "").lower() == "100-continue":
                    # Answered here, and not passed on: the whole body is read first.
                    client.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
                    headers = [h for h in headers if h[0].lower() != "expect"]
                body = read_request_body(cr, headers)
                req = self.log.next_req()
                self.log.write({"kind": "request", "req": req, "conn": conn, "method": method, "target": target,
                                "headers": headers, "body": body.decode("utf-8", "replace")})
                if upstream is None:
                    upstream = socket.create_connection(self.upstream)
                    upstream.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    ur = Reader(upstream)
                out = [f"{method} {target} HTTP/1.1"]
                # Host becomes the upstream's, as nginx does by default ($proxy_host): a
                # server that checks Host against its own address (DNS-rebinding
                # protection) sees what a direct client would send.
                out += [f"{n}: {v}" if n.lower() != "host" else f"Host: {self.upstream_authority}"
                        for n, v in headers if n.lower() not in HOP]
                if body or method in ("POST", "PUT"):
                    out.append(f"Content-Length: {len(body)}")
                upstream.sendall(("\r\n".join(out) + "\r\n\r\n").encode("latin-1") + body)
                cut = self.wants_cut(method, body)
                keep = self.relay_response(req, method, client, ur, cut)
                if keep is None:  # the shim cut the stream, or a side went away
                    return
                if not keep:
                    upstream.close()
                    upstream = None
        except (Closed, OSError, ValueError):
            return
        finally:
            for s in (client, upstream):
                if s is not None:
                    try:
                        s.close()
                    except OSError:
                        pass

    def relay_response(self, req, method, client, ur, cut):
        """Relays one response. True: both connections may be reused; False: the upstream
        one may not; None: stop (cut, or a side closed)."""
        while True:
            head = read_head(ur)
            if head is None:
                self.log.write({"kind": "server-closed", "req": req})
                return None
            start, headers = head
            status = int(start.split(" ")[1])
            if 100 <= status < 200:
                continue
            break
        self.log.write({"kind": "response", "req": req, "status": status, "headers": headers})
        ctype = (header(headers, "content-type") or "").lower()
        chunked = "chunked" in (header(headers, "transfer-encoding") or "").lower()
        length = header(headers, "content-length")
        close = (header(headers, "connection") or "").lower() == "close"
        no_body = method == "HEAD" or status in (204, 304)
        delimited = not (chunked or length is not None or no_body)
        out = [start] + [f"{n}: {v}" for n, v in headers if n.lower() not in HOP]
        if chunked:
            out.append("Transfer-Encoding: chunked")
        elif length is not None:
            out.append(f"Content-Length: {length}")
        if close or delimited:
            out.append("Connection: close")
        try:
            client.sendall(("\r\n".join(out) + "\r\n\r\n").encode("latin-1"))
        except OSError:
            self.log.write({"kind": "client-closed", "req": req})
            return None
        if no_body:
            self.log.write({"kind": "end", "req": req})
            return not close
        if "text/event-stream" in ctype:
            return self.relay_sse(req, client, ur, chunked, length, cut, close)
        try:
            if chunked:
                body = read_chunked(ur)
                data = (f"{len(body):x}\r\n".encode() + body + b"\r\n" if body else b"") + b"0\r\n\r\n"
            elif length is not None:
                body = data = ur.exact(int(length))
            else:
                body = b""
                try:
                    while True:
                        body += ur.some()
                except Closed:
                    pass
                data = body
        except Closed:
            self.log.write({"kind": "server-closed", "req": req})
            return None
        self.log.write({"kind": "body", "req": req, "body": body.decode("utf-8", "replace")})
        try:
            client.sendall(data)
        except OSError:
            self.log.write({"kind": "client-closed", "req": req})
            return None
        self.log.write({"kind": "end", "req": req})
        if delimited:
            return None
        return not close

    def relay_sse(self, req, client, ur, chunked, length, cut, close):
        # A client that goes away mid-stream is seen at once (not at the next event), and
        # the upstream connection is closed too, as the server would see it without us.
        active = threading.Event()
        active.set()
        gone_first = threading.Event()

        def watch():
            try:
                gone = client.recv(1, socket.MSG_PEEK) == b""
            except OSError:
                gone = True
            if gone and active.is_set():
                gone_first.set()
                self.log.write({"kind": "client-closed", "req": req})
                try:
                    ur.sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        threading.Thread(target=watch, daemon=True).start()
        try:
            return self.relay_events(req, client, ur, chunked, length, cut, close, gone_first)
        finally:
            active.clear()

    def relay_events(self, req, client, ur, chunked, length, cut, close, gone_first):
        splitter = SseSplitter()
        counted = 0
        remaining = int(length) if length is not None else None

        def pieces():
            nonlocal remaining
            if chunked:
                while True:
                    size = int(ur.line().split(b";")[0].strip() or b"0", 16)
                    if size == 0:
                        while ur.line() != b"":
                            pass
                        return
                    yield ur.exact(size)
                    ur.exact(2)
            elif remaining is not None:
                while remaining > 0:
                    data = ur.some()
                    if len(data) > remaining:  # cannot happen with a correct peer
                        ur.buf = data[remaining:] + ur.buf
                        data = data[:remaining]
                    remaining -= len(data)
                    yield data
            else:
                try:
                    while True:
                        yield ur.some()
                except Closed:
                    return

        def send(raw):
            if chunked:
                client.sendall(f"{len(raw):x}\r\n".encode() + raw + b"\r\n")
            else:
                client.sendall(raw)

        try:
            for data in pieces():
                for raw in splitter.feed(data):
                    ev = parse_event(raw)
                    ev["data"] = self.rewrite_endpoint(ev)
                    if ev["event"] == "endpoint" and ev["data"] is not None:
                        raw = b"event: endpoint\ndata: " + ev["data"].encode() + b"\n\n"
                    self.log.write({"kind": "sse", "req": req, **ev})
                    try:
                        send(raw)
                    except OSError:
                        self.log.write({"kind": "client-closed", "req": req})
                        return None
                    if cut and ev["id"] and ev["data"]:
                        counted += 1
                        if counted >= self.cut_after:
                            with self.lock:
                                self.cut_done = True
                            self.log.write({"kind": "cut", "req": req, "after_id": ev["id"]})
                            client.shutdown(socket.SHUT_RDWR)
                            ur.sock.shutdown(socket.SHUT_RDWR)
                            return None
        except (Closed, OSError):
            if not gone_first.is_set():
                self.log.write({"kind": "server-closed", "req": req})
            return None
        if splitter.buf:
            try:
                send(splitter.buf)
            except OSError:
                return None
        try:
            if chunked:
                client.sendall(b"0\r\n\r\n")
        except OSError:
            self.log.write({"kind": "client-closed", "req": req})
            return None
        self.log.write({"kind": "end", "req": req})
        if not chunked and remaining is None:
            return None  # close-delimited
        return not close

    def rewrite_endpoint(self, ev):
        data = ev["data"]
        if ev["event"] == "endpoint" and data and data.startswith(self.upstream_url):
            return f"http://127.0.0.1:{self.port}" + data[len(self.upstream_url):]
        return data


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("log")
    p.add_argument("--upstream", required=True)
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--cut-tool")
    p.add_argument("--cut-after", type=int, default=1)
    args = p.parse_args()
    shim = Shim(args)
    try:
        shim.serve(args.port)
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
