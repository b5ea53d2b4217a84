#!/usr/bin/env python3
"""The official Python SDK (mcp, stdio transport) against the firmware under QEMU.

    py_client.py ELF WORKDIR

Session 1: stdio_client spawns relay.py (which records the wire and slips one malformed
line in after the first ping), which spawns QEMU. initialize, ping, logging, tools/list,
each tool (blink with progress, and a blink cancelled after its first progress), every
resource page and each resource, the prompt, an unknown method. Session 2: stdio_client
spawns QEMU itself, as any user would, and measures ping round trips. Prints one JSON row
per check; WORKDIR gets py-wire.jsonl (for wire.py) and py.defmt (for check_log.py).
"""

import json
import statistics
import sys
import time
from pathlib import Path

import anyio
import mcp_types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

sys.path.insert(0, str(Path(__file__).parent))
import qemu  # noqa: E402

HERE = Path(__file__).resolve().parent
LABEL = "py"
failed = False
figures = {}


async def check(name, fn):
    global failed
    try:
        detail = await fn()
        qemu.row(LABEL, f"sdk: {name}", True, detail or "")
    except Exception as e:  # noqa: BLE001 - every failure is a row
        failed = True
        qemu.row(LABEL, f"sdk: {name}", False, f"{type(e).__name__}: {e}")


def text(result):
    return result.content[0].text


async def full_session(elf, work):
    cmd = qemu.command(elf, defmt_log=str(work / "py.defmt"))
    params = StdioServerParameters(command=sys.executable,
                                   args=[str(HERE / "relay.py"), str(work / "py-wire.jsonl"), "--garbage-after", "ping",
                                         "--", *cmd])
    logs = []

    async def on_log(p):
        logs.append(p.data)

    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, logging_callback=on_log,
                                 client_info=types.Implementation(name="ci-py-client", version="1")) as s:

            async def initialize():
                r = await s.initialize()
                assert r.server_info.name == "mcp-sansio-cortex-m", r.server_info
                assert r.capabilities.tools is not None and r.capabilities.resources is not None
                return f"negotiated {r.protocol_version}"

            await check("initialize", initialize)

            async def ping():
                await s.send_ping()

            await check("ping", ping)

            async def logging():
                await s.set_logging_level("info")

            await check("logging/setLevel", logging)

            async def tools():
                names = [t.name for t in (await s.list_tools()).tools]
                assert names == ["add", "read_sensor", "blink", "stats"], names
                return names

            await check("tools/list", tools)

            async def add():
                r = await s.call_tool("add", {"a": 20, "b": 22})
                assert text(r) == "42" and not r.is_error, r
                r = await s.call_tool("add", {"a": 1})
                assert r.is_error, r
                return "20 + 22 = 42; a missing argument is a tool error"

            await check("add", add)

            async def sensor():
                r = await s.call_tool("read_sensor", {"sensor": "humidity"})
                assert text(r).startswith("humidity: ") and text(r).endswith(" %RH"), r
                return text(r)

            await check("read_sensor", sensor)

            async def stats():
                r = await s.call_tool("stats", {})
                figures["stats"] = {k: int(v) for k, v in (kv.split("=") for kv in text(r).split())}
                return text(r)

            await check("stats", stats)

            async def blink():
                values = []

                async def on_progress(p, total, message):
                    values.append(p)

                r = await s.call_tool("blink", {"times": 4, "interval_ms": 30}, read_timeout_seconds=10,
                                      progress_callback=on_progress)
                assert text(r) == "blinked 4 times", r
                assert values and all(b > a for a, b in zip(values, values[1:])), values
                return f"progress {values}"

            await check("blink with progress", blink)

            async def cancel():
                started = anyio.Event()
                outcome = {}

                async def on_progress(p, total, message):
                    started.set()

                async def call(holder):
                    with anyio.CancelScope() as scope:
                        holder.append(scope)
                        outcome["result"] = await s.call_tool("blink", {"times": 50, "interval_ms": 40},
                                                              read_timeout_seconds=30, progress_callback=on_progress)
                    outcome["cancelled"] = scope.cancelled_caught

                holder = []
                async with anyio.create_task_group() as tg:
                    tg.start_soon(call, holder)
                    with anyio.fail_after(5):
                        await started.wait()
                    holder[0].cancel()
                assert outcome.get("cancelled") and "result" not in outcome, outcome
                await anyio.sleep(0.3)
                await s.send_ping()
                r = await s.call_tool("blink", {"times": 1, "interval_ms": 10})
                assert text(r) == "blinked 1 times", r
                return "cancelled after the first progress; server alive, slot free"

            await check("blink cancelled", cancel)

            async def resources():
                uris, pages, cursor = [], 0, None
                while True:
                    p = types.PaginatedRequestParams(cursor=cursor) if cursor else None
                    r = await s.list_resources(params=p)
                    pages += 1
                    uris += [str(x.uri) for x in r.resources]
                    cursor = r.next_cursor
                    if cursor is None or pages > 10:
                        break
                assert pages == 3 and len(uris) == 5 and len(set(uris)) == 5, (pages, uris)
                for uri in uris:
                    c = (await s.read_resource(uri)).contents[0]
                    assert str(c.uri) == uri and c.text, c
                return f"{len(uris)} resources in {pages} pages, each read"

            await check("resources", resources)

            async def prompt():
                names = [p.name for p in (await s.list_prompts()).prompts]
                assert names == ["diagnose"], names
                r = await s.get_prompt("diagnose", {"symptom": "runs hot"})
                t = r.messages[0].content.text
                assert "runs hot" in t, t
                return t[:60]

            await check("prompt", prompt)

            async def unknown():
                try:
                    await s.send_request(types.Request(method="device/self-destruct", params=None), types.EmptyResult)
                except MCPError as e:
                    assert e.code == -32601, e
                    return f"MCPError {e.code}: {e.message}"
                raise AssertionError("the unknown method succeeded")

            await check("unknown method", unknown)

            async def log_messages():
                assert "blink: started 4" in logs and "blink: finished 4" in logs, logs
                return logs

            await check("log notifications", log_messages)


async def direct_session(elf):
    """stdio_client spawning QEMU itself (no relay), as a user's configuration would."""
    params = StdioServerParameters(command=qemu.BASE[0], args=qemu.command(elf, semihosting=False)[1:])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:

            async def initialize():
                r = await s.initialize()
                return f"negotiated {r.protocol_version}"

            await check("direct: initialize", initialize)

            async def pings():
                rtts = []
                for _ in range(100):
                    t = time.perf_counter()
                    await s.send_ping()
                    rtts.append((time.perf_counter() - t) * 1000)
                rtts.sort()
                figures["sdk_ping_ms"] = {"n": len(rtts), "median": round(statistics.median(rtts), 3),
                                          "p90": round(rtts[89], 3)}
                return figures["sdk_ping_ms"]

            await check("direct: 100 pings", pings)


async def main():
    elf, work = sys.argv[1], Path(sys.argv[2])
    work.mkdir(parents=True, exist_ok=True)
    (work / "py-wire.jsonl").unlink(missing_ok=True)
    await full_session(elf, work)
    await direct_session(elf)
    (work / "py-figures.json").write_text(json.dumps(figures, indent=1))


if __name__ == "__main__":
    anyio.run(main)
    sys.exit(1 if failed else 0)
