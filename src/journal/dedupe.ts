import { compareEvents } from '../events/serialize.js';
import type { CortexEvent } from '../events/types.js';

/** Chronological, each id once (the first copy wins): the union that makes journal merges idempotent. */
export function dedupeById(events: CortexEvent[]): CortexEvent[] {
  const seen = new Set<string>();
  const out: CortexEvent[] = [];
  for (const e of events.sort(compareEvents)) {
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    out.push(e);
  }
  return out;
}
