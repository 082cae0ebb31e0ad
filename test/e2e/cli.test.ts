import { chmodSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CortexEvent } from '../../src/events/types.js';
import { CLI, cortex, cortexJson, cortexWaitingForInput } from '../helpers/cli.js';
import { spawnSync } from 'node:child_process';
import { giveToTestUser, testUser, walk } from '../helpers/other-user.js';
import { git, tempDir, tempRepo } from '../helpers/repo.js';

const oneLine = (text: string) => text.trim().split('\n').length === 1;

/** Lines (or the text of a whole file) written to a file of their own, for `cortex import <file>`; returns the path. */
function writeJsonl(lines: object[] | string): string {
  const file = join(tempDir(), 'import.jsonl');
  writeFileSync(file, typeof lines === 'string' ? lines : lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
  return file;
}
const DIST = new URL('../../dist/', import.meta.url).pathname;

describe('cortex init', () => {
  it('creates the journal branch once and is safe to run again', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    expect(cortexJson(dir, ['init'])).toMatchObject({ ref: 'refs/heads/cortex/journal', created: true });
    const tip = git(dir, 'rev-parse', 'cortex/journal');
    expect(cortexJson(dir, ['init'])).toMatchObject({ ref: 'refs/heads/cortex/journal', created: false, changed: [] });
    expect(git(dir, 'rev-parse', 'cortex/journal')).toBe(tip);
    // The only changes to the work tree are the set-up it was asked to write: Claude Code's
    // hooks and rules, the merge driver's line in .gitattributes, and the tracked files.
    expect(git(dir, 'status', '--porcelain', '--untracked-files=all')).toBe(
      ['.claude/rules/cortex-memory.md', '.claude/settings.json', '.cortex/active-plan.md', '.cortex/decisions-archive.md', '.cortex/decisions.md', '.gitattributes'].map((p) => `?? ${p}\n`).join(''),
    );
  });
});

