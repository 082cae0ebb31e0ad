import { spawn } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { CortexEvent } from '../../src/events/types.js';
import { CLI, cortex, cortexJson } from '../helpers/cli.js';
import { git, tempRepo } from '../helpers/repo.js';

const clients: Client[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
});

async function connect(dir: string, env?: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'cortex-test', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp'], cwd: dir, stderr: 'pipe', ...(env ? { env: { ...(process.env as Record<string, string>), ...env } } : {}) }));
  clients.push(client);
  return client;
}

const textOf = (result: unknown): string => ((result as { content: Array<{ text: string }> }).content[0]?.text ?? '');

const repo = () => {
  const dir = tempRepo({ files: { 'README.md': '# app\n' } });
  cortex(dir, ['init', '--no-claude', '--no-git']);
  cortex(dir, ['remember', 'Use Postgres advisory locks for the job queue', '-t', 'decision', '--why', 'exactly-once without another service']);
  return dir;
};

describe('cortex mcp', () => {
  it('answers a real client\'s tools/list and tools/call with what the CLI would say', async () => {
    const dir = repo();
    const client = await connect(dir);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['decisions', 'plan', 'recent', 'remember', 'search', 'status']);
    expect(tools.find((t) => t.name === 'search')?.inputSchema.required).toEqual(['query']);

    const found = JSON.parse(textOf(await client.callTool({ name: 'search', arguments: { query: 'job queue locking' } }))) as Array<{ content: string }>;
    expect(found[0]?.content).toBe('Use Postgres advisory locks for the job queue');
    expect(JSON.parse(textOf(await client.callTool({ name: 'decisions', arguments: {} })))).toEqual(cortexJson(dir, ['decisions']));

    const stored = JSON.parse(textOf(await client.callTool({ name: 'remember', arguments: { text: 'Retries back off exponentially, capped at 5 minutes', type: 'learned' } }))) as { id: string };
    const again = JSON.parse(textOf(await client.callTool({ name: 'search', arguments: { query: 'backoff cap' } }))) as Array<{ id: string }>;
    expect(again.map((h) => h.id)).toContain(stored.id);
    const recent = JSON.parse(textOf(await client.callTool({ name: 'recent', arguments: { limit: 1 } }))) as Array<{ id: string }>;
    expect(recent.map((e) => e.id)).toEqual([stored.id]);
    expect(JSON.parse(textOf(await client.callTool({ name: 'status', arguments: {} })))).toMatchObject({ initialized: true, events: 2 });
    expect(textOf(await client.callTool({ name: 'plan', arguments: {} }))).toBe('null');
    await client.callTool({ name: 'remember', arguments: { text: 'Retry rework', type: 'plan', steps: ['cap the backoff', 'add jitter'] } });
    const plan = JSON.parse(textOf(await client.callTool({ name: 'plan', arguments: {} }))) as { steps: Array<{ text: string }> };
    expect(plan.steps.map((s) => s.text)).toEqual(['cap the backoff', 'add jitter']);
  });

  it('recent work is this branch\'s as it stands (nothing forgotten, no unmerged branch), and what the assistant remembers is its session\'s', async () => {
    const dir = repo();
    const dropped = JSON.parse(cortex(dir, ['remember', 'Use MongoDB for events', '-t', 'decision', '--json']).stdout) as { id: string };
    cortex(dir, ['forget', dropped.id]);
    git(dir, 'checkout', '-q', '-b', 'spike');
    cortex(dir, ['remember', 'Spike: try SQLite for the queue', '-t', 'decision']);
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'spike');
    git(dir, 'checkout', '-q', 'main');
    const client = await connect(dir, { CLAUDE_CODE_SESSION_ID: 'sess-42' });
    const recent = JSON.parse(textOf(await client.callTool({ name: 'recent', arguments: {} }))) as Array<{ content: string }>;
    expect(recent.map((e) => e.content)).toEqual(['Use Postgres advisory locks for the job queue']);
    const stored = JSON.parse(textOf(await client.callTool({ name: 'remember', arguments: { text: 'Jobs are idempotent by key', type: 'decision' } }))) as { session: string };
    expect(stored.session).toBe('sess-42');
  });

  it('keeps a tool result within what Claude Code accepts: long memories are cut, and what is left out is said', async () => {
    const dir = repo();
    const trace = 'at Foo.bar (src/foo.ts:12:3) '.repeat(1300);
    for (let i = 0; i < 3; i++) cortex(dir, ['remember', `Stack trace of the checkout crash ${i}: ${trace}`, '-t', 'error']);
    const client = await connect(dir);
    for (const [name, args] of [['search', { query: 'checkout crash' }], ['recent', {}]] as const) {
      const result = (await client.callTool({ name, arguments: args })) as { content: Array<{ text: string }> };
      const text = result.content.map((c) => c.text).join('\n');
      expect(text.length).toBeLessThan(50_000);
      expect(JSON.parse(result.content[0]?.text ?? '').some((h: { content: string }) => h.content.includes('cut: '))).toBe(true);
    }
  });

  it('redacts what the assistant asks it to remember before storing it', async () => {
    const dir = repo();
    const client = await connect(dir);
    const reply = await client.callTool({
      name: 'remember',
      arguments: { text: 'staging deploys with AKIAIOSFODNN7EXAMPLE', type: 'rejected', why: 'curl -u admin:Sup3rS3cret! leaked it', instead: 'redis://:p4ssw0rdXYZ@cache:6379' },
    });
    expect(reply.isError).toBeFalsy();
    const stored = JSON.parse(textOf(reply)) as CortexEvent;
    expect(stored).toMatchObject({
      content: 'staging deploys with [REDACTED:aws-access-key]',
      session: 'mcp',
      meta: { reason: 'curl -u admin:[REDACTED:password] leaked it', alternative: 'redis://:[REDACTED:password]@cache:6379', redactions: 3 },
    });
    expect(cortexJson<CortexEvent[]>(dir, ['log'])[0]).toEqual(stored);
    expect(git(dir, 'log', '-p', '--all')).not.toMatch(/AKIAIOSFODNN7EXAMPLE|Sup3rS3cret|p4ssw0rdXYZ/);
  });

  it('remember supersedes a decision by its id or the short id the briefing shows; a bad id is an error and stores nothing', async () => {
    const dir = repo();
    const [queue] = cortexJson<Array<{ id: string; content: string }>>(dir, ['decisions']);
    const client = await connect(dir);
    expect((await client.listTools()).tools.find((t) => t.name === 'remember')?.inputSchema.properties).toHaveProperty('supersedes');

    const reply = await client.callTool({ name: 'remember', arguments: { text: 'Use pg-boss for the job queue', why: 'retries and cron come with it', supersedes: queue!.id.slice(-8).toLowerCase() } });
    expect(reply.isError).toBeFalsy();
    const stored = JSON.parse(textOf(reply)) as CortexEvent;
    expect(stored).toMatchObject({ type: 'decision_made', session: 'mcp', meta: { reason: 'retries and cron come with it' } });
    expect(JSON.parse(textOf(await client.callTool({ name: 'decisions', arguments: {} }))).map((d: { id: string }) => d.id)).toEqual([stored.id]);
    const supersession = cortexJson<CortexEvent[]>(dir, ['log']).find((e) => e.type === 'decision_superseded');
    expect(supersession?.meta).toEqual({ target: queue!.id, by: stored.id });
    expect(cortex(dir, ['briefing']).stdout).toContain('(replaces “Use Postgres advisory locks for the job queue”)');

    const events = cortexJson<CortexEvent[]>(dir, ['log']).length;
    for (const [supersedes, message] of [
      ['ZZZZZZZZ', /^cortex: no memory with id ZZZZZZZZ/],
      ['01', /^cortex: give at least 6 characters of the id/],
      [queue!.id, /^cortex: \S+ is already superseded by \S+: supersede that one instead/],
      ['', /supersedes/],
    ] as const) {
      const bad = await client.callTool({ name: 'remember', arguments: { text: 'Use Kafka for the job queue', type: 'decision', supersedes } });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toMatch(message);
    }
    expect(cortexJson<CortexEvent[]>(dir, ['log'])).toHaveLength(events);
  });

  it('turns bad arguments into a tool error and malformed requests into protocol errors, and keeps serving', async () => {
    const dir = repo();
    const client = await connect(dir);
    const bad = await client.callTool({ name: 'search', arguments: { query: 42 } });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toMatch(/query/);
    const usage = await client.callTool({ name: 'search', arguments: { query: 'x', type: ['nonsense'] } });
    expect(usage.isError).toBe(true);
    expect(textOf(usage)).toMatch(/unknown type "nonsense"/);

    // Raw JSON-RPC: a call without a tool name, an unknown method and a line that is not JSON.
    const server = spawn(process.execPath, [CLI, 'mcp'], { cwd: dir });
    const replies: Array<{ id?: number | null; error?: { code: number }; result?: unknown }> = [];
    let buffer = '';
    server.stdout.on('data', (d) => {
      buffer += d;
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        replies.push(JSON.parse(buffer.slice(0, nl)));
        buffer = buffer.slice(nl + 1);
      }
    });
    const send = (msg: unknown) => server.stdin.write(`${typeof msg === 'string' ? msg : JSON.stringify(msg)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: {} });
    send({ jsonrpc: '2.0', id: 3, method: 'no/such/method', params: {} });
    send('{ this is not json');
    send({ jsonrpc: '2.0', id: 5 }); // neither a request nor a response
    // What the SDK's strict schemas drop without a word: each is answered here.
    send({ jsonrpc: '2.0', id: 11, method: 'tools/call', params: { name: 'status', arguments: {} }, extra: 1 });
    send({ jsonrpc: '1.0', id: 8, method: 'tools/list' });
    send({ id: 10, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: null });
    send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'status', arguments: null } });
    send({ jsonrpc: '2.0', id: { no: 1 }, method: 'tools/list' });
    send({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} });
    const deadline = Date.now() + 10_000;
    while (!replies.some((r) => r.id === 4) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    server.kill();
    expect([-32602, -32603]).toContain(replies.find((r) => r.id === 2)?.error?.code); // invalid params (the SDK reports it as -32603)
    expect(replies.find((r) => r.id === 3)?.error?.code).toBe(-32601);
    expect(replies.find((r) => r.id === null)?.error?.code).toBe(-32700); // answered, though it has no id to answer to
    expect(replies.find((r) => r.id === 5)?.error?.code).toBe(-32600); // a client waiting on 5 hears back
    for (const id of [11, 8, 10]) expect(replies.find((r) => r.id === id)?.error?.code).toBe(-32600);
    for (const id of [6, 7]) expect(replies.find((r) => r.id === id)?.error?.code).toBe(-32602);
    expect(replies.filter((r) => r.id === null).map((r) => r.error?.code).sort()).toEqual([-32700, -32600].sort());
    expect(replies.find((r) => r.id === 4)?.result).toBeDefined(); // still serving
  });

  it('cortex init --mcp registers the server in .mcp.json beside the user\'s own, once; uninstall removes only it', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n', '.mcp.json': JSON.stringify({ mcpServers: { other: { command: 'other-server' } } }) } });
    expect(cortex(dir, ['init', '--no-git', '--mcp']).code).toBe(0);
    const first = readFileSync(join(dir, '.mcp.json'), 'utf8');
    expect(JSON.parse(first).mcpServers).toEqual({ other: { command: 'other-server' }, cortex: { type: 'stdio', command: 'cortex', args: ['mcp'] } });
    cortex(dir, ['init', '--no-git', '--mcp']);
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe(first);
    cortex(dir, ['uninstall']);
    expect(JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8'))).toEqual({ mcpServers: { other: { command: 'other-server' } } });
    expect(existsSync(join(dir, '.mcp.json'))).toBe(true);
  });

  it('leaves a cortex server the user wrote in .mcp.json (their own command, an env) as it is, through init --mcp and uninstall', () => {
    const own = `${JSON.stringify({ mcpServers: { cortex: { command: 'node', args: ['/opt/cortex/dist/cli.js', 'mcp'], env: { CORTEX_JOURNAL_REF: 'refs/heads/memory' } } } }, null, 2)}\n`;
    const dir = tempRepo({ files: { 'README.md': '# app\n', '.mcp.json': own } });
    expect(cortex(dir, ['init', '--no-git', '--mcp']).code).toBe(0);
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe(own);
    expect(cortex(dir, ['uninstall']).code).toBe(0);
    expect(readFileSync(join(dir, '.mcp.json'), 'utf8')).toBe(own);
  });

  it('registers a hook command with a space in its path as sh splits it (CORTEX_HOOK_COMMAND quoted)', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    const command = '"/opt/my tools/cortex" --quiet';
    expect(cortex(dir, ['init', '--no-git', '--mcp'], { env: { CORTEX_HOOK_COMMAND: command } }).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, '.mcp.json'), 'utf8')).mcpServers.cortex).toEqual({ type: 'stdio', command: '/opt/my tools/cortex', args: ['--quiet', 'mcp'] });
    expect(cortex(tempRepo(), ['init', '--no-git'], { env: { CORTEX_HOOK_COMMAND: '"/opt/my tools/cortex' } })).toMatchObject({ code: 2, stderr: expect.stringMatching(/^cortex: CORTEX_HOOK_COMMAND .* no command sh can run/) });
  });
});
