import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CortexEvent } from '../../src/events/types.js';
import { spawnSync } from 'node:child_process';
import { CLI, cortex, cortexJson } from '../helpers/cli.js';
import { giveToTestUser, makeUnwritable, testUser } from '../helpers/other-user.js';
import { git, tempDir, tempRepo } from '../helpers/repo.js';
import { assistant, session, toolResult, toolUse, user } from '../helpers/transcript.js';

/** A Stop payload exactly as Claude Code sends it (HOOKS.md §1.5, §1.6). */
const stopPayload = (dir: string, transcript: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: 'sess-1', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, permission_mode: 'default', ...extra });

const journalLines = (dir: string) => {
  try {
    return git(dir, 'log', '--format=%H', 'cortex/journal').trim().split('\n').length;
  } catch {
    return 0;
  }
};

const PLANTED = {
  prompt: 'sk-proj-Q2w3E4r5T6y7U8i9O0pAsDfGhJkLzXcVbNm1',
  toolInput: 'ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ0123456789',
  toolResult: 'AKIAZ7QW3ERT5YUI8OPL',
  prose: 'xoxb-284751936402-5839201746382-Gk7Lm2Nq9Rt4Vx6Zb8Cd1Ef3',
};

function plantedTranscript(dir: string): string {
  const path = join(tempDir(), 'session.jsonl');
  writeFileSync(
    path,
    session([
      user(`deploy with ${PLANTED.prompt} please. [MEMORY: preference] never print keys in logs`),
      toolUse('t1', 'Bash', { command: `export GITHUB_TOKEN=${PLANTED.toolInput} && gh auth status` }),
      toolResult('t1', `aws_access_key_id = ${PLANTED.toolResult}`),
      toolUse('t2', 'Edit', { file_path: join(dir, 'src/app.ts'), old_string: 'a', new_string: 'b' }),
      toolResult('t2', 'ok'),
      assistant(`The 401 was caused by the revoked bot token ${PLANTED.prose}; fixed by reinstalling the app and rotating it.`),
      assistant("I'll go with Postgres rather than SQLite since we need concurrent writers."),
    ]),
  );
  return path;
}

