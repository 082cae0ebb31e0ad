import { closeSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { appendFile, mkdir, readdir, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SearchEdit, StoredDoc } from './documents.js';
import { TermFilter } from './term-filter.js';

/**
 * The search index on disk, under `.git/cortex/search/` (derived: delete it and the next search
 * rebuilds it from the journal).
 *
 *   meta.json     what the index covers (journal tip, document count) and the small tables:
 *                 places (branch, commit), edits (retract/amend/supersede), commit rewrites
 *   attrs.bin     one fixed-size record per document: place, time (s, and ms), type, where its record is
 *   docs.jsonl    the stored records results are shown from, read by offset
 *   delta-<n>.json  MiniSearch over the documents appended since bulk n was built
 *   bulk-<n>/     the term shards of the bulk (segments.ts)
 *   listed.tsv    id, place and time (ms) of each event the tracked files can name (memories,
 *                 corrections, plan events), read only to see which merges left no ancestry
 *
 * Appends go to attrs.bin and docs.jsonl first and meta.json last (by rename), so a reader that
 * read meta.json never looks past what it describes, and a crash in between is seen as a size
 * mismatch and rebuilt.
 */
export const INDEX_FORMAT = 19; // 19: a named supersession keeps its decision's time (at); 18: Chinese and Japanese indexed as pairs of characters; 17: a supersession may name a full id of under 6 characters; 16: rewrites keep the parents the old commit had (rewriteParents); 15: Latin accents folded (café = cafe); 14: an amendment is stored as the memory it amends (amendedDoc), times past 2106 kept at 2106; 13: "contention" a stem of its own, not "content"; 12: listed.tsv has corrections and plan events, which tracked files name too; 11: times to the millisecond for squash boundaries (attrs, listed.tsv); 10: decisions keep what they were chosen over and whether a heuristic read them, supersessions a decision names; 9: listed.tsv; 8: C++, C# and F# are words of their own; 4: frequent terms capped at 500 (the cap enters their weight); 5: terms.bloom; 6: words end at apostrophes; 7: stems of their own for words Porter conflates, final y kept
export const ATTR_BYTES = 20;

export interface BulkMeta {
  gen: number;
  /** Ordinals below this are in the bulk; the rest are in the delta. */
  count: number;
  shards: number;
  /** Frequent term → how many of the bulk's documents hold it. */
  frequent: Record<string, number>;
}

export interface SearchMeta {
  format: number;
  /** Changes only when the index is rebuilt from scratch (ordinals are stable between): vectors align by it. */
  build: string;
  tip: string | null;
  count: number;
  docsBytes: number;
  places: Array<[string | null, string | null]>;
  edits: SearchEdit[];
  rewrites: Array<[string, string]>;
  /** old commit → its parents, where a rewrite recorded them. */
  rewriteParents: Array<[string, string[]]>;
  bulk: BulkMeta | null;
}

export interface DocAttrs {
  place: number;
  /** Seconds since the epoch. */
  time: number;
  /** The milliseconds past that second: where a squash merge's boundary falls (visibility.ts). */
  milli: number;
  type: number;
  offset: number;
  length: number;
}

export const searchDir = (cortexDir: string): string => join(cortexDir, 'search');
const file = (dir: string, name: string): string => join(dir, name);
export const bulkDir = (dir: string, gen: number): string => join(dir, `bulk-${gen}`);

/**
 * meta.json, or null when it is missing, unreadable, of another format, or describes more than
 * the files hold (then the index is rebuilt). Read synchronously: every search starts here, and a
 * small read beats a thread-pool round trip.
 */
export async function readMeta(dir: string): Promise<SearchMeta | null> {
  const text = readOrNull(() => readFileSync(file(dir, 'meta.json'), 'utf8'));
  if (text === null) return null;
  let meta: SearchMeta;
  try {
    meta = JSON.parse(text) as SearchMeta;
  } catch {
    return null;
  }
  if (meta.format !== INDEX_FORMAT) return null;
  const attrs = readOrNull(() => statSync(file(dir, 'attrs.bin')));
  const docs = readOrNull(() => statSync(file(dir, 'docs.jsonl')));
  const intact = meta.count === 0 || ((attrs?.size ?? 0) >= meta.count * ATTR_BYTES && (docs?.size ?? 0) >= meta.docsBytes);
  return intact ? meta : null;
}

function readOrNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch {
    return null;
  }
}

