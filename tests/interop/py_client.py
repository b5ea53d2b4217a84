#!/usr/bin/env python3
"""The official Python SDK's ClientSession + stdio_client against a stdio server, once
per handshake version the SDK offers, each session through shim.py (run.sh checks the
logs with wire_check.py).

    python py_client.py PROFILE LOGDIR -- COMMAND [ARG...]

Prints one JSON row per check: {"label", "check", "ok", "detail"}, asserting what the
SDK hands back. ClientSession.initialize() always offers LATEST_HANDSHAKE_VERSION; the
other versions are offered with the SDK's own send_request(InitializeRequest) and
adopt(), which is what initialize() does with a fixed version. A last session uses the
SDK's default high-level path, mcp.Client(mode="auto"): a server/discover probe
(2026-07-28, no handshake), then the initialize handshake when the server is
handshake-era.
"""

import json
import sys
from pathlib import Path

import anyio
import mcp_types as types
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, KNOWN_PROTOCOL_VERSIONS, LATEST_HANDSHAKE_VERSION

HERE = Path(__file__).resolve().parent
UNKNOWN = "interop/no-such-method"


def row(label, check, ok, detail=""):
    print(json.dumps({"label": label, "check": check, "ok": ok, "detail": detail}), flush=True)


async def sampling(_ctx, params):
    return types.CreateMessageResult(
        role="assistant",
        content=types.TextContent(type="text", text="scripted sample"),
        model="interop-script",
        stop_reason="endTurn",
    )


async def elicitation(_ctx, params):
    return types.ElicitResult(action="decline")


async def offer(session: ClientSession, version: str):
    if version == LATEST_HANDSHAKE_VERSION:
        return await session.initialize()
    result = await session.send_request(
        types.InitializeRequest(
            params=types.InitializeRequestParams(
                protocol_version=version,
                capabilities=session._build_capabilities(version),
                client_info=types.Implementation(name="interop-py-client", version="1.0.0"),
            )
        ),
        types.InitializeResult,
    )
    session.adopt(result)
    await session.send_notification(types.InitializedNotification())
    return result


