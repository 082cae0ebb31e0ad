import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readAll } from '../../src/journal/journal.js';
import { journalAt } from '../helpers/journal.js';
import { fsck, tempRepo } from '../helpers/repo.js';

const WORKER = fileURLToPath(new URL('../helpers/append-worker.ts', import.meta.url));

function startWorker(dir: string, session: string, count: number): { child: ChildProcess; ids: string[]; done: Promise<number> } {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER, dir, session, String(count)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const ids: string[] = [];
  let buffer = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    ids.push(...lines.filter(Boolean));
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<number>((resolve) =>
    child.on('close', (code, signal) => {
      if (code !== 0 && signal === null) console.error(stderr);
      resolve(code ?? -1);
    }),
  );
  return { child, ids, done };
}

describe('concurrent writers', () => {
  it('8 processes appending 50 events each at once store exactly 400, none lost or doubled, fsck clean', async () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    // Four of them share a session (one shard, maximal contention), four write their own.
    const workers = Array.from({ length: 8 }, (_, i) => startWorker(dir, i < 4 ? 'shared' : `own-${i}`, 50));
    expect(await Promise.all(workers.map((w) => w.done))).toEqual(Array(8).fill(0));

    const { events, problems } = await readAll(await journalAt(dir));
    expect(problems).toEqual([]);
    expect(events).toHaveLength(400);
    expect(new Set(events.map((e) => e.id)).size).toBe(400);
    expect(new Set(events.map((e) => e.id))).toEqual(new Set(workers.flatMap((w) => w.ids)));
    const check = fsck(dir);
    expect(check.output).not.toMatch(/error|missing|broken|corrupt/i);
    expect(check.code).toBe(0);
  });
});

describe('a writer killed mid-append', () => {
  it('leaves a readable journal holding every event whose append returned', async () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const worker = startWorker(dir, 'doomed', 0);
    // A second writer keeps going alongside, so the kill lands amid real contention.
    const survivor = startWorker(dir, 'survivor', 30);
    while (worker.ids.length < 25) await new Promise((resolve) => setTimeout(resolve, 5));
    worker.child.kill('SIGKILL');
    await worker.done;
    expect(await survivor.done).toBe(0);
    const returned = [...worker.ids, ...survivor.ids];

    const journal = await journalAt(dir);
    const { events, problems } = await readAll(journal);
    expect(problems).toEqual([]);
    const stored = new Set(events.map((e) => e.id));
    for (const id of returned) expect(stored.has(id)).toBe(true);
    expect(fsck(dir).output).not.toMatch(/error|missing|broken|corrupt/i);

    // The journal stays writable after the crash.
    const after = startWorker(dir, 'after', 3);
    expect(await after.done).toBe(0);
    expect((await readAll(journal)).events.length).toBe(events.length + 3);
  });
});
