import { describe, expect, it } from 'vitest';
import type { CortexEvent } from '../../src/events/types.js';
import { squashedAtOf, visibleEvents, type BranchView } from '../../src/projections/visibility.js';

/** Branch alignment of a squash merge: no ancestry, only the tracked file's list to go by. */
describe('squash boundaries', () => {
  const fork = 'a'.repeat(40);
  const squashed = 'b'.repeat(40); // the feature's commit, squashed into main: not in main's history
  const main: BranchView = { branch: 'main', ancestors: new Set([fork]), unmerged: new Map() };
  const event = (id: string, ts: string): CortexEvent => ({
    id,
    v: 1,
    type: 'decision_made',
    content: id,
    ts,
    session: 's',
    author: 'a',
    branch: 'feature',
    commit: squashed,
    salience: 0.5,
    confidence: 1,
    immortal: false,
    provenance: 'test',
    meta: {},
  });

  it('draws the line to the millisecond: a decision recorded in the same second after the last one the squash lists stays on its branch', () => {
    const listed = event('queue in redis streams', '2026-03-02T10:00:00.120Z');
    const later = event('sign payloads with ed25519', '2026-03-02T10:00:00.870Z');
    const at = squashedAtOf([{ id: listed.id, branch: listed.branch, commit: listed.commit, millis: Date.parse(listed.ts) }], main);
    expect(at.get('feature')?.get(squashed)).toBe(Date.parse(listed.ts));
    const view: BranchView = { ...main, squashed: new Map([['feature', { at: at.get('feature') as Map<string, number>, before: new Set(['']) }]]) };
    expect(visibleEvents([listed, later], view).map((e) => e.id)).toEqual(['queue in redis streams']);
  });

  it('brings what the branch recorded up to the listed decision, learnings included, however close in time', () => {
    const learned = { ...event('the provider retries for three days', '2026-03-02T10:00:00.119Z'), type: 'knowledge_acquired' as const };
    const listed = event('queue in redis streams', '2026-03-02T10:00:00.120Z');
    const at = squashedAtOf([{ id: listed.id, branch: 'feature', commit: squashed, millis: Date.parse(listed.ts) }], main);
    const view: BranchView = { ...main, squashed: new Map([['feature', { at: at.get('feature') as Map<string, number>, before: new Set(['']) }]]) };
    expect(visibleEvents([learned, listed], view)).toHaveLength(2);
  });

  it('decides by commit where one is older than the listed one, whatever the times: replayed transcripts may all carry one', () => {
    const older = 'c'.repeat(40);
    const newer = 'd'.repeat(40);
    const stamp = '2025-01-15T10:00:00.000Z';
    const listed = event('queue in redis streams', stamp);
    const before = { ...event('the provider retries for three days', stamp), commit: older };
    const after = { ...event('sign payloads with ed25519', stamp), commit: newer };
    const at = squashedAtOf([{ id: listed.id, branch: 'feature', commit: squashed, millis: Date.parse(stamp) }], main);
    const view: BranchView = { ...main, squashed: new Map([['feature', { at: at.get('feature') as Map<string, number>, before: new Set(['', older]) }]]) };
    expect(visibleEvents([before, listed, after], view).map((e) => e.id)).toEqual(['the provider retries for three days', 'queue in redis streams']);
  });
});
