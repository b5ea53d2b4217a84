#!/usr/bin/env python3
"""Checks the HTTP side of a session logged by http_shim.py (wire_check.py checks the
JSON-RPC messages of the same log).

    http_check.py LOG PROFILE_NAME LABEL --transport http|sse [--mode auto|forced]
                  [--expect CHECK ...]

Prints one JSON row per check, as wire_check.py does ({"label", "check", "ok",
"detail"}; ok null: not applicable). With --expect, only those checks are printed, and
each must have been exercised. PROFILE_NAME's "http" entry in servers.json says what the
server offers (resumable streams, DELETE, SSE headers) and, under "known", the checks an
official server is known to fail (with why): those are reported as known:CHECK, not
failed. The checks:

Streamable HTTP (--transport http):
  session         the initialize answer carries an Mcp-Session-Id of visible ASCII, and
                  every later request carries exactly that id
  version-header  every request after the initialize answer carries MCP-Protocol-Version
                  with the negotiated version (required from 2025-06-18; before that, if
                  present it must match)
  status          POSTed notifications and responses answered 202 with no body; POSTed
                  requests 200 with application/json or text/event-stream; GET 200
                  text/event-stream or 405; DELETE 2xx or 405
  delete          the session ends with a DELETE carrying its id, answered 2xx (or 405
                  when the profile allows it); a request sent afterwards with the same id
                  (the harness's probe) is answered 404
  resume          the shim cut one SSE stream (the progress tool's POST) after an event
                  with an id: the client then GETs with Last-Event-ID set to that id and
                  the same session, the server answers 200 text/event-stream, the cut
                  request's response arrives on it, and no event id delivered before the
                  cut is delivered again
  sse-headers     every text/event-stream answer has Cache-Control: no-cache and
                  X-Accel-Buffering: no (required of profiles with "sseHeaders"; otherwise
                  reported as info:sse-headers)

Legacy HTTP+SSE (--transport sse):
  legacy          a GET on the SSE URL (Accept: text/event-stream) answered 200
                  text/event-stream whose first event is `endpoint`; every POST goes to
                  that endpoint (resolved against the SSE URL, same origin) and is answered
                  2xx; every server message arrives on the GET stream
  fallback        --mode auto: the client first POSTed initialize to the URL (Streamable
                  HTTP), got 400, 404 or 405, then fell back to the GET above;
                  --mode forced: the GET came first, with no POST before it

Stdlib only.
"""

import argparse
import json
import sys
from pathlib import Path

import http_log

HERE = Path(__file__).resolve().parent
ORDER = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]


def visible_ascii(s):
    return bool(s) and all(0x21 <= ord(c) <= 0x7E for c in s)


def is_request(m):
    return isinstance(m, dict) and "method" in m and "id" in m


def main():
    p = argparse.ArgumentParser()
    p.add_argument("log")
    p.add_argument("profile")
    p.add_argument("label")
    p.add_argument("--transport", choices=["http", "sse"], required=True)
    p.add_argument("--mode", choices=["auto", "forced"], default="forced")
    p.add_argument("--expect", nargs="*", default=[])
    a = p.parse_args()
    profile = json.loads((HERE / "servers.json").read_text())[a.profile]
    http = profile.get("http", {})
    xs, entries, msgs = http_log.load(a.log)
    expect = set(a.expect)
    rows = []

    def row(check, ok, detail):
        if ok is None and check in expect:
            ok, detail = False, f"expected but not exercised: {detail}"
        rows.append({"label": a.label, "check": check, "ok": ok, "detail": detail})

    # The initialize exchange and the negotiated version.
    init = next((x for x in xs if x.method == "POST" and any(
        isinstance(m, dict) and m.get("method") == "initialize" for m in x.messages())), None)
    negotiated = None
    if init is not None:
        init_id = next(m["id"] for m in init.messages() if isinstance(m, dict) and m.get("method") == "initialize")
        for _, d, _, m, _ in msgs:
            if d == "s2c" and isinstance(m, dict) and m.get("id") == init_id and "result" in m:
                negotiated = m["result"].get("protocolVersion")

    if a.transport == "http":
        check_streamable(xs, msgs, init, negotiated, http, row)
    else:
        check_legacy(xs, msgs, a.mode, row)
    check_sse_headers(xs, http, row)

    # What the profile records as this (official) server's known deviation is reported,
    # not failed: the check stays strict for the servers without one (ours).
    known = http.get("known", {})
    for r in rows:
        if r["ok"] is False and r["check"] in known and not r["detail"].startswith("expected but not"):
            r["check"], r["ok"] = f"known:{r['check']}", None
            r["detail"] = f"{known[r['check'].split(':', 1)[1]]}: {r['detail']}"
    for r in rows:
        if not expect or r["check"] in expect or r["check"].split(":")[0] in ("info", "known"):
            print(json.dumps(r))
    return 0


