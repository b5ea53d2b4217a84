"""Validates the crate's sample messages with the official Python SDK's pydantic models.

    python validate.py SAMPLES.jsonl

Uses `mcp_types.methods` of PyPI `mcp-types` (pinned in requirements.txt), which maps
(method, protocol version) to that version's wire model: the 2025-11-25 schema era for
every version before 2026-07-28 and the 2026-07-28 era after, with membership in the
map as the version gate. Each request, notification and result is parsed with the
parse_* function for its direction (surface model, then the version-free model), and
the envelope with the JSONRPCMessage adapter. Members of our message that the parsed
model does not keep are listed, so a misspelt optional field cannot pass silently.
"""

import json
import sys
from collections import defaultdict

import mcp_types
from mcp_types import methods as m
from pydantic import TypeAdapter, ValidationError

envelope = TypeAdapter(mcp_types.JSONRPCMessage)


def dropped(ours, parsed, path=""):
    out = []
    if isinstance(ours, dict):
        for k, v in ours.items():
            p = f"{path}.{k}" if path else k
            if not isinstance(parsed, dict) or k not in parsed:
                out.append(p)
            else:
                out += dropped(v, parsed[k], p)
    elif isinstance(ours, list) and isinstance(parsed, list):
        for i, (a, b) in enumerate(zip(ours, parsed)):
            out += dropped(a, b, f"{path}[{i}]")
    return out


# Tasks (2025-11-25, experimental) are outside mcp-types' per-version method maps, and
# those maps decode a tools/call result as CallToolResult whether or not the request
# was task-augmented. These are checked against the model class of the same name.
BY_CLASS = {"CreateTaskResult"}


def by_class(s):
    cls = getattr(mcp_types, s["type"])
    msg = s["message"]
    value = msg["result"] if s["kind"] == "result" else msg
    return cls.model_validate(value, by_name=False), value


def check(s):
    """Returns the parsed model, or raises. KeyError: the SDK gates the method out."""
    v, method, msg = s["version"], s["method"], s["message"]
    if s["type"] in BY_CLASS:
        return by_class(s)
    if s["kind"] == "request":
        params = msg.get("params")
        if (method, v) in m.CLIENT_REQUESTS:
            return m.parse_client_request(method, v, params), params
        return m.parse_server_request(method, v, params), params
    if s["kind"] == "notification":
        params = msg.get("params")
        if (method, v) in m.CLIENT_NOTIFICATIONS:
            return m.parse_client_notification(method, v, params), params
        return m.parse_server_notification(method, v, params), params
    result = msg["result"]
    if (method, v) in m.SERVER_RESULTS:
        return m.parse_server_result(method, v, result), result
    return m.parse_client_result(method, v, result), result


def main():
    summary = defaultdict(lambda: {"ok": 0, "fail": 0, "gated": set(), "stripped": set()})
    failed = 0
    for line in open(sys.argv[1], encoding="utf-8"):
        s = json.loads(line)
        key = f"mcp-types {s['version']}"
        try:
            envelope.validate_python(s["message"])
            model, value = check(s)
            summary[key]["ok"] += 1
            if hasattr(model, "model_dump"):
                dump = model.model_dump(by_alias=True, mode="json", exclude_unset=True)
                target = dump.get("params", dump) if s["kind"] != "result" else dump
                for p in dropped(value or {}, target):
                    summary[key]["stripped"].add(f"{s['type']}: {p}")
        except KeyError:
            # Outside the SDK's method map for this version: check the model class.
            summary[key]["gated"].add(f"{s['type']} ({s['method']})")
            try:
                by_class(s)
                summary[key]["ok"] += 1
            except (ValidationError, AttributeError) as e:
                failed += 1
                summary[key]["fail"] += 1
                print(f"FAIL {key} {s['type']} ({s['method']}) by class: {str(e)[:800]}")
        except (ValidationError, ValueError) as e:
            failed += 1
            summary[key]["fail"] += 1
            print(f"FAIL {key} {s['type']} ({s['method']}): {str(e)[:800]}")
    for key, v in sorted(summary.items()):
        print(f"{key}: {v['ok']} valid, {v['fail']} invalid")
        for g in sorted(v["gated"]):
            print(f"  not in the method map for this version, checked by model class: {g}")
        for p in sorted(v["stripped"]):
            print(f"  stripped (unknown to this model): {p}")
    sys.exit(1 if failed else 0)


main()
