import { normalizeText } from '../projections/fold.js';
import { createReversals, createStems, readStance, type Statement } from '../projections/reversals.js';
import type { StoredDoc } from './documents.js';

/**
 * The reversals the journal implies (reversals.ts), read among what a search found, so that
 * search and recall agree with the briefing: "Switched sessions from Redis to Postgres" retires
 * "Use Redis for sessions", and "Going with Passport.js after all" lifts "Ruled out Passport.js".
 * The fold reads them over every decision; a search cannot (25K decisions take 150 ms to read),
 * but it need not: a reversal is about the same thing as what it reverses, so whatever a query
 * found of the one it found of the other. The same rules apply, in journal order, with a memory
 * said again being in force again.
 */
export interface Statable {
  /** Journal order. */
  o: number;
  doc: StoredDoc;
}

const SAID = new Set(['decision_made', 'approach_rejected']);

/** Text key of a memory, as the fold and search's dedupe read it. */
export const memoryKey = (doc: Pick<StoredDoc, 'type' | 'content'>): string => `${doc.type}\u0000${normalizeText(doc.content)}`;

/**
 * Retired memory (by text key) → the key of what retired it. `explicit`: memories a
 * `decision_superseded` event already retired, which nothing here brings back.
 */
export function impliedRetirements(found: readonly Statable[], explicit: ReadonlySet<string>): Map<string, string> {
  const reversals = createReversals();
  const stems = createStems();
  const statements = new Map<string, Statement>();
  const retiredBy = new Map<string, string>();
  const keyOf = new Map<string, string>();
  for (const { doc } of [...found].filter((f) => SAID.has(f.doc.type)).sort((a, b) => a.o - b.o)) {
    if (explicit.has(doc.id)) continue;
    const key = memoryKey(doc);
    let statement = statements.get(key);
    if (!statement) {
      const stance = readStance({ type: doc.type, content: doc.content, reason: doc.reason, rejected: doc.rejected }, stems);
      statement = { id: doc.id, type: doc.type, session: doc.session, inferred: doc.inferred === true, stance };
      statements.set(key, statement);
      keyOf.set(doc.id, key);
    }
    // Said (again): in force, whatever a reading had retired it for.
    retiredBy.delete(key);
    for (const r of reversals.stated(statement)) retiredBy.set(keyOf.get(r.retired) as string, key);
  }
  return retiredBy;
}