export async function writeAtomic(path: string, content: string | Uint8Array): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, content);
  await rename(temp, path);
}

export const writeMeta = (dir: string, meta: SearchMeta): Promise<void> => writeAtomic(file(dir, 'meta.json'), JSON.stringify(meta));

export function encodeAttrs(list: readonly DocAttrs[]): Buffer {
  const buf = Buffer.alloc(list.length * ATTR_BYTES);
  list.forEach((a, i) => {
    const at = i * ATTR_BYTES;
    buf.writeUInt32LE(a.place, at);
    buf.writeUInt32LE(a.time, at + 4);
    buf.writeUInt32LE(a.offset, at + 8);
    buf.writeUInt32LE(a.length, at + 12);
    buf.writeUInt8(a.type, at + 16);
    buf.writeUInt16LE(a.milli, at + 18);
  });
  return buf;
}

/**
 * The attribute table: typed views over attrs.bin, cheap to load at 100K documents (2 MB). Read
 * for every posting a query scores, so through a DataView and a byte array, which the compiler
 * inlines, rather than Buffer's bounds-checked readUInt* (a tenth of a CLI search's time).
 */
export class AttrTable {
  private readonly view: DataView;
  private readonly bytes: Uint8Array;
  constructor(buf: Buffer, readonly count: number) {
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.length);
    this.bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
  }
  place = (o: number): number => this.view.getUint32(o * ATTR_BYTES, true);
  time = (o: number): number => this.view.getUint32(o * ATTR_BYTES + 4, true);
  type = (o: number): number => this.bytes[o * ATTR_BYTES + 16] as number;
  /** The time in milliseconds since the epoch. */
  millis = (o: number): number => this.time(o) * 1000 + this.view.getUint16(o * ATTR_BYTES + 18, true);
  location = (o: number): { offset: number; length: number } => ({ offset: this.view.getUint32(o * ATTR_BYTES + 8, true), length: this.view.getUint32(o * ATTR_BYTES + 12, true) });
}

export async function readAttrs(dir: string, count: number): Promise<AttrTable | null> {
  const buf = await readFile(file(dir, 'attrs.bin')).catch(() => null);
  if (!buf || buf.length < count * ATTR_BYTES) return null;
  return new AttrTable(buf, count);
}

/** Append documents; returns the new size of docs.jsonl. */
export async function appendDocs(dir: string, docs: readonly StoredDoc[], attrs: ReadonlyArray<Omit<DocAttrs, 'offset' | 'length'>>, docsBytes: number, count: number): Promise<number> {
  let offset = docsBytes;
  const lines: string[] = [];
  const full: DocAttrs[] = docs.map((doc, i) => {
    const line = `${JSON.stringify(doc)}\n`;
    const length = Buffer.byteLength(line);
    lines.push(line);
    const a = { ...(attrs[i] as Omit<DocAttrs, 'offset' | 'length'>), offset, length };
    offset += length;
    return a;
  });
  await mkdir(dir, { recursive: true });
  // A crash may have left bytes past what meta.json describes: cut them before appending.
  await truncateTo(file(dir, 'docs.jsonl'), docsBytes);
  await truncateTo(file(dir, 'attrs.bin'), count * ATTR_BYTES);
  await appendFile(file(dir, 'docs.jsonl'), lines.join(''));
  await appendFile(file(dir, 'attrs.bin'), encodeAttrs(full));
  return offset;
}

