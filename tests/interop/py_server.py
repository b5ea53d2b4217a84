#!/usr/bin/env python3
"""A small stdio MCP server written with the official Python SDK (PyPI `mcp`, its
low-level `Server`), the peer for examples/client in the interop checks.

    python py_server.py [--page-size N]     (default 2)

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

import sys

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

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


if __name__ == "__main__":
    anyio.run(main)
