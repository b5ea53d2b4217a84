#!/usr/bin/env python3
"""The official Python SDK's ClientSession against a server, once per handshake version
the SDK offers, over stdio or HTTP (run.sh checks the logs with wire_check.py and, over
HTTP, http_check.py).

    python py_client.py PROFILE LOGDIR -- COMMAND [ARG...]
        stdio_client; each session through shim.py
    python py_client.py PROFILE LOGDIR --transport http|sse --url URL [--cut-tool NAME]
        streamable_http_client (which DELETEs the session when it closes) or sse_client
        (legacy HTTP+SSE); each session through its own http_shim.py (NAME: the tool whose
        SSE stream the shim cuts once). After a Streamable HTTP session, one probe request
        with the ended session's id (header X-Interop-Probe), which must get 404.

Prints one JSON row per check: {"label", "check", "ok", "detail"}, asserting what the
SDK hands back. ClientSession.initialize() always offers LATEST_HANDSHAKE_VERSION; the
other versions are offered with the SDK's own send_request(InitializeRequest) and
adopt(), which is what initialize() does with a fixed version. A last session uses the
SDK's default high-level path, mcp.Client(mode="auto"): a server/discover probe
(2026-07-28, no handshake), then the initialize handshake when the server is
handshake-era.
"""

import contextlib
import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import anyio
import mcp_types as types
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
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


class Target:
    """Where the sessions go: a stdio command, or an HTTP URL (and how to reach it)."""

    def __init__(self, command=None, transport=None, url=None, cut_tool=None):
        self.command, self.transport, self.url, self.cut_tool = command, transport, url, cut_tool


@contextlib.contextmanager
def shim_for(target, log):
    """An http_shim.py in front of the target URL; yields the URL through it."""
    args = [sys.executable, str(HERE / "http_shim.py"), str(log), "--upstream", re.match(r"https?://[^/]+", target.url)[0]]
    if target.cut_tool:
        args += ["--cut-tool", target.cut_tool]
    shim = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
    try:
        line = shim.stderr.readline()
        m = re.search(r"listening on (http://[^\s/]+)", line)
        if not m:
            raise RuntimeError(f"http_shim.py did not start: {line!r}")
        yield m[1] + re.sub(r"^https?://[^/]+", "", target.url)
    finally:
        shim.terminate()
        shim.wait()


def probe_ended_session(url, log):
    """A request with the session id the initialize answer gave, after the SDK closed
    (and DELETEd) the session; http_check.py wants the answer to be 404."""
    sid = version = None
    for line in open(log, encoding="utf-8"):
        e = json.loads(line)
        if e.get("kind") == "response" and sid is None:
            sid = next((v for n, v in e["headers"] if n.lower() == "mcp-session-id"), None)
        if e.get("kind") == "request":
            version = next((v for n, v in e["headers"] if n.lower() == "mcp-protocol-version"), version)
    if sid is None:
        return
    body = json.dumps({"jsonrpc": "2.0", "id": "interop-probe", "method": "ping"}).encode()
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream",
               "mcp-session-id": sid, "x-interop-probe": "1"}
    if version:
        headers["mcp-protocol-version"] = version
    try:
        urllib.request.urlopen(urllib.request.Request(url, body, headers, method="POST"), timeout=3).close()
    except (urllib.error.URLError, OSError):
        pass  # the status is in the shim's log


@contextlib.asynccontextmanager
async def connect(target, log):
    """(read, write) streams for one session, through a shim."""
    if target.transport is None:
        params = StdioServerParameters(command=sys.executable, args=[str(HERE / "shim.py"), str(log), "--", *target.command])
        async with stdio_client(params) as (read, write):
            yield read, write
        return
    with shim_for(target, log) as url:
        if target.transport == "sse":
            async with sse_client(url) as (read, write):
                yield read, write
        else:
            async with streamable_http_client(url) as (read, write):
                yield read, write
            probe_ended_session(url, log)


async def run_session(profile, log_dir, target, version):
    label = f"py {version}"
    log = Path(log_dir) / f"py-{version}.jsonl"

    async def check(name, fn):
        try:
            detail = await fn()
            row(label, f"sdk:{name}", True, detail or "")
            return True
        except Exception as e:  # noqa: BLE001 - every failure is a row
            row(label, f"sdk:{name}", False, f"{type(e).__name__}: {e}"[:300])
            return False

    async with connect(target, log) as (read, write):
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


async def auto_mode(profile, log_dir, target):
    """The SDK's default high-level path: mcp.Client(mode="auto") probes server/discover
    (2026-07-28) and falls back to the initialize handshake on a handshake-era server.
    Given a URL, mcp.Client uses streamable_http_client."""
    label = "py auto"
    log = Path(log_dir) / "py-auto.jsonl"
    try:
        with contextlib.ExitStack() as stack, anyio.fail_after(20):
            if target.transport is None:
                server = StdioServerParameters(command=sys.executable, args=[str(HERE / "shim.py"), str(log), "--", *target.command])
            else:
                server = stack.enter_context(shim_for(target, log))
            async with Client(server, mode="auto") as client:
                version = client.session.protocol_version
                r = await client.call_tool(profile["progress"]["name"], profile["progress"]["arguments"])
        want = profile.get("autoVersion", profile["versions"][-1])
        ok = version == want and not r.is_error
        row(label, "sdk:auto-negotiation", ok, f"server/discover (then initialize if refused): negotiated {version}"
            + ("" if version == want else f" (want {want})") + f"; {profile['progress']['name']} -> is_error={r.is_error}")
    except Exception as e:  # noqa: BLE001
        while isinstance(e, BaseExceptionGroup) and e.exceptions:
            e = e.exceptions[0]
        row(label, "sdk:auto-negotiation", False, f"{type(e).__name__}: {e}"[:300])


async def main():
    argv = sys.argv[1:]
    profile_name, log_dir = argv[:2]

    def opt(name):
        return argv[argv.index(name) + 1] if name in argv else None

    if "--" in argv:
        target = Target(command=argv[argv.index("--") + 1:])
    else:
        target = Target(transport=opt("--transport"), url=opt("--url"), cut_tool=opt("--cut-tool"))
    profile = json.loads((HERE / "servers.json").read_text())[profile_name]
    for version in reversed(HANDSHAKE_PROTOCOL_VERSIONS):
        await run_session(profile, log_dir, target, version)
    # mcp.Client takes a URL for Streamable HTTP only.
    if target.transport != "sse":
        await auto_mode(profile, log_dir, target)


if __name__ == "__main__":
    anyio.run(main)
