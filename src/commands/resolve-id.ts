import { CortexError } from '../errors.js';
import type { CortexEvent } from '../events/types.js';

const MIN_ID_CHARS = 6;
const SHOWN_MATCHES = 3;

/**
 * The one event an id names: the full id, or a unique prefix or suffix of at least 6 characters,
 * in any case. Suffixes count because `cortex log --oneline` and `cortex diff --markdown` print
 * an id's last 8 characters (its random part; the front is a timestamp shared by a burst of
 * memories), and whatever the CLI prints must work where it takes an id.
 */
export function resolveEventId(events: readonly CortexEvent[], id: string): CortexEvent {
  const wanted = id.trim().toUpperCase();
  if (wanted.length < MIN_ID_CHARS) throw new CortexError('USAGE', `give at least ${MIN_ID_CHARS} characters of the id, not "${id}" (cortex decisions and cortex log show ids)`);
  // An id given whole is that event, even where it is also the start of another (imported ids
  // such as deploy-note-1 and deploy-note-10).
  const exact = events.filter((e) => e.id.toUpperCase() === wanted);
  if (exact.length === 1) return exact[0] as CortexEvent;
  const matches = new Map<string, CortexEvent>();
  for (const e of events) {
    const full = e.id.toUpperCase();
    if (full.startsWith(wanted) || full.endsWith(wanted)) matches.set(e.id, e);
  }
  if (matches.size === 0) throw new CortexError('EVENT_NOT_FOUND', `no memory with id ${id} (cortex decisions and cortex log show ids)`);
  if (matches.size > 1) {
    const ids = [...matches.keys()];
    const listed = ids.slice(0, SHOWN_MATCHES).join(', ') + (ids.length > SHOWN_MATCHES ? ', …' : '');
    throw new CortexError('INVALID_INPUT', `${id} matches ${ids.length} memories (${listed}); give more characters of the one you mean, or its full id`);
  }
  return [...matches.values()][0] as CortexEvent;
}
