import { describe, expect, it } from 'vitest';
import { extractCandidates } from '../../src/capture/extract.js';
import { assistant, session, toolResult, toolUse, user } from '../helpers/transcript.js';

/**
 * Layer 2: ways people phrase a finding, a fix, a rejection or a choice that the cue families
 * must read, each with the same cue where it must stay silent: in a question, hedged, in a
 * tool result, in the user's prose, or in the assistant narrating its own steps.
 */
const MEMORY = new Set(['decision_made', 'approach_rejected', 'knowledge_acquired', 'error_resolved', 'preference_noted', 'task_completed', 'plan_created', 'plan_step_completed']);
const memories = (...lines: object[]) => extractCandidates(session(lines)).candidates.filter((c) => MEMORY.has(c.type));
const typesOf = (text: string) => memories(assistant(text)).map((c) => c.type);
const inToolResult = (text: string) => memories(toolUse('t1', 'Bash', { command: 'cat NOTES.md' }), toolResult('t1', text)).map((c) => c.type);

describe('layer 2: a finding introduced as one ("Note: …", "It appears (that) …")', () => {
  it.each([
    'Note: Hammer 7 dropped the old `check_rate/3` function; the API is now `hit/3`.',
    'NB: on Postgres 12+ a NOT VALID check constraint lets SET NOT NULL skip the table scan.',
    "It appears the API loads each order's lines through separate queries because lazy loading is on globally.",
    'It appears that the deploy key only resolves inside the production environment.',
  ])('reads %j as a learning', (text) => {
    expect(typesOf(text)).toEqual(['knowledge_acquired']);
  });

  it.each([
    ['a question', 'Note: does the API still paginate at 100 rows?'],
    ['a hedged impression', 'It appears the cache might be stale after a deploy.'],
    ['a state, not a finding', 'It appears to have worked this time.'],
    ['the assistant\'s next step', "Note: I'll re-run the migration once the lock is released."],
    ['narration after the label', 'Note: let me check the config before changing anything.'],
  ])('stays silent on %s', (_name, text) => {
    expect(typesOf(text)).toEqual([]);
  });

  it('reads no learning from the same words in a tool result or the user\'s prose', () => {
    expect(inToolResult('Note: Hammer 7 dropped the old check_rate/3 function; the API is now hit/3.')).toEqual([]);
    expect(memories(user('Note: Hammer 7 dropped the old check_rate/3 function; the API is now hit/3.')).map((c) => c.type)).toEqual([]);
  });
});
