import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isWriteRefused } from '../errors.js';
import type { CortexEvent } from '../events/types.js';
import { cortexDir } from '../git/repo.js';
import { inspectCache, refreshCache } from '../journal/cache.js';
import { readAll, readSince, type Journal } from '../journal/journal.js';
import { readTip } from '../journal/tip.js';
import { acquireLockFile } from '../lock-file.js';
import { isNamedByTrackedFiles } from '../projections/fold.js';
import { millisOf, rewrittenParentsOf } from '../projections/visibility.js';
import { amendedDoc, analyseDoc, editsOf, FIELDS, isIndexed, storedDoc, TYPE_BOOST, typeCode, type StoredDoc } from './documents.js';
import { TermFilter } from './term-filter.js';
import { buildShards, DELTA_MAX, indexedDoc, loadDelta, newDelta, planShards, type IndexedDoc } from './segments.js';
import {
  appendDocs,
  appendListed,
  INDEX_FORMAT,
  pruneBulks,
  readAllDocs,
  readDelta,
  readMeta,
  readTermFilter,
  resetIndex,
  searchDir,
  writeBulk,
  writeDelta,
  writeMeta,
  writeTermFilter,
  type DocAttrs,
  type ListedRow,
  type SearchMeta,
} from './store.js';

/**
 * Keeping the index at the journal's tip. An append adds its events to the delta (one small
 * file); a missing or damaged index is rebuilt from the journal; a delta past DELTA_MAX is folded
 * into freshly built term shards. One writer at a time (a lock file); readers never wait, they
 * read whatever meta.json last described.
 */
export interface UpdateOptions {
  /** A hook's limit: more new events than this, or no index at all, and the update is left to a background `cortex reindex`. */
  maxInline?: number;
  /** How long to wait for another writer. */
  waitMs?: number;
  /** Fold the delta into the shards here and now instead of leaving it to the background. */
  compact?: boolean;
  /** Rebuild from scratch. */
  rebuild?: boolean;
  onProgress?: (done: number, total: number) => void;
}

export interface UpdateResult {
  meta: SearchMeta | null;
  dir: string;
  added: number;
  /** The delta outgrew DELTA_MAX and was not folded here: the caller may start that in the background. */
  wantsCompaction: boolean;
  /** The index is behind the journal (too much to do inline, or another writer holds the lock). */
  stale: boolean;
}

const countInDelta = (meta: SearchMeta): number => meta.count - (meta.bulk?.count ?? 0);
export const deltaName = (meta: Pick<SearchMeta, 'bulk'>): string => `delta-${meta.bulk?.gen ?? 0}.json`;

/**
 * Folders of this process's own (in the temp directory, removed at exit) standing in for a
 * `.git/cortex` it cannot write (a read-only .git): searching still works, on an index built
 * there once and kept up to date like the shared one.
 */
const ownRoots = new Map<string, string>();

function ownRootFor(shared: string): string {
  const root = mkdtempSync(join(tmpdir(), 'cortex-search-'));
  ownRoots.set(shared, root);
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  return root;
}

export async function updateIndex(journal: Journal, options: UpdateOptions = {}): Promise<UpdateResult> {
  const shared = cortexDir(journal.repo);
  const own = ownRoots.get(shared);
  if (own) return updateIndexIn(own, journal, options);
  try {
    return await updateIndexIn(shared, journal, options);
  } catch (err) {
    if (!isWriteRefused(err)) throw err;
    return updateIndexIn(ownRootFor(shared), journal, options);
  }
}

/** The index under `root` (`.git/cortex`, or this process's own folder) brought to the journal's tip. */
async function updateIndexIn(root: string, journal: Journal, options: UpdateOptions): Promise<UpdateResult> {
  const dir = searchDir(root);
  const tip = await readTip(journal.store);
  let meta = options.rebuild ? null : await readMeta(dir);
  const behind = (m: SearchMeta | null) => m === null || m.tip !== tip;
  if (!behind(meta) && !options.compact) return { meta, dir, added: 0, wantsCompaction: meta !== null && countInDelta(meta) > DELTA_MAX, stale: false };
  // With no index, a hook builds one only for a journal small enough to index within its budget.
  if (options.maxInline !== undefined && meta === null && (await journalSize(journal)) > options.maxInline) return { meta, dir, added: 0, wantsCompaction: false, stale: true };

  await mkdir(root, { recursive: true });
  const release = await acquireLockFile(join(root, 'search.lock'), { staleMs: 120_000, waitMs: options.waitMs ?? 60_000 });
  if (!release) return { meta, dir, added: 0, wantsCompaction: false, stale: true };
  try {
    if (!options.rebuild) meta = await readMeta(dir); // another writer may have just done it
    let added = 0;
    if (meta === null) {
      const { events } = await readAll(journal);
      meta = await rebuild(dir, events, tip, options.onProgress);
      added = meta.count;
    } else if (meta.tip !== tip) {
      const since = await readSince(journal, meta.tip);
      if (options.maxInline !== undefined && since.events.length > options.maxInline) return { meta, dir, added: 0, wantsCompaction: false, stale: true };
      // A lost delta (deleted by hand, say) cannot be appended to: rebuild.
      meta = (await appendToIndex(dir, meta, since.events, tip, await amendedBefore(journal, since.events))) ?? (await rebuild(dir, (await readAll(journal)).events, tip, options.onProgress));
      added = since.events.length;
    }
    const oversized = countInDelta(meta) > DELTA_MAX;
    if (options.compact && oversized) meta = await compact(dir, meta, options.onProgress);
    return { meta, dir, added, wantsCompaction: !options.compact && oversized, stale: false };
  } finally {
    await release();
  }
}

