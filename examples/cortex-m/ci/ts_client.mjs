// The official TypeScript SDK (@modelcontextprotocol/sdk, Client + StdioClientTransport)
// against the firmware under QEMU.
//
//   node ts_client.mjs ELF WORKDIR      (run from beside node_modules; CI_DIR names this folder)
//
// Session 1: the transport spawns relay.py (which records the wire and slips one malformed
// line in after the first ping), which spawns QEMU: initialize, ping, logging, tools/list,
// each tool (blink with progress, a blink aborted after its first progress), every
// resource page and each resource, the prompt, an unknown method. Session 2: the transport
// spawns QEMU itself and measures ping round trips. Prints one JSON row per check; WORKDIR
// gets ts-wire.jsonl (for wire.py) and ts.defmt (for check_log.py).
import { writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
    CallToolResultSchema,
    EmptyResultSchema,
    LoggingMessageNotificationSchema,
    McpError
} from '@modelcontextprotocol/sdk/types.js';

const [elf, work] = process.argv.slice(2);
const ciDir = process.env.CI_DIR;
const QEMU = ['qemu-system-arm', '-machine', 'mps2-an386', '-cpu', 'cortex-m4', '-display', 'none', '-monitor', 'none',
    '-serial', 'stdio', '-kernel', elf];
const LABEL = 'ts';
const sleep = ms => new Promise(r => setTimeout(r, ms));
let failed = false;
const figures = {};

function row(check, ok, detail) {
    console.log(JSON.stringify({ label: LABEL, check, ok, detail: String(detail ?? '').slice(0, 300) }));
}

async function check(name, fn) {
    try {
        row(`sdk: ${name}`, true, await fn());
    } catch (e) {
        failed = true;
        row(`sdk: ${name}`, false, String(e?.stack ?? e).split('\n').slice(0, 3).join(' | '));
    }
}

function assert(cond, what) {
    if (!cond) throw new Error(`assertion failed: ${typeof what === 'string' ? what : JSON.stringify(what)}`);
}

const text = r => r.content[0].text;

