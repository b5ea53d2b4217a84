#!/usr/bin/env python3
"""Drives the example's server over Streamable HTTP and checks every answer:
initialize, notifications/initialized, tools/list, tools/call (echo, add), an unknown
method, a request without a session, the GET stream, DELETE, and the 404 after it.

    smoke.py URL json|sse      (the response form the server is expected to choose)
"""
import http.client
import json
import sys
import urllib.parse

url = urllib.parse.urlparse(sys.argv[1])
form = sys.argv[2]
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)


def post(message, session=None):
    """POSTs a message; returns status, session id, form and the JSON-RPC answer."""
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if session:
        headers.update({"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"})
    conn.request("POST", url.path, json.dumps(message), headers)
    r = conn.getresponse()
    body = r.read().decode()
    kind = r.getheader("Content-Type", "")
    answer = None
    if kind.startswith("text/event-stream"):
        # The answer is the last event (a 2025-11-25 stream opens with an empty one).
        data = [line[5:].strip() for line in body.splitlines() if line.startswith("data:")]
        answer = json.loads([d for d in data if d][-1])
        kind = "sse"
    elif body:
        answer = json.loads(body)
        kind = "json"
    return r.status, r.getheader("Mcp-Session-Id"), kind, answer


def check(what, ok, got):
    if not ok:
        sys.exit(f"smoke: {what}: got {got!r}")
    print(f"smoke: {what}: ok")


init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "smoke", "version": "1"}}}
status, sid, kind, answer = post(init)
check("initialize", status == 200 and sid and kind == form
      and answer["result"]["protocolVersion"] == "2025-11-25"
      and answer["result"]["serverInfo"]["name"] == "axum-example", (status, sid, kind, answer))
status, _, _, answer = post({"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
check("notifications/initialized: 202", status == 202 and answer is None, (status, answer))
status, _, kind, answer = post({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}, sid)
names = [t["name"] for t in answer["result"]["tools"]] if status == 200 else None
check("tools/list", kind == form and names == ["echo", "add"], (status, kind, answer))
call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": 'hi "there"'}}}
status, _, _, answer = post(call, sid)
check("tools/call echo", answer["id"] == 3 and answer["result"]["content"][0]["text"] == 'Echo: hi "there"', answer)
call = {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "add", "arguments": {"a": 2, "b": 40}}}
status, _, _, answer = post(call, sid)
check("tools/call add", answer["result"]["content"][0]["text"] == "42", answer)
status, _, _, answer = post({"jsonrpc": "2.0", "id": 5, "method": "prompts/list"}, sid)
check("an unknown method: -32601", answer["id"] == 5 and answer["error"]["code"] == -32601, answer)
status, _, _, answer = post({"jsonrpc": "2.0", "id": 6, "method": "tools/list"})
check("no session id: 400", status == 400, (status, answer))

# The standalone stream, on a connection of its own: a 2025-11-25 stream opens with a
# priming event (an id, retry, empty data).
get = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
get.request("GET", url.path, headers={"Accept": "text/event-stream", "Mcp-Session-Id": sid,
                                      "MCP-Protocol-Version": "2025-11-25"})
r = get.getresponse()
first = [r.readline().decode() for _ in range(3)]
check("GET stream", r.status == 200 and r.getheader("Content-Type") == "text/event-stream"
      and first[0].startswith("id: ") and first[1].startswith("retry: ") and first[2] == "data: \n",
      (r.status, r.getheader("Content-Type"), first))
get.close()

conn.request("DELETE", url.path, headers={"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"})
r = conn.getresponse()
r.read()
check("DELETE", r.status == 200, r.status)
status, _, _, answer = post({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}, sid)
check("after DELETE: 404", status == 404, (status, answer))
