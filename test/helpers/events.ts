import { randomBytes } from 'node:crypto';
import { createIdGenerator } from '../../src/events/ids.js';
import { normalizeEvent, type EventContext } from '../../src/events/parse-event.js';
import type { CortexEvent } from '../../src/events/types.js';

const nextId = createIdGenerator((n) => randomBytes(n));

export function testContext(overrides: Partial<EventContext> = {}): EventContext {
  return {
    now: new Date('2026-11-21T10:00:00.000Z'),
    session: 'test-session',
    author: 'dev@example.com',
    branch: 'main',
    commit: null,
    provenance: 'cli:remember',
    newId: nextId,
    ...overrides,
  };
}

/** A valid event from the two required fields plus any overrides. */
export function makeEvent(raw: Record<string, unknown> = {}, ctx: Partial<EventContext> = {}): CortexEvent {
  const result = normalizeEvent({ type: 'decision', content: 'Use Postgres', ...raw }, testContext({ now: new Date(), ...ctx }));
  if (!result.ok) throw new Error(result.error);
  return result.event;
}