describe('cortex remember and log', () => {
  it('stores a memory with its reason, files and tags, and log shows it newest first', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const first = cortex(dir, ['remember', 'Use Postgres rather than Mongo', '--type', 'decision', '--why', 'we need transactions', '--file', 'src/db.ts', '--tag', 'storage']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^\[decision_made [0-9A-Z]{26}\] Use Postgres rather than Mongo\n$/);
    cortex(dir, ['remember', 'Redis for sessions', '-t', 'rejected', '--why', 'one more service to run', '--instead', 'Postgres']);

    const log = cortexJson<CortexEvent[]>(dir, ['log']);
    expect(log.map((e) => e.type)).toEqual(['approach_rejected', 'decision_made']);
    expect(log[1]).toMatchObject({
      content: 'Use Postgres rather than Mongo',
      session: 'cli',
      author: 'dev@example.com',
      branch: 'main',
      commit: git(dir, 'rev-parse', 'HEAD').trim(),
      confidence: 1,
      immortal: true,
      provenance: 'cli:remember',
      meta: { reason: 'we need transactions', files: ['src/db.ts'], tags: ['storage'] },
    });
    expect(log[0]?.meta).toEqual({ reason: 'one more service to run', alternative: 'Postgres' });

    const text = cortex(dir, ['log']).stdout;
    expect(text.indexOf('Redis for sessions')).toBeLessThan(text.indexOf('Use Postgres'));
    expect(text).toContain('why: we need transactions');
    expect(text).not.toContain('\u001b[');
  });

  it('takes text that starts with a dash after --, repeated files and tags all, and the last of a repeated single option', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const dashed = cortex(dir, ['remember', '-t', 'learned', '--json', '--', '-Xmx4g sets the JVM heap for the indexer']);
    const flag = JSON.parse(dashed.stdout) as CortexEvent;
    expect(flag.content).toBe('-Xmx4g sets the JVM heap for the indexer');
    expect((JSON.parse(cortex(dir, ['search', '--json', '--', '-Xmx4g']).stdout) as Array<{ id: string }>).map((h) => h.id)).toEqual([flag.id]);
    const twice = cortexJson<CortexEvent>(dir, ['remember', 'Use tabs', '-t', 'rejected', '-t', 'decision', '--why', 'first', '--why', 'second', '-f', 'a.ts', '-f', 'b.ts', '--tag', 'x', '--tag', 'y']);
    expect(twice).toMatchObject({ type: 'decision_made', meta: { reason: 'second', files: ['a.ts', 'b.ts'], tags: ['x', 'y'] } });
    expect(cortex(dir, ['search', 'tabs', '--since', '2020-01-01', '--since', 'yesterday', '--json']).code).toBe(0);
    expect(cortex(dir, ['remember'])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^cortex: give the memory: cortex remember/) });
  });

  it('puts back a journal branch deleted by hand where it last read it, so the next memory adds to the old ones instead of starting over', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['remember', 'Use Redis for sessions', '-t', 'decision']);
    expect(cortexJson<CortexEvent[]>(dir, ['log'])).toHaveLength(1);
    git(dir, 'branch', '-D', 'cortex/journal');
    cortex(dir, ['remember', 'Sessions expire after 30 minutes', '-t', 'decision']);
    expect(cortexJson<CortexEvent[]>(dir, ['log']).map((e) => e.content).sort()).toEqual(['Sessions expire after 30 minutes', 'Use Redis for sessions']);
    git(dir, 'branch', '-D', 'cortex/journal');
    expect(cortexJson<CortexEvent[]>(dir, ['log'])).toHaveLength(2); // a read puts it back too
  });

  it('colours the log only when asked to or on a terminal', () => {
    const dir = tempRepo();
    cortex(dir, ['remember', 'x', '-t', 'decision']);
    expect(cortex(dir, ['log'], { env: { NO_COLOR: '', FORCE_COLOR: '1' } }).stdout).toContain('\u001b[');
  });

  it('filters by type, author, session, grep, dates and count', () => {
    const dir = tempRepo();
    const lines = [
      { type: 'decision', content: 'Adopt pnpm workspaces', ts: '2026-01-05T10:00:00Z', author: 'ana@x.io', session: 'sess-a' },
      { type: 'rejected', content: 'Lerna is unmaintained', ts: '2026-02-05T10:00:00Z', author: 'ben@x.io', session: 'sess-b' },
      { type: 'learned', content: 'CI caches node_modules by lockfile hash', ts: '2026-03-05T10:00:00Z', author: 'ana@x.io', session: 'sess-b' },
      { type: 'decision', content: 'Ship ESM only', ts: '2026-04-05T10:00:00Z', author: 'ben@x.io', session: 'sess-c' },
    ];
    const imported = cortex(dir, ['import', '-'], { input: lines.map((l) => JSON.stringify(l)).join('\n') });
    expect(imported.code).toBe(0);
    const contents = (args: string[]) => cortexJson<CortexEvent[]>(dir, ['log', ...args]).map((e) => e.content);

    expect(contents(['--type', 'decision'])).toEqual(['Ship ESM only', 'Adopt pnpm workspaces']);
    expect(contents(['--type', 'rejected,learned'])).toEqual(['CI caches node_modules by lockfile hash', 'Lerna is unmaintained']);
    expect(contents(['--author', 'ana'])).toEqual(['CI caches node_modules by lockfile hash', 'Adopt pnpm workspaces']);
    expect(contents(['--session', 'sess-b'])).toEqual(['CI caches node_modules by lockfile hash', 'Lerna is unmaintained']);
    expect(contents(['--grep', 'pnpm|esm'])).toEqual(['Ship ESM only', 'Adopt pnpm workspaces']);
    expect(contents(['--since', '2026-02-01', '--until', '2026-03-31'])).toEqual(['CI caches node_modules by lockfile hash', 'Lerna is unmaintained']);
    expect(contents(['-n', '1'])).toEqual(['Ship ESM only']);
    expect(contents(['--since', '100 years ago', '-n', '2'])).toHaveLength(2);
  });

  it('answers a bad filter with one line and exit 2', () => {
    const dir = tempRepo();
    // '2026-02-30' and '0' are dates to JavaScript (March 2, the year 2000): not to cortex.
    for (const args of [['--type', 'banana'], ['--since', 'someday'], ['--since', '2026-02-30'], ['--since', '0'], ['--until', '2026-04-31'], ['--grep', '(']]) {
      const result = cortex(dir, ['log', ...args]);
      expect(result.code).toBe(2);
      expect(oneLine(result.stderr)).toBe(true);
    }
  });
});

