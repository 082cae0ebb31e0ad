import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyCaptureState } from '../../src/capture/extract.js';
import { readCursor, readTail, writeCursor, type SessionCursor } from '../../src/claude/cursor.js';
import { tempDir } from '../helpers/repo.js';

/** Reads `path` from the start, a chunk at a time, as successive hooks do: what each read returns. */
async function readAll(path: string, maxBytes: number, maxRecordBytes?: number) {
  let cursor: SessionCursor = { transcript: null, offset: 0, head: null, state: emptyCaptureState(), fresh: true };
  const reads = [];
  for (;;) {
    const tail = await readTail(path, cursor, maxBytes, maxRecordBytes);
    reads.push({ names: tail.text.split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { name: string }).name), more: tail.more, skipped: tail.skipped });
    if (!tail.more) return reads;
    cursor = { ...cursor, transcript: path, offset: tail.nextOffset, head: tail.head, fresh: false };
  }
}

const record = (name: string, size = 0) => `${JSON.stringify({ type: 'user', name, pad: 'x'.repeat(size) })}\n`;

describe('readTail', () => {
  it('reads a backlog in chunks, saying when more follows, and leaves a record still being written', async () => {
    const path = join(tempDir(), 't.jsonl');
    writeFileSync(path, record('a') + record('b') + record('c') + '{"type":"us');
    expect(await readAll(path, 80)).toEqual([
      { names: ['a', 'b'], more: true, skipped: 0 },
      { names: ['c'], more: false, skipped: 0 },
    ]);
  });

  it('reads a record longer than a chunk whole, and passes over one too long to hold, so what follows is read', async () => {
    const path = join(tempDir(), 't.jsonl');
    writeFileSync(path, record('a') + record('long', 500) + record('b') + record('huge', 5000) + record('c'));
    const reads = await readAll(path, 100, 1000);
    expect(reads.map((r) => r.names)).toEqual([['a'], ['long'], ['b'], [], ['c']]);
    expect(reads.map((r) => r.skipped)).toEqual([0, 0, 0, record('huge', 5000).length, 0]);
    expect(reads.at(-1)!.more).toBe(false);
  });
});

describe('session cursors', () => {
  it('keeps one cursor per session id, even for ids that differ only in characters a file name cannot hold', async () => {
    const dir = tempDir();
    const ids = ['x:1', 'x_1', 'x/1', '..', 'a'.repeat(300)];
    for (const [i, id] of ids.entries()) await writeCursor(dir, id, { transcript: `/t${i}.jsonl`, offset: i + 1, head: null, state: emptyCaptureState() });
    for (const [i, id] of ids.entries()) expect((await readCursor(dir, id)).offset).toBe(i + 1);
    expect(readdirSync(join(dir, 'sessions')).filter((f) => f.endsWith('.json'))).toHaveLength(ids.length);
  });
});
