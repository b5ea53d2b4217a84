#!/usr/bin/env python3
"""Checks a wire log written by shim.py (stdio) or http_shim.py (HTTP: the JSON-RPC
messages of request bodies, JSON response bodies and SSE events, in the order the proxy
saw them) against what MCP requires and what the server's profile (servers.json) promises.

    wire_check.py LOG PROFILE_NAME LABEL [--expect CHECK ...]

With --expect, only those checks are reported, and each must have been exercised.

Prints one JSON object per check on stdout:
    {"label": LABEL, "check": NAME, "ok": true|false|null, "detail": "..."}
(ok null: not applicable in this log). Stdlib only. The checks:

  handshake    the initialize offer and the answer: the version is the offered one if
               the server supports it, else the server's newest; initialized follows
  ping         every ping is answered with exactly {"result": {}}
  lists        every list walked to a response without nextCursor, each cursor echoed
               in the next request, no duplicates, pages within maxPage, and the
               profile's names all present; with maxPage set, more than one page
  progress     per progress token: values strictly increasing, all before the response;
               the profile's progress tool sent at least minNotifications
  cancel       every cancelled request id gets no response, and a later request is
               still answered (the server is alive); at least one cancellation seen
  unknown      interop/no-such-method answered with error -32601
  answered     every other request, both ways, answered exactly once
  server-req   sampling/createMessage and elicitation/create from the server answered
               with a result of the right shape (when the server sent any)
  exit         the server exited with code 0 within exitMs of its stdin closing (stdio)

The HTTP-only checks (session id, protocol-version header, DELETE, resumption, the
legacy transport) are http_check.py's.
"""

import json
import sys

import http_log

UNKNOWN_METHOD = "interop/no-such-method"


def load(path):
    if http_log.is_http_log(path):
        _, _, msgs = http_log.load(path)
        return [], msgs
    events, msgs = [], []
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f):
            entry = json.loads(raw)
            if "event" in entry:
                events.append(entry)
                continue
            try:
                msg = json.loads(entry["line"])
            except json.JSONDecodeError:
                msg = None
            msgs.append((n, entry["dir"], entry["t"], msg, entry["line"]))
    return events, msgs


def key(i):
    return json.dumps(i, sort_keys=True)