describe('small things a user meets', () => {
  it('remember --supersedes without --type replaces a decision with a decision; a reason given as "because …" is said once; an emoji is never cut in half; diff of an empty range is a usage error', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const old = cortexJson<CortexEvent>(dir, ['remember', 'Use REST', '--type', 'decision', '--json']);
    expect(cortexJson<CortexEvent>(dir, ['remember', 'Use GraphQL', '--supersedes', old.id, '--why', 'because the clients need it', '--json']).type).toBe('decision_made');
    const briefing = cortex(dir, ['briefing']).stdout;
    expect(briefing).toContain('— because the clients need it');
    expect(briefing).not.toContain('because because');
    cortex(dir, ['remember', '😀'.repeat(200), '--type', 'decision']);
    expect(cortex(dir, ['briefing']).stdout).not.toContain('\uFFFD');
    expect(cortexJson<{ markdown: string }>(dir, ['briefing', '--json']).markdown).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    const empty = cortex(dir, ['diff', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/^cortex: no range given/);
  });
});

describe('forget and --supersedes follow branch alignment', () => {
  it('retire on main a decision that a branch main never merged forgot or superseded', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const remember = (...args: string[]) => cortexJson<CortexEvent>(dir, ['remember', ...args, '--json']);
    const pg = remember('Use Postgres rather than MySQL', '--type', 'decision');
    const redis = remember('Sessions in Redis', '--type', 'decision');
    git(dir, 'checkout', '-q', '-b', 'experiment');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'x');
    expect(cortex(dir, ['forget', pg.id]).code).toBe(0);
    remember('Sessions in Postgres', '--type', 'decision', '--supersedes', redis.id);
    git(dir, 'checkout', '-q', 'main');
    const titles = () => cortexJson<Array<{ content: string }>>(dir, ['decisions']).map((d) => d.content).sort();
    expect(titles()).toEqual(['Sessions in Redis', 'Use Postgres rather than MySQL']);
    expect(cortex(dir, ['forget', pg.id]).stdout).toMatch(/^forgot decision_made /);
    expect(cortex(dir, ['remember', 'Sessions in Memcached', '--type', 'decision', '--supersedes', redis.id]).code).toBe(0);
    expect(titles()).toEqual(['Sessions in Memcached']);
    expect(cortex(dir, ['forget', pg.id]).stdout).toBe(`already forgotten: ${pg.id}\n`);
  });
});

describe('flags given nothing usable', () => {
  it('a count that is not a whole number is a usage error echoing what was typed', () => {
    const dir = tempRepo();
    for (const [args, message] of [
      [['search', 'x', '--limit', 'abc'], 'cortex: --limit must be a whole number above 0, not "abc"\n'],
      [['search', 'x', '-n', '0'], 'cortex: --limit must be a whole number above 0, not "0"\n'],
      [['log', '-n', '2.5'], 'cortex: -n must be a whole number, not "2.5"\n'],
      [['briefing', '--budget', 'lots'], 'cortex: --budget must be a whole number of tokens, at least 100 (the briefing\'s preamble and its line counting what did not fit), not "lots"\n'],
      [['briefing', '--budget', '10'], 'cortex: --budget must be a whole number of tokens, at least 100 (the briefing\'s preamble and its line counting what did not fit), not "10"\n'],
    ] as const) {
      expect(cortex(dir, [...args])).toMatchObject({ code: 2, stderr: message });
    }
  });

  it('a --type that names no type is a usage error, for log and search alike', () => {
    const dir = tempRepo();
    cortex(dir, ['remember', 'Use Postgres', '-t', 'decision']);
    for (const verb of [['log'], ['search', 'postgres']]) {
      for (const given of ['', ',']) {
        expect(cortex(dir, [...verb, '--type', given])).toMatchObject({ code: 2, stderr: `cortex: --type "${given}" names no type (try decision, rejected, learned, plan, step, done, preference, error)\n` });
      }
    }
  });
});

