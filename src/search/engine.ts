import type { QueryPlan, QueryTerm } from './query-plan.js';
import { FUZZY_WEIGHT, scoreSegment, type Candidate, type Segment } from './score-segment.js';
import { typoTerms } from './typos.js';
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

/** The candidates best first (ties by ordinal, so a ranking is deterministic). */
export const byScore = (candidates: Candidate[]): Candidate[] => candidates.sort((a, b) => b.score - a.score || a.o - b.o);

/** `weigh(o)` multiplies a document's score; 0 leaves it out (wrong branch, type or date). */
export const runQuery = async (plan: QueryPlan, segments: Segments, weigh: (o: number) => number): Promise<Candidate[]> => byScore(await scoreQuery(plan, segments, weigh));

/** The candidates of runQuery, unsorted. */
export async function scoreQuery(plan: QueryPlan, segments: Segments, weigh: (o: number) => number): Promise<Candidate[]> {
  if (plan.terms.length === 0) return [];
  // Which shard files the terms need: a term's hash shard, or for a frequent term only its own
  // capped shard. A frequent word's prefix and fuzzy relatives (every path and identifier that
  // starts with "postgres") would bring back, uncapped, the thousands of documents the cap leaves
  // out, and a word common enough to be frequent was not mistyped.
  const bulk = segments.bulk;
  const route = (terms: readonly QueryTerm[]): Map<string, QueryTerm[]> => {
    const byKey = new Map<string, QueryTerm[]>();
    const add = (key: string, t: QueryTerm) => {
      const list = byKey.get(key);
      if (list) list.push(t);
      else byKey.set(key, [t]);
    };
    if (bulk) {
      for (const t of terms) {
        const frequent = bulk.frequent.get(t.term);
        if (frequent === undefined) add(hashKeyOf(t.term, bulk), t);
        else add(frequentKey(t.term), { ...t, boost: t.boost * cappedTermFactor(frequent, bulk.documentCount) });
      }
    }
    return byKey;
  };
  const acc = new Map<number, Candidate>();
  type Job = { segment: Segment | null; terms: readonly QueryTerm[] };
  const load = (terms: readonly QueryTerm[]): Promise<Job[]> =>
    Promise.all([...[...route(terms)].map(async ([key, routed]) => ({ segment: await segments.shard(key), terms: routed })), segments.delta().then((segment) => ({ segment, terms }))]);
  const jobs = await load(plan.terms);
  // A word the journal lacks may be mistyped: the terms of the words one edit away (typos.ts)
  // join the question at fuzzy weight; they mostly live in the word's own shard, already loaded.
  const has = (term: string) => jobs.some(({ segment }) => segment?.terms.has(term));
  const typos = plan.terms.flatMap((t) =>
    t.typed && t.fuzzy && !has(t.term) ? typoTerms(t.typed, t.term).map((term) => ({ term, boost: t.boost * FUZZY_WEIGHT, concept: t.concept, prefix: false, fuzzy: false })) : [],
  );
  if (typos.length > 0) jobs.push(...(await load(typos)));
  for (const { segment, terms } of jobs) if (segment) scoreSegment(segment, terms, weigh, acc);

  const out = [...acc.values()];
  const asked = plan.concepts.length; // terms past them (feedback.ts) answer no concept of the question
  for (const c of out) {
    let answered = 0;
    for (const k of c.concepts) if (k < asked) answered++;
    c.score *= Math.max(1, answered);
  }
  return out;
}
