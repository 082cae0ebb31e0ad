import { randomBytes } from 'node:crypto';
import { appendFile, mkdir, open, readdir, readFile, rename, truncate, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isWriteRefused } from '../errors.js';
import { compareAndSwapRef } from '../git/refs.js';
import { runGit } from '../git/run-git.js';
import { serializeEvents } from '../events/serialize.js';
import { acquireLockFile } from '../lock-file.js';
import type { CortexEvent } from '../events/types.js';
import { dedupeById } from './dedupe.js';
import { parseShard, type LineProblem } from './parse-shard.js';
import type { ShardState } from './read-since.js';
import { readTip, type JournalStore } from './tip.js';

/**
 * The read cache under `.git/cortex/cache/`: every event of the journal, sorted oldest first, in
 * one JSONL file, with a small meta file saying which journal tip it reflects and which shard
 * blobs went into it. When the tip moves, only shards whose blob changed are read, and only
 * their new lines; events that sort after everything cached are appended in place. Deleting the
 * folder is always safe: the next read rebuilds it from the journal. Where it cannot be written (a
 * read-only .git), reads get the same events from the journal, held in memory by this process.
 */
const FORMAT = 1;
const LOCK_STALE_MS = 5_000;
const LOCK_WAIT_MS = 6_000;

export interface CacheMeta {
  format: number;
  ref: string;
  tip: string | null;
  /** Name of the events file inside the cache folder (a new name on every rewrite). */
  file: string;
  /** Bytes of the events file that belong to this tip; anything beyond is a crashed writer's. */
  bytes: number;
  lastKey: string | null;
  total: number;
  counts: Record<string, number>;
  shards: Record<string, ShardState>;
  problems: LineProblem[];
}

export interface CacheDir {
  path: string;
}

const metaPath = (dir: CacheDir) => join(dir.path, 'journal.json');
const sortKey = (e: CortexEvent) => `${e.ts}\u0000${e.id}`;

async function loadMeta(dir: CacheDir): Promise<CacheMeta | null> {
  try {
    const meta = JSON.parse(await readFile(metaPath(dir), 'utf8')) as CacheMeta;
    return meta.format === FORMAT ? meta : null;
  } catch {
    return null;
  }
}

async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = `${path}.tmp-${process.pid}-${randomBytes(3).toString('hex')}`;
  await writeFile(temp, text);
  await rename(temp, path);
}

/** Cache writers take turns; one that waited too long breaks the lock (its holder must be dead). */
async function acquireLock(dir: CacheDir): Promise<() => Promise<void>> {
  const path = join(dir.path, 'lock');
  const release = await acquireLockFile(path, { staleMs: LOCK_STALE_MS, waitMs: LOCK_WAIT_MS });
  if (release) return release;
  await unlink(path).catch(() => undefined);
  return (await acquireLockFile(path, { staleMs: 0, waitMs: LOCK_WAIT_MS })) ?? (async () => undefined);
}

function countTypes(events: readonly CortexEvent[], into: Record<string, number> = {}): Record<string, number> {
  for (const e of events) into[e.type] = (into[e.type] ?? 0) + 1;
  return into;
}

function emptyMeta(ref: string, tip: string | null): CacheMeta {
  return { format: FORMAT, ref, tip, file: 'events-0.jsonl', bytes: 0, lastKey: null, total: 0, counts: {}, shards: {}, problems: [] };
}

/**
 * The events of the generation this process just wrote, kept so that reading them back right
 * after a rebuild (the usual next step) does not parse the file it came from.
 */
let justWritten: { file: string; bytes: number; events: readonly CortexEvent[] } | null = null;

/** Forget those events, so the next read parses the file (how another process reads it; the bench measures that). */
export function forgetWrittenEvents(): void {
  justWritten = null;
}

async function writeGeneration(dir: CacheDir, meta: CacheMeta, events: readonly CortexEvent[]): Promise<CacheMeta> {
  const file = `events-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}.jsonl`;
  const text = serializeEvents(events);
  await writeAtomically(join(dir.path, file), text);
  const last = events[events.length - 1];
  const bytes = Buffer.byteLength(text);
  justWritten = { file, bytes, events };
  return { ...meta, file, bytes, lastKey: last ? sortKey(last) : null, total: events.length, counts: countTypes(events) };
}

