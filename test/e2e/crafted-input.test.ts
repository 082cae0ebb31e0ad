import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cortex, cortexJson, cortexOnPath, gitWith } from '../helpers/cli.js';
import { git, tempDir, tempRepo } from '../helpers/repo.js';

/**
 * Legitimate but unusual input to the machine-readable contracts (import, search, log,
 * decisions, hooks), as a harness with data of its own would send it, through the built CLI
 * in real repositories.
 */
function initialized(): string {
  const dir = tempRepo({ files: { 'a.txt': '1' } });
  expect(cortex(dir, ['init', '--no-claude']).code).toBe(0);
  return dir;
}

function importLines(dir: string, lines: object[]): void {
  const file = join(tempDir(), 'import.jsonl');
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  const result = cortex(dir, ['import', file]);
  expect(result.code, result.stderr).toBe(0);
}

const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

describe('imported events that say something odd', () => {
  it('an imported commit that is no full hash (HEAD, a branch, a short hash) hides nothing recorded at HEAD', () => {
    const dir = initialized();
    cortex(dir, ['remember', 'Use Postgres for the main database', '--type', 'decision']);
    const short = git(dir, 'rev-parse', '--short', 'HEAD').trim();
    importLines(dir, ['HEAD', 'main', short].map((commit, i) => ({ type: 'learned', content: `probe ${i}`, ts: '2026-10-01T00:00:00Z', branch: 'main', commit })));
    expect(cortexJson<Array<{ content: string }>>(dir, ['decisions']).map((d) => d.content)).toEqual(['Use Postgres for the main database']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'postgres']).map((d) => d.content)).toContain('Use Postgres for the main database');
  });

  it('a supersession may name a full id of any length, and of two decisions naming each other the later stands', () => {
    const dir = initialized();
    importLines(dir, [
      { id: 'd1', type: 'decision', content: 'Use Redis for the session cache', ts: '2026-11-01T10:00:00Z' },
      { id: 'd2', type: 'decision', content: 'Use Memcached for the session cache', ts: '2026-11-02T10:00:00Z', meta: { supersedes: ['d1'] } },
      { id: 'q1', type: 'decision', content: 'Use Redis for background queues', ts: '2026-11-03T10:00:00Z', meta: { supersedes: ['q2'] } },
      { id: 'q2', type: 'decision', content: 'Use SQS for background queues', ts: '2026-11-04T10:00:00Z', meta: { supersedes: ['q1'] } },
    ]);
    expect(ids(cortexJson(dir, ['decisions'])).sort()).toEqual(['d2', 'q2']);
    const found = cortexJson<Array<{ id: string; superseded: boolean }>>(dir, ['search', 'session cache background queues']);
    expect(Object.fromEntries(found.map((h) => [h.id, h.superseded]))).toEqual({ d1: true, d2: false, q1: true, q2: false });
  });

  it('of two decisions naming each other, imported in either order and in separate imports, the later in time stands in search as in the projections', () => {
    const dir = initialized();
    importLines(dir, [{ id: 'q2', type: 'decision', content: 'Use SQS for background queues', ts: '2026-11-04T10:00:00Z', meta: { supersedes: ['q1'] } }]);
    cortex(dir, ['search', 'queues']); // the index takes q2 in first
    importLines(dir, [{ id: 'q1', type: 'decision', content: 'Use Redis for background queues', ts: '2026-11-03T10:00:00Z', meta: { supersedes: ['q2'] } }]);
    expect(ids(cortexJson(dir, ['decisions']))).toEqual(['q2']);
    const found = cortexJson<Array<{ id: string; superseded: boolean }>>(dir, ['search', 'background queues']);
    expect(Object.fromEntries(found.map((h) => [h.id, h.superseded]))).toEqual({ q1: true, q2: false });
  });

  it('an amendment of an amendment amends the memory, and is never a result of its own', () => {
    const dir = initialized();
    importLines(dir, [
      { id: 'm1', type: 'learned', content: 'The cache TTL is sixty seconds', ts: '2026-11-01T10:00:00Z' },
      { id: 'am1', type: 'event_amended', content: 'The cache TTL is ninety seconds', ts: '2026-11-02T10:00:00Z', meta: { target: 'm1' } },
      { id: 'am2', type: 'event_amended', content: 'The cache TTL is ninety seconds, set in config.yaml', ts: '2026-11-03T10:00:00Z', meta: { target: 'am1' } },
    ]);
    const hits = cortexJson<Array<{ id: string; type: string; content: string }>>(dir, ['search', 'cache ttl ninety']);
    expect(hits.map((h) => [h.id, h.type, h.content])).toEqual([['m1', 'knowledge_acquired', 'The cache TTL is ninety seconds, set in config.yaml']]);
    expect(cortexJson<{ markdown: string }>(dir, ['briefing']).markdown).toContain('ninety seconds, set in config.yaml');
  });
});

