// Drives a stdio MCP server with the official TypeScript SDK client (1.32.2), through
// record.py, exercising every feature the server lists.
//
//   node ts_client.mjs LOG SOURCE -- SERVER_COMMAND ARGS...
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

const [log, source] = process.argv.slice(2, 4);
const server = process.argv.slice(process.argv.indexOf("--") + 1);
const recorder = new URL("./record.py", import.meta.url).pathname;
const transport = new StdioClientTransport({
  command: "python3",
  args: [recorder, log, source, "--", ...server],
  stderr: "ignore",
});
const client = new Client(
  { name: "capture-client", title: "Capture client ✓", version: "1.0.0" },
  { capabilities: { sampling: {}, elicitation: { form: {}, url: {} }, roots: { listChanged: true } } },
);
client.setRequestHandler(CreateMessageRequestSchema, async () => ({
  role: "assistant",
  content: { type: "text", text: "Paris, \"the city of light\" 😀\n" },
  model: "fake-model-1",
  stopReason: "endTurn",
}));
client.setRequestHandler(ElicitRequestSchema, async (req) =>
  req.params.mode === "url" ? { action: "accept" } : { action: "decline" });
client.setRequestHandler(ListRootsRequestSchema, async () => ({
  roots: [{ uri: "file:///tmp/project", name: "Project ☃" }],
}));

// A value for each required argument, from the tool's input schema.
function sample(schema) {
  if (!schema) return "x";
  if (schema.enum) return schema.enum[0];
  switch (schema.type) {
    case "number": case "integer": return 1;
    case "boolean": return true;
    case "array": return [];
    case "object": return {};
    default: return "hello \"world\" 😀";
  }
}
// Tools never called: get-env prints the server's environment (nothing of this machine
// goes into the fixture).
const SKIP = new Set(["get-env"]);
// Arguments given explicitly: gzip-file-as-resource would otherwise fetch its default URL.
const OVERRIDES = {
  "gzip-file-as-resource": { name: "hello.txt.gz", data: "data:text/plain;base64,aGVsbG8g8J+YgA==", outputType: "resource" },
};
function args(tool) {
  if (OVERRIDES[tool.name]) return OVERRIDES[tool.name];
  const props = tool.inputSchema?.properties ?? {};
  const out = {};
  for (const name of tool.inputSchema?.required ?? []) out[name] = sample(props[name]);
  return out;
}
const timeout = { timeout: 15000 };
const attempt = async (what, f) => {
  try { await f(); } catch (e) { console.error(`${source}: ${what}: ${e.message}`); }
};

await client.connect(transport);
await attempt("ping", () => client.ping());
await attempt("logging", () => client.setLoggingLevel("debug"));
const { tools } = await client.listTools();
for (const tool of tools) {
  if (SKIP.has(tool.name)) continue;
  const support = tool.execution?.taskSupport;
  if (support === "required" || support === "optional") {
    // Task-augmented call (2025-11-25): CreateTaskResult, tasks/get polling, tasks/result.
    await attempt(`tasks ${tool.name}`, async () => {
      for await (const m of client.experimental.tasks.callToolStream(
        { name: tool.name, arguments: args(tool) }, undefined, { timeout: 30000 })) {
        if (m.type === "error") throw m.error;
      }
    });
    if (support === "required") continue;
  }
  await attempt(`tools/call ${tool.name}`, () =>
    client.callTool({ name: tool.name, arguments: args(tool) }, undefined, { ...timeout, onprogress: () => {} }));
}
await attempt("resources", async () => {
  const { resources } = await client.listResources();
  for (const r of resources.slice(0, 3)) await client.readResource({ uri: r.uri });
  if (resources[0]) {
    await client.subscribeResource({ uri: resources[0].uri });
    await client.unsubscribeResource({ uri: resources[0].uri });
  }
  await client.listResourceTemplates();
});
await attempt("prompts", async () => {
  const { prompts } = await client.listPrompts();
  for (const p of prompts) {
    const a = {};
    for (const arg of p.arguments ?? []) if (arg.required) a[arg.name] = "1";
    await attempt(`prompts/get ${p.name}`, () => client.getPrompt({ name: p.name, arguments: a }));
    if (p.arguments?.length) {
      await attempt(`complete ${p.name}`, () => client.complete({
        ref: { type: "ref/prompt", name: p.name },
        argument: { name: p.arguments[0].name, value: "" },
      }));
    }
  }
});
await attempt("roots changed", () => client.sendRootsListChanged());
await new Promise((r) => setTimeout(r, 500));
await client.close();
