import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { append, readAll, readSince } from '../../src/journal/journal.js';
import { readTip } from '../../src/journal/tip.js';
import { makeEvent } from '../helpers/events.js';
import { journalAt } from '../helpers/journal.js';
import { fsck, git, tempDir, tempRepo } from '../helpers/repo.js';

/** Everything git shows of the user's side: status, index, HEAD, stash. */
function userState(dir: string) {
  const gitDir = git(dir, 'rev-parse', '--absolute-git-dir').trim();
  let index = '';
  try {
    index = readFileSync(join(gitDir, 'index')).toString('base64');
  } catch {
    index = '(no index)';
  }
  return {
    status: git(dir, 'status', '--porcelain=v1', '--untracked-files=all'),
    index,
    head: readFileSync(join(gitDir, 'HEAD'), 'utf8'),
    stash: git(dir, 'stash', 'list'),
  };
}

const events = (n: number, session = 's1') => Array.from({ length: n }, (_, i) => makeEvent({ content: `decision ${i}`, session }));

describe('appending to the journal', () => {
  it('stores events on the orphan branch, one commit per append, readable by git', async () => {
    const dir = tempRepo({ files: { 'README.md': 'hi' } });
    const journal = await journalAt(dir);
    await append(journal, events(3));
    await append(journal, events(2, 's2'));

    expect(git(dir, 'rev-list', '--count', 'cortex/journal').trim()).toBe('2');
    expect(git(dir, 'rev-list', '--max-parents=0', 'cortex/journal').trim().split('\n')).toHaveLength(1);
    // An orphan branch: no history in common with the user's branches.
    expect(() => git(dir, 'merge-base', 'main', 'cortex/journal')).toThrow();
    const files = git(dir, 'ls-tree', '-r', '--name-only', 'cortex/journal').trim().split('\n');
    expect(files.filter((f) => f.endsWith('.jsonl'))).toEqual([
      expect.stringMatching(/^events\/\d{4}-\d{2}\/s1__[0-9a-f]{8}\.jsonl$/),
      expect.stringMatching(/^events\/\d{4}-\d{2}\/s2__[0-9a-f]{8}\.jsonl$/),
    ]);
    expect((await readAll(journal)).events.map((e) => e.content).sort()).toEqual(['decision 0', 'decision 0', 'decision 1', 'decision 1', 'decision 2']);
    expect(fsck(dir).code).toBe(0);
  });

  it('never touches the work tree, index, HEAD or stash, even with a dirty tree', async () => {
    const dir = tempRepo({ files: { 'a.txt': 'one', 'b.txt': 'two' } });
    writeFileSync(join(dir, 'a.txt'), 'changed');
    writeFileSync(join(dir, 'b.txt'), 'staged');
    git(dir, 'add', 'b.txt');
    writeFileSync(join(dir, 'c.txt'), 'untracked');
    writeFileSync(join(dir, 'a.txt'), 'stashed');
    git(dir, 'stash', 'push', '-q', 'a.txt');
    writeFileSync(join(dir, 'a.txt'), 'dirty again');
    const before = userState(dir);
    await append(await journalAt(dir), events(5));
    expect(userState(dir)).toEqual(before);
  });

  it('works in a repository with no commits yet, recording a null commit', async () => {
    const dir = tempRepo();
    const before = userState(dir);
    const journal = await journalAt(dir);
    const { captureContext, buildEvents } = await import('../../src/journal/journal.js');
    const [event] = buildEvents([{ type: 'decision', content: 'first' }], await captureContext(journal, 'cli', 'cli:remember'));
    await append(journal, [event!]);
    expect(userState(dir)).toEqual(before);
    const stored = (await readAll(journal)).events;
    expect(stored).toMatchObject([{ content: 'first', branch: 'main', commit: null }]);
    expect(() => git(dir, 'rev-parse', '--verify', '-q', 'HEAD')).toThrow();
  });

  it('works on a detached HEAD, recording the commit and no branch', async () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const head = git(dir, 'rev-parse', 'HEAD').trim();
    git(dir, 'checkout', '-q', '--detach');
    const before = userState(dir);
    const journal = await journalAt(dir);
    const { captureContext, buildEvents } = await import('../../src/journal/journal.js');
    await append(journal, buildEvents([{ type: 'learned', content: 'x' }], await captureContext(journal, 'cli', 'cli')));
    expect(userState(dir)).toEqual(before);
    expect((await readAll(journal)).events[0]).toMatchObject({ branch: null, commit: head });
  });

  it('shares one journal between linked worktrees', async () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const linked = join(tempDir(), 'wt');
    git(dir, 'worktree', 'add', '-q', '-b', 'feature', linked);
    const before = userState(linked);
    const fromLinked = await journalAt(linked);
    const { captureContext, buildEvents } = await import('../../src/journal/journal.js');
    await append(fromLinked, buildEvents([{ type: 'decision', content: 'from the worktree' }], await captureContext(fromLinked, 'wt', 'cli')));
    expect(userState(linked)).toEqual(before);
    const fromMain = (await readAll(await journalAt(dir))).events;
    expect(fromMain).toMatchObject([{ content: 'from the worktree', branch: 'feature' }]);
  });

  it('costs one small blob: the shard grows, other shards are untouched', async () => {
    const dir = tempRepo();
    const journal = await journalAt(dir);
    await append(journal, events(50, 'old-session'));
    const oldShard = git(dir, 'ls-tree', '-r', 'cortex/journal').split('\n').find((l) => l.includes('old-session'));
    await append(journal, events(1, 'new-session'));
    const after = git(dir, 'ls-tree', '-r', 'cortex/journal').split('\n').find((l) => l.includes('old-session'));
    expect(after).toBe(oldShard);
    const objects = git(dir, 'diff-tree', '-r', 'cortex/journal~1', 'cortex/journal').trim().split('\n');
    expect(objects).toHaveLength(1);
  });

  it('rolls a shard over to a new part once it is large', async () => {
    const dir = tempRepo();
    const journal = await journalAt(dir);
    const big = 'x'.repeat(60_000);
    for (let i = 0; i < 10; i++) await append(journal, [makeEvent({ content: `${big} ${i}`, session: 'long' })]);
    const shards = git(dir, 'ls-tree', '-r', '--name-only', 'cortex/journal').trim().split('\n').filter((f) => f.includes('long'));
    expect(shards.length).toBeGreaterThan(1);
    expect(shards.some((s) => /long__[0-9a-f]{8}__2\.jsonl$/.test(s))).toBe(true);
    expect((await readAll(journal)).events).toHaveLength(10);
  });
});

