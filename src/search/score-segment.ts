import type { AsPlainObject } from 'minisearch';
import { FIELD_BOOST, FIELDS } from './documents.js';
import type { QueryTerm } from './query-plan.js';
import { oneEditApart } from '../one-edit.js';

/**
 * BM25 over one segment, read from MiniSearch's own serialisation (`toJSON`, a documented format)
 * rather than through `MiniSearch.loadJSON` and `search`:
 *
 * - Loading rebuilds MiniSearch's radix tree and numeric maps for every term and document of
 *   the shard, three times the cost of parsing its JSON; a query needs a handful of its terms.
 * - `search` builds, for every matching document, an array of query terms, an object keyed by
 *   matched term and an array of fields per match, then merges and sorts them. A query with a few
 *   broad terms matches thousands of documents at 100K events, and that bookkeeping (with the
 *   collections it leaves to the GC) was two thirds of the query time.
 *
 * So each posting's score goes straight into the caller's candidates, computed as `search`
 * would, to the last bits of rounding: field, term and document boosts, prefix and one-edit fuzzy
 * matches weighted as MiniSearch weighs them, BM25 with its defaults. A test in
 * search-core.test.ts holds the two to the same scores, so a MiniSearch upgrade that changes them
 * fails there, not silently.
 */
export interface Candidate {
  o: number;
  score: number;
  /** Which query concepts it matched (a few small numbers: an array allocates far less than a Set). */
  concepts: number[];
  /** The document's terms that matched (after prefix and fuzzy expansion), for highlighting. */
  matched: string[];
}

/** field id → (short document id → term frequency), as serialised. */
type Postings = Record<string, Record<string, number>>;

/** A segment as queries read it: the serialised MiniSearch with its terms in a Map. */
export interface Segment {
  documentCount: number;
  averageFieldLength: number[];
  fieldIds: Record<string, number>;
  /** short id → document ordinal. */
  documentIds: Record<string, number>;
  /** short id → distinct terms per field. */
  fieldLength: Record<string, number[]>;
  terms: Map<string, Postings>;
}

/** MiniSearch's serialisation format this reader understands. */
const SERIALIZATION_VERSION = 2;

/** A segment file that does not parse as one (damaged on disk, or cut short). */
export class DamagedSegment extends Error {}

export function readSegment(json: string): Segment {
  let raw: AsPlainObject;
  try {
    raw = JSON.parse(json) as AsPlainObject;
  } catch (err) {
    throw new DamagedSegment(`search segment does not parse: ${(err as Error).message}`);
  }
  const isObject = (x: unknown) => typeof x === 'object' && x !== null;
  if (!isObject(raw) || !Array.isArray(raw.index) || ![raw.documentIds, raw.fieldLength, raw.fieldIds].every(isObject)) throw new DamagedSegment('search segment is not a MiniSearch index');
  // Not damage: a MiniSearch upgrade changed its format, and rebuilding would write the same again.
  if (raw.serializationVersion !== SERIALIZATION_VERSION) throw new Error(`search segments are MiniSearch serialisation ${raw.serializationVersion}; score-segment.ts reads ${SERIALIZATION_VERSION}`);
  return { documentCount: raw.documentCount, averageFieldLength: raw.averageFieldLength, fieldIds: raw.fieldIds, documentIds: raw.documentIds, fieldLength: raw.fieldLength, terms: new Map(raw.index) };
}

// MiniSearch's defaults, which the index has always been scored with.
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.4;
export const FUZZY_WEIGHT = 0.35;

/** A query term's matches in a segment: the term itself, its longer forms, its one-edit neighbours. */
function matchesOf(segment: Segment, t: QueryTerm): Array<{ term: string; postings: Postings; weight: number }> {
  const exact = segment.terms.get(t.term);
  const out = exact ? [{ term: t.term, postings: exact, weight: 1 }] : [];
  if (!t.prefix && !t.fuzzy) return out;
  // A longer form that is also one edit away counts once, as a prefix match.
  for (const [term, postings] of segment.terms) {
    if (term === t.term) continue;
    if (t.prefix && term.startsWith(t.term)) out.push({ term, postings, weight: (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * (term.length - t.term.length)) });
    else if (t.fuzzy && oneEditApart(term, t.term)) out.push({ term, postings, weight: (FUZZY_WEIGHT * term.length) / (term.length + 1) });
  }
  return out;
}

/** `weigh(o)` multiplies a document's score; 0 leaves it out. Adds to `acc`, keyed by ordinal. */
export function scoreSegment(segment: Segment, terms: readonly QueryTerm[], weigh: (o: number) => number, acc: Map<number, Candidate>): void {
  const fields = FIELDS.map((field) => ({ id: segment.fieldIds[field] as number, boost: FIELD_BOOST[field] }));
  for (const t of terms) {
    for (const match of matchesOf(segment, t)) {
      for (const field of fields) {
        const docs = match.postings[field.id];
        if (!docs) continue;
        let matching = 0;
        for (const _ in docs) matching++;
        if (t.maxDocs !== undefined && matching > t.maxDocs) continue;
        const avgLength = segment.averageFieldLength[field.id] as number;
        const idf = Math.log(1 + (segment.documentCount - matching + 0.5) / (matching + 0.5));
        const weight = match.weight * t.boost * field.boost;
        for (const shortId in docs) {
          const o = segment.documentIds[shortId] as number;
          const docBoost = weigh(o);
          if (!docBoost) continue;
          const tf = docs[shortId] as number;
          const length = (segment.fieldLength[shortId] as number[])[field.id] as number;
          const score = weight * docBoost * idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * length) / avgLength)));
          const c = acc.get(o);
          if (!c) {
            acc.set(o, { o, score, concepts: [t.concept], matched: [match.term] });
            continue;
          }
          c.score += score;
          if (!c.concepts.includes(t.concept)) c.concepts.push(t.concept);
          if (!c.matched.includes(match.term)) c.matched.push(match.term);
        }
      }
    }
  }
}
