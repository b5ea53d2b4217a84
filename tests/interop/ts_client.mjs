// The official TypeScript SDK's Client + StdioClientTransport against a stdio server,
// once per protocol version the SDK offers. Every session runs through shim.py, which
// logs each line; wire_check.py then checks the logs.
//
//   node ts_client.mjs PROFILE LOGDIR -- COMMAND [ARG...]
//
// Prints one JSON row per check: {"label", "check", "ok", "detail"}. These checks
// assert what the SDK hands back (values, errors); run.sh then runs wire_check.py on
// each log (LOGDIR/ts-VERSION.jsonl) for what crossed the pipe.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Protocol } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
    CallToolResultSchema,
    CreateMessageRequestSchema,
    ElicitRequestSchema,
    EmptyResultSchema,
    InitializeResultSchema,
    LATEST_PROTOCOL_VERSION,
    McpError,
    SUPPORTED_PROTOCOL_VERSIONS
} from '@modelcontextprotocol/sdk/types.js';

// Run from a copy beside node_modules; INTEROP_DIR names the folder with the helpers.
const here = process.env.INTEROP_DIR ?? dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const sep = args.indexOf('--');
const [profileName, logDir] = args.slice(0, sep);
const command = args.slice(sep + 1);
const profile = JSON.parse(readFileSync(join(here, 'servers.json'), 'utf8'))[profileName];
const UNKNOWN = 'interop/no-such-method';
const sleep = ms => new Promise(r => setTimeout(r, ms));

function row(label, check, ok, detail) {
    console.log(JSON.stringify({ label, check, ok, detail }));
}

// Client.connect always offers LATEST_PROTOCOL_VERSION. For the other versions this
// does what Client.connect does (SDK 1.32.2, client/index.js) with another offer.
// Returns the negotiated version.
async function connectOffering(client, transport, version) {
    if (version === LATEST_PROTOCOL_VERSION) {
        // Client.connect hands the negotiated version to transports that take it (HTTP).
        let negotiated;
        transport.setProtocolVersion = v => (negotiated = v);
        await client.connect(transport);
        return negotiated;
    }
    await Protocol.prototype.connect.call(client, transport);
    const result = await client.request(
        { method: 'initialize', params: { protocolVersion: version, capabilities: client._capabilities, clientInfo: client._clientInfo } },
        InitializeResultSchema
    );
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
        throw new Error(`Server's protocol version is not supported: ${result.protocolVersion}`);
    }
    client._serverCapabilities = result.capabilities;
    client._serverVersion = result.serverInfo;
    await client.notification({ method: 'notifications/initialized' });
    return result.protocolVersion;
}