describe('cortex hook stop', () => {
  it('captures a session from its transcript and stores nothing new the second time', () => {
    const dir = tempRepo({ files: { 'src/app.ts': 'a' } });
    const transcript = plantedTranscript(dir);
    const first = cortex(dir, ['hook', 'Stop'], { input: stopPayload(dir, transcript) });
    expect(first).toMatchObject({ code: 0, stdout: '' });
    const events = cortexJson<CortexEvent[]>(dir, ['log']);
    expect(events.map((e) => e.type).sort()).toEqual(['command_run', 'decision_made', 'error_resolved', 'file_modified', 'preference_noted']);
    expect(events.find((e) => e.type === 'file_modified')?.meta.path).toBe('src/app.ts');
    expect(new Set(events.map((e) => e.session))).toEqual(new Set(['sess-1']));
    const commits = journalLines(dir);
    expect(commits).toBe(1);

    expect(cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, transcript) }).code).toBe(0);
    expect(journalLines(dir)).toBe(commits);
    expect(cortexJson<CortexEvent[]>(dir, ['log'])).toHaveLength(events.length);
  });

  it('writes .cortex/ into a tree the session changed, and leaves a clean tree clean (a pull or rebase would refuse it)', () => {
    const dir = tempRepo({ files: { 'src/app.ts': 'a' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'cortex init');
    const talk = join(tempDir(), 'talk.jsonl');
    writeFileSync(talk, session([user('SQLite or Postgres?'), assistant("I'll go with Postgres rather than SQLite since we need concurrent writers.")]));
    const env = { CORTEX_FOREGROUND: '1' };
    expect(cortex(dir, ['hook', 'Stop'], { input: stopPayload(dir, talk), env }).code).toBe(0);
    expect(cortexJson<Array<{ content: string }>>(dir, ['decisions']).map((d) => d.content)).toEqual(["I'll go with Postgres rather than SQLite since we need concurrent writers."]);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(dir, '.cortex', 'decisions.md'))).toBe(false);

    writeFileSync(join(dir, 'src/app.ts'), 'b');
    const more = join(tempDir(), 'more.jsonl');
    writeFileSync(more, session([assistant('Decision: Use Zod for request validation.')]));
    expect(cortex(dir, ['hook', 'Stop'], { input: stopPayload(dir, more, { session_id: 'sess-2' }), env }).code).toBe(0);
    const file = readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8');
    expect(file).toContain('Postgres');
    expect(file).toContain('Use Zod for request validation');
  });

  it('the background regeneration a Stop starts asks again before it writes: a commit made right after the turn is left clean', async () => {
    const dir = tempRepo({ files: { 'src/app.ts': 'a' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'cortex init');
    writeFileSync(join(dir, 'src/app.ts'), 'b'); // the session changed the tree
    const talk = join(tempDir(), 'talk.jsonl');
    writeFileSync(talk, session([assistant('[MEMORY: decision] Use Fastify for its schema validation.')]));
    expect(cortex(dir, ['hook', 'Stop'], { input: stopPayload(dir, talk) }).code).toBe(0); // regenerates in the background
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'work from the session'); // as a script running claude -p and then committing does
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(git(dir, 'status', '--porcelain')).toBe('');

    // What the background job runs, asked directly: into a clean tree, nothing; without the guard, it writes.
    expect(cortex(dir, ['remember', 'Use pino for logs', '-t', 'decision']).code).toBe(0);
    expect(cortex(dir, ['projections', '--write', '--guard', '--keep-clean-tree', '--quiet']).code).toBe(0);
    expect(git(dir, 'status', '--porcelain')).toBe('');
    expect(cortex(dir, ['projections', '--write', '--quiet']).code).toBe(0);
    expect(git(dir, 'status', '--porcelain')).toMatch(/\.cortex\/decisions\.md/);
  });

  it('leaves .cortex/ alone while the latest stash holds a change to it, so git stash pop applies; the next Stop after it catches up', () => {
    const dir = tempRepo({ files: { 'src/app.ts': 'a' } });
    cortex(dir, ['init', '--no-claude']);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'cortex init');
    const env = { CORTEX_FOREGROUND: '1' };
    const stop = (id: string, text: string, file: string) => {
      writeFileSync(join(dir, file), id);
      const talk = join(tempDir(), `${id}.jsonl`);
      writeFileSync(talk, session([assistant(`[MEMORY: decision] ${text}`)]));
      expect(cortex(dir, ['hook', 'Stop'], { input: stopPayload(dir, talk, { session_id: id }), env }).code).toBe(0);
    };
    stop('sess-1', 'Use zod for request validation.', 'src/validate.ts');
    expect(git(dir, 'status', '--porcelain')).toBe(' M .cortex/decisions.md\n?? src/validate.ts\n');
    git(dir, 'stash', '-u', '-q');

    stop('sess-2', 'Use vitest for the tests.', 'src/app.test.ts');
    expect(git(dir, 'status', '--porcelain')).toBe('?? src/app.test.ts\n');
    git(dir, 'stash', 'pop', '-q');
    expect(git(dir, 'stash', 'list')).toBe('');
    expect(readFileSync(join(dir, '.git', 'cortex', 'log'), 'utf8')).toContain('the latest stash holds changes to .cortex/');
    expect(readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8')).toContain('### Use zod for request validation.');

    stop('sess-3', 'Log with pino.', 'src/log.ts');
    const file = readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8');
    for (const text of ['Use zod for request validation.', 'Use vitest for the tests.', 'Log with pino.']) expect(file).toContain(`### ${text}`);
  });

  it('reads only the new tail on the next stop, and continues after the transcript is rotated', () => {
    const dir = tempRepo();
    const transcript = join(tempDir(), 't.jsonl');
    writeFileSync(transcript, session([assistant('Going with Vite for the build: it is much faster than webpack here.')]));
    cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, transcript) });
    writeFileSync(transcript, readFileSync(transcript, 'utf8') + session([assistant('Ruled out Lerna: it is unmaintained.')]));
    cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, transcript) });
    expect(cortexJson<CortexEvent[]>(dir, ['log']).map((e) => e.type)).toEqual(['approach_rejected', 'decision_made']);
    // Rotated: the file now holds something else, shorter. Read from the start, deduped.
    writeFileSync(transcript, session([assistant('Going with Vite for the build: it is much faster than webpack here.'), assistant('Turns out the CI cache keys on the lockfile hash.')]));
    cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, transcript) });
    expect(cortexJson<CortexEvent[]>(dir, ['log']).map((e) => e.type)).toEqual(['knowledge_acquired', 'approach_rejected', 'decision_made']);
  });

  it('reads a last record written without a final newline, once, and what follows it later', () => {
    const dir = tempRepo();
    const transcript = join(tempDir(), 't.jsonl');
    writeFileSync(transcript, session([assistant('Going with Vite for the build: it is much faster than webpack here.'), assistant('Ruled out Lerna: it is unmaintained.')]).trimEnd());
    cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, transcript) });
    expect(cortexJson<CortexEvent[]>(dir, ['log']).map((e) => e.type)).toEqual(['approach_rejected', 'decision_made']);
    writeFileSync(transcript, `${readFileSync(transcript, 'utf8')}\n${session([assistant('Turns out the CI cache keys on the lockfile hash.')]).trimEnd()}`);
    cortex(dir, ['hook', 'session-end'], { input: stopPayload(dir, transcript) });
    expect(cortexJson<CortexEvent[]>(dir, ['log']).map((e) => e.type)).toEqual(['knowledge_acquired', 'approach_rejected', 'decision_made']);
    writeFileSync(transcript, `${readFileSync(transcript, 'utf8')}\n{"type":"assistant","message":{"role":"assis`); // a record still being written waits
    expect(cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, transcript) }).code).toBe(0);
    expect(cortexJson<CortexEvent[]>(dir, ['log'])).toHaveLength(3);
  });

  it('uses last_assistant_message when the transcript lags behind', () => {
    const dir = tempRepo();
    const transcript = join(tempDir(), 't.jsonl');
    writeFileSync(transcript, session([user('hi')]));
    cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, transcript, { last_assistant_message: 'We decided to pin Node 20 in CI because the Docker image is on 20.' }) });
    expect(cortexJson<CortexEvent[]>(dir, ['log']).map((e) => e.content)).toEqual(['We decided to pin Node 20 in CI because the Docker image is on 20.']);
  });

  it('stores a plan written in prose once, though the transcript and last_assistant_message both carry it and the hook runs again', () => {
    const dir = tempRepo();
    const transcript = join(tempDir(), 't.jsonl');
    const plan = 'Here is the plan:\n\n1. Add the migration\n2. Backfill sessions\n3. Switch reads';
    writeFileSync(transcript, session([user('plan it'), assistant(plan)]));
    const payload = stopPayload(dir, transcript, { last_assistant_message: plan });
    cortex(dir, ['hook', 'stop'], { input: payload });
    cortex(dir, ['hook', 'stop'], { input: payload });
    expect(cortexJson<CortexEvent[]>(dir, ['log', '--type', 'plan']).map((e) => e.type)).toEqual(['plan_created']);
  });

  it('never lets a planted secret reach the journal, the cache, the cursors, the log or extract output', () => {
    const dir = tempRepo({ files: { 'src/app.ts': 'a' } });
    const transcript = plantedTranscript(dir);
    cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, transcript) });
    cortex(dir, ['hook', 'user-prompt-submit'], { input: JSON.stringify({ session_id: 'sess-1', transcript_path: transcript, cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: `[MEMORY: learned] the key ${PLANTED.prompt} is for staging` }) });
    cortex(dir, ['log']);
    const extracted = cortex(dir, ['extract', transcript, '--json']).stdout;
    const stored = [
      git(dir, 'log', '-p', '--all', '--format='),
      ...walk(join(dir, '.git', 'cortex')).map((f) => readFileSync(f, 'utf8')),
      extracted,
    ].join('\n');
    for (const secret of Object.values(PLANTED)) expect(stored).not.toContain(secret);
    expect(stored).toContain('[REDACTED:');
  });
});

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('hooks fail open', () => {
  const bad: Array<[string, string | Buffer]> = [
    ['malformed stdin', '{"session_id": "x", '],
    ['an empty payload', ''],
    ['binary garbage', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))],
    ['a JSON array', '[1,2,3]'],
  ];
  it.each(bad)('%s: exit 0, one stderr line, journal unchanged', (_name, input) => {
    const dir = tempRepo();
    cortex(dir, ['remember', 'kept', '-t', 'decision']);
    const before = git(dir, 'rev-parse', 'cortex/journal');
    for (const event of ['stop', 'SessionStart', 'user-prompt-submit', 'session-end', 'PostToolUse']) {
      const result = cortex(dir, ['hook', event], { input: input as string });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(git(dir, 'rev-parse', 'cortex/journal')).toBe(before);
  });

  it('a missing or unreadable transcript: exit 0, one stderr line, what the payload carried is still kept', () => {
    const dir = tempRepo();
    const result = cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, '/nonexistent/t.jsonl', { last_assistant_message: 'Ruled out Kafka: far too heavy for one service.' }) });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^cortex hook stop: transcript not found: \/nonexistent\/t\.jsonl; captured 1 from the payload only\n$/);
    expect(cortexJson<CortexEvent[]>(dir, ['log']).map((e) => e.type)).toEqual(['approach_rejected']);
    expect(readFileSync(join(dir, '.git', 'cortex', 'log'), 'utf8')).toContain('transcript not found');
  });

  it("a subagent's missing transcript: the message names that file, not the session's transcript beside it", () => {
    const dir = tempRepo();
    const main = join(tempDir(), 'main.jsonl');
    writeFileSync(main, session([user('explore the repo')]));
    const agent = join(dirname(main), 'subagents', 'agent-a1.jsonl');
    const payload = stopPayload(dir, main, { hook_event_name: 'SubagentStop', agent_id: 'a1', agent_type: 'Explore', agent_transcript_path: agent });
    const result = cortex(dir, ['hook', 'subagent-stop'], { input: payload });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    expect(result.stderr).toBe(`cortex hook subagent-stop: transcript not found: ${agent}; captured 0 from the payload only\n`);
  });

  it('a transcript path that is a FIFO (an open would block until a writer comes): every capturing hook exits 0 at once', () => {
    const dir = tempRepo();
    const fifo = join(tempDir(), 'transcript.jsonl');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    for (const event of ['stop', 'session-end', 'pre-compact']) {
      // A hang is killed at 20 s, and then the status is null.
      const result = spawnSync(process.execPath, [CLI, 'hook', event], { cwd: dir, input: stopPayload(dir, fifo, { hook_event_name: event }), encoding: 'utf8', timeout: 20_000 });
      expect(result.status).toBe(0);
      expect(result.stderr).toContain('transcript unreadable');
    }
  });

  it('a .git/cortex the user cannot write (left to root by a sudo git pull): exit 0, one stderr line naming it; session-start tells the user and still briefs Claude', () => {
    const dir = tempRepo();
    cortex(dir, ['remember', 'kept', '-t', 'decision']);
    const transcript = join(tempDir(), 'session.jsonl');
    writeFileSync(transcript, session([assistant('[MEMORY: decision] Use Kafka because it is durable.')]));
    const before = git(dir, 'rev-parse', 'cortex/journal');
    giveToTestUser(dir, dirname(transcript));
    const cortexDir = join(dir, '.git', 'cortex');
    const undo = makeUnwritable(cortexDir);
    try {
      const hook = (event: string) => cortex(dir, ['hook', event], { input: stopPayload(dir, transcript, { hook_event_name: event }), as: testUser });
      const stop = hook('stop');
      expect(stop).toMatchObject({ code: 0, stdout: '' });
      expect(stop.stderr).toBe(`cortex hook stop: cannot write ${cortexDir} (EACCES): nothing stored; cortex doctor says how to fix it\n`);

      // Claude Code shows the user a systemMessage; stderr on exit 0 reaches nobody. The
      // briefing, which needs no write, still goes to Claude beside it.
      const start = hook('session-start');
      expect(start.code).toBe(0);
      expect(JSON.parse(start.stdout)).toEqual({
        systemMessage: `Cortex cannot write ${cortexDir} (EACCES), so this session's memory will not be saved. Run cortex doctor for the fix.`,
        hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: expect.stringContaining('- **kept**') },
      });

      // A git hook run by the same user says the same, for the next checkout or merge.
      const checkout = cortex(dir, ['git-hook', 'post-merge', '0'], { as: testUser });
      expect(checkout.code).toBe(0);
      expect(checkout.stderr).toBe(`cortex git-hook post-merge: cannot write ${cortexDir} (EACCES); cortex doctor says how to fix it (continuing)\n`);
    } finally {
      undo();
    }
    expect(git(dir, '-c', 'safe.directory=*', 'rev-parse', 'cortex/journal')).toBe(before);
  });

  it('outside a repository: exit 0, one stderr line', () => {
    const dir = tempDir();
    const result = cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, '/x.jsonl') });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/not a git repository.*nothing captured\n$/);
    const gone = cortex(dir, ['hook', 'stop'], { input: stopPayload('/nonexistent/project', '/x.jsonl') });
    expect(gone.code).toBe(0);
    expect(gone.stderr).toMatch(/^cortex hook stop: no such directory: \/nonexistent\/project .*nothing captured\n$/); // not "git is not installed"
  });

  it('a 100 MB transcript: exit 0, the journal extended correctly, within the budget', () => {
    const dir = tempRepo();
    const transcript = join(tempDir(), 'huge.jsonl');
    const filler = JSON.stringify(toolResult('x', 'y'.repeat(100_000))) + '\n';
    const block = filler.repeat(Math.ceil((100 * 1024 * 1024) / filler.length));
    writeFileSync(transcript, session([assistant('Going with SQLite for the cache: one file, no server.')]) + block + 'partial line without end');
    const started = Date.now();
    const result = cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, transcript) });
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(cortexJson<CortexEvent[]>(dir, ['log']).map((e) => e.type)).toEqual(['decision_made']);
  });
});