def check_streamable(xs, msgs, init, negotiated, http, row):
    after_init = [x for x in xs if init is not None and x.index > init.index]

    # session
    sid = init.response_header("mcp-session-id") if init else None
    if init is None:
        row("session", None, "no initialize POST")
    elif not sid:
        row("session", False if http.get("sessions", True) else None, "the initialize answer had no Mcp-Session-Id")
    else:
        bad = [f"{x.method} #{x.req} sent {x.header('mcp-session-id')!r}" for x in after_init
               if x.header("mcp-session-id") != sid]
        ok = visible_ascii(sid) and not bad
        row("session", ok, f"id {sid[:12]}… ({len(sid)} chars), sent back on {len(after_init) - len(bad)}/{len(after_init)} "
            "later requests" + ("" if visible_ascii(sid) else "; NOT visible ASCII") + (f"; {'; '.join(bad[:4])}" if bad else ""))

    # version-header
    if negotiated is None:
        row("version-header", None, "no negotiated version")
    else:
        required = ORDER.index(negotiated) >= ORDER.index("2025-06-18") if negotiated in ORDER else True
        # The probe after DELETE is the harness's, not the client's.
        checked = [x for x in after_init if not probe(x)]
        missing = [f"{x.method} #{x.req}" for x in checked if x.header("mcp-protocol-version") is None]
        wrong = [f"{x.method} #{x.req}: {x.header('mcp-protocol-version')}" for x in checked
                 if x.header("mcp-protocol-version") not in (None, negotiated)]
        ok = not wrong and (not missing or not required)
        detail = f"{negotiated}: header on {len(checked) - len(missing)}/{len(checked)} requests after initialize"
        if missing:
            detail += f"; missing on {missing[:4]}" + ("" if required else " (allowed before 2025-06-18)")
        if wrong:
            detail += f"; WRONG {wrong[:4]}"
        row("version-header", ok, detail)

    # status
    problems = []
    for x in xs:
        if probe(x) or x.status is None:
            continue
        if x.method == "POST":
            ms = x.messages()
            if any(m is None for m in ms):
                continue
            if any(is_request(m) for m in ms):
                ctype = (x.response_header("content-type") or "").lower()
                # Before a session exists a server that needs one refuses other requests
                # (400); mcp.Client(mode="auto") probes server/discover there.
                before_session = init is not None and x.index < init.index and x.header("mcp-session-id") is None
                if before_session and x.status in (400, 404, 405):
                    continue
                if x.status != 200 or not ("application/json" in ctype or "text/event-stream" in ctype):
                    problems.append(f"POST request #{x.req} -> {x.status} {ctype}")
            elif ms:
                if x.status != 202 or (x.response_body or "").strip():
                    problems.append(f"POST notification/response #{x.req} -> {x.status} body {(x.response_body or '')[:40]!r}")
        elif x.method == "GET":
            if not ((x.status == 200 and x.sse) or x.status == 405):
                problems.append(f"GET #{x.req} -> {x.status}")
        elif x.method == "DELETE":
            if not (200 <= x.status < 300 or x.status == 405):
                problems.append(f"DELETE #{x.req} -> {x.status}")
    row("status", not problems if xs else None, f"{len(xs)} exchanges" + (f": {'; '.join(problems[:5])}" if problems else ", statuses as the spec says"))

    # delete
    deletes = [x for x in xs if x.method == "DELETE"]
    if not deletes:
        row("delete", False if sid else None, "no DELETE at the end of the session")
    else:
        d = deletes[-1]
        later_client = [x for x in xs if x.index > d.index and not probe(x) and x.method == "POST"]
        ok = d.header("mcp-session-id") == sid and (200 <= (d.status or 0) < 300 or (d.status == 405 and http.get("deleteMay405", True)))
        detail = f"DELETE -> {d.status}"
        if d.header("mcp-session-id") != sid:
            detail += f" WITHOUT the session id ({d.header('mcp-session-id')!r})"
        if later_client:
            ok = False
            detail += f"; the client kept POSTing after it ({len(later_client)} requests)"
        probes = [x for x in xs if probe(x) and x.index > d.index]
        if probes and 200 <= (d.status or 0) < 300:
            got = probes[-1].status
            ok &= got == 404
            detail += f"; a request with the ended session's id afterwards -> {got}" + ("" if got == 404 else " (want 404)")
        row("delete", ok, detail)

    # resume
    cut = next((x for x in xs if x.cut_after is not None), None)
    if cut is None:
        row("resume", None, "the shim cut no stream (the progress tool was not called over SSE, or its events had no ids)")
    else:
        cut_ids = [m["id"] for m in cut.messages() if is_request(m)]
        # Every event with an id, in the order the shim relayed them, split at the cut.
        ordered = sorted(((e["t"], x, e) for x in xs for e in x.events), key=lambda v: v[0])
        cut_time = next((t for t, x, e in ordered if x is cut and e.get("id") == cut.cut_after), None)
        before_ids, after_ids = set(), []
        for t, x, e in ordered:
            if not e.get("id"):
                continue
            if cut_time is not None and t <= cut_time:
                before_ids.add(e["id"])
            else:
                after_ids.append((x, e))
        gets = [x for x in xs if x.method == "GET" and x.index > cut.index and x.header("last-event-id") is not None]
        details, ok = [f"cut POST #{cut.req} (ids {cut_ids}) after event {cut.cut_after!r}"], True
        if not gets:
            ok = False
            details.append("NO GET with Last-Event-ID afterwards")
        else:
            g = gets[0]
            details.append(f"GET #{g.req} Last-Event-ID {g.header('last-event-id')!r} -> {g.status}")
            if g.header("last-event-id") != cut.cut_after:
                ok = False
                details.append(f"(want {cut.cut_after!r})")
            if sid and g.header("mcp-session-id") != sid:
                ok = False
                details.append("without the session id")
            if g.status != 200 or not g.sse:
                ok = False
            got = [e for x in gets for e in x.events if e.get("data")]
            answered = any(isinstance(m, dict) and "id" in m and "method" not in m and m["id"] in cut_ids
                           for e in got for m in http_log.parse_messages(e["data"]))
            if not answered:
                ok = False
                details.append("the cut request's response did NOT arrive on the resumed stream")
            else:
                details.append(f"{len(got)} events replayed/resumed, the response among them")
        again = sorted({e["id"] for _, e in after_ids if e["id"] in before_ids})
        if again:
            ok = False
            details.append(f"event ids delivered again after the cut: {again[:5]}")
        row("resume", ok, "; ".join(details))


