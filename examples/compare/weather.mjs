// The weather server of issue 13 on the official TypeScript SDK (McpServer, 1.32.2 as
// pinned in tests/interop/package.json), written the way its documentation shows. McpServer
// lists every registered resource in one page, so the 25 resources, 10 per page, are
// served by the low-level server's own handlers.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListResourcesRequestSchema, McpError, ErrorCode, ReadResourceRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const STATIONS = 25;
const PAGE_SIZE = 10;
const server = new McpServer({ name: 'weather', version: '1.0.0' });

server.registerTool(
    'get_forecast',
    {
        description: 'Weather forecast for a city',
        inputSchema: { city: z.string().describe('City name'), days: z.number().int().min(1).max(7).describe('Days ahead') }
    },
    async ({ city, days }) => {
        const lines = Array.from({ length: days }, (_, d) => `${city}, day ${d + 1}: sunny, ${19 + d} °C`);
        return { content: [{ type: 'text', text: lines.join('\n') }] };
    }
);

server.registerTool(
    'slow_sum',
    {
        description: 'Adds numbers slowly, reporting progress',
        inputSchema: {
            numbers: z.array(z.number()).describe('The numbers to add'),
            delay_ms: z.number().int().min(0).optional().describe('Pause before each addition, in milliseconds (default 200)')
        }
    },
    async ({ numbers, delay_ms }, extra) => {
        let sum = 0;
        for (const [i, n] of numbers.entries()) {
            await new Promise(resolve => setTimeout(resolve, delay_ms ?? 200));
            if (extra.signal.aborted) {
                return { content: [{ type: 'text', text: 'cancelled' }], isError: true };
            }
            sum += n;
            const progressToken = extra._meta?.progressToken;
            if (progressToken !== undefined) {
                await extra.sendNotification({
                    method: 'notifications/progress',
                    params: { progressToken, progress: i + 1, total: numbers.length, message: `added ${n}` }
                });
            }
        }
        return { content: [{ type: 'text', text: `${sum}` }] };
    }
);

server.registerPrompt(
    'forecast_request',
    { description: "Asks for a city's weather", argsSchema: { city: z.string().describe('City name') } },
    ({ city }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `What will the weather be like in ${city} this week?` } }]
    })
);

server.server.registerCapabilities({ resources: {} });
server.server.setRequestHandler(ListResourcesRequestSchema, async request => {
    const start = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
    if (!Number.isInteger(start) || start < 0) {
        throw new McpError(ErrorCode.InvalidParams, 'invalid cursor');
    }
    const end = Math.min(start + PAGE_SIZE, STATIONS);
    const resources = [];
    for (let i = start + 1; i <= end; i++) {
        resources.push({ uri: `weather://stations/${i}`, name: `station-${i}` });
    }
    return end < STATIONS ? { resources, nextCursor: `${end}` } : { resources };
});
server.server.setRequestHandler(ReadResourceRequestSchema, async request => {
    const i = Number(request.params.uri.match(/^weather:\/\/stations\/(\d+)$/)?.[1]);
    if (!(i >= 1 && i <= STATIONS)) {
        throw new McpError(-32002, 'no such station', { uri: request.params.uri });
    }
    const text = `Station ${i}: ${10 + (i % 7)} °C, wind ${i % 5} m/s`;
    return { contents: [{ uri: request.params.uri, text }] };
});

await server.connect(new StdioServerTransport());