describe('a transcript longer than a hook reads at once', () => {
  const first = '[MEMORY: decision] Use Kafka for the event bus because replay matters.';
  const last = '[MEMORY: decision] Use zstd for the archives because it is faster.';
  /** ~10 MB, a decision at each end: as when hooks start mid-session or a transcript is fed once. */
  function longTranscript(): string {
    const path = join(tempDir(), 'long.jsonl');
    const filler = JSON.stringify(toolResult('x', 'y'.repeat(100_000))) + '\n';
    writeFileSync(path, session([assistant(first)]) + filler.repeat(100) + session([assistant(last)]));
    return path;
  }
  const decisions = (dir: string) => cortexJson<CortexEvent[]>(dir, ['log']).map((e) => e.content).sort();
  const endPayload = (dir: string, transcript: string) => stopPayload(dir, transcript, { hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' });

  it('session-end reads one chunk and leaves the rest to a catch-up (with CORTEX_FOREGROUND, in process): the end of the session is kept', () => {
    const dir = tempRepo();
    const result = cortex(dir, ['hook', 'session-end'], { input: endPayload(dir, longTranscript()), env: { CORTEX_FOREGROUND: '1' } });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(decisions(dir)).toEqual([first, last].map((d) => d.replace('[MEMORY: decision] ', '')).sort());
    const log = readFileSync(join(dir, '.git', 'cortex', 'log'), 'utf8');
    expect(log).toMatch(/session-end: stored 1 event; \d+\.\d MB of the transcript is left to read, by a catch-up/);
    expect(log).toMatch(/session-end \(catch-up\): stored 1 event/);
  });

  it('the catch-up runs detached, so session-end returns at once', async () => {
    const dir = tempRepo();
    expect(cortex(dir, ['hook', 'session-end'], { input: endPayload(dir, longTranscript()) })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    for (const until = Date.now() + 20_000; decisions(dir).length < 2 && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 250));
    expect(decisions(dir)).toHaveLength(2);
    expect(readdirSync(join(dir, '.git', 'cortex')).filter((f) => f.startsWith('input-'))).toEqual([]);
  });

  it('a record longer than a chunk (a pasted screenshot) is read, and what follows it too', () => {
    const dir = tempRepo();
    const transcript = join(tempDir(), 'big-record.jsonl');
    writeFileSync(transcript, session([assistant(first), toolResult('x', 'y'.repeat(9 * 1024 * 1024)), assistant(last)]));
    expect(cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, transcript) }).code).toBe(0);
    expect(decisions(dir)).toHaveLength(2);
  });
});