async function truncateTo(path: string, size: number): Promise<void> {
  const info = await stat(path).catch(() => null);
  if (info && info.size > size) await truncate(path, size);
  if (!info && size > 0) throw new Error(`${path} is missing`);
}

/** An event the tracked decision files can list: its id, place (index into meta.places) and time. */
export interface ListedRow {
  id: string;
  place: number;
  /** Milliseconds since the epoch. */
  millis: number;
}

export async function appendListed(dir: string, rows: readonly ListedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await mkdir(dir, { recursive: true });
  await appendFile(file(dir, 'listed.tsv'), rows.map((r) => `${r.id}\t${r.place}\t${r.millis}\n`).join(''));
}

/** The rows for these ids (a row appended twice by an interrupted update reads as one). */
export async function readListed(dir: string, ids: ReadonlySet<string>): Promise<ListedRow[]> {
  const text = await readFile(file(dir, 'listed.tsv'), 'utf8').catch(() => '');
  const rows = new Map<string, ListedRow>();
  // Thousands of lines, a few wanted: look at each id and split only the lines asked for.
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    const tab = text.indexOf('\t', start);
    if (tab !== -1 && tab < stop && ids.has(text.slice(start, tab))) {
      const [id, place, millis] = text.slice(start, stop).split('\t');
      rows.set(id as string, { id: id as string, place: Number(place), millis: Number(millis) });
    }
    start = stop + 1;
  }
  return [...rows.values()];
}

/** Read some stored records by ordinal (one positioned read each). */
export function readDocs(dir: string, attrs: AttrTable, ordinals: readonly number[]): Map<number, StoredDoc> {
  const out = new Map<number, StoredDoc>();
  if (ordinals.length === 0) return out;
  const fd = openSync(file(dir, 'docs.jsonl'), 'r');
  try {
    for (const o of ordinals) {
      const { offset, length } = attrs.location(o);
      const buf = Buffer.alloc(length);
      readSync(fd, buf, 0, length, offset);
      out.set(o, JSON.parse(buf.toString('utf8')) as StoredDoc);
    }
  } finally {
    closeSync(fd);
  }
  return out;
}

/** Every stored record, in ordinal order (for folding the delta into the bulk). */
export async function readAllDocs(dir: string, docsBytes: number): Promise<StoredDoc[]> {
  const text = (await readFile(file(dir, 'docs.jsonl'))).subarray(0, docsBytes).toString('utf8');
  return text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as StoredDoc);
}

export const readDelta = (dir: string, name: string): Promise<string | null> => readFile(file(dir, name), 'utf8').catch(() => null);
export const writeDelta = (dir: string, name: string, json: string): Promise<void> => writeAtomic(file(dir, name), json);
/** The index's term filter (terms.bloom), or null when missing or damaged. */
export const readTermFilter = (dir: string): TermFilter | null => {
  const bytes = readOrNull(() => readFileSync(file(dir, 'terms.bloom')));
  return bytes && TermFilter.from(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
};
export const writeTermFilter = (dir: string, filter: TermFilter): Promise<void> => writeAtomic(file(dir, 'terms.bloom'), filter.buffer);
export const readShard = (dir: string, gen: number, key: string): Promise<string | null> => readFile(join(bulkDir(dir, gen), `${key}.json`), 'utf8').catch(() => null);

export async function writeBulk(dir: string, gen: number, files: ReadonlyMap<string, string>): Promise<void> {
  const target = bulkDir(dir, gen);
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  for (const [key, json] of files) await writeFile(join(target, `${key}.json`), json);
}

/** Remove generations other than the current one and the one before it (a reader may still be in it). */
export async function pruneBulks(dir: string, keep: number): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const gen = /^(?:bulk-(\d+)|delta-(\d+)\.json)$/.exec(name)?.slice(1).find((g) => g !== undefined);
    if (gen !== undefined && Number(gen) < keep - 1) await rm(join(dir, name), { recursive: true, force: true });
  }
}

export const resetIndex = (dir: string): Promise<void> => rm(dir, { recursive: true, force: true });