async function fullSession() {
    const wire = join(work, 'ts-wire.jsonl');
    rmSync(wire, { force: true });
    const transport = new StdioClientTransport({
        command: 'python3',
        args: [join(ciDir, 'relay.py'), wire, '--garbage-after', 'ping', '--',
            ...QEMU, '-semihosting-config', 'enable=on,target=native', '-append', `defmt=${join(work, 'ts.defmt')}`],
        stderr: 'inherit'
    });
    const client = new Client({ name: 'ci-ts-client', version: '1.0.0' });
    const logs = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, n => logs.push(n.params.data));

    await check('initialize', async () => {
        await client.connect(transport);
        const info = client.getServerVersion();
        assert(info.name === 'mcp-sansio-cortex-m', info);
        assert(client.getServerCapabilities().tools && client.getServerCapabilities().resources, 'capabilities');
        return `${JSON.stringify(info)}`;
    });
    await check('ping', async () => {
        assert(JSON.stringify(await client.ping()) === '{}', 'ping result');
    });
    await check('logging/setLevel', async () => {
        await client.setLoggingLevel('info');
    });
    await check('tools/list', async () => {
        const names = (await client.listTools()).tools.map(t => t.name);
        assert(JSON.stringify(names) === '["add","read_sensor","blink","stats"]', names);
        return names.join(',');
    });
    await check('add', async () => {
        const r = await client.callTool({ name: 'add', arguments: { a: -5, b: 47 } });
        assert(text(r) === '42' && !r.isError, r);
        const bad = await client.callTool({ name: 'add', arguments: { a: 'two', b: 2 } });
        assert(bad.isError === true, bad);
        return '-5 + 47 = 42; a string argument is a tool error';
    });
    await check('read_sensor', async () => {
        const r = await client.callTool({ name: 'read_sensor', arguments: { sensor: 'temperature' } });
        assert(/^temperature: \d+\.\d C$/.test(text(r)), r);
        return text(r);
    });
    await check('stats', async () => {
        const r = await client.callTool({ name: 'stats', arguments: {} });
        figures.stats = Object.fromEntries(text(r).split(' ').map(kv => kv.split('=')).map(([k, v]) => [k, Number(v)]));
        return text(r);
    });
    await check('blink with progress', async () => {
        const values = [];
        const r = await client.callTool({ name: 'blink', arguments: { times: 4, interval_ms: 30 } }, CallToolResultSchema,
            { onprogress: p => values.push(p.progress), timeout: 10000 });
        assert(text(r) === 'blinked 4 times', r);
        // The SDK settles a response before the progress that arrived with it is handled,
        // so the last values may be missing here; wire.py checks all of them on the wire.
        assert(values.length >= 1 && values.every((v, i) => i === 0 || v > values[i - 1]), values);
        return `progress ${values}`;
    });
    await check('blink aborted', async () => {
        const ac = new AbortController();
        let first;
        const started = new Promise(r => (first = r));
        const call = client.callTool({ name: 'blink', arguments: { times: 50, interval_ms: 40 } }, CallToolResultSchema,
            { signal: ac.signal, onprogress: () => first(), timeout: 30000 });
        const outcome = call.then(r => ({ resolved: r }), e => ({ rejected: e }));
        await Promise.race([started, sleep(5000)]);
        ac.abort('ci: cancelled by the client');
        const o = await outcome;
        assert(o.rejected, `resolved after abort: ${JSON.stringify(o.resolved)}`);
        await sleep(300);
        assert(JSON.stringify(await client.ping()) === '{}', 'ping after the abort');
        const r = await client.callTool({ name: 'blink', arguments: { times: 1, interval_ms: 10 } });
        assert(text(r) === 'blinked 1 times', r);
        return 'aborted after the first progress; server alive, slot free';
    });
    await check('resources', async () => {
        const uris = [];
        let cursor, pages = 0;
        do {
            const r = await client.listResources(cursor === undefined ? undefined : { cursor });
            pages++;
            uris.push(...r.resources.map(x => x.uri));
            cursor = r.nextCursor;
        } while (cursor !== undefined && pages < 10);
        assert(pages === 3 && uris.length === 5 && new Set(uris).size === 5, { pages, uris });
        for (const uri of uris) {
            const c = (await client.readResource({ uri })).contents[0];
            assert(c.uri === uri && c.text, c);
        }
        return `${uris.length} resources in ${pages} pages, each read`;
    });
    await check('prompt', async () => {
        const names = (await client.listPrompts()).prompts.map(p => p.name);
        assert(JSON.stringify(names) === '["diagnose"]', names);
        const r = await client.getPrompt({ name: 'diagnose', arguments: { symptom: 'blinks "oddly"' } });
        const t = r.messages[0].content.text;
        assert(t.includes('blinks "oddly"'), t);
        return t.slice(0, 60);
    });
    await check('unknown method', async () => {
        try {
            await client.request({ method: 'device/self-destruct', params: {} }, EmptyResultSchema);
        } catch (e) {
            if (e instanceof McpError && e.code === -32601) return `McpError ${e.code}: ${e.message}`;
            throw e;
        }
        throw new Error('the unknown method succeeded');
    });
    await check('log notifications', async () => {
        assert(logs.includes('blink: started 4') && logs.includes('blink: finished 4'), logs);
        return logs.join('; ');
    });
    await client.close();
}

async function directSession() {
    const transport = new StdioClientTransport({ command: QEMU[0], args: QEMU.slice(1), stderr: 'ignore' });
    const client = new Client({ name: 'ci-ts-client', version: '1.0.0' });
    await check('direct: initialize', async () => {
        await client.connect(transport);
        return JSON.stringify(client.getServerVersion());
    });
    await check('direct: 100 pings', async () => {
        const rtts = [];
        for (let i = 0; i < 100; i++) {
            const t = performance.now();
            await client.ping();
            rtts.push(performance.now() - t);
        }
        rtts.sort((a, b) => a - b);
        figures.sdk_ping_ms = { n: rtts.length, median: +((rtts[49] + rtts[50]) / 2).toFixed(3), p90: +rtts[89].toFixed(3) };
        return JSON.stringify(figures.sdk_ping_ms);
    });
    await client.close();
}

await fullSession();
await directSession();
writeFileSync(join(work, 'ts-figures.json'), JSON.stringify(figures, null, 1));
process.exit(failed ? 1 : 0);