describe('cortex hook post-tool-use and user-prompt-submit', () => {
  it('records an edit as it happens, and the later stop does not record it again', () => {
    const dir = tempRepo();
    const file = join(dir, 'lib', 'x.py');
    const payload = { session_id: 'sess-1', transcript_path: '/none', cwd: dir, hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: file, content: 'print(1)' }, tool_response: { filePath: file, success: true }, tool_use_id: 'toolu_01' };
    expect(cortex(dir, ['hook', 'PostToolUse'], { input: JSON.stringify(payload) }).code).toBe(0);
    const transcript = join(tempDir(), 't.jsonl');
    writeFileSync(transcript, session([toolUse('toolu_01', 'Write', { file_path: file, content: 'print(1)' }), toolResult('toolu_01', 'ok')]).replaceAll('/repo', dir));
    cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, transcript) });
    expect(cortexJson<CortexEvent[]>(dir, ['log'])).toMatchObject([{ type: 'file_modified', meta: { path: 'lib/x.py' } }]);
    // With the cursors gone, the transcript is read from the start: the edit is still stored once.
    rmSync(join(dir, '.git', 'cortex'), { recursive: true, force: true });
    cortex(dir, ['hook', 'stop'], { input: stopPayload(dir, transcript) });
    expect(cortexJson<CortexEvent[]>(dir, ['log'])).toMatchObject([{ type: 'file_modified', meta: { path: 'lib/x.py' } }]);
  });

  it('records no edit when the tool answered with an error', () => {
    const dir = tempRepo();
    const payload = (response: unknown) => JSON.stringify({ session_id: 's', transcript_path: '/none', cwd: dir, hook_event_name: 'PostToolUse', tool_name: 'Edit', tool_input: { file_path: join(dir, 'a.ts'), old_string: 'x', new_string: 'y' }, tool_response: response, tool_use_id: `t-${String(response).length}` });
    expect(cortex(dir, ['hook', 'PostToolUse'], { input: payload('Error: String to replace not found in file.') }).code).toBe(0);
    expect(cortex(dir, ['hook', 'PostToolUse'], { input: payload('<tool_use_error>File has not been read yet.</tool_use_error>') }).code).toBe(0);
    expect(journalLines(dir)).toBe(0);
    expect(cortex(dir, ['hook', 'PostToolUse'], { input: payload('The file a.ts has been updated.') }).code).toBe(0);
    expect(cortexJson<CortexEvent[]>(dir, ['log']).map((e) => e.meta.path)).toEqual(['a.ts']);
  });

  it('stores tags and stated preferences from a prompt, and nothing from an ordinary one', () => {
    const dir = tempRepo();
    const prompt = (text: string) => JSON.stringify({ session_id: 's', transcript_path: '/none', cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: text });
    expect(cortex(dir, ['hook', 'user-prompt-submit'], { input: prompt('fix the login bug') })).toMatchObject({ code: 0, stdout: '' });
    expect(journalLines(dir)).toBe(0);
    cortex(dir, ['hook', 'UserPromptSubmit'], { input: prompt('[memory: Decision] Money is stored in integer cents.\nAlso, always use pnpm, never npm.') });
    expect(cortexJson<CortexEvent[]>(dir, ['log']).map((e) => [e.type, e.confidence])).toEqual(
      expect.arrayContaining([
        ['decision_made', 1],
        ['preference_noted', 0.8],
      ]),
    );
  });
});
