import type { Candidate } from './score-segment.js';

/**
 * Work recorded together is about one thing. A decision is often worded unlike the question that
 * wants it ("who runs the nightly jobs" for "the scheduler takes a Postgres advisory lock"), while
 * the file edits, commands and notes recorded beside it share the question's words. So a memory
 * recorded next to a good answer shares in that answer's score: a few entries from it in the
 * journal (which keeps a session's events together), on the same branch and commit, within the
 * hour. The share is small, so what the question's own words match still comes first. It lifts
 * a weak match (often one found only through feedback) over unrelated ones of the same strength.
 */
export const NEIGHBOUR_SHARE = 0.3;
/** How far apart in the journal two memories may be, in entries. */
export const NEIGHBOUR_REACH = 6;
/** How far apart in time, in seconds. */
export const NEIGHBOUR_WITHIN = 3600;
/** Only the best answers lend their score: further down, a match is too weak to vouch for its neighbours. */
export const NEIGHBOUR_SOURCES = 20;

export interface Neighbourhood {
  /** Documents in the index; ordinals run in journal order. */
  count: number;
  /** Where a document was recorded (an index into the index's places). */
  place(o: number): number;
  /** When, in seconds. */
  time(o: number): number;
  /** A document's weight for this question (its type's boost), 0 when it may not be shown. */
  weigh(o: number): number;
}

/** Best first; ties by journal order, as the engine ranks. */
const better = (a: Candidate, b: Candidate): number => b.score - a.score || a.o - b.o;

/**
 * The candidates, best first, after each of the best lent a share of its score to its neighbours
 * among them. Only to candidates: a memory that matches nothing of the question, not even through
 * feedback, is not shown for where it was recorded (a small journal would show all of it).
 */
export function withNeighbours(ranked: readonly Candidate[], near: Neighbourhood): Candidate[] {
  const lent = new Map<number, number>();
  for (const source of ranked.slice(0, NEIGHBOUR_SOURCES)) {
    // The source's own type boost is taken out and the neighbour's put in: a file edit beside a
    // decision lends the decision its match, not the other way round.
    const base = source.score / (near.weigh(source.o) || 1);
    for (let o = Math.max(0, source.o - NEIGHBOUR_REACH); o <= Math.min(near.count - 1, source.o + NEIGHBOUR_REACH); o++) {
      if (o === source.o || near.place(o) !== near.place(source.o) || Math.abs(near.time(o) - near.time(source.o)) > NEIGHBOUR_WITHIN) continue;
      const weight = near.weigh(o);
      if (weight > 0) lent.set(o, Math.max(lent.get(o) ?? 0, base * NEIGHBOUR_SHARE * weight));
    }
  }
  if (lent.size === 0) return [...ranked];
  // The rest keep their order: only the raised few are sorted, then merged in (a query at 100K
  // events has thousands of candidates, and sorting them all again costs more than the rest).
  const raised: Candidate[] = [];
  const kept: Candidate[] = [];
  for (const c of ranked) {
    const more = lent.get(c.o);
    if (more === undefined) kept.push(c);
    else raised.push({ ...c, score: c.score + more });
  }
  raised.sort(better);
  const out: Candidate[] = [];
  let i = 0;
  let j = 0;
  while (i < raised.length || j < kept.length) out.push(j >= kept.length || (i < raised.length && better(raised[i] as Candidate, kept[j] as Candidate) < 0) ? (raised[i++] as Candidate) : (kept[j++] as Candidate));
  return out;
}