/** Events in the journal, from the read cache (brought up to date incrementally); Infinity when there is none yet. */
async function journalSize(journal: Journal): Promise<number> {
  const { state, meta } = await inspectCache(journal.store, journal.cacheDir);
  if (state === 'absent' || !meta) return Number.POSITIVE_INFINITY;
  return state === 'fresh' ? meta.total : (await refreshCache(journal.store, journal.cacheDir)).total;
}

const MAX_SECONDS = 0xffff_ffff;

/** The events' contribution to the tables in meta.json and their documents. `earlier`: the journal before them, for what an amendment amends. */
function absorb(meta: SearchMeta, events: readonly CortexEvent[], earlier: ReadonlyMap<string, CortexEvent> = new Map()): { docs: StoredDoc[]; attrs: Array<Omit<DocAttrs, 'offset' | 'length'>>; listed: ListedRow[] } {
  const byId = new Map(earlier);
  const placeIndex = new Map(meta.places.map(([b, c], i) => [`${b}\u0000${c}`, i]));
  const placeOf = (e: CortexEvent): number => {
    const key = `${e.branch}\u0000${e.commit}`;
    let i = placeIndex.get(key);
    if (i === undefined) {
      i = meta.places.push([e.branch, e.commit]) - 1;
      placeIndex.set(key, i);
    }
    return i;
  };
  const docs: StoredDoc[] = [];
  const attrs: Array<Omit<DocAttrs, 'offset' | 'length'>> = [];
  const listed: ListedRow[] = [];
  for (const e of events) {
    if (e.type === 'commit_linked') {
      const from = e.meta.rewritten_from;
      const to = e.meta.commit;
      if (typeof from === 'string' && typeof to === 'string' && from !== to) meta.rewrites.push([from, to]);
      const parents = rewrittenParentsOf(e);
      if (parents) meta.rewriteParents.push(parents);
    }
    // An amendment of an amendment amends the memory the first one did.
    const amends = e.type === 'event_amended' ? amendedMemory(e, byId) : undefined;
    for (const edit of editsOf(e)) meta.edits.push({ ...edit, ...(amends && edit.kind === 'amend' ? { target: amends.id } : {}), place: placeOf(e) });
    const named = isNamedByTrackedFiles(e);
    if (!named && !isIndexed(e)) continue;
    const millis = Math.max(0, millisOf(e.ts)); // before 1970 or unreadable: the epoch
    const place = placeOf(e);
    if (named) listed.push({ id: e.id, place, millis });
    byId.set(e.id, e);
    if (!isIndexed(e)) continue;
    const doc = e.type === 'event_amended' ? amendedDoc(e, amends) : storedDoc(e);
    docs.push(doc);
    // Seconds fit 32 bits until 2106: a clock set far ahead is kept at the last second they hold.
    attrs.push({ place, time: Math.min(Math.floor(millis / 1000), MAX_SECONDS), milli: millis % 1000, type: typeCode(doc.type) as number });
  }
  return { docs, attrs, listed };
}

const emptyMeta = (tip: string | null): SearchMeta => ({ format: INDEX_FORMAT, build: randomBytes(6).toString('hex'), tip, count: 0, docsBytes: 0, places: [], edits: [], rewrites: [], rewriteParents: [], bulk: null });

async function rebuild(dir: string, events: readonly CortexEvent[], tip: string | null, onProgress?: UpdateOptions['onProgress']): Promise<SearchMeta> {
  await resetIndex(dir);
  const meta = emptyMeta(tip);
  const { docs, attrs, listed } = absorb(meta, events);
  meta.docsBytes = await appendDocs(dir, docs, attrs, 0, 0);
  await appendListed(dir, listed);
  meta.count = docs.length;
  if (docs.length <= DELTA_MAX) {
    const delta = newDelta();
    const indexed = docs.map((d, o) => indexedDoc(o, analyseDoc(d)));
    delta.addAll(indexed);
    await writeDelta(dir, deltaName(meta), JSON.stringify(delta));
    await writeTermFilter(dir, termFilterOf(indexed));
    await writeMeta(dir, meta);
    onProgress?.(docs.length, docs.length);
    return meta;
  }
  return compact(dir, meta, onProgress, docs);
}

