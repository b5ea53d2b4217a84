"""Reading the logs http_shim.py writes: the HTTP exchanges, and the JSON-RPC messages they
carried in the order the shim saw them (so wire_check.py can run its checks on an HTTP
session as on a stdio one). Stdlib only.
"""

import json


class Exchange:
    """One HTTP request and what came back for it."""

    def __init__(self, entry, index):
        self.index = index  # position of the request in the log
        self.req = entry["req"]
        self.conn = entry["conn"]
        self.t = entry["t"]
        self.method = entry["method"]
        self.target = entry["target"]
        self.headers = entry["headers"]
        self.body = entry["body"]
        self.status = None
        self.response_headers = []
        self.response_body = None
        self.events = []  # SSE events, in order
        self.ended = False
        self.cut_after = None  # event id after which the shim cut this stream
        self.closed_by = None  # "client" or "server" when a side went away mid-response

    def header(self, name):
        return next((v for n, v in self.headers if n.lower() == name.lower()), None)

    def response_header(self, name):
        return next((v for n, v in self.response_headers if n.lower() == name.lower()), None)

    @property
    def probe(self):
        """The harness's request after DELETE (header X-Interop-Probe), not the client's."""
        return self.header("x-interop-probe") is not None

    @property
    def path(self):
        return self.target.split("?", 1)[0]

    @property
    def sse(self):
        return "text/event-stream" in (self.response_header("content-type") or "").lower()

    def messages(self):
        """The JSON-RPC messages the request body carried."""
        return parse_messages(self.body)


def parse_messages(text):
    if not text:
        return []
    try:
        v = json.loads(text)
    except ValueError:
        return [None]
    return v if isinstance(v, list) else [v]


def load(path):
    """(exchanges in request order, every log entry, the JSON-RPC messages as wire_check
    reads them: (n, dir, t, message, raw line)).

    A POST refused at the HTTP level (4xx/5xx: no session, unknown session, bad headers)
    carried no message into the session: neither its body nor the error in the answer
    is counted as JSON-RPC traffic (http_check.py looks at the statuses)."""
    entries = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    exchanges = {}
    messages = []
    for n, e in enumerate(entries):
        kind = e.get("kind")
        if kind == "request":
            x = Exchange(e, n)
            exchanges[x.req] = x
            if e["method"] == "POST" and not x.probe:
                for m in x.messages():
                    messages.append((n, "c2s", e["t"], m, json.dumps(m) if m is not None else e["body"], x))
            continue
        x = exchanges.get(e.get("req"))
        if x is None:
            continue
        carried = not x.probe  # the harness's probe is not part of the session
        if kind == "response":
            x.status = e["status"]
            x.response_headers = e["headers"]
        elif kind == "body":
            x.response_body = e["body"]
            if carried and "json" in (x.response_header("content-type") or "") and e["body"]:
                for m in parse_messages(e["body"]):
                    messages.append((n, "s2c", e["t"], m, json.dumps(m) if m is not None else e["body"], x))
        elif kind == "sse":
            x.events.append(e)
            if carried and e.get("data") and e.get("event") in (None, "message"):
                for m in parse_messages(e["data"]):
                    messages.append((n, "s2c", e["t"], m, json.dumps(m) if m is not None else e["data"], x))
        elif kind == "end":
            x.ended = True
        elif kind == "cut":
            x.cut_after = e["after_id"]
        elif kind in ("client-closed", "server-closed"):
            x.closed_by = x.closed_by or kind.split("-")[0]
    carried = [m[:5] for m in messages if m[5].status is None or m[5].status < 400]
    return sorted(exchanges.values(), key=lambda x: x.index), entries, carried


def is_http_log(path):
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    try:
        return "kind" in json.loads(first)
    except ValueError:
        return False
