// A minimal Streamable HTTP server on the official TypeScript SDK (McpServer +
// StreamableHTTPServerTransport, @modelcontextprotocol/sdk 1.32.2), one echo tool: the
// TypeScript row of the HTTP benchmark (benches/http_roundtrip.sh) and the stand-in for
// tests/http_hostile.rs. Written the way the SDK's README shows a stateful server: one
// McpServer and one transport per session, kept in a map by session id.
//
//   node ts_http_echo_server.mjs [--port P] [--json] [--protect]
//
//   --json     enableJsonResponse: answer each POSTed request with application/json
//              (default: an SSE stream per POST, the SDK's default)
//   --protect  enableDnsRebindingProtection with allowedHosts and allowedOrigins set to
//              localhost / 127.0.0.1 on this port (the SDK's default is off)
//
// Serves /mcp on 127.0.0.1 and prints `listening on http://127.0.0.1:P` on stderr when
// ready (P is the bound port, so --port 0 works).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const args = process.argv.slice(2);
const flag = name => args.includes(name);
const port = Number(args[args.indexOf('--port') + 1] ?? 0) || 0;
const json = flag('--json');
const protect = flag('--protect');
const sessions = new Map(); // session id -> transport

function newSession(boundPort) {
    const server = new McpServer({ name: 'ts-http-echo-server', version: '1.0.0' });
    server.registerTool(
        'echo',
        { description: 'Echoes the message back', inputSchema: { message: z.string() } },
        async ({ message }) => ({ content: [{ type: 'text', text: message }] })
    );
    const local = [`localhost:${boundPort}`, `127.0.0.1:${boundPort}`];
    const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: json,
        ...(protect && {
            enableDnsRebindingProtection: true,
            allowedHosts: local,
            allowedOrigins: local.map(h => `http://${h}`)
        }),
        onsessioninitialized: id => sessions.set(id, transport)
    });
    transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    return { server, transport };
}

// The body is read here only to tell an initialize request from the rest (as the SDK's
// examples do with express.json()); the transport gets the raw request otherwise, so its
// own body cap and JSON parsing apply.
async function peekInitialize(req) {
    if (Number(req.headers['content-length']) > 4 * 1024 * 1024) return { tooLarge: true };
    const chunks = [];
    let size = 0;
    for await (const c of req) {
        size += c.length;
        if (size > 4 * 1024 * 1024) return { tooLarge: true };
        chunks.push(c);
    }
    try {
        return { body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
    } catch {
        return { body: undefined, raw: Buffer.concat(chunks).toString('utf8') };
    }
}

const http = createServer(async (req, res) => {
    try {
        if (!req.url.startsWith('/mcp')) {
            res.writeHead(404).end();
            return;
        }
        const sid = req.headers['mcp-session-id'];
        const existing = sid ? sessions.get(sid) : undefined;
        if (existing) {
            await existing.handleRequest(req, res);
            return;
        }
        if (sid) {
            res.writeHead(404, { 'content-type': 'application/json' }).end(
                JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null })
            );
            return;
        }
        if (req.method !== 'POST') {
            res.writeHead(400, { 'content-type': 'application/json' }).end(
                JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: No valid session ID provided' }, id: null })
            );
            return;
        }
        const peeked = await peekInitialize(req);
        if (peeked.tooLarge) {
            res.writeHead(413).end();
            return;
        }
        if (!isInitializeRequest(peeked.body)) {
            // Not an initialize and no session: hand it to a throwaway transport, which
            // answers it (400 for a missing session, -32700 for bad JSON) the SDK's way.
            const { transport } = newSession(http.address().port);
            await transport.handleRequest(req, res, peeked.body ?? peeked.raw);
            return;
        }
        const { server, transport } = newSession(http.address().port);
        await server.connect(transport);
        await transport.handleRequest(req, res, peeked.body);
    } catch (e) {
        process.stderr.write(`ts-http-echo-server: ${e.stack}\n`);
        if (!res.headersSent) res.writeHead(500).end();
    }
});
http.listen(port, '127.0.0.1', () => {
    process.stderr.write(`listening on http://127.0.0.1:${http.address().port}\n`);
});
