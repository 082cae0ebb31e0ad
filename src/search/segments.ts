import MiniSearch, { type Options } from 'minisearch';
import { FIELDS, type AnalysedDoc, type Field } from './documents.js';

/**
 * The index is MiniSearch, split so that a query loads only what it needs. One MiniSearch over
 * 100K events is 47 MB of JSON and 1.7 s to load, far over a hook's budget, so:
 *
 * - **Term shards** hold the settled bulk of the journal. A term lives in exactly one shard,
 *   chosen by its first three characters (so prefix and most fuzzy matches stay in one shard),
 *   and a document is added to every shard that holds one of its terms. A query loads only the
 *   shards of its terms: a few hundred KB instead of the whole index.
 * - **Frequent terms** (in more than 1% of documents) get a shard each, so that a
 *   rare term hashed next to "src" does not pay for loading "src"'s hundred thousand postings.
 *   Such a shard keeps only the FREQUENT_CAP best documents for its term (memories before
 *   activity, recent before old): static pruning, the classic way to bound the cost of terms
 *   that say little. The term's true document frequency is kept so its weight stays right.
 * - **The delta** is one ordinary MiniSearch over everything appended since the shards were last
 *   built, so an append touches one small file. When it grows past DELTA_MAX it is folded into
 *   the shards (in the background).
 *
 * Scores stay comparable across shards because every shard is saved with the whole bulk's
 * document count and average field lengths (MiniSearch's BM25 inputs), and a term's postings
 * are all in its shard; the query side sums a document's per-shard scores (see engine.ts).
 * Documents are fed in already analysed (analyze.ts): fields are space-joined terms.
 */
export const DELTA_MAX = 2_000;
// Measured at 100K events: 2% / 1,000 gave an in-process p95 of 14–16 ms; 1% / 500 gives 9–11.
export const FREQUENT_SHARE = 0.01;
export const FREQUENT_MIN_DF = 400;
export const FREQUENT_CAP = 500;

export interface IndexedDoc {
  o: number;
  content?: string;
  files?: string;
  tags?: string;
  kind?: string;
}

export function indexedDoc(ordinal: number, analysed: AnalysedDoc): IndexedDoc {
  const doc: IndexedDoc = { o: ordinal };
  for (const field of FIELDS) if (analysed[field].length > 0) doc[field] = analysed[field].join(' ');
  return doc;
}

/** Shards for a bulk of `docs` documents: about 400 documents' worth of terms each, at most 256. */
export function shardCountFor(docs: number): number {
  let n = 1;
  while (n < 256 && n * 400 < docs) n *= 2;
  return n;
}

/** FNV-1a of the first three characters. */
export function shardOf(term: string, shards: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < Math.min(3, term.length); i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  return (h >>> 0) % shards;
}

/** Options every segment is created and loaded with; `keep` restricts it to some terms. */
export function segmentOptions(keep?: (term: string) => boolean): Options<IndexedDoc> {
  return {
    idField: 'o',
    fields: [...FIELDS],
    storeFields: [],
    tokenize: (text) => (text === '' ? [] : text.split(' ')),
    processTerm: keep ? (term) => (keep(term) ? term : null) : (term) => term || null,
  };
}

/** Where each term of a bulk lives: a hash shard, or its own shard when frequent. */
export interface ShardPlan {
  shards: number;
  /** Frequent term → how many documents of the bulk hold it. */
  frequent: ReadonlyMap<string, number>;
}

export const frequentKey = (term: string): string => `f-${Buffer.from(term).toString('hex').slice(0, 48)}`;

export function shardKeyOf(term: string, plan: ShardPlan): string {
  return plan.frequent.has(term) ? frequentKey(term) : hashKeyOf(term, plan);
}

export const hashKeyOf = (term: string, plan: Pick<ShardPlan, 'shards'>): string => String(shardOf(term, plan.shards));