async def run_session(profile, log_dir, command, version):
    label = f"py {version}"
    log = Path(log_dir) / f"py-{version}.jsonl"
    params = StdioServerParameters(command=sys.executable, args=[str(HERE / "shim.py"), str(log), "--", *command])

    async def check(name, fn):
        try:
            detail = await fn()
            row(label, f"sdk:{name}", True, detail or "")
            return True
        except Exception as e:  # noqa: BLE001 - every failure is a row
            row(label, f"sdk:{name}", False, f"{type(e).__name__}: {e}"[:300])
            return False

    async with stdio_client(params) as (read, write):
        async with ClientSession(
            read,
            write,
            sampling_callback=sampling,
            elicitation_callback=elicitation,
            client_info=types.Implementation(name="interop-py-client", version="1.0.0"),
        ) as session:

            async def initialize():
                r = await offer(session, version)
                want = version if version in profile["versions"] else profile["versions"][-1]
                if r.protocol_version != want:
                    raise AssertionError(f"negotiated {r.protocol_version}, want {want}")
                return f"negotiated {r.protocol_version} with {r.server_info.name}"

            if not await check("initialize", initialize):
                return

            async def ping():
                r = await session.send_ping()
                if r.model_dump(exclude_none=True) != {}:
                    raise AssertionError(f"ping result {r}")

            await check("ping", ping)

            walkers = {
                "tools/list": session.list_tools,
                "resources/list": session.list_resources,
                "resources/templates/list": session.list_resource_templates,
                "prompts/list": session.list_prompts,
            }
            for method, spec in profile["lists"].items():

                async def walk(method=method, spec=spec):
                    field = "name" if "names" in spec else ("uri" if "uris" in spec else "uri_template")
                    want = spec.get("names") or spec.get("uris") or spec.get("uriTemplates") or []
                    attr = {"tools": "tools", "resources": "resources", "resourceTemplates": "resource_templates",
                            "prompts": "prompts"}[spec["key"]]
                    seen, cursor, pages = [], None, 0
                    while True:
                        p = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
                        r = await walkers[method](params=p)
                        pages += 1
                        seen += [str(getattr(x, field)) for x in getattr(r, attr)]
                        cursor = r.next_cursor
                        if cursor is None:
                            break
                        if pages > 100:
                            raise AssertionError("more than 100 pages")
                    missing = [w for w in want if w not in seen]
                    if missing:
                        raise AssertionError(f"missing {missing}")
                    if len(set(seen)) != len(seen):
                        raise AssertionError(f"duplicates in {seen}")
                    return f"{len(seen)} in {pages} pages"

                await check(f"walk {method}", walk)

            async def progress():
                values = []

                async def on_progress(p, total, message):
                    values.append(p)

                r = await session.call_tool(profile["progress"]["name"], profile["progress"]["arguments"],
                                            read_timeout_seconds=10, progress_callback=on_progress)
                if r.is_error:
                    raise AssertionError(f"tool error {r}")
                if len(values) < profile["progress"]["minNotifications"]:
                    raise AssertionError(f"only {len(values)} progress notifications: {values}")
                if any(b <= a for a, b in zip(values, values[1:])):
                    raise AssertionError(f"not increasing: {values}")
                return f"progress {values}"

            await check("progress", progress)

            async def cancel():
                first = anyio.Event()
                outcome = {}

                async def on_progress(p, total, message):
                    first.set()

                async def call(scope_holder):
                    with anyio.CancelScope() as scope:
                        scope_holder.append(scope)
                        try:
                            outcome["result"] = await session.call_tool(
                                profile["cancel"]["name"], profile["cancel"]["arguments"],
                                read_timeout_seconds=30, progress_callback=on_progress)
                        except Exception as e:  # noqa: BLE001
                            outcome["error"] = e
                    outcome["cancelled"] = scope.cancelled_caught

                holder = []
                async with anyio.create_task_group() as tg:
                    tg.start_soon(call, holder)
                    with anyio.move_on_after(5):
                        await first.wait()
                    holder[0].cancel()
                if not outcome.get("cancelled"):
                    raise AssertionError(f"call was not cancelled: {outcome}")
                await anyio.sleep(profile["cancel"]["restMs"] / 1000)
                await session.send_ping()
                return "call abandoned by cancelling its scope; server alive"

            await check("cancel", cancel)

            for sr in profile.get("serverRequests", []):
                negotiated = session.protocol_version
                if "since" in sr and KNOWN_PROTOCOL_VERSIONS.index(negotiated) < KNOWN_PROTOCOL_VERSIONS.index(sr["since"]):
                    row(label, f"sdk:server request via {sr['name']}", None, f"not in {negotiated} (since {sr['since']})")
                    continue

                async def server_request(sr=sr):
                    r = await session.call_tool(sr["name"], sr["arguments"], read_timeout_seconds=10)
                    text = json.dumps([c.model_dump(mode="json", exclude_none=True) for c in r.content])
                    if r.is_error or sr["expect"] not in text:
                        raise AssertionError(f"result {text[:200]} lacks {sr['expect']!r}")
                    return text[:100]

                await check(f"server request via {sr['name']}", server_request)

            async def unknown():
                try:
                    await session.send_request(types.Request(method=UNKNOWN, params=None), types.EmptyResult)
                except MCPError as e:
                    if e.code == -32601:
                        return f"MCPError {e.code}: {e.message}"
                    raise AssertionError(f"wrong error code {e.code}: {e.message}") from e
                raise AssertionError("unknown method succeeded")

            await check("unknown method", unknown)


async def auto_mode(profile, log_dir, command):
    """The SDK's default high-level path: mcp.Client(mode="auto") probes server/discover
    (2026-07-28) and falls back to the initialize handshake on a handshake-era server."""
    label = "py auto"
    log = Path(log_dir) / "py-auto.jsonl"
    params = StdioServerParameters(command=sys.executable, args=[str(HERE / "shim.py"), str(log), "--", *command])
    try:
        with anyio.fail_after(20):
            async with Client(params, mode="auto") as client:
                version = client.session.protocol_version
                r = await client.call_tool(profile["progress"]["name"], profile["progress"]["arguments"])
        want = profile["versions"][-1]
        ok = version == want and not r.is_error
        row(label, "sdk:auto-negotiation", ok, f"server/discover, then initialize: negotiated {version}"
            + ("" if version == want else f" (want {want})") + f"; {profile['progress']['name']} -> is_error={r.is_error}")
    except Exception as e:  # noqa: BLE001
        while isinstance(e, BaseExceptionGroup) and e.exceptions:
            e = e.exceptions[0]
        row(label, "sdk:auto-negotiation", False, f"{type(e).__name__}: {e}"[:300])


async def main():
    argv = sys.argv[1:]
    sep = argv.index("--")
    profile_name, log_dir = argv[:sep]
    command = argv[sep + 1:]
    profile = json.loads((HERE / "servers.json").read_text())[profile_name]
    for version in reversed(HANDSHAKE_PROTOCOL_VERSIONS):
        await run_session(profile, log_dir, command, version)
    await auto_mode(profile, log_dir, command)


if __name__ == "__main__":
    anyio.run(main)
