"""Drives a stdio MCP server with the official Python SDK client (mcp 2.3.0), through
record.py.

    python py_client.py LOG SOURCE MODE -- SERVER_COMMAND ARGS...

MODE is the client's `mode`: `legacy` (initialize handshake), `auto` (probe
server/discover, fall back to initialize) or `2026-07-28`.
"""

import asyncio
import os
import sys

from mcp import Client, StdioServerParameters

log, source, mode = sys.argv[1:4]
server = sys.argv[sys.argv.index("--") + 1 :]
# Tools never called: get-env prints the server's environment (nothing of this machine goes
# into the fixture). Arguments given explicitly: gzip-file-as-resource would otherwise fetch
# its default URL.
SKIP = {"get-env"}
OVERRIDES = {"gzip-file-as-resource": {"name": "hello.txt.gz", "data": "data:text/plain;base64,aGVsbG8g8J+YgA=="}}
recorder = os.path.join(os.path.dirname(os.path.abspath(__file__)), "record.py")


async def main():
    params = StdioServerParameters(command=sys.executable, args=[recorder, log, source, "--", *server])
    async with Client(params, mode=mode, log_level="debug", cache=None) as client:
        async def attempt(what, coro):
            try:
                return await coro
            except Exception as e:  # noqa: BLE001 - record and go on
                print(f"{source}: {what}: {e}", file=sys.stderr)

        tools = await client.list_tools()
        for tool in tools.tools:
            if tool.name in SKIP:
                continue
            if tool.name in OVERRIDES:
                await attempt(f"call {tool.name}", client.call_tool(tool.name, OVERRIDES[tool.name]))
                continue
            props = (tool.input_schema or {}).get("properties", {})
            args = {}
            for name in (tool.input_schema or {}).get("required", []):
                kind = props.get(name, {}).get("type")
                args[name] = 2 if kind in ("number", "integer") else ("hello \"world\" 😀" if kind != "boolean" else True)
            await attempt(f"call {tool.name}", client.call_tool(tool.name, args))
        resources = await attempt("resources", client.list_resources())
        for r in (resources.resources if resources else [])[:3]:
            await attempt("read", client.read_resource(r.uri))
        await attempt("templates", client.list_resource_templates())
        prompts = await attempt("prompts", client.list_prompts())
        for p in prompts.prompts if prompts else []:
            await attempt("get prompt", client.get_prompt(p.name, {"code": "print('hi')\n"}))
        if mode == "legacy":
            await attempt("ping", client.send_ping())
            await attempt("setLevel", client.set_logging_level("info"))


asyncio.run(main())
