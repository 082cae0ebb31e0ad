import { CortexError } from '../errors.js';
import type { CortexEvent } from '../events/types.js';

/** The one event an id names: the full id, or a unique prefix of at least 6 characters. */
export function resolveEventId(events: readonly CortexEvent[], id: string): CortexEvent {
  const wanted = id.trim().toUpperCase();
  if (wanted.length < 6) throw new CortexError('USAGE', `give at least 6 characters of the id, not "${id}" (cortex decisions and cortex log show ids)`);
  const matches = events.filter((e) => e.id.toUpperCase().startsWith(wanted));
  if (matches.length === 0) throw new CortexError('EVENT_NOT_FOUND', `no memory with id ${id} (cortex decisions and cortex log show ids)`);
  if (matches.length > 1) throw new CortexError('USAGE', `${id} matches ${matches.length} memories; give more of the id`);
  return matches[0] as CortexEvent;
}