async function session(version) {
    const label = `ts ${version}`;
    const log = join(logDir, `ts-${version}.jsonl`);
    const transport = new StdioClientTransport({
        command: 'python3',
        args: [join(here, 'shim.py'), log, '--', ...command],
        stderr: 'inherit'
    });
    const client = new Client(
        { name: 'interop-ts-client', version: '1.0.0' },
        { capabilities: { sampling: {}, elicitation: { form: {} } } }
    );
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
        role: 'assistant', content: { type: 'text', text: 'scripted sample' }, model: 'interop-script', stopReason: 'endTurn'
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));

    const check = async (name, fn) => {
        try {
            const detail = await fn();
            row(label, `sdk:${name}`, true, detail ?? '');
        } catch (e) {
            row(label, `sdk:${name}`, false, String(e?.stack ?? e).split('\n').slice(0, 3).join(' | '));
        }
    };

    let connected = false;
    let negotiated;
    await check('initialize', async () => {
        negotiated = await connectOffering(client, transport, version);
        connected = true;
        const want = profile.versions.includes(version) ? version : profile.versions.at(-1);
        if (negotiated !== want) throw new Error(`negotiated ${negotiated}, want ${want}`);
        return `negotiated ${negotiated} with ${JSON.stringify(client.getServerVersion())}`;
    });
    if (!connected) return log;

    await check('ping', async () => {
        const r = await client.ping();
        if (JSON.stringify(r) !== '{}') throw new Error(`ping result ${JSON.stringify(r)}`);
    });

    const walkers = {
        'tools/list': c => client.listTools(c),
        'resources/list': c => client.listResources(c),
        'resources/templates/list': c => client.listResourceTemplates(c),
        'prompts/list': c => client.listPrompts(c)
    };
    for (const [method, spec] of Object.entries(profile.lists)) {
        await check(`walk ${method}`, async () => {
            const field = spec.names ? 'name' : spec.uris ? 'uri' : 'uriTemplate';
            const want = spec.names ?? spec.uris ?? spec.uriTemplates;
            const seen = [];
            let cursor, pages = 0;
            do {
                const r = await walkers[method](cursor === undefined ? undefined : { cursor });
                pages++;
                seen.push(...r[spec.key].map(x => x[field]));
                cursor = r.nextCursor;
                if (pages > 100) throw new Error('more than 100 pages');
            } while (cursor !== undefined);
            const missing = want.filter(w => !seen.includes(w));
            if (missing.length) throw new Error(`missing ${missing}`);
            if (new Set(seen).size !== seen.length) throw new Error(`duplicates in ${seen}`);
            return `${seen.length} in ${pages} pages`;
        });
    }

    await check('progress', async () => {
        const values = [];
        const r = await client.callTool(
            { name: profile.progress.name, arguments: profile.progress.arguments },
            CallToolResultSchema,
            { onprogress: p => values.push(p.progress), timeout: 10000 }
        );
        if (r.isError) throw new Error(`tool error ${JSON.stringify(r)}`);
        // The SDK runs progress handlers in a microtask but settles the response at once
        // (shared/protocol.js, _onnotification vs _onresponse), so progress that arrives
        // in the same read as the response is dropped. The count is asserted on the wire.
        if (values.length < 1) throw new Error('no progress notification delivered');
        if (!values.every((v, i) => i === 0 || v > values[i - 1])) throw new Error(`not increasing: ${values}`);
        return `progress ${values.join(',')}; ${JSON.stringify(r.content).slice(0, 80)}`;
    });

    await check('cancel', async () => {
        const ac = new AbortController();
        let firstProgress;
        const started = new Promise(r => (firstProgress = r));
        const call = client.callTool(
            { name: profile.cancel.name, arguments: profile.cancel.arguments },
            CallToolResultSchema,
            { signal: ac.signal, onprogress: () => firstProgress(), timeout: 30000 }
        );
        const outcome = call.then(
            r => ({ resolved: r }),
            e => ({ rejected: e })
        );
        await Promise.race([started, sleep(5000)]);
        ac.abort('interop: cancelled by the client');
        const o = await outcome;
        if (!o.rejected) throw new Error(`call resolved after abort: ${JSON.stringify(o.resolved)}`);
        // Give the server the time the call would have taken, then prove it is alive.
        await sleep(profile.cancel.restMs);
        const r = await client.ping();
        if (JSON.stringify(r) !== '{}') throw new Error('ping after cancel failed');
        return `rejected with "${String(o.rejected?.message ?? o.rejected).slice(0, 60)}", server alive`;
    });

    const ORDER = ['2024-10-07', '2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
    for (const sr of profile.serverRequests ?? []) {
        if (sr.since && ORDER.indexOf(negotiated) < ORDER.indexOf(sr.since)) {
            row(label, `sdk:server request via ${sr.name}`, null, `not in ${negotiated} (since ${sr.since})`);
            continue;
        }
        await check(`server request via ${sr.name}`, async () => {
            const r = await client.callTool({ name: sr.name, arguments: sr.arguments }, CallToolResultSchema, { timeout: 10000 });
            const text = JSON.stringify(r.content);
            if (r.isError || !text.includes(sr.expect)) throw new Error(`result ${text.slice(0, 200)} lacks "${sr.expect}"`);
            return text.slice(0, 100);
        });
    }

    await check('unknown method', async () => {
        try {
            await client.request({ method: UNKNOWN, params: {} }, EmptyResultSchema);
        } catch (e) {
            if (e instanceof McpError && e.code === -32601) return `McpError ${e.code}: ${e.message}`;
            throw new Error(`wrong error ${e}`);
        }
        throw new Error('unknown method succeeded');
    });

    await client.close();
    return log;
}

// Every version the SDK offers (its own list, newest first). run.sh checks the logs.
for (const v of SUPPORTED_PROTOCOL_VERSIONS) {
    await session(v);
}