/** Every event at `tip`, read from the journal's shards, and the meta a cache of them starts from. */
async function readJournalAt(store: JournalStore, tip: string): Promise<{ meta: CacheMeta; events: CortexEvent[] }> {
  const { listShards, readBlobText } = await import('./store.js');
  const { shards, problems } = await listShards(store, tip);
  const meta = emptyMeta(store.ref, tip);
  meta.problems = problems;
  const all: CortexEvent[] = [];
  for (const shard of shards) {
    const parsed = parseShard(shard.path, await readBlobText(store, shard.oid));
    for (const e of parsed.events) all.push(e);
    meta.problems.push(...parsed.problems);
    meta.shards[shard.path] = { oid: shard.oid, lines: parsed.lines, lastId: parsed.lastId };
  }
  return { meta, events: dedupeById(all) };
}

async function rebuild(store: JournalStore, dir: CacheDir, tip: string): Promise<CacheMeta> {
  const { meta, events } = await readJournalAt(store, tip);
  return writeGeneration(dir, meta, events);
}

/** The generation this process read into memory because the cache could not be written; its `file` names no file. */
let inMemory: { meta: CacheMeta; events: readonly CortexEvent[] } | null = null;

/** Whether this meta describes events read into memory because the cache could not be written. */
export const isInMemory = (meta: CacheMeta): boolean => inMemory?.meta.file === meta.file;

async function readIntoMemory(store: JournalStore, tip: string | null): Promise<CacheMeta> {
  if (tip === null) return emptyMeta(store.ref, null);
  if (inMemory?.meta.tip === tip && inMemory.meta.ref === store.ref) return inMemory.meta;
  const { meta, events } = await readJournalAt(store, tip);
  const last = events[events.length - 1];
  const held = { ...meta, file: `(in memory ${randomBytes(3).toString('hex')})`, lastKey: last ? sortKey(last) : null, total: events.length, counts: countTypes(events) };
  inMemory = { meta: held, events };
  return held;
}

async function update(store: JournalStore, dir: CacheDir, meta: CacheMeta, tip: string): Promise<CacheMeta> {
  const { listShards } = await import('./store.js');
  const { readAdded } = await import('./read-since.js');
  const { shards, problems: treeProblems } = await listShards(store, tip);
  const delta = await readAdded(store, meta.shards, shards);
  if (!delta) return rebuild(store, dir, tip);
  const lineProblems = meta.problems.filter((p) => p.line !== undefined);
  const next: CacheMeta = { ...meta, tip, shards: delta.states, problems: [...treeProblems, ...lineProblems, ...delta.problems] };
  const first = delta.added[0];
  if (!first) return next;
  if (meta.lastKey === null || sortKey(first) > meta.lastKey) {
    // The common case, new events are the newest: extend the file in place.
    const path = join(dir.path, meta.file);
    const text = serializeEvents(delta.added);
    await truncate(path, meta.bytes).catch(async () => writeFile(path, ''));
    await appendFile(path, text);
    const last = delta.added[delta.added.length - 1] as CortexEvent;
    return { ...next, bytes: meta.bytes + Buffer.byteLength(text), lastKey: sortKey(last), total: meta.total + delta.added.length, counts: countTypes(delta.added, { ...meta.counts }) };
  }
  // Older events arrived (an import of history, a synced clone): merge them into a new file.
  const cached = await readCachedEvents(dir, meta);
  return writeGeneration(dir, next, dedupeById([...cached, ...delta.added]));
}

async function removeOldGenerations(dir: CacheDir, keep: string): Promise<void> {
  for (const name of await readdir(dir.path).catch(() => [] as string[])) {
    if (name.startsWith('events-') && name !== keep && !name.includes('.tmp-')) await unlink(join(dir.path, name)).catch(() => undefined);
  }
}

/**
 * Bring the cache up to the journal tip and return its meta. A cache the file system refuses to
 * write (a read-only .git) is skipped, not an error: the events are read into memory instead.
 */
export async function refreshCache(store: JournalStore, dir: CacheDir): Promise<CacheMeta> {
  const tip = (await readTip(store)) ?? (await restoreDeletedJournal(store, dir));
  const meta = await loadMeta(dir);
  if (meta && meta.tip === tip && meta.ref === store.ref) return meta;
  try {
    return await updateCache(store, dir);
  } catch (err) {
    if (!isWriteRefused(err)) throw err;
    return readIntoMemory(store, tip);
  }
}

