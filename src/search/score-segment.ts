import { FIELD_BOOST, FIELDS } from './documents.js';
import type { QueryTerm } from './query-plan.js';
import type { IndexedDoc, MiniSearch } from './segments.js';

/**
 * BM25 over one loaded segment, read straight from MiniSearch's postings.
 *
 * `MiniSearch.search` builds, for every matching document, a result holding an array of query
 * terms, an object keyed by matched term and an array of fields per match, then merges and sorts
 * them. A query with a few broad terms matches thousands of documents at 100K events, and that
 * bookkeeping (with the collections it leaves to the GC) was two thirds of the query time. This
 * adds each posting's score straight into the caller's candidates instead.
 *
 * It reads MiniSearch's private fields (there is no public API for raw postings) and computes
 * exactly what `search` would: field, term and document boosts, prefix and one-edit fuzzy
 * matches weighted as MiniSearch weighs them, BM25 with its defaults. A test in
 * search-core.test.ts holds the two to the same scores, so a MiniSearch upgrade that changes
 * its internals fails there, not silently in the rankings.
 */
export interface Candidate {
  o: number;
  score: number;
  /** Which query concepts it matched (a few small numbers: an array allocates far less than a Set). */
  concepts: number[];
  /** The document's terms that matched (after prefix and fuzzy expansion), for highlighting. */
  matched: string[];
}

/** field id → (short document id → term frequency): what MiniSearch keeps per term. */
type Postings = Map<number, Map<number, number>>;

interface SegmentInternals {
  _index: {
    get(term: string): Postings | undefined;
    atPrefix(prefix: string): Iterable<[string, Postings]>;
    fuzzyGet(term: string, maxDistance: number): Map<string, [Postings, number]>;
  };
  _fieldIds: Record<string, number>;
  _documentIds: Map<number, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentCount: number;
}

// MiniSearch's defaults, which the index has always been scored with.
const BM25 = { k: 1.2, b: 0.7, d: 0.5 };
const PREFIX_WEIGHT = 0.4;
const FUZZY_WEIGHT = 0.35;

/** A query term's matches in a segment: the term itself, its longer forms, its one-edit neighbours. */
function* matchesOf(index: SegmentInternals['_index'], t: QueryTerm): Generator<{ term: string; postings: Postings; weight: number }> {
  const exact = index.get(t.term);
  if (exact) yield { term: t.term, postings: exact, weight: 1 };
  const fuzzy = t.fuzzy ? index.fuzzyGet(t.term, 1) : undefined;
  if (t.prefix) {
    for (const [term, postings] of index.atPrefix(t.term)) {
      const distance = term.length - t.term.length;
      if (distance === 0) continue;
      // A longer form that is also one edit away counts once, as a prefix match.
      fuzzy?.delete(term);
      yield { term, postings, weight: (PREFIX_WEIGHT * term.length) / (term.length + 0.3 * distance) };
    }
  }
  if (fuzzy) {
    for (const [term, [postings, distance]] of fuzzy) {
      if (distance === 0) continue;
      yield { term, postings, weight: (FUZZY_WEIGHT * term.length) / (term.length + distance) };
    }
  }
}

/** `weigh(o)` multiplies a document's score; 0 leaves it out. Adds to `acc`, keyed by ordinal. */
export function scoreSegment(segment: MiniSearch<IndexedDoc>, terms: readonly QueryTerm[], weigh: (o: number) => number, acc: Map<number, Candidate>): void {
  const s = segment as unknown as SegmentInternals;
  const fields = FIELDS.map((field) => ({ id: s._fieldIds[field] as number, boost: FIELD_BOOST[field] }));
  for (const t of terms) {
    for (const match of matchesOf(s._index, t)) {
      for (const field of fields) {
        const docs = match.postings.get(field.id);
        if (!docs) continue;
        const avgLength = s._avgFieldLength[field.id] as number;
        const idf = Math.log(1 + (s._documentCount - docs.size + 0.5) / (docs.size + 0.5));
        const weight = match.weight * t.boost * field.boost;
        docs.forEach((tf, shortId) => {
          const o = s._documentIds.get(shortId) as number;
          const docBoost = weigh(o);
          if (!docBoost) return;
          const length = (s._fieldLength.get(shortId) as number[])[field.id] as number;
          const score = weight * docBoost * idf * (BM25.d + (tf * (BM25.k + 1)) / (tf + BM25.k * (1 - BM25.b + (BM25.b * length) / avgLength)));
          const c = acc.get(o);
          if (!c) {
            acc.set(o, { o, score, concepts: [t.concept], matched: [match.term] });
            return;
          }
          c.score += score;
          if (!c.concepts.includes(t.concept)) c.concepts.push(t.concept);
          if (!c.matched.includes(match.term)) c.matched.push(match.term);
        });
      }
    }
  }
}