def main():
    log_path, profile_name, label = sys.argv[1:4]
    expect = set(sys.argv[5:]) if len(sys.argv) > 4 and sys.argv[4] == "--expect" else set()
    here = __file__.rsplit("/", 1)[0]
    with open(f"{here}/servers.json", encoding="utf-8") as f:
        profile = json.load(f)[profile_name]
    events, msgs = load(log_path)
    rows = []

    def row(check, ok, detail):
        if ok is None and check in expect:
            ok, detail = False, f"expected but not exercised: {detail}"
        rows.append({"label": label, "check": check, "ok": ok, "detail": detail})

    # Index requests and responses per direction.
    requests = {"c2s": {}, "s2c": {}}  # id -> (index, msg)
    responses = {"c2s": {}, "s2c": {}}  # id -> list of (index, msg)
    notes = []
    bad_lines = []
    for n, d, t, m, line in msgs:
        if not isinstance(m, dict):
            bad_lines.append((d, line[:80]))
            continue
        if "method" in m and "id" in m:
            requests[d][key(m["id"])] = (n, m)
        elif "method" in m:
            notes.append((n, d, t, m))
        elif "id" in m:
            responses[d].setdefault(key(m["id"]), []).append((n, m))
    other = {"c2s": "s2c", "s2c": "c2s"}

    def answer(d, rid):
        got = responses[other[d]].get(key(rid), [])
        return got[0][1] if got else None

    def reqs(method, d="c2s"):
        return sorted((v for v in requests[d].values() if v[1]["method"] == method), key=lambda v: v[0])

    # handshake
    inits = reqs("initialize")
    if not inits:
        row("handshake", None, "no initialize")
    else:
        details, ok = [], True
        for n, m in inits:
            offered = m.get("params", {}).get("protocolVersion")
            a = answer("c2s", m["id"])
            got = (a or {}).get("result", {}).get("protocolVersion")
            want = offered if offered in profile["versions"] else profile["versions"][-1]
            initialized = any(x[3]["method"] == "notifications/initialized" and x[0] > n for x in notes if x[1] == "c2s")
            ok &= got == want and initialized
            details.append(f"offered {offered} -> {got}" + ("" if got == want else f" (want {want})")
                           + ("" if initialized else ", no notifications/initialized"))
        row("handshake", ok, "; ".join(details))

    # ping
    pings = reqs("ping")
    if not pings:
        row("ping", None, "no ping sent")
    else:
        bad = [m["id"] for _, m in pings if answer("c2s", m["id"]) is None
               or {k: v for k, v in answer("c2s", m["id"]).items() if k != "id"} != {"jsonrpc": "2.0", "result": {}}]
        row("ping", not bad, f"{len(pings)} pings answered {{}}" if not bad else f"bad answers to {bad}")

    # lists
    list_details, list_ok, any_list = [], True, False
    for method, spec in profile["lists"].items():
        walk_reqs = reqs(method)
        if not walk_reqs:
            continue
        any_list = True
        walks, current = [], None
        for n, m in walk_reqs:
            cursor = (m.get("params") or {}).get("cursor")
            if cursor is None:
                current = {"pages": [], "cursors": [], "complete": False, "errors": []}
                walks.append(current)
            elif current is None or current["next"] != cursor:
                (current or {"errors": []})["errors"].append(f"cursor {cursor!r} not the last nextCursor")
                if current is None:
                    continue
            a = answer("c2s", m["id"])
            if a is None or "result" not in a:
                current["errors"].append(f"no result for page request {m['id']}: {a}")
                current["next"] = None
                continue
            items = a["result"].get(spec["key"], [])
            current["pages"].append(items)
            current["next"] = a["result"].get("nextCursor")
            current["complete"] = current["next"] is None
        for w in walks:
            field = "name" if "names" in spec else ("uri" if "uris" in spec else "uriTemplate")
            want = spec.get("names") or spec.get("uris") or spec.get("uriTemplates") or []
            seen = [it.get(field) for page in w["pages"] for it in page]
            errs = list(w["errors"])
            if not w["complete"]:
                errs.append("walk not finished (last page had nextCursor)")
            dups = sorted({s for s in seen if seen.count(s) > 1})
            if dups:
                errs.append(f"duplicates {dups}")
            missing = [x for x in want if x not in seen]
            if missing:
                errs.append(f"missing {missing}")
            if spec["maxPage"] is not None:
                big = [len(p) for p in w["pages"] if len(p) > spec["maxPage"]]
                if big:
                    errs.append(f"pages of {big} > {spec['maxPage']}")
                if len(seen) > spec["maxPage"] and len(w["pages"]) < 2:
                    errs.append("not paginated")
            list_ok &= not errs
            list_details.append(f"{method}: {len(seen)} in {len(w['pages'])} pages" + (f" [{'; '.join(errs)}]" if errs else ""))
    row("lists", list_ok if any_list else None, "; ".join(list_details) or "no list requests")

    # progress
    by_token = {}
    for n, d, t, m in notes:
        if m["method"] == "notifications/progress" and d == "s2c":
            p = m.get("params", {})
            by_token.setdefault(key(p.get("progressToken")), []).append((n, p.get("progress")))
    prog_details, prog_ok, tool_prog = [], True, None
    cancelled_ids = {key(m.get("params", {}).get("requestId")) for _, d, _, m in notes
                     if d == "c2s" and m["method"] == "notifications/cancelled"}
    for rk, (n, m) in requests["c2s"].items():
        token = ((m.get("params") or {}).get("_meta") or {}).get("progressToken")
        if token is None:
            continue
        got = by_token.get(key(token), [])
        values = [v for _, v in got]
        a = responses["s2c"].get(rk)
        after = [v for i, v in got if a and i > a[0][0]]
        increasing = all(b > a_ for a_, b in zip(values, values[1:]))
        ok = increasing and not after
        prog_ok &= ok
        if m["method"] == "tools/call" and m["params"].get("name") == profile["progress"]["name"] and rk not in cancelled_ids:
            enough = len(values) >= profile["progress"]["minNotifications"]
            prog_ok &= enough
            tool_prog = f"{m['params']['name']} token {token!r}: {values}" + ("" if enough else " (too few)")
        if not ok:
            prog_details.append(f"token {token!r}: {values}" + (" not increasing" if not increasing else "")
                                + (f" {after} after the response" if after else ""))
    if tool_prog is None:
        row("progress", None, "progress tool not called with a token")
    else:
        row("progress", prog_ok, "; ".join([tool_prog] + prog_details))

    # cancel
    if not cancelled_ids:
        row("cancel", None, "nothing cancelled")
    else:
        details, ok = [], True
        for rk in sorted(cancelled_ids):
            req = requests["c2s"].get(rk)
            got = responses["s2c"].get(rk)
            cancel_at = min(n for n, d, _, m in notes if d == "c2s" and m["method"] == "notifications/cancelled"
                            and key(m.get("params", {}).get("requestId")) == rk)
            # Liveness: requests sent after the cancellation are still answered.
            later = [v for v in requests["c2s"].values() if v[0] > cancel_at]
            unanswered = [v[1]["id"] for v in later if not answer("c2s", v[1]["id"]) and key(v[1]["id"]) not in cancelled_ids]
            ok &= req is not None and not got and not unanswered
            token = (((req or (0, {}))[1].get("params") or {}).get("_meta") or {}).get("progressToken")
            late_progress = [v for i, v in by_token.get(key(token), []) if i > cancel_at] if token is not None else []
            if late_progress:
                details.append(f"id {rk}: the server kept reporting progress after the cancellation ({len(late_progress)} notifications)")
            details.append(f"id {rk}: " + ("never sent" if req is None else
                           (f"RESPONSE ARRIVED {got[0][1]}" if got else "no response")
                           + (f", later requests unanswered: {unanswered}" if unanswered else
                              f", {len(later)} later requests answered" if later else "")))
        last = max([t for _, _, t, _, _ in msgs] + [e["t"] for e in events], default=0)
        first_cancel = min((t for _, d, t, m in notes if d == "c2s" and m["method"] == "notifications/cancelled"), default=last)
        details.append(f"watched {round((last - first_cancel) * 1000)} ms after the cancellation")
        row("cancel", ok, "; ".join(details))

    # unknown method
    unk = reqs(UNKNOWN_METHOD)
    if not unk:
        row("unknown", None, f"{UNKNOWN_METHOD} not sent")
    else:
        codes = [((answer("c2s", m["id"]) or {}).get("error") or {}).get("code") for _, m in unk]
        row("unknown", all(c == -32601 for c in codes), f"{UNKNOWN_METHOD} -> {codes}")

    # every request answered exactly once
    problems = []
    for d in ("c2s", "s2c"):
        for rk, (n, m) in requests[d].items():
            got = responses[other[d]].get(rk, [])
            if d == "c2s" and rk in cancelled_ids:
                continue
            if len(got) != 1:
                problems.append(f"{d} {m['method']} id {rk}: {len(got)} responses")
        for rk, got in responses[d].items():
            if rk not in requests[other[d]]:
                problems.append(f"{d} response to unknown id {rk}")
    if bad_lines:
        problems.append(f"unparseable lines {bad_lines[:3]}")
    n_req = len(requests["c2s"]) + len(requests["s2c"])
    row("answered", not problems, f"{n_req} requests" + (f": {'; '.join(problems[:5])}" if problems else ", each answered once"))

    # server-initiated sampling / elicitation
    srv = [(n, m) for n, m in requests["s2c"].values() if m["method"] in ("sampling/createMessage", "elicitation/create")]
    if not srv:
        row("server-req", None, "server sent no sampling/elicitation request")
    else:
        details, ok = [], True
        negotiated = None
        if inits:
            negotiated = ((answer("c2s", inits[-1][1]["id"]) or {}).get("result") or {}).get("protocolVersion")
        for n, m in sorted(srv, key=lambda v: v[0]):
            a = answer("s2c", m["id"])
            r = (a or {}).get("result")
            if m["method"] == "elicitation/create" and negotiated in ("2024-11-05", "2025-03-26"):
                # Elicitation exists from 2025-06-18 on: the only right answer is -32601.
                code = ((a or {}).get("error") or {}).get("code")
                ok &= code == -32601
                details.append(f"elicitation/create in a {negotiated} session (the server should not send it) -> "
                               + ("refused with -32601" if code == -32601 else f"WRONG ANSWER {a}"))
                continue
            if m["method"] == "sampling/createMessage":
                good = isinstance(r, dict) and r.get("role") == "assistant" and "model" in r and "content" in r
            else:
                good = isinstance(r, dict) and r.get("action") in ("accept", "decline", "cancel")
            ok &= good
            details.append(f"{m['method']} -> " + (json.dumps(r)[:120] if r is not None else f"NO RESULT {a}"))
        row("server-req", ok, "; ".join(details))

    # exit
    ex = [e for e in events if e["event"] == "exit"]
    signals = [e["signal"] for e in events if e["event"] == "signal"]
    if not ex:
        row("exit", False, "shim recorded no exit")
    else:
        e = ex[-1]
        bound = profile["exitMs"]
        ok = e["code"] == 0 and e["after_eof_ms"] is not None and not signals and (bound is None or e["after_eof_ms"] <= bound)
        detail = f"code {e['code']}, {e['after_eof_ms']} ms after stdin closed" + (f", signals {signals}" if signals else "")
        if bound is None and not ok:
            row("exit", None, f"{detail} (not required of this server)")
        else:
            row("exit", ok, detail + (f" (bound {bound} ms)" if bound else ""))

    # Over HTTP, what the profile records as this (official) server's known deviation is
    # reported as known:CHECK, not failed (http_check.py does the same).
    if http_log.is_http_log(log_path):
        known = profile.get("http", {}).get("known", {})
        for r in rows:
            if r["ok"] is False and r["check"] in known and not r["detail"].startswith("expected but not"):
                r["detail"] = f"{known[r['check']]}: {r['detail']}"
                r["check"], r["ok"] = f"known:{r['check']}", None
    for r in rows:
        if not expect or r["check"] in expect or r["check"].startswith("known:"):
            print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