/**
 * The memories amendments among `events` amend that were recorded before them: the journal is
 * read whole only when there is such an amendment, which is rare (a rebuild has every event).
 */
async function amendedBefore(journal: Journal, events: readonly CortexEvent[]): Promise<Map<string, CortexEvent>> {
  const ids = new Set(events.map((e) => e.id));
  const wanted = events.filter((e) => e.type === 'event_amended' && typeof e.meta.target === 'string' && !ids.has(e.meta.target));
  if (wanted.length === 0) return new Map();
  const all = new Map((await readAll(journal)).events.map((e) => [e.id, e]));
  // The memory each amends, and any amendments on the way to it.
  return new Map(wanted.flatMap((amendment) => amendmentChain(amendment, all)).map((e) => [e.id, e]));
}

/** How far an amendment of an amendment of … is followed back to the memory: further is a loop. */
const MAX_AMENDMENT_CHAIN = 32;

/** What an amendment amends, in `byId`, then what that amends while it is an amendment too: the memory last. */
function amendmentChain(amendment: CortexEvent, byId: ReadonlyMap<string, CortexEvent>): CortexEvent[] {
  const chain: CortexEvent[] = [];
  let target = byId.get(String(amendment.meta.target ?? ''));
  while (target && chain.length < MAX_AMENDMENT_CHAIN) {
    chain.push(target);
    target = target.type === 'event_amended' ? byId.get(String(target.meta.target ?? '')) : undefined;
  }
  return chain;
}

/** The memory an amendment amends, through amendments of amendments; undefined when it is not in `byId`. */
function amendedMemory(amendment: CortexEvent, byId: ReadonlyMap<string, CortexEvent>): CortexEvent | undefined {
  const memory = amendmentChain(amendment, byId).at(-1);
  return memory?.type === 'event_amended' ? undefined : memory;
}

async function appendToIndex(dir: string, before: SearchMeta, events: readonly CortexEvent[], tip: string | null, earlier: ReadonlyMap<string, CortexEvent>): Promise<SearchMeta | null> {
  const meta: SearchMeta = { ...before, tip, places: [...before.places], edits: [...before.edits], rewrites: [...before.rewrites], rewriteParents: [...before.rewriteParents] };
  const { docs, attrs, listed } = absorb(meta, events, earlier);
  await appendListed(dir, listed);
  if (docs.length > 0) {
    const json = await readDelta(dir, deltaName(meta));
    const delta = json === null ? null : loadDelta(json);
    if (delta === null && countInDelta(meta) > 0) return null;
    const segment = delta ?? newDelta();
    meta.docsBytes = await appendDocs(dir, docs, attrs, meta.docsBytes, meta.count);
    const indexed = docs.map((d, i) => indexedDoc(meta.count + i, analyseDoc(d)));
    segment.addAll(indexed);
    meta.count += docs.length;
    await writeDelta(dir, deltaName(meta), JSON.stringify(segment));
    // A lost filter is not rebuilt here (that would read every document): the next compaction does.
    const filter = readTermFilter(dir);
    if (filter) await writeTermFilter(dir, termFilterOf(indexed, filter));
  }
  await writeMeta(dir, meta);
  return meta;
}

/** The terms of `docs` added to `into`, or to a new filter sized for them (with room for the delta). */
function termFilterOf(docs: readonly IndexedDoc[], into?: TermFilter): TermFilter {
  const terms = new Set<string>();
  for (const doc of docs) for (const field of FIELDS) for (const t of doc[field]?.split(' ') ?? []) if (t) terms.add(t);
  const filter = into ?? TermFilter.sizedFor(terms.size + DELTA_MAX * 10);
  for (const t of terms) filter.add(t);
  return filter;
}

/** Fold everything into a new generation of term shards and start an empty delta. */
async function compact(dir: string, before: SearchMeta, onProgress?: UpdateOptions['onProgress'], known?: readonly StoredDoc[]): Promise<SearchMeta> {
  const docs = known ?? (await readAllDocs(dir, before.docsBytes));
  const indexed: IndexedDoc[] = docs.map((d, o) => indexedDoc(o, analyseDoc(d)));
  const plan = planShards(indexed);
  const priority = (doc: IndexedDoc) => TYPE_BOOST[docs[doc.o]?.type ?? ''] ?? 1;
  const { files } = buildShards(indexed, plan, priority, onProgress && ((done) => onProgress(Math.min(done, indexed.length), indexed.length)));
  const gen = (before.bulk?.gen ?? 0) + 1;
  await writeBulk(dir, gen, files);
  await writeTermFilter(dir, termFilterOf(indexed));
  const meta: SearchMeta = { ...before, bulk: { gen, count: docs.length, shards: plan.shards, frequent: Object.fromEntries(plan.frequent) } };
  await writeDelta(dir, deltaName(meta), JSON.stringify(newDelta()));
  await writeMeta(dir, meta);
  await pruneBulks(dir, gen);
  onProgress?.(indexed.length, indexed.length);
  return meta;
}

