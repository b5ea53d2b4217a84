"""A small MCP server on the official Python SDK (mcp 2.3.0): tools, resources, prompts,
completion, logging and progress, over stdio. Speaks 2026-07-28 and the handshake versions."""

from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("capture-server", instructions="Adds numbers. Café ☕ \"quoted\".")


@server.tool(description="Adds two numbers; reports progress and logs.")
async def add(a: float, b: float, ctx: Context) -> float:
    await ctx.report_progress(0.5, 1.0, "halfway 😀")
    await ctx.info(f"adding {a} and {b}")
    return a + b


@server.tool(description="Fails on purpose.")
def fail(reason: str) -> str:
    raise ValueError(f"failed: {reason}")


@server.tool(description="Returns structured data.")
def weather(city: str) -> dict:
    return {"city": city, "temperature": 21.5, "conditions": "sunny ☀"}


@server.resource("file:///notes.txt", mime_type="text/plain", description="Notes")
def notes() -> str:
    return "line one\nline two \"quoted\" 😀"


@server.resource("file:///logs/{day}.log", description="A day's log")
def day_log(day: str) -> str:
    return f"log of {day}"


@server.prompt(description="Reviews code")
def review(code: str, language: str = "python") -> str:
    return f"Please review this {language} code:\n{code}"


@server.completion()
async def complete(ref, argument, context):
    from mcp.types import Completion

    return Completion(values=["python", "rust"], total=2, has_more=False)


if __name__ == "__main__":
    server.run("stdio")
