// A minimal stdio server written with the official TypeScript SDK (McpServer), one
// echo tool: the TypeScript row of the stdio round-trip benchmark
// (benches/stdio_roundtrip.rs).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'ts-echo-server', version: '1.0.0' });
server.registerTool(
    'echo',
    { description: 'Echoes the message back', inputSchema: { message: z.string() } },
    async ({ message }) => ({ content: [{ type: 'text', text: message }] })
);
await server.connect(new StdioServerTransport());