def probe(x):
    return x.probe


def check_legacy(xs, msgs, mode, row):
    gets = [x for x in xs if x.method == "GET"]
    if not gets:
        row("legacy", False, "no GET")
        row("fallback", None, "no GET")
        return
    g = gets[0]
    details, ok = [], True
    accept = (g.header("accept") or "").lower()
    if "text/event-stream" not in accept:
        ok = False
        details.append(f"GET Accept {accept!r}")
    if g.status != 200 or not g.sse:
        ok = False
        details.append(f"GET {g.path} -> {g.status} {g.response_header('content-type')}")
    first = next((e for e in g.events if e.get("data") is not None or e.get("event")), None)
    endpoint = None
    if first is None or first.get("event") != "endpoint":
        ok = False
        details.append(f"first event {first!r}, not endpoint")
    else:
        endpoint = first["data"]
        details.append(f"endpoint {endpoint}")
    posts = [x for x in xs if x.method == "POST" and x.index > g.index]
    if endpoint:
        want = endpoint.split("://", 1)[-1].split("/", 1)[-1] if "://" in endpoint else endpoint.lstrip("/")
        wrong = [x.target for x in posts if x.target.lstrip("/") != want]
        if wrong:
            ok = False
            details.append(f"POSTs elsewhere: {wrong[:3]}")
    # A POST with no answer on record: the client had its reply from the stream and left
    # before reading the POST's own 202 (the TypeScript SSE transport does not await it
    # on close); said in the details, not a failure of the server.
    unanswered = [x for x in posts if x.status is None]
    if unanswered:
        details.append(f"{len(unanswered)} POST(s) the client left before their answer: #{unanswered[0].req}")
    bad_status = [f"#{x.req} {x.status}" for x in posts if x.status is not None and not 200 <= x.status < 300]
    if bad_status:
        ok = False
        details.append(f"POSTs answered {bad_status[:4]}")
    in_bodies = [x.req for x in posts if (x.response_body or "").strip().startswith("{")]
    if in_bodies:
        ok = False
        details.append(f"server messages in POST bodies (not on the stream): {in_bodies[:4]}")
    on_stream = sum(1 for e in g.events if e.get("event") in (None, "message") and e.get("data"))
    details.append(f"{len(posts)} POSTs answered {sorted({x.status for x in posts}, key=str)}, {on_stream} messages on the stream")
    row("legacy", ok, "; ".join(details))

    before = [x for x in xs if x.index < g.index]
    if mode == "forced":
        row("fallback", not before, "the GET came first" if not before else f"{len(before)} requests before the GET: "
            + ", ".join(f"{x.method} -> {x.status}" for x in before[:3]))
    else:
        tries = [x for x in before if x.method == "POST"]
        if not tries:
            row("fallback", False, "no Streamable HTTP attempt (POST) before the GET")
            return
        t = tries[0]
        is_init = any(isinstance(m, dict) and m.get("method") == "initialize" for m in t.messages())
        ok = is_init and t.status in (400, 404, 405) and t.path == g.path
        row("fallback", ok, f"POST initialize to {t.path} -> {t.status}, then GET {g.path} -> {g.status}"
            + ("" if is_init else " (the POST was not initialize)") + ("" if t.path == g.path else " (another URL)"))


def check_sse_headers(xs, http, row):
    streams = [x for x in xs if x.sse and x.status == 200]
    if not streams:
        return
    bad = []
    for x in streams:
        cc = (x.response_header("cache-control") or "").lower()
        xa = (x.response_header("x-accel-buffering") or "").lower()
        if "no-cache" not in cc or xa != "no":
            bad.append(f"{x.method} #{x.req}: Cache-Control {cc or 'absent'!r}, X-Accel-Buffering {xa or 'absent'!r}")
    detail = f"{len(streams)} SSE answers" + (f"; {'; '.join(bad[:3])}" if bad else ", all with both headers")
    if http.get("sseHeaders"):
        row("sse-headers", not bad, detail)
    elif bad:
        row("info:sse-headers", None, "reported only: " + detail)


if __name__ == "__main__":
    sys.exit(main())
