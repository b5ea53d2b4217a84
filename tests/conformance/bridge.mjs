// A Streamable HTTP front for a stdio MCP server, so that the official conformance suite
// (which drives servers over HTTP only) can reach examples/server.
//
//   node bridge.mjs PORT -- COMMAND [ARG...]
//
// The HTTP layer is the official TypeScript SDK's StreamableHTTPServerTransport (1.32.2),
// not ours: session ids, SSE streams, resumability, DNS-rebinding checks and the
// protocol-version header are the SDK's. Each HTTP session gets its own child process
// running COMMAND; JSON-RPC messages are relayed unchanged, one line each way.
//
// Routing server-to-client messages onto the right SSE stream needs the request they
// belong to, which stdio does not carry. The bridge infers it: responses by id; progress
// notifications by progress token; any other notification or request (logging, sampling,
// elicitation) goes to the most recent client request still unanswered, else to the
// session's standalone stream. That is the bridge's guess, not the server's statement.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const args = process.argv.slice(2);
const port = Number(args[0]);
const command = args.slice(args.indexOf('--') + 1);
const sessions = new Map(); // session id -> transport
const log = (...a) => process.stderr.write(`bridge: ${a.join(' ')}\n`);

function relay() {
    const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
    const pending = []; // client request ids not yet answered, oldest first
    const tokens = new Map(); // progress token -> request id
    const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new InMemoryEventStore(),
        retryInterval: 1000,
        enableDnsRebindingProtection: true,
        allowedHosts: [`localhost:${port}`, `127.0.0.1:${port}`],
        onsessioninitialized: id => sessions.set(id, transport)
    });
    transport.onmessage = message => {
        if ('method' in message && 'id' in message) {
            if (message.method !== 'ping') pending.push(message.id);
            const token = message.params?._meta?.progressToken;
            if (token !== undefined) tokens.set(String(token), message.id);
        }
        child.stdin.write(JSON.stringify(message) + '\n');
    };
    transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
        child.stdin.end();
    };
    createInterface({ input: child.stdout }).on('line', line => {
        let message;
        try {
            message = JSON.parse(line);
        } catch {
            return log('unparseable line from the server:', line.slice(0, 200));
        }
        let related;
        if (!('method' in message)) {
            const i = pending.indexOf(message.id);
            if (i >= 0) pending.splice(i, 1);
        } else if (message.method === 'notifications/progress') {
            related = tokens.get(String(message.params?.progressToken));
        } else {
            related = pending.at(-1);
        }
        transport.send(message, related === undefined ? undefined : { relatedRequestId: related }).catch(e => log('send:', e.message));
    });
    child.on('exit', code => log(`server exited (${code}) for session ${transport.sessionId}`));
    return transport;
}

async function body(req) {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const text = Buffer.concat(chunks).toString('utf8');
    if (!text) return undefined;
    try {
        return JSON.parse(text);
    } catch {
        return text; // the transport answers malformed JSON itself
    }
}

createServer(async (req, res) => {
    try {
        if (!req.url.startsWith('/mcp')) {
            res.writeHead(404).end();
            return;
        }
        const parsed = req.method === 'POST' ? await body(req) : undefined;
        const sid = req.headers['mcp-session-id'];
        let transport = sid ? sessions.get(sid) : undefined;
        if (!transport) {
            if (!sid && req.method === 'POST' && isInitializeRequest(parsed)) {
                transport = relay();
                await transport.start();
            } else if (sid) {
                res.writeHead(404, { 'content-type': 'application/json' }).end(
                    JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null })
                );
                return;
            } else {
                res.writeHead(400, { 'content-type': 'application/json' }).end(
                    JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null })
                );
                return;
            }
        }
        await transport.handleRequest(req, res, parsed);
    } catch (e) {
        log('request failed:', e.stack);
        if (!res.headersSent) res.writeHead(500).end();
    }
}).listen(port, '127.0.0.1', () => log(`listening on http://localhost:${port}/mcp, relaying to ${command.join(' ')}`));
