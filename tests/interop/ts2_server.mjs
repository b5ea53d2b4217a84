// A server made with the TypeScript SDK 2.x (@modelcontextprotocol/server), serving
// both eras: over stdio (no arguments) or Streamable HTTP (--http PORT, at /mcp, through
// the SDK's createMcpHandler). Tools: echo {message}, and add {a, b}.
import http from 'node:http';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const factory = () => {
    const server = new McpServer({ name: 'ts2-interop-server', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.registerTool('echo', { description: 'Echoes the message', inputSchema: z.object({ message: z.string() }) },
        async ({ message }) => ({ content: [{ type: 'text', text: `Echo: ${message}` }] }));
    server.registerTool('add', { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
        async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }));
    return server;
};

const args = process.argv.slice(2);
if (args[0] === '--http') {
    const handler = createMcpHandler(factory);
    const port = Number(args[1]);
    http.createServer(async (req, res) => {
        const chunks = [];
        for await (const c of req) chunks.push(c);
        const body = Buffer.concat(chunks);
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
        const abort = new AbortController();
        res.on('close', () => abort.abort());
        const request = new Request(`http://127.0.0.1:${port}${req.url}`, {
            method: req.method, headers, body: ['GET', 'HEAD'].includes(req.method) ? undefined : body, signal: abort.signal,
        });
        const response = await handler.fetch(request);
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (response.body) {
            for await (const chunk of response.body) res.write(chunk);
        }
        res.end();
    }).listen(port, '127.0.0.1', () => console.error(`listening on http://127.0.0.1:${port}/mcp`));
} else {
    serveStdio(factory);
}
