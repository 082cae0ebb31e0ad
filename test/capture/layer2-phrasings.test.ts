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

describe('layer 2: a fix told as the change that did it, or as what the code does now', () => {
  it.each([
    'The race detector flagged the counter being incremented by two goroutines; switching the counter to `atomic.Int64` fixed the data race.',
    'Flyway wraps each script in a transaction; moving the index into its own script fixed the failed migration.',
    'The 301 was a region mismatch: the bucket lives in eu-west-1; setting the backend region fixed the init.',
    '`superValidate` takes an adapter, not a raw schema; wrapping the schema with `zod()` fixed both type errors.',
    'Setting `shm_size` to 2g fixed it.',
    '`-25299` is `errSecDuplicateItem`: `SecItemAdd` refuses to overwrite, so `save` now calls `SecItemUpdate` first.',
    'The gateway rejects bodies over 1 MB, so the uploader now sends files in chunks.',
  ])('reads %j as an error resolved', (text) => {
    expect(typesOf(text)).toEqual(['error_resolved']);
  });

  it.each([
    ['a question', 'Did switching the counter to `atomic.Int64` fix the data race?'],
    ['a hedge', 'Switching the counter to `atomic.Int64` might have fixed the data race, but it still flakes.'],
    ['a negation', "Switching the counter to `atomic.Int64` hasn't fixed the data race."],
    ['nothing did it', 'Nothing fixed the data race so far.'],
    ['a new failure after "so … now"', 'The gateway rejects bodies over 1 MB, so the upload now fails.'],
    ['the assistant\'s next step after "so"', 'The gateway rejects bodies over 1 MB, so I now need to look at the uploader.'],
  ])('stays silent on %s', (_name, text) => {
    expect(typesOf(text)).not.toContain('error_resolved');
  });

  it('reads no fix from the same words in a tool result or the user\'s prose', () => {
    expect(inToolResult('switching the counter to atomic.Int64 fixed the data race')).toEqual([]);
    expect(memories(user('Switching the counter to atomic.Int64 fixed the data race.')).map((c) => c.type)).toEqual([]);
  });
});

describe('layer 2: "X won\'t work here because …" and "I considered X, but …" turn X down', () => {
  it.each([
    "Terraform Cloud won't work here because the security team blocks outbound connections from the runners.",
    'Felte will not work for this project: its Svelte 5 support is still in beta.',
    "A partial index can't work here since the column is nullable in half the rows.",
  ])('reads %j as a rejection with its reason', (text) => {
    const found = memories(assistant(text));
    expect(found.map((c) => c.type)).toEqual(['approach_rejected']);
    expect(String(found[0]?.meta.reason)).toMatch(/security team|beta|nullable/);
  });

  it('reads a choice only considered as a rejection, not a decision', () => {
    const found = memories(assistant('I considered switching to `pg_dump -Fc --file`, which avoids the pipe entirely, but the restore runbook expects `.sql.gz`, so I kept the pipe.'));
    expect(found.map((c) => c.type)).toEqual(['approach_rejected']);
    expect(found[0]?.meta.reason).toMatch(/^the restore runbook/);
  });

  it('still takes a choice made after the "but"', () => {
    expect(typesOf('I considered Redis, but we went with Postgres since it is already deployed.')).toContain('decision_made');
  });

  it.each([
    ['a question', "Won't Terraform Cloud work here because of the proxy?"],
    ['a doubt', 'Terraform Cloud might not work here because of the proxy.'],
    ['a hypothetical', "If Terraform Cloud won't work here because of the proxy, we keep S3."],
    ['narration', "Let me check why Terraform Cloud won't work here because the error is vague."],
  ])('stays silent on %s', (_name, text) => {
    expect(typesOf(text)).not.toContain('approach_rejected');
  });

  it('reads no rejection from the same words in a tool result or the user\'s prose', () => {
    expect(inToolResult("Terraform Cloud won't work here because outbound connections are blocked.")).toEqual([]);
    expect(memories(user("Terraform Cloud won't work here because outbound connections are blocked.")).map((c) => c.type)).toEqual([]);
  });
});

describe('layer 2: what code does "instead of" something describes it; it chooses nothing', () => {
  it.each([
    'The spec uses `travel_to` instead of Timecop.',
    'The endpoint now issues 1 query instead of 619, and the suite passes.',
    'The incremental run took 38 s instead of ~45 min.',
    'This helper returns `nil` rather than raising.',
  ])('reads no decision from %j', (text) => {
    expect(typesOf(text)).not.toContain('decision_made');
  });

  it.each([
    'One vitest workspace file at the root, rather than a config per package, keeps the packages consistent.',
    'The plan is to cache the token instead of fetching it per request.',
    "We'll cache the token instead of fetching it per request.",
  ])('still reads %j as a decision', (text) => {
    expect(typesOf(text)).toEqual(['decision_made']);
  });
});

describe("layer 2: the user's convention stated against what it replaces is a preference", () => {
  const fromUser = (text: string) => memories(user(text)).map((c) => c.type);

  it.each([
    'Add validation to the signup form. Also: we use pnpm, not npm — always.',
    'We write specs with RSpec, never Minitest.',
    'Tabs for indentation — always.',
  ])('reads %j as a preference', (text) => {
    expect(fromUser(text)).toEqual(['preference_noted']);
  });

  it.each([
    ['a question', 'Do we use pnpm, not npm, in this repo?'],
    ['a hypothetical', 'If we use pnpm, not npm, the lockfile changes.'],
    ['a plain fact', 'We use pnpm in this repo.'],
  ])('stays silent on %s', (_name, text) => {
    expect(fromUser(text)).toEqual([]);
  });

  it("is the user's: the assistant's prose and tool results are not read for it", () => {
    expect(typesOf('We use pnpm, not npm — always.')).not.toContain('preference_noted');
    expect(inToolResult('we use pnpm, not npm — always.')).toEqual([]);
  });
});