describe('amendment chains across imports', () => {
  it('an amendment of an amendment imported after the index was built amends the memory too', () => {
    const dir = initialized();
    importLines(dir, [
      { id: 'm1', type: 'learned', content: 'The cache TTL is sixty seconds', ts: '2026-11-01T10:00:00Z' },
      { id: 'am1', type: 'event_amended', content: 'The cache TTL is ninety seconds', ts: '2026-11-02T10:00:00Z', meta: { target: 'm1' } },
    ]);
    expect(cortexJson<Array<{ id: string }>>(dir, ['search', 'cache ttl ninety']).map((h) => h.id)).toEqual(['m1']);
    importLines(dir, [{ id: 'am2', type: 'event_amended', content: 'The cache TTL is ninety seconds, set in config.yaml', ts: '2026-11-03T10:00:00Z', meta: { target: 'am1' } }]);
    const hits = cortexJson<Array<{ id: string; type: string; content: string }>>(dir, ['search', 'cache ttl ninety']);
    expect(hits.map((h) => [h.id, h.type, h.content])).toEqual([['m1', 'knowledge_acquired', 'The cache TTL is ninety seconds, set in config.yaml']]);
  });
});

describe('import files as other tools write them', () => {
  const line = (content: string) => JSON.stringify({ type: 'learned', content, ts: '2026-01-05T00:00:00Z' });

  it('reads UTF-16 with a byte-order mark (PowerShell\'s default) and bare-CR line ends; refuses Latin-1 in one line, importing nothing', () => {
    const dir = initialized();
    const folder = tempDir();
    writeFileSync(join(folder, 'utf16.jsonl'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${line('Ünïcode from PowerShell')}\r\n`, 'utf16le')]));
    writeFileSync(join(folder, 'cr.jsonl'), `${line('old mac one')}\r${line('old mac two')}\r`);
    writeFileSync(join(folder, 'latin1.jsonl'), Buffer.from(`${line('café latin')}\n`, 'latin1'));
    expect(cortex(dir, ['import', join(folder, 'utf16.jsonl')]).code).toBe(0);
    expect(cortex(dir, ['import', join(folder, 'cr.jsonl')]).stdout).toContain('Imported 2 events');
    const latin = cortex(dir, ['import', join(folder, 'latin1.jsonl')]);
    expect(latin.code).toBe(1);
    expect(latin.stderr.trim()).toMatch(/^cortex: .*latin1\.jsonl: not UTF-8 text; save it as UTF-8/);
    // Through a pipe, or behind a UTF-8 byte-order mark, the same.
    expect(cortex(dir, ['import', '-'], { input: Buffer.from(`${line('café piped')}\n`, 'latin1') as unknown as string }).stderr).toMatch(/standard input: not UTF-8 text/);
    writeFileSync(join(folder, 'bom-latin1.jsonl'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`${line('café marked')}\n`, 'latin1')]));
    expect(cortex(dir, ['import', join(folder, 'bom-latin1.jsonl')]).code).toBe(1);
    expect(cortexJson<Array<{ content: string }>>(dir, ['log']).map((e) => e.content).sort()).toEqual(['old mac one', 'old mac two', 'Ünïcode from PowerShell']);
  });

  it('takes reason, alternative, files and tags written beside meta (as search --json prints them) as meta', () => {
    const dir = initialized();
    importLines(dir, [{ type: 'decision', content: 'Use Zod for request validation', ts: '2026-01-05T00:00:00Z', reason: 'one schema for types and checks', alternative: 'Joi', files: 'src/api/validate.ts', tags: ['api'] }]);
    const [hit] = cortexJson<Array<{ reason: string; alternative: string; files: string[]; tags: string[] }>>(dir, ['search', 'zod validation']);
    expect(hit).toMatchObject({ reason: 'one schema for types and checks', alternative: 'Joi', files: ['src/api/validate.ts'], tags: ['api'] });
  });
});

describe('remember --type step', () => {
  it('refuses a step the plan in progress does not have, naming its open steps and storing nothing; ticks one it has', () => {
    const dir = initialized();
    expect(cortex(dir, ['remember', 'Release', '-t', 'plan', '--step', 'cut branch', '--step', 'publish']).code).toBe(0);
    const typo = cortex(dir, ['remember', 'cut brnach', '-t', 'step']);
    expect(typo.code).toBe(1);
    expect(typo.stderr.trim()).toBe('cortex: the plan in progress has no step "cut brnach": nothing stored (its open steps: "cut branch", "publish")');
    expect(cortexJson<unknown[]>(dir, ['log', '--type', 'step'])).toEqual([]);
    expect(cortex(dir, ['remember', 'cut branch', '-t', 'step']).code).toBe(0);
    expect(cortex(dir, ['plan']).stdout).toMatch(/✓ +1\. cut branch[\s\S]*2\. publish/);
    const empty = initialized();
    expect(cortex(empty, ['remember', 'anything', '-t', 'step']).stderr).toMatch(/no plan in progress here has a step "anything": nothing stored/);
  });
});

describe('log dates', () => {
  it('reads a time without a zone as UTC whatever the machine\'s zone, and a date before year 0 as the earliest', () => {
    const dir = initialized();
    importLines(dir, [{ type: 'learned', content: 'a note at midnight', ts: '2026-01-05T00:00:00Z' }]);
    const inZone = (TZ: string, args: string[]) => JSON.parse(cortex(dir, args, { env: { TZ } }).stdout) as unknown[];
    for (const TZ of ['UTC', 'America/New_York', 'Asia/Kathmandu']) {
      expect(inZone(TZ, ['log', '--json', '--since', '2026-01-05T00:00'])).toHaveLength(1);
      expect(inZone(TZ, ['search', 'midnight', '--json', '--since', '2026-01-05T00:00'])).toHaveLength(1);
      expect(inZone(TZ, ['log', '--json', '--until', '2026-01-04T23:59'])).toEqual([]);
    }
    expect(cortexJson<unknown[]>(dir, ['log', '--since', '99999999 years ago'])).toHaveLength(1);
    expect(cortexJson<unknown[]>(dir, ['log', '--until', '99999999 years ago'])).toEqual([]);
  });
});

describe('a session id that is no token', () => {
  it('never reaches a commit message: a line break in it cannot forge a trailer', () => {
    const g = gitWith(cortexOnPath(tempDir()));
    const dir = initialized();
    const commitAs = (session: string, file: string) => {
      expect(cortex(dir, ['hook', 'user-prompt-submit'], { input: JSON.stringify({ session_id: session, cwd: dir, prompt: 'hi' }) }).code).toBe(0);
      writeFileSync(join(dir, file), file);
      g(dir, 'add', file);
      g(dir, 'commit', '-q', '-m', `add ${file}`);
      return g(dir, 'log', '-1', '--format=%B');
    };
    expect(commitAs('sess-ok', 'b.txt')).toContain('Cortex-Session: sess-ok'); // the hooks do run
    // sess-ok never ended: the session working now is not it, and its commits are not sess-ok's either.
    const message = commitAs('s\nSigned-off-by: Mallory <m@x>', 'c.txt');
    expect(message).not.toContain('Signed-off-by');
    expect(message).not.toContain('Cortex-Session');
  });
});
