// The official TypeScript SDK's Client against a server, once per protocol version the
// SDK offers, over stdio or HTTP:
//
//   node ts_client.mjs PROFILE LOGDIR -- COMMAND [ARG...]
//       StdioClientTransport; every session runs through shim.py, which logs each line
//   node ts_client.mjs PROFILE LOGDIR --transport http|sse|auto --url URL [--cut-tool NAME]
//       http: StreamableHTTPClientTransport; sse: SSEClientTransport (legacy HTTP+SSE);
//       auto: Streamable HTTP first, and SSEClientTransport when that fails (the SDK
//       README's backwards-compatible client). Every session goes through its own
//       http_shim.py (NAME: the tool whose SSE stream the shim cuts once, to make the
//       client resume). A Streamable HTTP session ends with terminateSession() (DELETE),
//       then one probe request with the ended session's id (header X-Interop-Probe), whose
//       answer http_check.py expects to be 404.
//
// Prints one JSON row per check: {"label", "check", "ok", "detail"}. These checks
// assert what the SDK hands back (values, errors); run.sh then runs wire_check.py (and
// http_check.py) on each log (LOGDIR/ts-VERSION.jsonl) for what crossed the wire.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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
const [profileName, logDir] = args;
const opt = name => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const sep = args.indexOf('--');
const command = sep >= 0 ? args.slice(sep + 1) : [];
const httpMode = opt('--transport'); // undefined: stdio
const serverUrl = opt('--url');
const cutTool = opt('--cut-tool');
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
        // Client.connect hands the negotiated version to transports that take it (HTTP,
        // which then sends it in MCP-Protocol-Version).
        let negotiated;
        const set = transport.setProtocolVersion?.bind(transport);
        transport.setProtocolVersion = v => {
            negotiated = v;
            set?.(v);
        };
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
    transport.setProtocolVersion?.(result.protocolVersion);
    await client.notification({ method: 'notifications/initialized' });
    return result.protocolVersion;
}

// An http_shim.py in front of URL, logging to LOG; resolves to the URL through it.
function startShim(log, url) {
    const u = new URL(url);
    const shimArgs = [join(here, 'http_shim.py'), log, '--upstream', u.origin];
    if (cutTool) shimArgs.push('--cut-tool', cutTool);
    const child = spawn('python3', shimArgs, { stdio: ['ignore', 'inherit', 'pipe'] });
    return new Promise((resolve, reject) => {
        let seen = '';
        child.stderr.on('data', d => {
            if (seen === null) return process.stderr.write(d);
            seen += d;
            const m = seen.match(/listening on (http:\/\/[^\s/]+)/);
            if (m) {
                seen = null;
                resolve({ child, url: new URL(u.pathname + u.search, m[1]) });
            }
        });
        child.on('exit', code => reject(new Error(`http_shim.py exited with ${code}`)));
    });
}

function newClient() {
    const client = new Client(
        { name: 'interop-ts-client', version: '1.0.0' },
        { capabilities: { sampling: {}, elicitation: { form: {} } } }
    );
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
        role: 'assistant', content: { type: 'text', text: 'scripted sample' }, model: 'interop-script', stopReason: 'endTurn'
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'decline' }));
    return client;
}

// After terminateSession(): one request with the ended session's id, which the server
// must answer 404 (http_check.py reads the answer from the log).
async function probeEndedSession(url, sessionId, version) {
    const ac = new AbortController();
    const timer = setTimeout(() => ac.abort(), 3000);
    try {
        const r = await fetch(url, {
            method: 'POST',
            signal: ac.signal,
            headers: {
                'content-type': 'application/json',
                accept: 'application/json, text/event-stream',
                'mcp-session-id': sessionId,
                'mcp-protocol-version': version,
                'x-interop-probe': '1'
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 'interop-probe', method: 'ping' })
        });
        ac.abort();
        return r.status;
    } catch (e) {
        return String(e);
    } finally {
        clearTimeout(timer);
    }
}

async function session(version) {
    const label = `ts ${version}`;
    const log = join(logDir, `ts-${version}.jsonl`);
    let shim, transport;
    let client = newClient();
    if (httpMode === undefined) {
        transport = new StdioClientTransport({
            command: 'python3',
            args: [join(here, 'shim.py'), log, '--', ...command],
            stderr: 'inherit'
        });
    } else {
        shim = await startShim(log, serverUrl);
        transport = httpMode === 'sse' ? new SSEClientTransport(shim.url) : new StreamableHTTPClientTransport(shim.url);
    }
    try {
        return await script(label, log, version, client, transport, shim);
    } finally {
        shim?.child.kill();
    }
}

async function script(label, log, version, client, transport, shim) {
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
        try {
            negotiated = await connectOffering(client, transport, version);
        } catch (e) {
            if (httpMode !== 'auto') throw e;
            // The SDK README's backwards-compatible client: Streamable HTTP failed, so
            // the server may be an HTTP+SSE one.
            await client.close().catch(() => {});
            client = newClient();
            transport = new SSEClientTransport(shim.url);
            negotiated = await connectOffering(client, transport, version);
            row(label, 'sdk:fallback', true, `Streamable HTTP failed (${String(e.message ?? e).slice(0, 60)}); connected over SSE`);
        }
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

    if (transport instanceof StreamableHTTPClientTransport) {
        const sessionId = transport.sessionId;
        await check('terminate session', async () => {
            await transport.terminateSession();
        });
        if (sessionId) await probeEndedSession(shim.url, sessionId, negotiated);
    }
    await client.close();
    return log;
}

// Every version the SDK offers (its own list, newest first). run.sh checks the logs.
for (const v of SUPPORTED_PROTOCOL_VERSIONS) {
    await session(v);
}
