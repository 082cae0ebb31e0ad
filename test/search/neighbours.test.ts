import { describe, expect, it } from 'vitest';
import { NEIGHBOUR_REACH, NEIGHBOUR_SHARE, NEIGHBOUR_WITHIN, withNeighbours, type Neighbourhood } from '../../src/search/neighbours.js';
import type { Candidate } from '../../src/search/score-segment.js';

/** Ten memories in journal order, all on one branch and commit, a minute apart, all of weight 1. */
const journal = (overrides: Partial<Neighbourhood> = {}): Neighbourhood => ({ count: 10, place: () => 0, time: (o) => o * 60, weigh: () => 1, ...overrides });
const hit = (o: number, score: number): Candidate => ({ o, score, concepts: [0], matched: ['lock'] });

describe('neighbours: what was recorded beside a good answer shares in its score', () => {
  it('a weak match recorded beside a good answer gets a share of its score; a memory that matched nothing is not added', () => {
    const ranked = withNeighbours([hit(4, 10), hit(5, 1)], journal());
    expect(ranked).toEqual([{ ...hit(4, 10), score: 10 + 1 * NEIGHBOUR_SHARE }, { ...hit(5, 1), score: 1 + 10 * NEIGHBOUR_SHARE }]);
    expect(withNeighbours([hit(4, 10)], journal())).toEqual([hit(4, 10)]);
  });

  it('reaches a few entries either way in the journal, no further', () => {
    const far = 8 - NEIGHBOUR_REACH - 1;
    const ranked = withNeighbours([hit(8, 10), hit(8 + NEIGHBOUR_REACH, 1), hit(far, 1)], journal({ count: 30 }));
    expect(ranked.find((c) => c.o === 8 + NEIGHBOUR_REACH)?.score).toBe(1 + 10 * NEIGHBOUR_SHARE);
    expect(ranked.find((c) => c.o === far)?.score).toBe(1);
  });

  it('lends nothing across branches or commits, beyond the hour, or to a memory that may not be shown', () => {
    const elsewhere = withNeighbours([hit(4, 10), hit(5, 1), hit(3, 1), hit(6, 1)], journal({ place: (o) => (o === 5 ? 1 : 0), time: (o) => (o === 3 ? 3 * 60 - NEIGHBOUR_WITHIN * 2 : o * 60), weigh: (o) => (o === 6 ? 0 : 1) }));
    for (const o of [5, 3, 6]) expect(elsewhere.find((c) => c.o === o)?.score).toBe(1);
  });

  it('raises a weak match recorded beside a strong one above a weak match recorded alone', () => {
    const ranked = withNeighbours([hit(0, 10), hit(9, 2), hit(1, 2)], journal({ count: 20, time: (o) => (o >= 9 ? o * 3600 : o * 60) }));
    expect(ranked.map((c) => [c.o, c.score])).toEqual([[0, 10 + 2 * NEIGHBOUR_SHARE], [1, 2 + 10 * NEIGHBOUR_SHARE], [9, 2]]);
  });

  it('lends by the neighbour\'s own type weight, not the source\'s: a file edit beside a decision lends it the match, not its boost', () => {
    const weigh = (o: number) => (o === 4 ? 2 : 0.5); // a decision (4) and file activity around it
    const ranked = withNeighbours([hit(5, 0.5 * 8), hit(4, 1)], journal({ weigh }));
    expect(ranked.find((c) => c.o === 4)?.score).toBeCloseTo(1 + 8 * NEIGHBOUR_SHARE * 2);
  });
});
