import type { CortexEvent } from './types.js';

/**
 * The one on-disk form of an event: a single JSON line with a fixed key order, so the same
 * event always serializes to the same bytes (stable blobs, clean diffs, exact round trips).
 */
export function serializeEvent(e: CortexEvent): string {
  return JSON.stringify({
    id: e.id,
    v: e.v,
    type: e.type,
    content: e.content,
    ts: e.ts,
    session: e.session,
    author: e.author,
    branch: e.branch,
    commit: e.commit,
    salience: e.salience,
    confidence: e.confidence,
    immortal: e.immortal,
    provenance: e.provenance,
    meta: e.meta,
  });
}

export function serializeEvents(events: readonly CortexEvent[]): string {
  let out = '';
  for (const e of events) out += serializeEvent(e) + '\n';
  return out;
}

/** Chronological order: by capture time, then id (ids are time-sortable and unique). */
export function compareEvents(a: CortexEvent, b: CortexEvent): number {
  if (a.ts !== b.ts) return a.ts < b.ts ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
