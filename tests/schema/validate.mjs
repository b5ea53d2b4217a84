// Validates the crate's sample messages (JSON lines from `cargo run --example
// schema_samples`) with the official TypeScript SDK's exported zod schemas.
//
//   node validate.mjs SAMPLES.jsonl
//
// Two packages, each pinned in package.json:
//   @modelcontextprotocol/sdk   1.32.2 (v1; knows 2024-11-05 .. 2025-11-25, one schema set)
//   @modelcontextprotocol/core  2.4.0  (v2; one merged schema set that also has the
//                                        2026-07-28 types: discover, subscriptions, resultType)
// Each sample is checked with `${type}Schema` (the message for requests and
// notifications, `message.result` for results) and the envelope with
// JSONRPCMessageSchema. Zod objects strip members they do not know, so the members of
// our message that do not survive parsing are listed too: a misspelt optional field
// would pass validation silently otherwise.
import { readFileSync } from "node:fs";

const v1 = await import("@modelcontextprotocol/sdk/types.js");
const v2 = await import("@modelcontextprotocol/core");
const sdks = [
  { name: "sdk@1.32.2", mod: v1, versions: ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"] },
  { name: "core@2.4.0", mod: v2, versions: ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] },
];

// Paths present in `ours` but not in `parsed`.
function dropped(ours, parsed, path = "", out = []) {
  if (ours && typeof ours === "object" && !Array.isArray(ours)) {
    for (const k of Object.keys(ours)) {
      const p = path ? `${path}.${k}` : k;
      if (!parsed || typeof parsed !== "object" || !(k in parsed)) out.push(p);
      else dropped(ours[k], parsed[k], p, out);
    }
  } else if (Array.isArray(ours) && Array.isArray(parsed)) {
    ours.forEach((x, i) => dropped(x, parsed[i], `${path}[${i}]`, out));
  }
  return out;
}

const lines = readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean);
let failed = 0;
const summary = {};
for (const line of lines) {
  const s = JSON.parse(line);
  for (const sdk of sdks) {
    if (!sdk.versions.includes(s.version)) continue;
    const key = `${sdk.name} ${s.version}`;
    summary[key] ??= { ok: 0, fail: 0, noSchema: new Set(), stripped: new Set() };
    const envelope = sdk.mod.JSONRPCMessageSchema.safeParse(s.message);
    // The SDKs split CreateMessageResult: an array `content` (tool use, 2025-11-25) is
    // only accepted by CreateMessageResultWithToolsSchema, which they apply when the
    // request carried tools.
    const withTools = s.type === "CreateMessageResult" && Array.isArray(s.message.result?.content);
    const schema = sdk.mod[withTools ? "CreateMessageResultWithToolsSchema" : `${s.type}Schema`];
    if (!schema) {
      summary[key].noSchema.add(s.type);
      if (!envelope.success) {
        failed++;
        summary[key].fail++;
        console.log(`FAIL ${key} ${s.type} envelope: ${JSON.stringify(envelope.error.issues)}`);
      }
      continue;
    }
    const value = s.kind === "result" ? s.message.result : s.message;
    const r = schema.safeParse(value);
    if (r.success && envelope.success) {
      summary[key].ok++;
      for (const p of dropped(value, r.data)) {
        if (p !== "jsonrpc" && p !== "id") summary[key].stripped.add(`${s.type}: ${p}`);
      }
    } else {
      failed++;
      summary[key].fail++;
      const issues = r.success ? envelope.error.issues : r.error.issues;
      console.log(`FAIL ${key} ${s.type} (${s.method}): ${JSON.stringify(issues).slice(0, 600)}`);
    }
  }
}
for (const [key, v] of Object.entries(summary)) {
  console.log(`${key}: ${v.ok} valid, ${v.fail} invalid` +
    (v.noSchema.size ? `; no schema for ${[...v.noSchema].join(", ")}` : ""));
  for (const p of v.stripped) console.log(`  stripped (unknown to this schema): ${p}`);
}
process.exit(failed ? 1 : 0);