/**
 * A journal branch deleted by hand (`git branch -D` of every branch but main, say) would
 * otherwise read as empty, and the next append would start it again: every memory before it
 * gone from every view. Where this cache still names the tip it last read, and git still has
 * that commit, the branch is put back there. Its tip, or null when there is nothing to restore.
 */
export async function restoreDeletedJournal(store: JournalStore, dir: CacheDir): Promise<string | null> {
  if ((await readTip(store)) !== null) return null;
  const last = await loadMeta(dir);
  if (!last?.tip || last.ref !== store.ref) return null;
  if ((await runGit(['cat-file', '-e', `${last.tip}^{commit}`], { cwd: store.gitdir })).code !== 0) return null;
  await compareAndSwapRef(store.gitdir, store.ref, null, last.tip);
  return readTip(store);
}

async function updateCache(store: JournalStore, dir: CacheDir): Promise<CacheMeta> {
  await mkdir(dir.path, { recursive: true });
  const release = await acquireLock(dir);
  try {
    const current = await loadMeta(dir);
    const currentTip = await readTip(store);
    if (current && current.tip === currentTip && current.ref === store.ref) return current;
    let next: CacheMeta;
    if (currentTip === null) next = emptyMeta(store.ref, null);
    else if (current && current.ref === store.ref && current.tip !== null) next = await update(store, dir, current, currentTip);
    else next = await rebuild(store, dir, currentTip);
    await writeAtomically(metaPath(dir), JSON.stringify(next));
    if (!current || current.file !== next.file) await removeOldGenerations(dir, next.file);
    return next;
  } finally {
    await release();
  }
}

export type CacheState = 'fresh' | 'stale' | 'absent';

export async function inspectCache(store: JournalStore, dir: CacheDir): Promise<{ state: CacheState; meta: CacheMeta | null }> {
  const meta = await loadMeta(dir);
  if (!meta) return { state: 'absent', meta: null };
  return { state: meta.tip === (await readTip(store)) && meta.ref === store.ref ? 'fresh' : 'stale', meta };
}

async function readEventsFile(dir: CacheDir, meta: CacheMeta): Promise<string> {
  if (meta.bytes === 0) return '';
  const handle = await open(join(dir.path, meta.file), 'r');
  try {
    const buffer = Buffer.alloc(meta.bytes);
    await handle.read(buffer, 0, meta.bytes, 0);
    return buffer.toString('utf8');
  } finally {
    await handle.close();
  }
}

/** Every cached event, oldest first. Lines were validated when the cache was built. */
export async function readCachedEvents(dir: CacheDir, meta: CacheMeta): Promise<CortexEvent[]> {
  if (inMemory?.meta.file === meta.file) return [...inMemory.events];
  if (justWritten && justWritten.file === meta.file && justWritten.bytes === meta.bytes) return [...justWritten.events];
  const text = await readEventsFile(dir, meta);
  const events: CortexEvent[] = [];
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    events.push(JSON.parse(text.slice(start, end)) as CortexEvent);
    start = end + 1;
  }
  return events;
}

/**
 * Cached events newest first, read backwards in chunks so `cortex log -n 20` touches the
 * tail of the file only, whatever the journal's size.
 */
export async function* readCachedNewestFirst(dir: CacheDir, meta: CacheMeta): AsyncGenerator<CortexEvent> {
  const held = inMemory?.meta.file === meta.file ? inMemory.events : null;
  if (held) {
    for (let i = held.length - 1; i >= 0; i--) yield held[i] as CortexEvent;
    return;
  }
  if (meta.bytes === 0) return;
  const handle = await open(join(dir.path, meta.file), 'r');
  try {
    const chunkSize = 64 * 1024;
    let position = meta.bytes;
    let carry = Buffer.alloc(0);
    while (position > 0) {
      const size = Math.min(chunkSize, position);
      position -= size;
      const chunk = Buffer.alloc(size);
      await handle.read(chunk, 0, size, position);
      const joined = Buffer.concat([chunk, carry]);
      let end = joined.length;
      // Skip the trailing newline of the block, then yield complete lines from the end.
      for (let i = joined.length - 1; i >= 0; i--) {
        if (joined[i] !== 0x0a) continue;
        if (i + 1 < end) yield JSON.parse(joined.subarray(i + 1, end).toString('utf8')) as CortexEvent;
        end = i;
      }
      carry = joined.subarray(0, end);
    }
    if (carry.length > 0) yield JSON.parse(carry.toString('utf8')) as CortexEvent;
  } finally {
    await handle.close();
  }
}
