import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPaint } from '../../src/format/paint.js';
import { renderLogEntry } from '../../src/format/render-log.js';
import { createIdGenerator, ulid, ulidTime, ULID_PATTERN } from '../../src/events/ids.js';
import { normalizeEvent, parseEventLine, parseStoredEvent } from '../../src/events/parse-event.js';
import { parseImportLines } from '../../src/events/parse-import.js';
import { serializeEvent } from '../../src/events/serialize.js';
import { parseDateBound } from '../../src/events/filter.js';
import { EVENT_TYPES, resolveEventType } from '../../src/events/types.js';
import { makeEvent, testContext } from '../helpers/events.js';

describe('ids', () => {
  it('encode their time so ids sort by capture time', () => {
    const a = ulid(1_700_000_000_000, new Uint8Array(10).fill(255));
    const b = ulid(1_700_000_000_001, new Uint8Array(10));
    expect(a < b).toBe(true);
    expect(ulidTime(a)).toBe(1_700_000_000_000);
    expect(a).toMatch(ULID_PATTERN);
  });

  it('stay strictly increasing and unique within one millisecond', () => {
    const next = createIdGenerator(() => new Uint8Array(10).fill(7));
    const ids = Array.from({ length: 1000 }, () => next(1_700_000_000_000));
    expect(new Set(ids).size).toBe(1000);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe('type names', () => {
  it.each([
    ['decision', 'decision_made'],
    ['Rejected', 'approach_rejected'],
    ['learned', 'knowledge_acquired'],
    ['plan', 'plan_created'],
    ['preference', 'preference_noted'],
    ['error', 'error_resolved'],
    ['fixed', 'error_resolved'],
    ['done', 'task_completed'],
    ['decision-made', 'decision_made'],
    ['command_run', 'command_run'],
  ])('%s means %s', (name, type) => {
    expect(resolveEventType(name)).toBe(type);
  });

  it('reject what is not a type', () => {
    expect(resolveEventType('banana')).toBeUndefined();
  });
});

describe('date bounds (--since, --until)', () => {
  const now = new Date('2026-11-22T12:00:00Z');
  it.each([
    ['2026-11-01', '2026-11-01T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2026-1-5', '2026-01-05T00:00:00.000Z'],
    ['2026-11-01T10:00Z', '2026-11-01T10:00:00.000Z'],
    ['2026-11-01T10:00:30.5+02:00', '2026-11-01T08:00:30.500Z'],
    ['2026-11-01T10:00+0200', '2026-11-01T08:00:00.000Z'],
    ['2026-11-01T10:00+02', '2026-11-01T08:00:00.000Z'],
    ['2026-11-01T10:00', '2026-11-01T10:00:00.000Z'],
    ['99999999 years ago', '0000-01-01T00:00:00.000Z'],
    ['3 days ago', '2026-11-19T12:00:00.000Z'],
    ['2 weeks', '2026-11-08T12:00:00.000Z'],
    ['yesterday', '2026-11-21T00:00:00.000Z'],
    ['today', '2026-11-22T00:00:00.000Z'],
    ['now', '2026-11-22T12:00:00.000Z'],
  ])('%s is %s', (text, iso) => {
    expect(parseDateBound(text, now)?.toISOString()).toBe(iso);
  });

  // JavaScript's Date reads each of these as some date: 2026-03-02, 2000-01-01, 2001-01-01…
  it.each(['2026-02-30', '2026-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-11-01T24:00Z', '2026-11-01T10:60Z', '2026-11-01T10:00+25:00', '0', '1', '12', '2026', '1.5', '-1', 'week 1', 'someday', ''])('%j is not a date', (text) => {
    expect(parseDateBound(text, now)).toBeUndefined();
  });
});

describe('normalizeEvent (import and CLI input)', () => {
  const ctx = testContext();

  it('needs only type and content, and fills every other field', () => {
    const result = normalizeEvent({ type: 'decision', content: 'Use Postgres' }, ctx);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.event).toMatchObject({
      v: 1,
      type: 'decision_made',
      content: 'Use Postgres',
      ts: '2026-11-21T10:00:00.000Z',
      session: 'test-session',
      author: 'dev@example.com',
      branch: 'main',
      commit: null,
      salience: 0.9,
      confidence: 1,
      immortal: true,
      provenance: 'cli:remember',
      meta: {},
    });
    expect(result.event.id).toMatch(ULID_PATTERN);
  });

  it('makes decisions and rejections immortal and lets other types decay', () => {
    const kinds = ['decision', 'rejected', 'learned', 'file_modified'].map((type) => normalizeEvent({ type, content: 'x' }, ctx));
    expect(kinds.map((k) => k.ok && k.event.immortal)).toEqual([true, true, false, false]);
  });

  it('gives heuristic captures less confidence than stated ones', () => {
    const heuristic = normalizeEvent({ type: 'decision', content: 'x' }, { ...ctx, provenance: 'layer2:chose-over' });
    const tagged = normalizeEvent({ type: 'decision', content: 'x' }, { ...ctx, provenance: 'layer3:memory-tag' });
    expect(heuristic.ok && heuristic.event.confidence).toBeLessThan(1);
    expect(tagged.ok && tagged.event.confidence).toBe(1);
  });

  it('keeps given fields and normalizes the time to ISO UTC', () => {
    const result = normalizeEvent(
      { id: 'evt-1', type: 'approach_rejected', content: 'Redis', ts: '2026-01-02T03:04:05+01:00', session: 's1', author: 'a@x', branch: null, commit: 'abc', meta: { reason: 'ops' } },
      ctx,
    );
    expect(result.ok && result.event).toMatchObject({ id: 'evt-1', ts: '2026-01-02T02:04:05.000Z', session: 's1', author: 'a@x', branch: null, commit: 'abc', meta: { reason: 'ops' } });
  });

  it('reads every ISO-8601 zone form: ±hh:mm, ±hhmm and ±hh', () => {
    const tsOf = (ts: string) => {
      const result = normalizeEvent({ type: 'learned', content: 'x', ts }, ctx);
      return result.ok ? result.event.ts : result.error;
    };
    expect(tsOf('2026-01-05T10:00:00+05:45')).toBe('2026-01-05T04:15:00.000Z');
    expect(tsOf('2026-01-05T10:00:00+0545')).toBe('2026-01-05T04:15:00.000Z');
    expect(tsOf('2026-01-05T10:00+05')).toBe('2026-01-05T05:00:00.000Z');
    expect(tsOf('2026-01-05T10:00:00-03')).toBe('2026-01-05T13:00:00.000Z');
    expect(tsOf('2026-01-05')).toBe('2026-01-05T00:00:00.000Z');
  });

  it('reads a time without a zone as UTC, whatever the machine\'s zone, so every clone derives the same time and id', () => {
    const zone = process.env.TZ;
    const at = (tz: string) => {
      process.env.TZ = tz;
      const result = normalizeEvent({ type: 'learned', content: 'API paginates at 100', ts: '2026-03-01T09:30:00' }, ctx);
      return result.ok ? [result.event.ts, result.event.id] : [];
    };
    try {
      expect(at('America/New_York')).toEqual(at('Asia/Tokyo'));
      expect(at('UTC')[0]).toBe('2026-03-01T09:30:00.000Z');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('keeps no control characters in what a memory says, which a terminal would act on: colour codes, bells, escapes; tabs and newlines stay', () => {
    const result = normalizeEvent({ type: 'learned', content: 'bell\u0007 \u001b[31mred\u001b[0m\r\nnext\tline' }, ctx);
    expect(result.ok && result.event.content).toBe('bell red\nnext\tline');
    expect(normalizeEvent({ type: 'learned', content: '\u001b[2J' }, ctx)).toMatchObject({ ok: false, error: expect.stringContaining('"content" is empty') });
  });

  it('a memory stored before capture cleaned it is printed by cortex log without what a terminal would act on', () => {
    const stored = { ...makeEvent({ type: 'learned', content: 'fine' }), content: 'clear\u001b[2Jscreen\u0007', meta: { reason: 'why\u001b]0;title\u0007' } };
    const shown = renderLogEntry(stored, createPaint(false));
    expect(shown).toContain('clearscreen');
    expect(shown).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });

  it('derives the same id for the same id-less line, so re-importing it is idempotent', () => {
    const line = { type: 'learned', content: 'API paginates at 100', ts: '2026-03-01T00:00:00Z' };
    const a = normalizeEvent(line, ctx);
    const b = normalizeEvent({ ...line }, testContext());
    expect(a.ok && b.ok && a.event.id === b.event.id).toBe(true);
  });

  it.each([
    [{ content: 'x' }, 'missing "type"'],
    [{ type: 'decision' }, 'missing "content"'],
    [{ type: 'decision', content: '   ' }, '"content" is empty'],
    [{ type: 'nonsense', content: 'x' }, 'unknown type "nonsense"'],
    [{ type: 'decision', content: 'x', ts: 'yesterday-ish' }, '"ts" must be an ISO-8601 time'],
    [{ type: 'decision', content: 'x', ts: '3/4/2026' }, '"ts" must be an ISO-8601 time'],
    [{ type: 'decision', content: 'x', ts: 'March 3 2026 10:00' }, '"ts" must be an ISO-8601 time'],
    [{ type: 'decision', content: 'x', ts: '+010000-01-01T00:00:00Z' }, '"ts" must be an ISO-8601 time'],
    [{ type: 'decision', content: 'x', confidence: 3 }, '"confidence" must be a number between 0 and 1'],
    [{ type: 'decision', content: 'x', meta: [1] }, '"meta" must be an object'],
    [{ type: 'decision', content: 'x', id: 'has space' }, '"id" must be'],
    [[1, 2], 'an event must be a JSON object'],
  ])('rejects %j with a reason', (raw, reason) => {
    const result = normalizeEvent(raw, ctx);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(reason);
  });
});

describe('stored events', () => {
  it('round-trip through their JSONL line unchanged, for any valid event', () => {
    const arbitraryEvent = fc.record({
      type: fc.constantFrom(...EVENT_TYPES),
      content: fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim().length > 0),
      ts: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
      session: fc.string({ maxLength: 40 }),
      salience: fc.double({ min: 0, max: 1, noNaN: true }),
      meta: fc.dictionary(fc.string({ maxLength: 10 }).filter((k) => k !== '__proto__'), fc.oneof(fc.string(), fc.integer(), fc.boolean())),
    });
    fc.assert(
      fc.property(arbitraryEvent, (raw) => {
        const made = normalizeEvent(raw, testContext());
        if (!made.ok) throw new Error(made.error);
        const line = serializeEvent(made.event);
        expect(line).not.toContain('\n');
        const back = parseEventLine(line);
        expect(back.ok && back.event).toEqual(made.event);
        expect(back.ok && serializeEvent(back.event)).toBe(line);
      }),
      { numRuns: 300 },
    );
  });

  it('must be complete: a line without id or provenance was not written by Cortex', () => {
    expect(parseStoredEvent({ type: 'decision_made', content: 'x', ts: '2026-01-01T00:00:00Z' }).ok).toBe(false);
    expect(parseEventLine('{not json').ok).toBe(false);
  });
});

describe('import lines', () => {
  it('number each bad line and keep the good ones, first copy of an id winning', () => {
    const text = [
      '{"type":"decision","content":"A","id":"one"}',
      '',
      'garbage',
      '{"type":"decision","content":"B","id":"one"}',
      '{"type":"??","content":"C"}',
      '{"type":"learned","content":"D"}',
    ].join('\n');
    const { events, errors, repeated } = parseImportLines(text, testContext());
    expect(events.map((e) => e.content)).toEqual(['A', 'D']);
    expect(repeated).toBe(1); // line 4 repeats line 1's id: counted as skipped, not silently lost
    expect(errors).toEqual([
      { line: 3, message: 'not valid JSON' },
      { line: 5, message: expect.stringContaining('unknown type') },
    ]);
  });
});

describe('imported times', () => {
  it('refuse a number (seconds or milliseconds?) and a day the month does not have, keep an offset time, and read a time with no zone as UTC', () => {
    const text = [
      '{"type":"decision","content":"A","ts":1700000000}',
      '{"type":"decision","content":"B","ts":"2026-02-30T00:00:00Z"}',
      '{"type":"decision","content":"C","ts":"2024-02-29T23:30:00+02:00"}',
      '{"type":"decision","content":"D","ts":"2026-13-01T00:00:00Z"}',
      '{"type":"decision","content":"E","ts":"2026/02/30"}',
      '{"type":"decision","content":"F","ts":"2026-03-01 09:30:00"}',
    ].join('\n');
    const { events, errors } = parseImportLines(text, testContext());
    expect(events.map((e) => [e.content, e.ts])).toEqual([['C', '2024-02-29T21:30:00.000Z'], ['F', '2026-03-01T09:30:00.000Z']]);
    expect(errors).toEqual([
      { line: 1, message: '"ts" must be an ISO-8601 time string such as "2026-01-31T09:30:00Z", got 1700000000' },
      { line: 2, message: '"ts" is not a calendar date, got "2026-02-30T00:00:00Z"' },
      { line: 4, message: '"ts" is not a calendar date, got "2026-13-01T00:00:00Z"' },
      { line: 5, message: '"ts" is not a calendar date, got "2026/02/30"' },
    ]);
  });
});
