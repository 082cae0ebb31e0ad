import { resolveEventType, type CortexEvent, type EventType } from './types.js';

/**
 * `cortex log` filters as one predicate. Pure: "now" comes in, for relative dates.
 */
export interface EventFilterOptions {
  types?: readonly string[];
  since?: string;
  until?: string;
  author?: string;
  session?: string;
  grep?: string;
}

const UNITS: Record<string, number> = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
};

/** `2026-11-01`, optionally with a time (`T10:00`, ` 10:00:30.5`) and a zone (`Z`, `+02:00`, `+0200`, `+02`). */
const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d+)?)?\s*([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

const pad = (n: string): string => n.padStart(2, '0');
/** 0000-01-01T00:00:00Z: no stored time is earlier (parse-event.ts keeps years within 0000-9999). */
const EARLIEST = Date.parse('0000-01-01T00:00:00Z');
const isLeap = (year: number): boolean => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
export const daysIn = (year: number, month: number): number => [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;

/**
 * A date for `--since`/`--until`: ISO (`2026-11-01`, `2026-11-01T10:00Z`), `3 days ago`,
 * `yesterday`, `today`, `now`. Nothing else: JavaScript's own parser reads `0` as 2000,
 * `week 1` as 2001 and `2026-02-30` as March 2, so a typo would filter by a date nobody meant.
 * A date without a time is midnight UTC, and so is a time without a zone, as an imported `ts` is:
 * the same command gives the same answer on every machine. A relative date further back than
 * the year 0000 is that year, the earliest a stored time can be.
 */
export function parseDateBound(text: string, now: Date): Date | undefined {
  const value = text.trim().toLowerCase();
  if (value === 'now') return now;
  if (value === 'today') return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  if (value === 'yesterday') return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 1));
  const relative = /^(\d+)\s*(second|minute|hour|day|week|month|year)s?(\s+ago)?$/.exec(value);
  if (relative) return new Date(Math.max(EARLIEST, now.getTime() - Number(relative[1]) * (UNITS[relative[2] as string] as number)));
  const iso = ISO_DATE.exec(text.trim());
  if (!iso) return undefined;
  const [, year, month, day, hour, minute, second, fraction, zone] = iso as unknown as [string, string, string, string, string?, string?, string?, string?, string?];
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1 || Number(day) > daysIn(Number(year), Number(month))) return undefined;
  let normalized = `${year}-${pad(month)}-${pad(day)}`;
  if (hour !== undefined) {
    if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) return undefined;
    const offset = zone && !/^z$/i.test(zone) ? /^([+-])(\d{2}):?(\d{2})?$/.exec(zone) : null;
    if (offset && (Number(offset[2]) > 23 || Number(offset[3] ?? 0) > 59)) return undefined;
    normalized += `T${pad(hour)}:${minute}${second ? `:${second}${fraction ?? ''}` : ''}${offset ? `${offset[1]}${offset[2]}:${offset[3] ?? '00'}` : 'Z'}`;
  }
  const date = new Date(normalized);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export type FilterResult = { ok: true; test: (e: CortexEvent) => boolean } | { ok: false; error: string };

const TYPE_HINT = 'try decision, rejected, learned, plan, step, done, preference, error';

/**
 * `--type decision,rejected --type learned` → the types, or the first unknown name as an error.
 * A `--type` that names nothing (`--type ''`, `--type ,`) is an error too: taken as no filter it
 * would show every type, taken as a filter none.
 */
export function resolveTypeList(names: readonly string[]): { ok: true; types: Set<EventType> } | { ok: false; error: string } {
  const types = new Set<EventType>();
  for (const name of names.flatMap((t) => t.split(',')).filter((t) => t.trim() !== '')) {
    const type = resolveEventType(name);
    if (!type) return { ok: false, error: `unknown type "${name}" (${TYPE_HINT})` };
    types.add(type);
  }
  if (names.length > 0 && types.size === 0) return { ok: false, error: `--type "${names.join(',')}" names no type (${TYPE_HINT})` };
  return { ok: true, types };
}

export function buildEventFilter(options: EventFilterOptions, now: Date): FilterResult {
  const checks: Array<(e: CortexEvent) => boolean> = [];
  if (options.types && options.types.length > 0) {
    const resolved = resolveTypeList(options.types);
    if (!resolved.ok) return resolved;
    const wanted = resolved.types;
    checks.push((e) => wanted.has(e.type));
  }
  for (const [key, bound] of [['since', options.since], ['until', options.until]] as const) {
    if (bound === undefined) continue;
    const date = parseDateBound(bound, now);
    if (!date) return { ok: false, error: `--${key} "${bound}" is not a date (try 2026-11-01 or "3 days ago")` };
    const iso = date.toISOString();
    checks.push(key === 'since' ? (e) => e.ts >= iso : (e) => e.ts <= iso);
  }
  if (options.author) {
    const needle = options.author.toLowerCase();
    checks.push((e) => e.author.toLowerCase().includes(needle));
  }
  if (options.session) {
    const session = options.session;
    checks.push((e) => e.session === session || e.session.startsWith(session));
  }
  if (options.grep) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(options.grep, 'i');
    } catch {
      return { ok: false, error: `--grep "${options.grep}" is not a valid regular expression` };
    }
    checks.push((e) => pattern.test(e.content));
  }
  return { ok: true, test: (e) => checks.every((check) => check(e)) };
}