describe('cortex import and export', () => {
  it('round-trips: export, import into a fresh repo, export again gives the same events', () => {
    const source = tempRepo({ files: { 'a.txt': '1' } });
    cortex(source, ['remember', 'Use Postgres', '-t', 'decision', '--why', 'transactions']);
    cortex(source, ['remember', 'Mongo', '-t', 'rejected']);
    cortex(source, ['import', '-'], { input: '{"type":"plan","content":"Migrate auth","meta":{"plan_id":"p1","steps":["a","b"]},"ts":"2025-12-01T00:00:00Z","session":"s-old"}\n' });
    const exported = cortex(source, ['export']).stdout;
    expect(exported.trim().split('\n')).toHaveLength(3);

    const target = tempRepo();
    writeFileSync(join(target, '..', 'export.jsonl'), exported);
    const imported = cortexJson<{ imported: number; skipped: number }>(target, ['import', join(target, '..', 'export.jsonl')]);
    expect(imported).toEqual({ imported: 3, skipped: 0, invalid: 0 });
    expect(cortex(target, ['export']).stdout).toBe(exported);
    // Idempotent by id: a second import adds nothing.
    expect(cortexJson(target, ['import', join(target, '..', 'export.jsonl')])).toEqual({ imported: 0, skipped: 3, invalid: 0 });
    expect(cortex(target, ['export']).stdout).toBe(exported);
  });

  it('redacts secrets in imported memories, as capture and remember do, before they reach the journal or the tracked files', () => {
    // Fake credentials in the shapes providers issue; none is real.
    const token = 'ghp_1mp0rtS3cr3tT0k3nAaBbCcDdEeFfGgHh11';
    const stripe = 'sk_live_51ImportM3taS3cr3tXxYy';
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const line = { type: 'decision', content: `CI pushes with ${token}`, meta: { reason: `key ${stripe} is scoped, unlike ${token}` } };
    expect(cortexJson(dir, ['import', writeJsonl([line])])).toEqual({ imported: 1, skipped: 0, invalid: 0 });
    const [event] = cortexJson<CortexEvent[]>(dir, ['log']);
    expect(event).toMatchObject({
      content: 'CI pushes with [REDACTED:github-token]',
      meta: { reason: 'key [REDACTED:stripe-key] is scoped, unlike [REDACTED:github-token]', redactions: 2 },
    });
    expect(cortex(dir, ['projections', '--write']).code).toBe(0);
    expect(readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8')).toContain('### CI pushes with \\[REDACTED:github-token]');
    for (const secret of [token, stripe]) {
      expect(git(dir, 'log', '-p', '--all')).not.toContain(secret);
      expect(readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8')).not.toContain(secret);
      expect(cortex(dir, ['briefing']).stdout).not.toContain(secret);
    }

    // An export is already redacted: importing it elsewhere leaves its placeholders and counts as they are.
    const exported = cortex(dir, ['export']).stdout;
    const target = tempRepo();
    expect(cortexJson(target, ['import', writeJsonl(exported)])).toEqual({ imported: 1, skipped: 0, invalid: 0 });
    expect(cortex(target, ['export']).stdout).toBe(exported);
  });

  it('imports nothing from a file with a bad line, naming the line, unless told to skip it', () => {
    const dir = tempRepo();
    cortex(dir, ['remember', 'kept', '-t', 'decision']);
    const file = join(dir, '..', 'bad.jsonl');
    writeFileSync(file, '{"type":"decision","content":"good"}\n{"type":"decision"}\nnot json\n');
    const result = cortex(dir, ['import', file]);
    expect(result.code).toBe(1);
    expect(oneLine(result.stderr)).toBe(true);
    expect(result.stderr).toContain('bad.jsonl:2: missing "content"');
    expect(result.stderr).toContain('nothing imported');
    expect(cortexJson<CortexEvent[]>(dir, ['log']).map((e) => e.content)).toEqual(['kept']);

    const skipping = cortex(dir, ['import', file, '--skip-invalid', '--json']);
    expect(skipping.code).toBe(0);
    expect(JSON.parse(skipping.stdout)).toEqual({ imported: 1, skipped: 0, invalid: 2 });
    expect(cortexJson<CortexEvent[]>(dir, ['log']).map((e) => e.content).sort()).toEqual(['good', 'kept']);
  });

  it('8 imports of one file at once store each event once, and all but one report them already present', async () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const input = Array.from({ length: 200 }, (_, i) => JSON.stringify({ type: 'learned', content: `imported fact ${i}`, ts: new Date(Date.UTC(2026, 9, 1, 0, 0, i)).toISOString() })).join('\n');
    // Each waits for stdin, so all eight are running before any of them reads the journal.
    const imports = Array.from({ length: 8 }, () => cortexWaitingForInput(dir, ['import', '-', '--json']));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const run of imports) run.send(input);
    const runs = await Promise.all(imports.map((run) => run.done));
    expect(runs.map((r) => r.code)).toEqual(Array(8).fill(0));
    const summaries = runs.map((r) => JSON.parse(r.stdout) as { imported: number }).sort((a, b) => b.imported - a.imported);
    expect(summaries).toEqual([{ imported: 200, skipped: 0, invalid: 0 }, ...Array(7).fill({ imported: 0, skipped: 200, invalid: 0 })]);
    const storedLines = git(dir, 'ls-tree', '-r', '--name-only', 'cortex/journal', 'events')
      .split('\n')
      .filter(Boolean)
      .flatMap((shard) => git(dir, 'show', `cortex/journal:${shard}`).split('\n').filter(Boolean));
    expect(storedLines).toHaveLength(200);
  });

  it('says so in one line when the file does not exist', () => {
    const dir = tempRepo();
    const result = cortex(dir, ['import', 'nope.jsonl']);
    expect(result).toMatchObject({ code: 1, stderr: 'cortex: nope.jsonl: no such file\n' });
  });
});

