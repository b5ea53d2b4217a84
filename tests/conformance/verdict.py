#!/usr/bin/env python3
"""Verdicts on conformance suite runs, stricter than the suite's own summary.

    verdict.py RUN LOG OUT_DIR POLICY [--known SCENARIO=REASON ...] >> rows.jsonl
    verdict.py --table rows.jsonl

RUN names the run (e.g. "0.1.16 server active"), LOG is the suite's output, OUT_DIR its
-o folder. Every scenario of the run gets a row {"run", "scenario", "verdict", "detail"}:

  pass      the suite marked it passed and its checks.json holds no FAILURE and no WARNING
            (the suite's summary lets warnings through; a SHOULD the issue asks for, such
            as resumption in server-sse-polling, only shows as a warning)
  FAIL      otherwise, under POLICY "required" (or "required-but-auth": the auth/*
            scenarios excepted, for a client that does no OAuth, the stand-in)
  reported  the result of a scenario that does not count: POLICY "reported", auth/*
            under "required-but-auth", a --known one (with the reason), or, under POLICY
            "required-core" (the 2026-07-28 server run), an extension's scenario, which
            the suite's own "Not scored" list marks "(extension)" (the tasks extension);
            its "(pending)" scenarios count

--table prints the rows grouped by run and exits 1 if any row is FAIL. Stdlib only.
"""

import glob
import json
import os
import re
import sys

MARK = re.compile(r"^\s*(✓|✗)\s+([^\s:]+):\s*(.*)$")
STAMP = re.compile(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z$")


def scenario_of(out_dir, checks_path):
    rel = os.path.relpath(os.path.dirname(checks_path), out_dir)
    rel = STAMP.sub("", rel)
    return rel[len("server-"):] if rel.startswith("server-") else rel


def verdicts(run, log, out_dir, policy, known):
    marks = {}
    text = open(log, encoding="utf-8", errors="replace").read() if os.path.exists(log) else ""
    unscored = False
    for line in text.splitlines():
        if line.startswith("Not scored for"):
            unscored = True
        m = MARK.match(line)
        if m:
            # The "Not scored" list repeats scenarios with a note; keep the first mark.
            marks.setdefault(m[2], (m[1] == "✓", m[3]))
        elif unscored and policy == "required-core":
            ext = re.match(r"^\s*(✓|✗)\s+(\S+)\s+\(extension\)\s*$", line)
            if ext:
                known.setdefault(ext[2], "an extension's scenario: the suite does not score it")
    if policy == "required-core":
        policy = "required"
    checks = {}
    for f in glob.glob(os.path.join(out_dir, "**", "checks.json"), recursive=True):
        try:
            checks[scenario_of(out_dir, f)] = json.load(open(f))
        except ValueError:
            checks[scenario_of(out_dir, f)] = [{"status": "FAILURE", "name": "checks.json", "errorMessage": "unreadable"}]
    rows = []
    for sc in sorted(set(marks) | set(checks)):
        suite_ok, summary = marks.get(sc, (None, ""))
        cs = checks.get(sc, [])
        bad = [c for c in cs if c.get("status") in ("FAILURE", "WARNING")]
        ok = (suite_ok is not False) and not bad and (suite_ok is not None or cs)
        detail = summary or f"{len(cs)} checks"
        if bad:
            detail += "; " + "; ".join(f"{c['status']} {c.get('name')}: {(c.get('errorMessage') or '')[:120]}" for c in bad[:3])
        auth_excepted = policy == "required-but-auth" and sc.startswith("auth/")
        counts = policy in ("required", "required-but-auth") and not auth_excepted and sc not in known
        if counts:
            verdict = "pass" if ok else "FAIL"
        else:
            verdict = "reported"
            why = known.get(sc) or ("the stand-in does no OAuth" if auth_excepted else "reported only")
            detail = f"{'passes' if ok else 'fails'} ({why}): {detail}"
        rows.append({"run": run, "scenario": sc, "verdict": verdict, "detail": detail})
    if not rows:
        rows.append({"run": run, "scenario": "(run)", "verdict": "FAIL" if policy != "reported" else "reported",
                     "detail": "no scenario ran: " + (text.strip().splitlines() or ["no output"])[-1][:200]})
    return rows


def table(path):
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    runs = list(dict.fromkeys(r["run"] for r in rows))
    failed = 0
    for run in runs:
        rs = [r for r in rows if r["run"] == run]
        n_pass = sum(r["verdict"] == "pass" for r in rs)
        n_fail = sum(r["verdict"] == "FAIL" for r in rs)
        n_rep = sum(r["verdict"] == "reported" for r in rs)
        failed += n_fail
        print(f"\n== {run}: {n_pass} pass, {n_fail} FAIL, {n_rep} reported only")
        for r in rs:
            if r["verdict"] != "pass":
                print(f"  {r['verdict']:<9} {r['scenario']}: {r['detail'][:220]}")
    print(f"\nconformance: {sum(r['verdict'] == 'pass' for r in rows)} pass, {failed} FAIL, "
          f"{sum(r['verdict'] == 'reported' for r in rows)} reported only")
    return 1 if failed else 0


def main():
    if sys.argv[1] == "--table":
        return table(sys.argv[2])
    run, log, out_dir, policy = sys.argv[1:5]
    known = {}
    rest = sys.argv[5:]
    while rest:
        if rest[0] == "--known" and len(rest) > 1:
            name, _, reason = rest[1].partition("=")
            known[name] = reason
            rest = rest[2:]
        else:
            rest = rest[1:]
    for r in verdicts(run, log, out_dir, policy, known):
        print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
