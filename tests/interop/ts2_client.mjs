// The TypeScript SDK 2.x client (@modelcontextprotocol/client) against a server in the
// 2026-07-28 era: over stdio (argv: COMMAND ARGS...) or Streamable HTTP (argv: --http
// URL), with versionNegotiation mode MODE (modern or auto). Prints one JSON row per
// check ({label, check, ok, detail}; run.sh adds the scenario): the negotiated version,
// tools/list, a stateless tools/call, and an input_required round (the SDK answers the
// server's elicitation through its handler and retries with the requestState echoed).
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const argv = process.argv.slice(2);
const mode = process.env.MODE || 'auto';
const label = `ts2 ${mode}`;
const row = (check, ok, detail) => console.log(JSON.stringify({ label, check: `sdk:${check}`, ok, detail }));

const client = new Client(
    { name: 'ts2-interop', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
);
client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { confirmed: true, name: 'interop' } }));
const transport =
    argv[0] === '--http'
        ? new StreamableHTTPClientTransport(new URL(argv[1]))
        : new StdioClientTransport({ command: argv[0], args: argv.slice(1) });
try {
    await client.connect(transport);
    const version = client.getNegotiatedProtocolVersion();
    row('version', version === '2026-07-28', `negotiated ${version}`);
    const names = [];
    let cursor;
    do {
        const page = await client.listTools(cursor ? { cursor } : {});
        names.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
    } while (cursor && names.length < 1000);
    row('tools-list', names.includes('echo'), `${names.length} tools, every page`);
    const echo = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
    row('call', echo.content?.[0]?.text === 'Echo: hi', JSON.stringify(echo.content));
    const mrtr = await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} });
    const text = mrtr.content?.[0]?.text ?? '';
    row('input-required', !mrtr.isError && text.includes('interop'), JSON.stringify(mrtr.content));
    await client.close();
} catch (e) {
    row('ran', false, String(e?.stack ?? e));
}
