import { daysIn } from './filter.js';
import { normalizeEvent, type EventContext } from './parse-event.js';
import type { CortexEvent } from './types.js';

/**
 * An import file's lines → events, each bad line named by its number. Duplicate ids within the
 * file keep the first (and are counted, as a re-import's are). Blank lines are fine.
 */
export interface ImportLineError {
  line: number;
  message: string;
}

export function parseImportLines(text: string, ctx: EventContext): { events: CortexEvent[]; errors: ImportLineError[]; repeated: number } {
  const events: CortexEvent[] = [];
  const errors: ImportLineError[] = [];
  const seen = new Set<string>();
  let repeated = 0;
  // A bare CR ends a line too (old Mac files): JSON escapes every CR inside a string.
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      errors.push({ line: index + 1, message: 'not valid JSON' });
      return;
    }
    const badTime = importedTimeProblem(raw);
    if (badTime) {
      errors.push({ line: index + 1, message: badTime });
      return;
    }
    const result = normalizeEvent(zonedAsUtc(raw), ctx);
    if (!result.ok) {
      errors.push({ line: index + 1, message: result.error });
      return;
    }
    if (seen.has(result.event.id)) {
      repeated += 1;
      return;
    }
    seen.add(result.event.id);
    events.push(result.event);
  });
  return { events, errors, repeated };
}

/**
 * What an imported line's "ts" must be and is not, or null. Stricter than reading the journal
 * (which must read whatever an earlier version stored): a number is seconds to one tool and
 * milliseconds to another, and "2026-02-30" is a typo, not March 2nd; both are refused rather
 * than stored as a date nobody meant.
 */
function importedTimeProblem(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null || !('ts' in raw)) return null;
  const ts = (raw as { ts: unknown }).ts;
  if (ts === undefined || ts === null) return null;
  const got = JSON.stringify(ts);
  if (typeof ts !== 'string') return `"ts" must be an ISO-8601 time string such as "2026-01-31T09:30:00Z", got ${got}`;
  const day = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?!\d)/.exec(ts);
  if (day) {
    const [year, month, date] = day.slice(1).map(Number) as [number, number, number];
    if (month < 1 || month > 12 || date < 1 || date > daysIn(year, month)) return `"ts" is not a calendar date, got ${got}`;
  }
  return null;
}

const ZONELESS = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

/**
 * A date and time with no zone is read as UTC, as a date alone is: read as the importing
 * machine's local time, the same file imported on two machines would give other times, and other
 * ids (an id is derived from "ts").
 */
function zonedAsUtc(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null) return raw;
  const ts = (raw as { ts?: unknown }).ts;
  return typeof ts === 'string' && ZONELESS.test(ts) ? { ...raw, ts: `${ts.replace(' ', 'T')}Z` } : raw;
}