describe('CORTEX_JOURNAL_REF', () => {
  it('refuses a name git would not take as a ref, in one line, and writes no ref', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const result = cortex(dir, ['remember', 'x'], { env: { CORTEX_JOURNAL_REF: 'bad..ref' } });
    expect(result).toMatchObject({ code: 2, stderr: expect.stringMatching(/^cortex: CORTEX_JOURNAL_REF="bad\.\.ref" is not a valid ref name .*\n$/) });
    expect(git(dir, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main\n');
  });

  it('is kept by cortex init in git config, so hooks and commands run without it use the same journal', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    git(dir, 'branch', 'cortex'); // git cannot hold cortex/journal beside it
    expect(cortex(dir, ['init', '--no-claude', '--no-git'], { env: { CORTEX_JOURNAL_REF: 'mem/journal' } }).code).toBe(0);
    expect(git(dir, 'config', 'cortex.journalRef')).toBe('mem/journal\n');
    expect(cortex(dir, ['remember', 'Keep the journal under mem/', '-t', 'decision']).code).toBe(0);
    expect(git(dir, 'for-each-ref', '--format=%(refname)', 'refs/heads/mem')).toBe('refs/heads/mem/journal\n');
    expect(cortexJson<Array<{ content: string }>>(dir, ['log']).map((e) => e.content)).toEqual(['Keep the journal under mem/']);
    const doctor = cortex(dir, ['doctor']).stdout;
    expect(doctor).not.toContain('not a Cortex setting');
    expect(doctor).toMatch(/settings +git config cortex\.journalref/);
  });
});

