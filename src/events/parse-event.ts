import { createHash } from 'node:crypto';
import { defaultConfidence, defaultSalience, isImmortal } from './defaults.js';
import { ulid } from './ids.js';
import { resolveEventType, SCHEMA_VERSION, type CortexEvent, type Meta } from './types.js';

/**
 * Validation at the boundary. Two doors: `parseStoredEvent` for lines already on the journal
 * (every field must be there), and `normalizeEvent` for what people and tools hand us (import
 * files, CLI input, extractors), where only `type` and `content` are required.
 */
export type ParseResult = { ok: true; event: CortexEvent } | { ok: false; error: string };

export interface EventContext {
  now: Date;
  session: string;
  author: string;
  branch: string | null;
  commit: string | null;
  provenance: string;
  /** A fresh unique id for the given time; the caller owns the randomness. */
  newId: (timeMs: number) => string;
}

export const MAX_CONTENT_CHARS = 100_000;

const isPlainObject = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

class FieldError extends Error {}

function fail(message: string): never {
  throw new FieldError(message);
}

function readString(raw: Record<string, unknown>, key: string, fallback?: string): string {
  const value = raw[key];
  if (value === undefined || value === null) {
    if (fallback !== undefined) return fallback;
    fail(`missing "${key}"`);
  }
  if (typeof value !== 'string') fail(`"${key}" must be a string`);
  return value;
}

function readNullableString(raw: Record<string, unknown>, key: string, fallback: string | null): string | null {
  if (!(key in raw)) return fallback;
  const value = raw[key];
  if (value === null) return null;
  if (typeof value !== 'string') fail(`"${key}" must be a string or null`);
  return value;
}

function readUnit(raw: Record<string, unknown>, key: string, fallback: number): number {
  const value = raw[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    fail(`"${key}" must be a number between 0 and 1`);
  }
  return value;
}

const CANONICAL_TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** ISO-8601 as written in the wild: a date, or a date and time, with or without a zone. */
const ISO_TS = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

/**
 * An ISO-8601 time, or null. Only ISO: `Date` also reads "3/4/2026" and "March 3", in the
 * machine's time zone, which would give one line a different time (and id) on every clone. A
 * time without a zone is UTC for the same reason. Years stay within 0000-9999, where the
 * journal's shard paths and the canonical form hold.
 */
export function isoTime(value: string): Date | null {
  const m = ISO_TS.exec(value.trim());
  if (!m) return null;
  // JavaScript reads a zone only as ±hh:mm: ISO's ±hh and ±hhmm are given their colon.
  const text = value
    .trim()
    .replace(' ', 'T')
    .replace(',', '.')
    .replace(/([+-]\d{2}):?(\d{2})?$/, (zone, hours: string, minutes?: string) => (m[1] && m[1].toUpperCase() !== 'Z' ? `${hours}:${minutes ?? '00'}` : zone));
  const date = new Date(m[1] === undefined && text.includes('T') ? `${text}Z` : text);
  return Number.isNaN(date.getTime()) ? null : date;
}

function readTimestamp(raw: Record<string, unknown>, fallback: Date | undefined): string {
  const value = raw.ts;
  if (value === undefined || value === null) {
    if (fallback) return fallback.toISOString();
    fail('missing "ts"');
  }
  // Stored events are already canonical: skip the Date round trip (100K reads of a journal).
  // (Days 29-31 take the slow path: Date rolls 02-30 over to 03-02, and so must we.)
  if (typeof value === 'string' && CANONICAL_TS.test(value) && value.slice(8, 10) <= '28' && !Number.isNaN(Date.parse(value))) return value;
  const date = typeof value === 'number' ? new Date(value) : typeof value === 'string' ? isoTime(value) : null;
  if (!date || Number.isNaN(date.getTime()) || date.getUTCFullYear() < 0 || date.getUTCFullYear() > 9999) fail(`"ts" must be an ISO-8601 time (2026-03-04T10:00:00Z) between the years 0 and 9999, got ${JSON.stringify(value)}`);
  return date.toISOString();
}

function readContent(raw: Record<string, unknown>): string {
  const content = readString(raw, 'content');
  if (content.trim() === '') fail('"content" is empty');
  // Counted as stored (CRLF as LF, control characters gone): a file written on Windows is no longer.
  if (content.length > MAX_CONTENT_CHARS && printable(content).length > MAX_CONTENT_CHARS) fail(`"content" is longer than ${MAX_CONTENT_CHARS} characters`);
  return content;
}

