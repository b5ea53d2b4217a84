#!/usr/bin/env python3
"""A small MCP server written with the official Python SDK (PyPI `mcp`, its low-level
`Server`), the peer for examples/client in the interop checks.

    python py_server.py [--page-size N]              stdio (default page size 2)
    python py_server.py --http PORT [--page-size N]  Streamable HTTP at /mcp
                                                     (Server.streamable_http_app, with an
                                                     in-memory event store: resumable)
    python py_server.py --sse PORT [--page-size N]   legacy HTTP+SSE: GET /sse, POST
                                                     /messages/ (SseServerTransport)

Over HTTP it listens on 127.0.0.1 (PORT 0: any free port) with the SDK's DNS-rebinding
protection for localhost, and prints `listening on http://127.0.0.1:PORT` on stderr
once it accepts connections.

Every list is paginated (cursors are the next offset, opaque to the client):
  tools      echo {message}           -> the message back
             count {steps, interval_ms} -> progress 1..steps, then "counted N"
             slow {steps, interval_ms}  -> like count, for cancellation; never
                                           answers a cancelled call (the SDK drops it)
             ask_llm {prompt}          -> sends sampling/createMessage to the client,
                                           returns what the model said
             ask_user {message}        -> sends elicitation/create (form), returns the
                                           action and content
             fail                      -> a tool error (isError)
  resources  interop://r/0..4 (text), templates interop://t/0..2/{id}
  prompts    p0, p1, p2 (p1 has an argument)
servers.json ("python") lists what the checks expect of it.
"""

import socket
import sys
from itertools import count

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.sse import SseServerTransport
from mcp.server.stdio import stdio_server
from mcp.server.streamable_http import EventMessage, EventStore
from mcp.server.transport_security import TransportSecuritySettings

PAGE = 2
if "--page-size" in sys.argv:
    PAGE = int(sys.argv[sys.argv.index("--page-size") + 1])

OBJ = {"type": "object"}
STEPS = {"type": "object", "properties": {"steps": {"type": "integer"}, "interval_ms": {"type": "integer"}}}
TOOLS = [
    types.Tool(name="echo", description="Echo the message", input_schema={"type": "object", "properties": {"message": {"type": "string"}}}),
    types.Tool(name="count", description="Count with progress", input_schema=STEPS),
    types.Tool(name="slow", description="Count slowly (cancel me)", input_schema=STEPS),
    types.Tool(name="ask_llm", description="Ask the client's LLM", input_schema={"type": "object", "properties": {"prompt": {"type": "string"}}}),
    types.Tool(name="ask_user", description="Ask the user", input_schema={"type": "object", "properties": {"message": {"type": "string"}}}),
    types.Tool(name="fail", description="Always fails", input_schema=OBJ),
]
RESOURCES = [types.Resource(name=f"r{i}", uri=f"interop://r/{i}", mime_type="text/plain") for i in range(5)]
TEMPLATES = [types.ResourceTemplate(name=f"t{i}", uri_template=f"interop://t/{i}/{{id}}") for i in range(3)]
PROMPTS = [
    types.Prompt(name="p0", description="No arguments"),
    types.Prompt(name="p1", description="One argument", arguments=[types.PromptArgument(name="topic", required=True)]),
    types.Prompt(name="p2", description="No arguments either"),
]


def page(items, params):
    start = int(params.cursor) if params is not None and params.cursor else 0
    end = start + PAGE
    return items[start:end], (str(end) if end < len(items) else None)


async def list_tools(ctx, params):
    items, nxt = page(TOOLS, params)
    return types.ListToolsResult(tools=items, next_cursor=nxt)


async def list_resources(ctx, params):
    items, nxt = page(RESOURCES, params)
    return types.ListResourcesResult(resources=items, next_cursor=nxt)


async def list_templates(ctx, params):
    items, nxt = page(TEMPLATES, params)
    return types.ListResourceTemplatesResult(resource_templates=items, next_cursor=nxt)


async def list_prompts(ctx, params):
    items, nxt = page(PROMPTS, params)
    return types.ListPromptsResult(prompts=items, next_cursor=nxt)


