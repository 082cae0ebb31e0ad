import { describe, expect, it } from 'vitest';
import type { CortexEvent } from '../../src/events/types.js';
import { foldMemory } from '../../src/projections/fold.js';
import { DEFAULT_SETTINGS } from '../../src/projections/settings.js';
import { makeEvent } from '../helpers/events.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
let clock = Date.parse('2026-11-01T00:00:00.000Z');
/** Events one minute apart, in the order written. */
const at = (raw: Record<string, unknown>, session = 'session-a'): CortexEvent => {
  clock += 60_000;
  return makeEvent({ ts: new Date(clock).toISOString(), session, ...raw }, { session });
};
const fold = (events: CortexEvent[], settings = DEFAULT_SETTINGS) => foldMemory(events, settings, NOW);

describe('foldMemory: changes to memory are events', () => {
  it('a retracted decision is gone, whatever order the events arrive in', () => {
    const keep = at({ type: 'decision', content: 'Use Postgres for the queue' });
    const drop = at({ type: 'decision', content: 'Use Redis for sessions' });
    const retract = at({ type: 'event_retracted', content: 'Forgot it', meta: { target: drop.id } });
    for (const events of [[keep, drop, retract], [retract, drop, keep]]) {
      expect(fold(events).decisions.map((d) => d.id)).toEqual([keep.id]);
    }
  });

  it('a superseded decision is no longer current, and is kept as superseded', () => {
    const old = at({ type: 'decision', content: 'Use REST for the public API' });
    const replacement = at({ type: 'decision', content: 'Use GraphQL for the public API' });
    const supersede = at({ type: 'decision_superseded', content: 'Superseded', meta: { target: old.id, by: replacement.id } });
    const state = fold([old, replacement, supersede]);
    expect(state.decisions.map((d) => d.content)).toEqual(['Use GraphQL for the public API']);
    expect(state.superseded.map((d) => [d.id, d.supersededBy])).toEqual([[old.id, replacement.id]]);
  });

  it('an amendment rewrites the text and counts as a use', () => {
    const d = at({ type: 'decision', content: 'Cache for 5 minutes' });
    const amend = at({ type: 'event_amended', content: 'Cache for 10 minutes', meta: { target: d.id } });
    const [item] = fold([d, amend]).decisions;
    expect(item).toMatchObject({ id: d.id, content: 'Cache for 10 minutes', uses: 2, lastUsed: amend.ts });
  });

  it('low-confidence events stay out; the same memory said twice is one item used twice', () => {
    const weak = at({ type: 'decision', content: 'Maybe use SQLite', confidence: 0.6, provenance: 'layer2:will-use' });
    const first = at({ type: 'rejected', content: 'Rejected Kafka: too heavy for one consumer', meta: { reason: 'too heavy' } }, 'session-a');
    const again = at({ type: 'rejected', content: 'rejected kafka — too heavy for one consumer!' }, 'session-b');
    const state = fold([weak, first, again]);
    expect(state.decisions).toEqual([]);
    expect(state.rejections).toHaveLength(1);
    expect(state.rejections[0]).toMatchObject({ id: first.id, uses: 2, lastUsed: again.ts, reason: 'too heavy' });
  });

  it('ages decisions by sessions without use: active, then aging (possibly outdated), then archived', () => {
    const settings = { ...DEFAULT_SETTINGS, outdatedAfterSessions: 2, archiveAfterSessions: 4 };
    const d = at({ type: 'decision', content: 'Use pnpm', meta: { files: ['package.json'] } }, 's0');
    const sessions = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => at({ type: 'learned', content: `fact ${from + k}` }, `s${from + k + 1}`));
    expect(fold([d, ...sessions(0, 1)], settings).decisions[0]?.tier).toBe('active');
    expect(fold([d, ...sessions(0, 3)], settings).decisions[0]?.tier).toBe('aging');
    const old = [d, ...sessions(0, 5)];
    expect(fold(old, settings).decisions[0]?.tier).toBe('archived');
    // Touching a file the decision names is a use: it comes back.
    const touched = fold([...old, at({ type: 'file_modified', content: 'Edited package.json', meta: { path: 'package.json' } }, 's9')], settings);
    expect(touched.decisions[0]).toMatchObject({ tier: 'active', uses: 2 });
  });

  it('recent work decays per hour since last use, and reinforcement lifts it', () => {
    const settings = { ...DEFAULT_SETTINGS, decayPerHour: 0.5 };
    const older = at({ type: 'learned', content: 'The CI cache key includes the lockfile hash' });
    clock += 3 * 3_600_000;
    const newer = at({ type: 'learned', content: 'The staging database is reset nightly' });
    const state = foldMemory([older, newer], settings, new Date(clock + 3_600_000));
    expect(state.recent.map((r) => r.content)).toEqual([newer.content, older.content]);
    expect(state.recent[0]?.effectiveSalience).toBeCloseTo(0.7 * 0.5, 5);
    const reinforced = foldMemory([older, newer, at({ type: 'learned', content: older.content }, 'later')], { ...settings, reinforcement: 0.3 }, new Date(clock + 3_600_000));
    expect(reinforced.recent[0]?.content).toBe(older.content);
  });
});