/** Terminal colour sequences and other control characters (a bell, an escape, NUL) but tabs and newlines. */
const CONTROLS = /\u001b\[[0-9;?]*[ -/]*[@-~]|\r\n?|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text as a memory keeps it: what a terminal would act on is no part of it. Captured command
 * output carries colour codes, and an imported or pasted line could carry an escape that
 * rewrites a terminal `cortex log` prints to.
 */
export function printable(text: string): string {
  return /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/.test(text) ? text.replace(CONTROLS, (m) => (m[0] === '\r' ? '\n' : '')) : text;
}

function readType(raw: Record<string, unknown>) {
  const name = readString(raw, 'type');
  const type = resolveEventType(name);
  if (!type) fail(`unknown type "${name}" (run \`cortex remember --help\` for the list)`);
  return type;
}

function readMeta(raw: Record<string, unknown>): Meta {
  const meta = raw.meta;
  if (meta === undefined || meta === null) return {};
  if (!isPlainObject(meta)) fail('"meta" must be an object');
  return meta;
}

/**
 * An imported line's meta, with what it says beside it: `cortex search --json` prints `reason`,
 * `alternative`, `files` and `tags` at the top level, and a line copied from there (or written
 * by hand the same way) means them as meta. A lone file or tag is a list of one.
 */
const META_BESIDE = ['reason', 'alternative', 'files', 'tags'] as const;
function readImportedMeta(raw: Record<string, unknown>): Meta {
  const meta: Meta = { ...readMeta(raw) };
  for (const key of META_BESIDE) if (meta[key] === undefined && raw[key] !== undefined && raw[key] !== null) meta[key] = raw[key];
  for (const key of ['files', 'tags'] as const) if (typeof meta[key] === 'string') meta[key] = [meta[key]];
  return meta;
}

function readId(raw: Record<string, unknown>): string | undefined {
  const id = raw.id;
  if (id === undefined || id === null) return undefined;
  if (typeof id !== 'string' || !/^[\w.:-]{1,128}$/.test(id)) {
    fail('"id" must be 1-128 letters, digits, or . _ : -');
  }
  return id;
}

function guard(build: () => CortexEvent): ParseResult {
  try {
    return { ok: true, event: build() };
  } catch (err) {
    if (err instanceof FieldError) return { ok: false, error: err.message };
    throw err;
  }
}

/**
 * A deterministic id for an input line that carries a time but no id, so importing the same
 * file twice stays idempotent: the time part comes from `ts`, the rest from a hash of the line.
 */
function contentId(tsIso: string, raw: Record<string, unknown>): string {
  const digest = createHash('sha256').update(JSON.stringify(raw)).digest();
  return ulid(Math.max(0, Date.parse(tsIso)), digest.subarray(0, 10));
}

/** Fill defaults for everything but `type` and `content`. */
export function normalizeEvent(raw: unknown, ctx: EventContext): ParseResult {
  return guard(() => {
    if (!isPlainObject(raw)) fail('an event must be a JSON object');
    const type = readType(raw);
    const content = printable(readContent(raw));
    if (content.trim() === '') fail('"content" is empty');
    const hasTs = raw.ts !== undefined && raw.ts !== null;
    const ts = readTimestamp(raw, ctx.now);
    const id = readId(raw) ?? (hasTs ? contentId(ts, raw) : ctx.newId(Date.parse(ts)));
    const provenance = readString(raw, 'provenance', ctx.provenance);
    return {
      id,
      v: typeof raw.v === 'number' ? raw.v : SCHEMA_VERSION,
      type,
      content,
      ts,
      session: readString(raw, 'session', ctx.session),
      author: readString(raw, 'author', ctx.author),
      // A line that says where it was recorded keeps that, and what it leaves out is unknown; one
      // that says nothing was recorded here, now (the importer's branch and HEAD).
      ...placeOf(raw, ctx),
      salience: readUnit(raw, 'salience', defaultSalience(type)),
      confidence: readUnit(raw, 'confidence', defaultConfidence(provenance)),
      immortal: isImmortal(type) || raw.immortal === true,
      provenance,
      meta: readImportedMeta(raw),
    };
  });
}

/** A full commit id, SHA-1 or SHA-256, in either case (git/refs.ts reads git's own, lower case). */
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;

function placeOf(raw: Record<string, unknown>, ctx: EventContext): Pick<CortexEvent, 'branch' | 'commit'> {
  const placed = raw.branch !== undefined || raw.commit !== undefined;
  const commit = readNullableString(raw, 'commit', placed ? null : ctx.commit);
  // git prints hashes in lower case, and a hash is compared as text from here on.
  return { branch: readNullableString(raw, 'branch', placed ? null : ctx.branch), commit: commit && OBJECT_ID.test(commit) ? commit.toLowerCase() : commit };
}

/** A journal line must be complete: anything missing means it was not written by Cortex. */
export function parseStoredEvent(raw: unknown): ParseResult {
  return guard(() => {
    if (!isPlainObject(raw)) fail('an event must be a JSON object');
    const id = readId(raw) ?? fail('missing "id"');
    const type = readType(raw);
    return {
      id,
      v: typeof raw.v === 'number' ? raw.v : fail('missing "v"'),
      type,
      content: readContent(raw),
      ts: readTimestamp(raw, undefined),
      session: readString(raw, 'session'),
      author: readString(raw, 'author'),
      branch: readNullableString(raw, 'branch', null),
      commit: readNullableString(raw, 'commit', null),
      salience: readUnit(raw, 'salience', defaultSalience(type)),
      confidence: readUnit(raw, 'confidence', 1),
      immortal: isImmortal(type) || raw.immortal === true,
      provenance: readString(raw, 'provenance'),
      meta: readMeta(raw),
    };
  });
}

/** One JSONL line → event, with the reason when it is not one. */
export function parseEventLine(line: string): ParseResult {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return { ok: false, error: 'not valid JSON' };
  }
  return parseStoredEvent(raw);
}