describe('cortex status', () => {
  it('shows the ref, tip, counts by type and cache state', () => {
    const dir = tempRepo();
    expect(cortexJson<{ initialized: boolean; events: number }>(dir, ['status'])).toMatchObject({ initialized: false, events: 0, tip: null });
    cortex(dir, ['remember', 'a', '-t', 'decision']);
    cortex(dir, ['remember', 'b', '-t', 'decision']);
    cortex(dir, ['remember', 'c', '-t', 'learned']);
    const status = cortexJson<Record<string, unknown>>(dir, ['status']);
    expect(status).toMatchObject({
      ref: 'refs/heads/cortex/journal',
      tip: git(dir, 'rev-parse', 'cortex/journal').trim(),
      events: 3,
      byType: { decision_made: 2, knowledge_acquired: 1 },
      shards: 1,
      problems: [],
    });
    expect(cortexJson<{ cache: { state: string } }>(dir, ['status']).cache.state).toBe('fresh');
  });
});

describe('a read-only .git (chmod -R a-w, a read-only mount)', () => {
  it('reads work without writing a cache: log, search, decisions, briefing, status, with caches stale or never built; remember fails in one line', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['remember', 'Use Postgres for storage', '-t', 'decision']);
    cortex(dir, ['search', 'postgres']);
    cortex(dir, ['briefing']);
    cortex(dir, ['remember', 'Use Redis for sessions', '-t', 'decision']);
    const tip = git(dir, 'rev-parse', 'cortex/journal');
    giveToTestUser(dir);
    const gitDir = join(dir, '.git');
    const readOnly = (each: () => void) => {
      walk(gitDir, (p) => chmodSync(p, statSync(p).mode & ~0o222));
      try {
        each();
      } finally {
        walk(gitDir, (p) => chmodSync(p, statSync(p).mode | 0o200));
      }
    };
    const run = (...args: string[]) => cortex(dir, args, { as: testUser });
    const reads = (cache: 'stale' | 'absent') => {
      for (const args of [['log', '--oneline'], ['log', '-n', '1'], ['decisions'], ['search', 'redis sessions'], ['briefing'], ['status']]) {
        const result = run(...args);
        expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 0, stderr: '' });
        if (args[0] !== 'status') expect(result.stdout).toContain('Redis for sessions');
      }
      expect(run('status').stdout).toContain(`cache    ${cache}, read into memory (it cannot be written)`);
    };
    // Caches built before the last memory: each is stale.
    readOnly(() => reads('stale'));
    // A clone that never ran cortex: no .git/cortex at all.
    rmSync(join(gitDir, 'cortex'), { recursive: true });
    readOnly(() => {
      reads('absent');
      const remember = run('remember', 'Use Kafka', '-t', 'decision');
      // The object's folder (objects/<first two hex digits>) may exist already: then the file is what git refuses.
      expect(remember).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(new RegExp(`^cortex: ${gitDir} is not writable \\(EACCES on objects/..(?:/[^)]+)?\\): nothing stored; cortex doctor says how to fix it\n$`)) });
    });
    expect(git(dir, '-c', 'safe.directory=*', 'rev-parse', 'cortex/journal')).toBe(tip);
  });
});

describe('a journal object lost from .git (a partial copy, a disk that lost a file)', () => {
  it('says in one line which object is missing and how to get it back, in the CLI and in doctor; restoring it loses nothing', () => {
    const dir = tempRepo();
    expect(cortex(dir, ['remember', 'Keep me', '-t', 'decision']).code).toBe(0);
    const blob = git(dir, 'ls-tree', '-r', 'cortex/journal').split('\n').find((l) => l.endsWith('.jsonl'))?.split(/\s+/)[2] as string;
    const object = join(dir, '.git', 'objects', blob.slice(0, 2), blob.slice(2));
    const saved = join(tempDir(), 'object');
    renameSync(object, saved);
    rmSync(join(dir, '.git', 'cortex'), { recursive: true, force: true });
    const log = cortex(dir, ['log']);
    expect(log.code).toBe(1);
    expect(log.stderr).toBe(`cortex: git object ${blob} that the journal needs is missing from this repository; fetch it from a clone that has it (cortex sync) or restore .git/objects (git fsck lists what is missing)\n`);
    expect(cortex(dir, ['doctor']).stdout).toContain(`git object ${blob} that the journal needs is missing`);
    renameSync(saved, object);
    expect(cortexJson<Array<{ content: string }>>(dir, ['log']).map((e) => e.content)).toEqual(['Keep me']);
  });
});