describe('foldMemory: plans', () => {
  const plan = (id: string, steps: string[], session = 'session-a') => at({ type: 'plan', content: `Plan: ${steps.join('; ')}`, meta: { plan_id: id, steps } }, session);
  const step = (id: string, s: number | string) => at({ type: 'plan_step_completed', content: String(s), meta: { plan_id: id, step: s } });

  it('tracks steps by number, numeric string or text, and says where the work stands', () => {
    const state = fold([plan('p', ['design', 'build', 'test', 'ship']), step('p', 1), step('p', '2'), step('p', 'test')]);
    expect(state.activePlan).toMatchObject({ id: 'p', current: 3, complete: false });
    expect(state.activePlan?.steps.map((s) => s.done)).toEqual([true, true, true, false]);
  });

  it('a completed plan is not active: every step done, or closed by task_completed', () => {
    expect(fold([plan('p', ['a', 'b']), step('p', 1), step('p', 2)]).activePlan).toBeNull();
    expect(fold([plan('q', ['a', 'b']), at({ type: 'task_completed', content: 'Shipped', meta: { plan_id: 'q' } })]).activePlan).toBeNull();
  });

  it('the active plan is the one most recently worked on; a rewritten plan keeps its progress', () => {
    const state = fold([plan('old', ['x', 'y']), plan('new', ['a', 'b']), step('new', 1), plan('new', ['a', 'b', 'c'])]);
    expect(state.activePlan?.id).toBe('new');
    expect(state.activePlan?.steps).toEqual([{ text: 'a', done: true }, { text: 'b', done: false }, { text: 'c', done: false }]);
  });

  it('a step recorded before its plan (same timestamp, another clone\'s clock) still counts', () => {
    const created = plan('p', ['a', 'b', 'c']);
    const done = makeEvent({ type: 'plan_step_completed', content: 'a', ts: created.ts, meta: { plan_id: 'p', step: 1 } });
    expect(fold([done, created]).activePlan).toMatchObject({ id: 'p', current: 1 });
  });

  it('a [MEMORY: todo] joins the plan in progress as a step instead of replacing it', () => {
    const active = plan('p', ['schema', 'api', 'docs']);
    const todo = at({ type: 'plan_created', content: 'bump the version', meta: { steps: ['bump the version'], tag: 'todo' } });
    const state = fold([active, step('p', 1), todo]);
    expect(state.plans).toHaveLength(1);
    expect(state.activePlan).toMatchObject({ id: 'p', current: 1 });
    expect(state.activePlan?.steps.map((s) => s.text)).toEqual(['schema', 'api', 'docs', 'bump the version']);
    expect(fold([todo]).activePlan?.steps.map((s) => s.text)).toEqual(['bump the version']); // with no plan in progress it is a plan of its own
  });

  it('a todo list written again in a later session continues the same plan', () => {
    const first = plan('monday', ['schema', 'api', 'redirects', 'rate limits'], 'monday');
    const events = [first, step('monday', 1), plan('wednesday', ['schema', 'api', 'redirects', 'rate limits'], 'wednesday'), at({ type: 'plan_step_completed', content: 'api', meta: { plan_id: 'wednesday', step: 2 } }, 'wednesday')];
    const state = fold(events);
    expect(state.plans).toHaveLength(1);
    expect(state.activePlan).toMatchObject({ id: 'monday', current: 2, title: 'schema; api; …' });
  });

  it('a step ticked again by a list written again is not progress: each step counts once, under the plan it continues', () => {
    const first = plan('monday', ['schema', 'api', 'docs'], 'monday');
    const schemaDone = step('monday', 1);
    const again = plan('wednesday', ['schema', 'api', 'docs'], 'wednesday');
    const schemaAgain = at({ type: 'plan_step_completed', content: 'schema', meta: { plan_id: 'wednesday', step: 1 } }, 'wednesday');
    const apiDone = at({ type: 'plan_step_completed', content: 'api', meta: { plan_id: 'wednesday', step: 2 } }, 'wednesday');
    const state = fold([first, schemaDone, again, schemaAgain, apiDone]);
    expect(state.plans).toHaveLength(1);
    expect(state.activePlan?.ids).toEqual(['monday', 'wednesday']);
    expect(state.activePlan?.progress).toEqual([
      { event: schemaDone.id, step: 'schema' },
      { event: apiDone.id, step: 'api' },
    ]);
  });
});