describe('reading the journal', () => {
  it('reads what was appended since a known tip', async () => {
    const dir = tempRepo();
    const journal = await journalAt(dir);
    await append(journal, events(3));
    const tip = await readTip(journal.store);
    const later = [makeEvent({ content: 'later one', session: 's1' }), makeEvent({ content: 'other shard', session: 's9' })];
    await append(journal, later);
    const since = await readSince(journal, tip);
    expect(since.events.map((e) => e.id).sort()).toEqual(later.map((e) => e.id).sort());
    expect((await readSince(journal, since.tip)).events).toEqual([]);
    expect((await readSince(journal, null)).events).toHaveLength(5);
  });

  it('gives the same events from the cache, after deleting it, and after incremental updates', async () => {
    const dir = tempRepo();
    const journal = await journalAt(dir);
    await append(journal, events(10));
    const first = await readAll(journal);
    await append(journal, events(5, 's2'));
    // An older event arriving later (an import of history) must land in order.
    await append(journal, [makeEvent({ content: 'from the past', ts: '2020-01-01T00:00:00Z', session: 's3' })]);
    const incremental = await readAll(journal);
    rmSync(join(dir, '.git', 'cortex'), { recursive: true });
    const rebuilt = await readAll(await journalAt(dir));
    expect(incremental.events).toEqual(rebuilt.events);
    expect(incremental.events).toHaveLength(16);
    expect(incremental.events[0]?.content).toBe('from the past');
    expect(first.events).toEqual(rebuilt.events.filter((e) => first.events.some((f) => f.id === e.id)));
  });

  it('reports a corrupt line and a foreign file by name and line, and keeps every other event', async () => {
    const dir = tempRepo();
    const journal = await journalAt(dir);
    await append(journal, events(3));
    // Corrupt the shard and add a stray file with the real git CLI, as a careless hand would.
    const wt = tempDir();
    git(dir, 'worktree', 'add', '-q', wt, 'cortex/journal');
    const shard = git(wt, 'ls-files', 'events').trim();
    const lines = readFileSync(join(wt, shard), 'utf8').split('\n');
    lines.splice(1, 0, '{"this is": not json');
    writeFileSync(join(wt, shard), lines.join('\n'));
    writeFileSync(join(wt, 'notes.txt'), 'stray');
    git(wt, 'add', '-A');
    git(wt, '-c', 'user.email=x@y', '-c', 'user.name=x', 'commit', '-q', '-m', 'hand edit');
    git(dir, 'worktree', 'remove', '--force', wt);

    const read = await readAll(journal);
    expect(read.events).toHaveLength(3);
    expect(read.problems).toEqual(
      expect.arrayContaining([
        { file: shard, line: 2, message: 'not valid JSON' },
        { file: 'notes.txt', message: expect.stringContaining('foreign file') },
      ]),
    );
    // Appending after the damage still works and keeps the damaged shard's good lines.
    await append(journal, events(1));
    expect((await readAll(journal)).events).toHaveLength(4);
  });

  it('reads packed objects after git gc', async () => {
    const dir = tempRepo();
    const journal = await journalAt(dir);
    await append(journal, events(20));
    git(dir, 'gc', '-q', '--prune=now');
    git(dir, 'pack-refs', '--all');
    rmSync(join(dir, '.git', 'cortex', 'cache'), { recursive: true, force: true });
    const fresh = await journalAt(dir);
    expect((await readAll(fresh)).events).toHaveLength(20);
    await append(fresh, events(1));
    expect((await readAll(fresh)).events).toHaveLength(21);
    expect(fsck(dir).code).toBe(0);
  });
});

describe('a branch named cortex', () => {
  it('cannot coexist with refs/heads/cortex/journal: a clear error, nothing lost', async () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    git(dir, 'branch', 'cortex');
    const journal = await journalAt(dir);
    await expect(append(journal, events(1))).rejects.toMatchObject({ code: 'REF_CONFLICT' });
    expect(execFileSync('git', ['branch', '--list'], { cwd: dir, encoding: 'utf8' })).toContain('cortex');
  });
});
