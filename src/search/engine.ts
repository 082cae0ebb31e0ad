import { FIELD_BOOST, FIELDS } from './documents.js';
import type { QueryPlan, QueryTerm } from './query-plan.js';
import { cappedTermFactor, frequentKey, hashKeyOf, type MiniSearch, type IndexedDoc, type ShardPlan, type SearchOptions } from './segments.js';

/**
 * Running a query plan over the segments it needs: each bulk shard holding one of its terms,
 * and the delta. A document's score is the sum of its BM25 scores across segments (MiniSearch
 * multiplies each segment's sum by the number of query terms matched there; that is undone and
 * applied once, over concepts, at the end).
 */
export interface Segments {
  bulk: (ShardPlan & { documentCount: number }) | null;
  shard(key: string): Promise<MiniSearch<IndexedDoc> | null>;
  delta(): Promise<MiniSearch<IndexedDoc> | null>;
}

export interface Candidate {
  o: number;
  score: number;
  /** Which query concepts it matched (a few small numbers: an array allocates far less than a Set). */
  concepts: number[];
  /** The document's terms that matched (after prefix and fuzzy expansion), for highlighting; may repeat. */
  matched: string[];
}

/** `weigh(o)` multiplies a document's score; 0 leaves it out (wrong branch, type or date). */
export async function runQuery(plan: QueryPlan, segments: Segments, weigh: (o: number) => number): Promise<Candidate[]> {
  if (plan.terms.length === 0) return [];
  // Which shard files the terms need: a term's hash shard, or for a frequent term only its own
  // capped shard. A frequent word's prefix and fuzzy relatives (every path and identifier that
  // starts with "postgres") would bring back, uncapped, the thousands of documents the cap leaves
  // out, and a word common enough to be frequent was not mistyped.
  const byKey = new Map<string, QueryTerm[]>();
  const route = (key: string, t: QueryTerm) => byKey.set(key, [...(byKey.get(key) ?? []), t]);
  const bulk = segments.bulk;
  if (bulk) {
    for (const t of plan.terms) {
      const frequent = bulk.frequent.get(t.term);
      if (frequent === undefined) route(hashKeyOf(t.term, bulk), t);
      else route(frequentKey(t.term), { ...t, boost: t.boost * cappedTermFactor(frequent, bulk.documentCount) });
    }
  }
  const acc = new Map<number, Candidate>();
  type Job = { segment: MiniSearch<IndexedDoc> | null; terms: readonly QueryTerm[] };
  const jobs: Array<Promise<Job>> = [...byKey].map(async ([key, terms]) => ({ segment: await segments.shard(key), terms }));
  jobs.push(segments.delta().then((segment) => ({ segment, terms: plan.terms })));
  for (const { segment, terms } of await Promise.all(jobs)) if (segment) searchSegment(segment, terms, weigh, acc);

  const out = [...acc.values()];
  for (const c of out) c.score *= Math.max(1, c.concepts.length);
  return out.sort((a, b) => b.score - a.score || a.o - b.o);
}

function searchSegment(segment: MiniSearch<IndexedDoc>, terms: readonly QueryTerm[], weigh: (o: number) => number, acc: Map<number, Candidate>): void {
  const info = new Map(terms.map((t) => [t.term, t]));
  const options: SearchOptions = {
    fields: [...FIELDS],
    boost: { ...FIELD_BOOST },
    prefix: (term) => info.get(term)?.prefix ?? false,
    fuzzy: (term) => (info.get(term)?.fuzzy ? 1 : false),
    maxFuzzy: 1,
    weights: { prefix: 0.4, fuzzy: 0.35 },
    boostTerm: (term) => info.get(term)?.boost ?? 1,
    boostDocument: (id) => weigh(id as number),
    combineWith: 'OR',
  };
  for (const r of segment.search([...info.keys()].join(' '), options)) {
    const o = r.id as number;
    const raw = r.score / Math.max(1, r.queryTerms.length);
    let c = acc.get(o);
    // The first segment's arrays are taken as they are; only a document found in several is merged.
    if (!c) acc.set(o, (c = { o, score: 0, concepts: [], matched: r.terms }));
    else c.matched = c.matched.concat(r.terms);
    c.score += raw;
    for (const q of r.queryTerms) {
      const concept = info.get(q)?.concept ?? -1;
      if (concept >= 0 && !c.concepts.includes(concept)) c.concepts.push(concept);
    }
  }
}