async def read_resource(ctx, params):
    return types.ReadResourceResult(contents=[types.TextResourceContents(uri=params.uri, text=f"contents of {params.uri}")])


async def get_prompt(ctx, params):
    topic = (params.arguments or {}).get("topic", "nothing")
    return types.GetPromptResult(messages=[types.PromptMessage(role="user", content=types.TextContent(type="text", text=f"{params.name} about {topic}"))])


def text(s, error=False):
    return types.CallToolResult(content=[types.TextContent(type="text", text=s)], is_error=error)


async def call_tool(ctx, params):
    args = params.arguments or {}
    name = params.name
    if name == "echo":
        return text(str(args.get("message", "")))
    if name in ("count", "slow"):
        steps = int(args.get("steps", 5))
        interval = int(args.get("interval_ms", 20)) / 1000
        for i in range(1, steps + 1):
            await anyio.sleep(interval)
            await ctx.session.report_progress(i, steps, f"step {i}")
        return text(f"counted {steps}")
    if name == "ask_llm":
        r = await ctx.session.create_message(
            [types.SamplingMessage(role="user", content=types.TextContent(type="text", text=str(args.get("prompt", "hello"))))],
            max_tokens=50,
        )
        said = r.content.text if isinstance(r.content, types.TextContent) else repr(r.content)
        return text(f"{r.model} said: {said}")
    if name == "ask_user":
        r = await ctx.session.elicit_form(
            str(args.get("message", "Your name?")),
            {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        )
        return text(f"action={r.action} content={r.content}")
    if name == "fail":
        return text("failed on purpose", error=True)
    return text(f"unknown tool {name}", error=True)


server = Server(
    "interop-python-server",
    version="1.0.0",
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_list_resources=list_resources,
    on_list_resource_templates=list_templates,
    on_read_resource=read_resource,
    on_list_prompts=list_prompts,
    on_get_prompt=get_prompt,
)


async def main():
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


class MemoryEventStore(EventStore):
    """Every event of every stream, in order, for Last-Event-ID replay: a replay sends the
    events after the given one *on the same stream* only (the SDK ships no store)."""

    def __init__(self):
        self.events = []  # (event id, stream id, message)
        self.ids = count(1)

    async def store_event(self, stream_id, message):
        event_id = str(next(self.ids))
        self.events.append((event_id, stream_id, message))
        return event_id

    async def replay_events_after(self, last_event_id, send_callback):
        at = next((i for i, e in enumerate(self.events) if e[0] == last_event_id), None)
        if at is None:
            return None
        stream = self.events[at][1]
        for event_id, stream_id, message in self.events[at + 1:]:
            if stream_id == stream and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream


def serve_http(port, legacy):
    import uvicorn
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Mount, Route

    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    bound = sock.getsockname()[1]
    if legacy:
        security = TransportSecuritySettings(
            allowed_hosts=["127.0.0.1:*", "localhost:*"],
            allowed_origins=["http://127.0.0.1:*", "http://localhost:*"],
        )
        sse = SseServerTransport("/messages/", security_settings=security)

        async def handle_sse(request):
            async with sse.connect_sse(request.scope, request.receive, request._send) as (read, write):
                await server.run(read, write, server.create_initialization_options())
            return Response()

        app = Starlette(routes=[Route("/sse", endpoint=handle_sse, methods=["GET"]),
                                Mount("/messages/", app=sse.handle_post_message)])
    else:
        app = server.streamable_http_app(event_store=MemoryEventStore(), host="127.0.0.1")

    class Announcing(uvicorn.Server):
        async def startup(self, sockets=None):
            await super().startup(sockets=sockets)
            print(f"listening on http://127.0.0.1:{bound}", file=sys.stderr, flush=True)

    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    Announcing(config).run(sockets=[sock])


if __name__ == "__main__":
    if "--http" in sys.argv or "--sse" in sys.argv:
        flag = "--http" if "--http" in sys.argv else "--sse"
        serve_http(int(sys.argv[sys.argv.index(flag) + 1]), legacy=flag == "--sse")
    else:
        anyio.run(main)
