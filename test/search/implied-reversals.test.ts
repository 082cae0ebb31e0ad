import { describe, expect, it } from 'vitest';
import type { StoredDoc } from '../../src/search/documents.js';
import { impliedRetirements, memoryKey } from '../../src/search/implied-reversals.js';

let next = 0;
const said = (type: 'decision_made' | 'approach_rejected', content: string, session = `s${next}`): { o: number; doc: StoredDoc } => {
  next += 1;
  return { o: next, doc: { id: `E${next}`, type, content, ts: '2026-01-01T00:00:00.000Z', session, author: 'a', branch: 'main', commit: null } };
};

describe('reversals implied among what a search found', () => {
  const redis = said('decision_made', 'Use Redis for the session store');
  const postgres = said('decision_made', 'Switched the session store from Redis to Postgres');

  it('retires a decision a later one reverses, whatever order the search ranked them in', () => {
    expect(impliedRetirements([postgres, redis], new Set())).toEqual(new Map([[memoryKey(redis.doc), memoryKey(postgres.doc)]]));
  });

  it('puts a decision said again after its reversal back in force, and leaves one an event superseded to that event', () => {
    const again = { o: 99, doc: { ...redis.doc, id: 'E99' } };
    // Said again without "back to" or "after all", it retires nothing itself (the fold reads it so too).
    expect(impliedRetirements([redis, postgres, again], new Set())).toEqual(new Map());
    expect(impliedRetirements([redis, postgres], new Set([redis.doc.id]))).toEqual(new Map());
  });

  it('lets no heuristic reading overturn a memory stated outright', () => {
    const inferred = { ...postgres, doc: { ...postgres.doc, inferred: true } };
    expect(impliedRetirements([redis, inferred], new Set())).toEqual(new Map());
  });
});
