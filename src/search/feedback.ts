import { analyze } from './analyze.js';
import { proseOf, type StoredDoc } from './documents.js';
import type { Candidate } from './engine.js';
import type { QueryPlan, QueryTerm } from './query-plan.js';

/**
 * Pseudo-relevance feedback: the words the best few answers share become weak terms of a second
 * pass (pseudo-relevance feedback, as in RM3). A question asked in other words than its answer's
 * ("how do we keep people logged in") often still finds neighbours of the answer (other notes on
 * the same topic), and those use the answer's words (session, refresh token, cookie). Each
 * term weighs FEEDBACK_BOOST at most, so the question's own words still decide, and the terms
 * form no concept of their own: a note never counts as answering more of the question by
 * matching them.
 */
export const FEEDBACK_DOCS = 3;
export const FEEDBACK_TERMS = 10;
export const FEEDBACK_BOOST = 0.3;

/** One note in 250 (400 at 100K events), never fewer than 100: small journals keep every word. */
export const feedbackMaxDocs = (documents: number): number => Math.max(100, Math.round(documents * 0.004));

/**
 * The feedback terms for a plan, from its first pass's best candidates (best first) and their
 * documents. A term's weight sums, over the documents holding it, the document's score relative
 * to the best one, divided by the square root of its count of distinct terms (a long note's every
 * word is weaker evidence than a short note's).
 */
export function feedbackTerms(plan: QueryPlan, best: readonly Candidate[], docs: ReadonlyMap<number, StoredDoc>, limits: Pick<FeedbackSource, 'isFrequent' | 'maxDocs'>): QueryTerm[] {
  const top = best[0]?.score;
  if (!top) return [];
  const own = new Set(plan.terms.map((t) => t.term));
  const weight = new Map<string, number>();
  for (const c of best.slice(0, FEEDBACK_DOCS)) {
    const doc = docs.get(c.o);
    if (!doc) continue;
    const terms = new Set(analyze(proseOf(doc))); // what it says; its files and tags are not its topic
    const share = c.score / top / Math.sqrt(terms.size);
    // Numbers, two-letter fragments and frequent words say nothing about a topic.
    for (const t of terms) if (!own.has(t) && t.length >= 3 && !/^\p{N}/u.test(t) && !limits.isFrequent(t)) weight.set(t, (weight.get(t) ?? 0) + share);
  }
  const picked = [...weight].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, FEEDBACK_TERMS);
  const max = picked[0]?.[1];
  if (!max) return [];
  const concept = plan.concepts.length; // past the question's own: counted by none
  return picked.map(([term, w]) => ({ term, boost: (FEEDBACK_BOOST * w) / max, concept, prefix: false, fuzzy: false, maxDocs: limits.maxDocs }));
}

/** What the feedback pass needs of the index. */
export interface FeedbackSource {
  docs(ordinals: readonly number[]): ReadonlyMap<number, StoredDoc>;
  /** Whether a document may be shown (not retracted, not the text an amendment replaced): only those lend words. */
  shown(doc: StoredDoc): boolean;
  /** Words in one note of a hundred (capped at scale, costly to score): they say nothing about a topic. */
  isFrequent(term: string): boolean;
  /**
   * A feedback word held by more notes than this is left out where it is scored: too broad to
   * say what the best answers are about, and the costliest to score (feedbackMaxDocs).
   */
  maxDocs: number;
  /** Score a plan as the first pass was scored, unsorted. */
  score(plan: QueryPlan): Promise<Candidate[]>;
}

/** The first pass's candidates with a second pass's, on the words its best answers share. Unsorted. */
export async function withFeedback(plan: QueryPlan, first: Candidate[], source: FeedbackSource): Promise<Candidate[]> {
  // A few more than needed are read, in case the best are retracted.
  const best = bestOf(first, 2 * FEEDBACK_DOCS);
  const docs = source.docs(best.map((c) => c.o));
  const shown = best.filter((c) => {
    const doc = docs.get(c.o);
    return doc !== undefined && source.shown(doc);
  });
  const terms = feedbackTerms(plan, shown, docs, source);
  if (terms.length === 0) return first;
  // The terms run alone, as a plan that answers no concept of the question. The notes they came
  // from are not raised by their own words: that would be evidence of nothing, and would
  // reorder the first pass's best answers among themselves.
  const sources = new Set(shown.slice(0, FEEDBACK_DOCS).map((c) => c.o));
  return addFeedback(first, (await source.score({ ...plan, terms })).filter((c) => !sources.has(c.o)));
}

/** The `n` best candidates, best first, without sorting them all (a broad question has thousands). */
export function bestOf(candidates: readonly Candidate[], n: number): Candidate[] {
  const best: Candidate[] = [];
  for (const c of candidates) {
    if (best.length === n && !outranks(c, best[n - 1] as Candidate)) continue;
    let at = best.length;
    while (at > 0 && outranks(c, best[at - 1] as Candidate)) at--;
    best.splice(at, 0, c);
    if (best.length > n) best.pop();
  }
  return best;
}
const outranks = (a: Candidate, b: Candidate): boolean => a.score > b.score || (a.score === b.score && a.o < b.o);

/**
 * The first pass's candidates with the second's scores added, as if the feedback terms had run
 * with the question's (multiplied by the concepts a note answers); a note only feedback found
 * joins with no concepts and no words to highlight (they are not the user's). Unsorted.
 */
export function addFeedback(first: Candidate[], second: readonly Candidate[]): Candidate[] {
  const found = new Map(second.map((c) => [c.o, c]));
  for (const c of first) {
    const extra = found.get(c.o);
    if (!extra) continue;
    c.score += extra.score * Math.max(1, c.concepts.length);
    found.delete(c.o);
  }
  for (const c of found.values()) first.push({ o: c.o, score: c.score, concepts: [], matched: [] });
  return first;
}