export function planShards(docs: readonly IndexedDoc[]): ShardPlan {
  const shards = shardCountFor(docs.length);
  const df = new Map<string, number>();
  for (const doc of docs) for (const term of termsOfDoc(doc)) df.set(term, (df.get(term) ?? 0) + 1);
  const cutoff = Math.max(FREQUENT_MIN_DF, docs.length * FREQUENT_SHARE);
  const frequent = new Map<string, number>();
  for (const [term, n] of df) if (n > cutoff) frequent.set(term, n);
  return { shards, frequent };
}

function termsOfDoc(doc: IndexedDoc): Set<string> {
  const terms = new Set<string>();
  for (const field of FIELDS) for (const t of doc[field]?.split(' ') ?? []) if (t) terms.add(t);
  return terms;
}

/**
 * How much more a capped frequent term's matches must weigh to score as if all its documents
 * were indexed: BM25's idf at the true document frequency over the idf at the cap.
 */
export function cappedTermFactor(df: number, documentCount: number): number {
  if (df <= FREQUENT_CAP) return 1;
  const idf = (m: number) => Math.log(1 + (documentCount - m + 0.5) / (m + 0.5));
  return idf(df) / idf(FREQUENT_CAP);
}

export interface BulkStats {
  documentCount: number;
  averageFieldLength: number[];
}

/**
 * Build the shards of a bulk, each serialised with the bulk's own BM25 statistics. `priority`
 * orders documents for the frequent-term cap (higher is kept first).
 */
export function buildShards(docs: readonly IndexedDoc[], plan: ShardPlan, priority: (doc: IndexedDoc) => number, onProgress?: (done: number) => void): { files: Map<string, string>; stats: BulkStats } {
  const byKey = new Map<string, IndexedDoc[]>();
  for (const doc of docs) {
    const keys = new Set<string>();
    for (const term of termsOfDoc(doc)) keys.add(shardKeyOf(term, plan));
    for (const key of keys) {
      const list = byKey.get(key);
      if (list) list.push(doc);
      else byKey.set(key, [doc]);
    }
  }
  const stats = bulkStats(docs);
  const files = new Map<string, string>();
  let done = 0;
  for (const [key, all] of byKey) {
    const list = all.length > FREQUENT_CAP && key.startsWith('f-') ? [...all].sort((a, b) => priority(b) - priority(a) || b.o - a.o).slice(0, FREQUENT_CAP) : all;
    const segment = new MiniSearch<IndexedDoc>(segmentOptions((term) => shardKeyOf(term, plan) === key));
    segment.addAll(list);
    files.set(key, JSON.stringify({ ...segment.toJSON(), ...stats }));
    done += list.length;
    onProgress?.(done);
  }
  return { files, stats };
}

/** MiniSearch's BM25 inputs over the whole bulk: document count and mean distinct terms per field. */
function bulkStats(docs: readonly IndexedDoc[]): BulkStats {
  const totals = FIELDS.map(() => 0);
  const counts = FIELDS.map(() => 0);
  for (const doc of docs) {
    FIELDS.forEach((field: Field, i) => {
      const value = doc[field];
      if (value === undefined) return;
      totals[i] = (totals[i] ?? 0) + new Set(value.split(' ')).size;
      counts[i] = (counts[i] ?? 0) + 1;
    });
  }
  return { documentCount: docs.length, averageFieldLength: totals.map((t, i) => (counts[i] ? t / (counts[i] as number) : 0)) };
}

/**
 * The delta as MiniSearch, to add documents to (queries read segments with readSegment); null
 * when the file is damaged (cut short, say), which the caller treats as a lost delta.
 */
export function loadDelta(json: string): MiniSearch<IndexedDoc> | null {
  try {
    return MiniSearch.loadJSON<IndexedDoc>(json, segmentOptions());
  } catch {
    return null;
  }
}

export const newDelta = (): MiniSearch<IndexedDoc> => new MiniSearch<IndexedDoc>(segmentOptions());

export type { MiniSearch };
