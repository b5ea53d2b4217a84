// The stand-in for examples/client --http as the conformance suite's client command: the
// official TypeScript SDK's Client + StreamableHTTPClientTransport (1.32.2), doing what
// each client scenario asks (run.sh --stand-ins; it shows the client runs of run.sh work
// before our client has HTTP).
//
//   node ts_conformance_client.mjs URL        (the suite runs `<command> <url>`)
//
// The suite names the scenario in MCP_CONFORMANCE_SCENARIO (and the protocol version in
// MCP_CONFORMANCE_PROTOCOL_VERSION, extra data as JSON in MCP_CONFORMANCE_CONTEXT). Per
// scenario (this is also what examples/client must do in that mode):
//   initialize                          initialize, tools/list, close
//   tools_call                          tools/list, then add_numbers {a, b} with numbers
//   elicitation-sep1034-client-defaults tools/list, test_client_elicitation_defaults; the
//                                       elicitation is accepted with every field set to
//                                       its schema default
//   sse-retry                           tools/list, test_reconnection: the server closes
//                                       the POST stream after a priming event with
//                                       `retry`; the client reconnects with GET and
//                                       Last-Event-ID after that many ms
//   json-schema-2020-12-preservation    tools/list, then json_schema_echo {schema: the
//                                       inputSchema of json_schema_2020_12_tool, verbatim}
//   anything else (auth/*, ...)         initialize, tools/list, every tool called with {}
// Exits 0 when the script ran, 1 on an error.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const log = (...a) => process.stderr.write(`ts-conformance-client [${scenario}]: ${a.join(' ')}\n`);

const client = new Client(
    { name: 'ts-conformance-stand-in', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} }, sampling: {} } }
);
client.setRequestHandler(ElicitRequestSchema, async request => {
    const properties = request.params.requestedSchema?.properties ?? {};
    const content = {};
    for (const [name, schema] of Object.entries(properties)) {
        if (schema.default !== undefined) content[name] = schema.default;
    }
    return { action: 'accept', content };
});

async function main() {
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const { tools } = await client.listTools();
    log(`tools: ${tools.map(t => t.name).join(', ')}`);
    switch (scenario) {
        case 'initialize':
            break;
        case 'tools_call':
            log(JSON.stringify(await client.callTool({ name: 'add_numbers', arguments: { a: 2, b: 3 } })));
            break;
        case 'elicitation-sep1034-client-defaults':
            log(JSON.stringify(await client.callTool({ name: 'test_client_elicitation_defaults', arguments: {} })));
            break;
        case 'sse-retry':
            log(JSON.stringify(await client.callTool({ name: 'test_reconnection', arguments: {} }, undefined, { timeout: 20000 })));
            break;
        case 'json-schema-2020-12-preservation': {
            const focal = tools.find(t => t.name === 'json_schema_2020_12_tool');
            log(JSON.stringify(await client.callTool({ name: 'json_schema_echo', arguments: { schema: focal?.inputSchema ?? {} } })));
            break;
        }
        default:
            for (const t of tools) {
                log(t.name, JSON.stringify(await client.callTool({ name: t.name, arguments: {} })).slice(0, 200));
            }
    }
    await client.close();
}

main().then(
    () => process.exit(0),
    e => {
        log('failed:', e?.stack ?? e);
        process.exit(1);
    }
);