describe('outside a repository, or without git', () => {
  it('says so in one line and exits 1', () => {
    const dir = tempDir();
    for (const args of [['log'], ['remember', 'x'], ['status'], ['init'], ['export']]) {
      const result = cortex(dir, args);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^cortex: not a git repository: .* \(run cortex inside a git project, or `git init` first\)\n$/);
    }
  });

  it('says git is missing in one line and exits 1', () => {
    const dir = tempRepo();
    const bin = join(tempDir(), 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const result = cortex(dir, ['log'], { env: { PATH: bin } });
    expect(result).toMatchObject({ code: 1, stderr: 'cortex: git is not installed or not on PATH: install git and try again\n' });
  });

  it('refuses a SHA-256 repository in one line (its git library writes SHA-1), writes nothing there, and its hooks still exit 0', () => {
    const dir = tempDir();
    git(dir, 'init', '-q', '--object-format=sha256');
    git(dir, '-c', 'user.email=dev@example.com', '-c', 'user.name=Dev', 'commit', '-q', '--allow-empty', '-m', 'first');
    for (const args of [['init'], ['remember', 'Use Postgres', '-t', 'decision']]) {
      const result = cortex(dir, args);
      expect(result.code).toBe(1);
      expect(oneLine(result.stderr) && result.stderr).toContain('SHA-256');
    }
    expect(cortex(dir, ['hook', 'stop'], { input: JSON.stringify({ session_id: 's1', transcript_path: join(dir, 't.jsonl'), cwd: dir, hook_event_name: 'Stop' }) }).code).toBe(0);
    expect(git(dir, 'for-each-ref')).not.toContain('cortex');
    expect(spawnSync('git', ['fsck', '--no-progress'], { cwd: dir }).status).toBe(0);
  });

  it('gives usage errors exit 2', () => {
    const dir = tempRepo();
    expect(cortex(dir, []).code).toBe(2);
    expect(cortex(dir, ['frobnicate']).code).toBe(2);
    expect(cortex(dir, ['remember', 'x', '--type', 'banana']).code).toBe(2);
  });

  it('lays out help in aligned columns without loading string-width\'s Unicode tables at start-up', () => {
    const help = cortex(tempRepo(), ['--help']);
    expect(help.code).toBe(0);
    // Where each command's description starts: the same column for all, so widths were measured.
    const columns = help.stdout.split('\n').map((line) => /^ {2}cortex \S.*?\S {2,}(?=\S)/.exec(line)?.[0].length).filter((n) => n !== undefined);
    expect(columns.length).toBeGreaterThan(15);
    expect(new Set(columns).size).toBe(1);
    const bundle = readdirSync(DIST).filter((f) => f.endsWith('.js')).map((f) => readFileSync(join(DIST, f), 'utf8'));
    expect(bundle.some((code) => code.includes('RGI_Emoji') || code.includes('new Intl.Segmenter'))).toBe(false);
  });
});

describe('output read only in part', () => {
  it('stops quietly when the reader closes the pipe early, as with `cortex export | head -1`', () => {
    const dir = tempRepo();
    const lines = Array.from({ length: 400 }, (_, i) => JSON.stringify({ type: 'decision', content: `decision ${i} ${'x'.repeat(400)}` }));
    writeFileSync(join(dir, 'e.jsonl'), `${lines.join('\n')}\n`);
    cortex(dir, ['import', 'e.jsonl']);
    for (const command of ['export', 'log --json', 'log']) {
      const piped = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" ${command} | head -c 10 >/dev/null`], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
      expect(piped.stderr).toBe('');
    }
  });
});
