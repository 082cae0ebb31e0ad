import { describe, expect, it } from 'vitest';
import type { CortexEvent } from '../../src/events/types.js';
import { diffMemory, renderDiffMarkdown, renderDiffText } from '../../src/projections/decision-diff.js';
import { foldMemory } from '../../src/projections/fold.js';
import { DEFAULT_SETTINGS } from '../../src/projections/settings.js';
import { makeEvent } from '../helpers/events.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const fold = (events: readonly CortexEvent[]) => foldMemory(events, DEFAULT_SETTINGS, NOW);
const diff = (base: readonly CortexEvent[], head: readonly CortexEvent[]) => {
  const seen = new Set(base.map((e) => e.id));
  return diffMemory(fold(base), fold(head), { added: head.filter((e) => !seen.has(e.id)), headVisible: head });
};

/**
 * What capture writes for one session's TodoWrite list (layer1): a plan under a plan id of its
 * own, and a step completion for each item already completed. A later session that writes the
 * same list again gets a new plan id and ticks every finished item again.
 */
function todoSession(session: string, ts: string, done: string[]): CortexEvent[] {
  const steps = ['Add migration', 'Login endpoint', 'Expiry job'];
  const ctx = { session, provenance: 'layer1:TodoWrite' };
  const planId = `plan-${session}`;
  return [
    makeEvent({ type: 'plan_created', content: `Plan: ${steps.join('; ')}`, ts, meta: { plan_id: planId, steps } }, ctx),
    ...done.map((text) => makeEvent({ type: 'plan_step_completed', content: text, ts, meta: { plan_id: planId, step: steps.indexOf(text) + 1 } }, ctx)),
  ];
}

describe('diffMemory: plan progress', () => {
  it('counts a step done before the range once, not again when a later session writes the same todo list', () => {
    const monday = todoSession('monday', '2026-11-16T10:00:00.000Z', ['Add migration']);
    const wednesday = todoSession('wednesday', '2026-11-18T10:00:00.000Z', ['Add migration', 'Login endpoint']);
    const result = diff(monday, [...monday, ...wednesday]);
    expect(result.planProgress.map((p) => [p.step, p.plan])).toEqual([['Login endpoint', 'Add migration; Login endpoint; …']]);
  });

  it('holds when both sessions carry the same time (clones\' clocks), whichever list folds first', () => {
    const ts = '2026-11-20T10:00:00.000Z';
    const monday = todoSession('monday', ts, ['Add migration']);
    const wednesday = todoSession('wednesday', ts, ['Add migration', 'Login endpoint']);
    expect(diff(monday, [...monday, ...wednesday]).planProgress.map((p) => p.step)).toEqual(['Login endpoint']);
  });

  it('counts a step two sessions of the range both ticked once', () => {
    const monday = todoSession('monday', '2026-11-16T10:00:00.000Z', []);
    const tuesday = todoSession('tuesday', '2026-11-17T10:00:00.000Z', ['Add migration']);
    const wednesday = todoSession('wednesday', '2026-11-18T10:00:00.000Z', ['Add migration', 'Login endpoint']);
    expect(diff(monday, [...monday, ...tuesday, ...wednesday]).planProgress.map((p) => p.step)).toEqual(['Add migration', 'Login endpoint']);
  });

  it('names the plan a step belongs to, even when the range holds only the list written again, in text and markdown', () => {
    const monday = todoSession('monday', '2026-11-16T10:00:00.000Z', []);
    const wednesday = todoSession('wednesday', '2026-11-18T10:00:00.000Z', ['Add migration']);
    const result = diff(monday, [...monday, ...wednesday]);
    expect(renderDiffText(result, 'a..b')).toContain('✓ Add migration  (Add migration; Login endpoint; …)');
    expect(renderDiffMarkdown(result, 'a..b')).toContain('✓ Add migration (Add migration; Login endpoint; …)');
    for (const text of [renderDiffText(result, 'a..b'), renderDiffMarkdown(result, 'a..b')]) expect(text).not.toContain('a plan');
  });
});
