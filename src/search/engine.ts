import type { QueryPlan, QueryTerm } from './query-plan.js';
import { scoreSegment, type Candidate, type Segment } from './score-segment.js';
import { cappedTermFactor, frequentKey, hashKeyOf, type ShardPlan } from './segments.js';

export type { Candidate };

/**
 * Running a query plan over the segments it needs: each bulk shard holding one of its terms,
 * and the delta. A document's score is the sum of its BM25 scores across segments, multiplied at
 * the end by the number of the question's concepts it matched.
 */
export interface Segments {
  bulk: (ShardPlan & { documentCount: number }) | null;
  shard(key: string): Promise<Segment | null>;
  delta(): Promise<Segment | null>;
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
  type Job = { segment: Segment | null; terms: readonly QueryTerm[] };
  const jobs: Array<Promise<Job>> = [...byKey].map(async ([key, terms]) => ({ segment: await segments.shard(key), terms }));
  jobs.push(segments.delta().then((segment) => ({ segment, terms: plan.terms })));
  for (const { segment, terms } of await Promise.all(jobs)) if (segment) scoreSegment(segment, terms, weigh, acc);

  const out = [...acc.values()];
  for (const c of out) c.score *= Math.max(1, c.concepts.length);
  return out.sort((a, b) => b.score - a.score || a.o - b.o);
}
