import { describe, expect, it } from 'vitest';
import { extractCandidates } from '../../src/capture/extract.js';
import { classifySentence, extractProse } from '../../src/capture/layer2.js';
import { extractTags } from '../../src/capture/layer3.js';
import { prepareProse, splitProse } from '../../src/capture/prose.js';
import { assistant, session, toolResult, toolUse, user } from '../helpers/transcript.js';

const typeOf = (sentence: string) => {
  const [s] = splitProse(sentence);
  return s ? (classifySentence(s)?.type ?? null) : null;
};

describe('layer 2: heuristics over assistant prose', () => {
  it.each([
    ["I'll go with Postgres rather than MongoDB since we need multi-row transactions.", 'decision_made'],
    ['Going with a token bucket for the limiter: it absorbs bursts.', 'decision_made'],
    ['We decided to keep the retry logic in the client.', 'decision_made'],
    ['Zod it is, since the other forms already use it.', 'decision_made'],
    ['Switching the cache to an LRU with a 10k cap, so memory stays bounded.', 'decision_made'],
    ['Ruled out Redis: the ops team will not run another service.', 'approach_rejected'],
    ['Yup is out: it would add a second schema library to the bundle.', 'approach_rejected'],
    ['I considered a groupby with idxmax, but it is 3x slower, so I am not doing that.', 'approach_rejected'],
    ['A retry loop would just spin forever, so I didn\'t add one.', 'approach_rejected'],
    ['Turns out the API paginates at 100 items and ignores larger page sizes.', 'knowledge_acquired'],
    ['Worth knowing: the SDK silently drops events larger than 256 KB.', 'knowledge_acquired'],
    ['The 500 was caused by a missing env var; fixed by adding it to .env.example.', 'error_resolved'],
    ['Fixed the flaky test by awaiting the server start before the first request.', 'error_resolved'],
    ['Noted, you prefer tabs over spaces in this repo.', 'preference_noted'],
    ['Done: all handlers are migrated to async.', 'task_completed'],
  ])('finds %j as %s', (sentence, type) => {
    expect(typeOf(sentence)).toBe(type);
  });

  it.each([
    'I decided to read the file first.',
    'Let me check the config before changing anything.',
    "I'll look at the middleware order next.",
    'Should we use Redis for this?',
    'If we went with Kafka we would need a schema registry.',
    'We could use SQS or RabbitMQ here.',
    'Want me to add a regression test for it?',
    'One option is to shard by tenant, another is to partition by month.',
    'We have not decided on the queue yet.',
  ])('stays quiet on %j', (sentence) => {
    expect(typeOf(sentence)).toBeNull();
  });

  it('does not read a fix that would not work as an error resolved', () => {
    expect(typeOf("Raising the priority wouldn't fix it because the handler is too slow, so that's off the table.")).toBe('approach_rejected');
  });

  it('ignores trigger words inside code blocks, inline code and quotations', () => {
    const text = [
      'Here is the config:',
      '```ts',
      "// we decided to use Redis rather than Postgres since it is faster",
      '```',
      'The comment `we decided to go with Mongo` is stale.',
      'You wrote "I ruled out Kafka: too heavy" in the ticket.',
    ].join('\n');
    expect(extractProse(text, '')).toEqual([]);
  });

  it('keeps inline code in the content when the trigger is in prose', () => {
    const [c] = extractProse("I'll use `pg` rather than `mongodb` since we need transactions.", '');
    expect(c).toMatchObject({ type: 'decision_made', content: "I'll use `pg` rather than `mongodb` since we need transactions.", meta: { rejected: '`mongodb`' } });
  });

  it('keeps the reason of a rejection', () => {
    const [c] = extractProse('Ruled out Redis: the ops team will not run another service.', '');
    expect(c?.meta.reason).toBe('the ops team will not run another service');
    expect(c?.confidence).toBeLessThan(1);
  });

  it('a labelled decision ("Decision: Use SQLite") is not its own reason; the list under it, or a rejection\'s "but", is', () => {
    expect(extractProse('Decision: Use pnpm workspaces.', '')[0]?.meta).toEqual({});
    const [sqlite] = extractProse('**Decision: Use SQLite**\n- Zero configuration\n- Single file to back up', '');
    expect(sqlite).toMatchObject({ type: 'decision_made', meta: { reason: 'Zero configuration; Single file to back up' } });
    const [yup] = extractProse('I considered using Yup, but its inference is weaker than Zod.', '');
    expect(yup).toMatchObject({ type: 'approach_rejected', meta: { reason: 'its inference is weaker than Zod' } });
  });

  it('a list after a decision that ends in a full stop is not taken for its reasons (it may be steps)', () => {
    const [c] = extractProse("I'll use the repository pattern.\n- create the interface\n- move the queries", '');
    expect(c).toMatchObject({ type: 'decision_made', meta: {} });
    expect(c?.meta.reason).toBeUndefined();
  });
});

describe('layer 3: memory tags', () => {
  it('reads a plan tag\'s steps between semicolons and a decision tag\'s reason, as cortex remember does', () => {
    const [plan] = extractTags(prepareProse('[MEMORY: plan] migrate auth; add tests; deploy'), '');
    expect(plan?.meta.steps).toEqual(['migrate auth', 'add tests', 'deploy']);
    const [decision] = extractTags(prepareProse('[MEMORY: decision] Use pino because it writes JSON'), '');
    expect(decision?.meta.reason).toBe('it writes JSON');
    const [single] = extractTags(prepareProse('[MEMORY: plan] ship the importer'), '');
    expect(single?.meta.steps).toEqual(['ship the importer']);
  });

  it('reads several tags per message, in any case and spacing, at confidence 1', () => {
    const text = 'Summary.\n[MEMORY: decision] Use UTC everywhere\n[memory:Rejected]  Local time — DST bugs\n[ Memory : learned ] The API caps pages at 100';
    const tags = extractTags(prepareProse(text), '');
    expect(tags.map((t) => [t.type, t.content, t.confidence])).toEqual([
      ['decision_made', 'Use UTC everywhere', 1],
      ['approach_rejected', 'Local time — DST bugs', 1],
      ['knowledge_acquired', 'The API caps pages at 100', 1],
    ]);
    expect(tags[1]?.meta.reason).toBe('DST bugs');
  });

  it('maps every documented tag type', () => {
    const types = ['decision', 'rejected', 'learned', 'plan', 'preference', 'error', 'fixed', 'todo'].map((t) => extractTags(prepareProse(`[MEMORY: ${t}] something to keep`), '')[0]?.type);
    expect(types).toEqual(['decision_made', 'approach_rejected', 'knowledge_acquired', 'plan_created', 'preference_noted', 'error_resolved', 'error_resolved', 'plan_created']);
  });

  it('takes full type names, and leaves no bold markers behind from a tag written in bold', () => {
    const tags = (text: string) => extractTags(prepareProse(text), '').map((t) => [t.type, t.content]);
    expect(tags('[MEMORY: decision_made] Money is integer cents')).toEqual([['decision_made', 'Money is integer cents']]);
    expect(tags('[MEMORY: approach_rejected] Floats for money, because of rounding')).toEqual([['approach_rejected', 'Floats for money, because of rounding']]);
    expect(tags('**[MEMORY: decision]** Pin Node 20 in CI')).toEqual([['decision_made', 'Pin Node 20 in CI']]);
    expect(tags('**[MEMORY: learned] The API paginates at 100 items**')).toEqual([['knowledge_acquired', 'The API paginates at 100 items']]);
    expect(tags('[MEMORY: decision] Use **Postgres** for the ledger')).toEqual([['decision_made', 'Use **Postgres** for the ledger']]);
    expect(tags('[MEMORY: file_modified] src/a.ts')).toEqual([]); // file activity is structural, not a tag
  });

  it('does not count a tag shown inside code', () => {
    expect(extractTags(prepareProse('Write `[MEMORY: decision] text` to record one.\n```\n[MEMORY: decision] example\n```'), '')).toEqual([]);
  });

  it('keeps an untyped tag, the text inside its brackets, as a learning, once', () => {
    const found = extractCandidates(
      session([
        user('[MEMORY: The pipeline must handle CSV and JSON formats. Priority is reliability over speed.]'),
        assistant("[MEMORY: Data pipeline uses chunked reading for large files, so `read_csv` never loads a whole file.]\n\nLet me add the handlers. [MEMORY: decision] Rows fail one at a time"),
      ]),
    ).candidates;
    expect(found.map((c) => [c.type, c.content, c.confidence, c.provenance])).toEqual([
      ['knowledge_acquired', 'The pipeline must handle CSV and JSON formats. Priority is reliability over speed.', 1, 'layer3:memory-tag'],
      ['knowledge_acquired', 'Data pipeline uses chunked reading for large files, so `read_csv` never loads a whole file.', 1, 'layer3:memory-tag'],
      ['decision_made', 'Rows fail one at a time', 1, 'layer3:memory-tag'],
    ]);
  });

  it('reads no memory from a tag that only names types, or a placeholder for one', () => {
    const tags = (text: string) => extractTags(prepareProse(text), '').map((t) => [t.type, t.content]);
    expect(tags('Tag it with [MEMORY: decision|rejected|learned] and a line of text.')).toEqual([]);
    expect(tags('Write [MEMORY: type] and the text after it.')).toEqual([]);
    expect(tags('[MEMORY: ] nothing')).toEqual([]);
  });

  it('keeps a tag with a misspelt type as that type, and one with a word of its own as a learning tagged with the word', () => {
    const tags = (text: string) => extractTags(prepareProse(text), '').map((t) => [t.type, t.content, t.meta]);
    expect(tags('[MEMORY: decison] Use Postgres for the queue')).toEqual([['decision_made', 'Use Postgres for the queue', {}]]);
    expect(tags('[MEMORY: prefrence] tabs over spaces')).toEqual([['preference_noted', 'tabs over spaces', {}]]);
    expect(tags('[MEMORY: important] Keep the cache warm')).toEqual([['knowledge_acquired', 'Keep the cache warm', { tags: ['important'] }]]);
  });
});

describe('layer 3: a tag that names what it replaces', () => {
  const tags = (text: string) => extractTags(prepareProse(text), '').map((t) => [t.type, t.content, t.meta]);

  it('keeps the ids a decision, rejection or preference supersedes, in the forms an assistant writes', () => {
    expect(tags('[MEMORY: decision supersedes 6TM5GE6H] Sessions live in Redis, because revocation must be instant')).toEqual([['decision_made', 'Sessions live in Redis, because revocation must be instant', { reason: 'revocation must be instant', supersedes: ['6TM5GE6H'] }]]);
    expect(tags('[MEMORY: Decision, replaces: 6tm5ge6h] Use pg-boss')).toEqual([['decision_made', 'Use pg-boss', { supersedes: ['6tm5ge6h'] }]]);
    expect(tags('[MEMORY: decision supersedes 6TM5GE6H, PH78X1KN] Use Redis sessions')).toEqual([['decision_made', 'Use Redis sessions', { supersedes: ['6TM5GE6H', 'PH78X1KN'] }]]);
    expect(tags('[MEMORY: decision supersedes 01KAB3XY6TM5GE6HQ2W3E4R5T6] Use Redis sessions')).toEqual([['decision_made', 'Use Redis sessions', { supersedes: ['01KAB3XY6TM5GE6HQ2W3E4R5T6'] }]]);
    expect(tags('**[MEMORY: preference supersedes 86X7X447]** Use bun, not pnpm')).toEqual([['preference_noted', 'Use bun, not pnpm', { supersedes: ['86X7X447'] }]]);
    expect(tags('[MEMORY: rejected supersedes E9N9QY32] Hand-written OAuth flows — two providers now')).toEqual([['approach_rejected', 'Hand-written OAuth flows — two providers now', { reason: 'two providers now', supersedes: ['E9N9QY32'] }]]);
    expect(tags('[MEMORY: decison supersedes 6TM5GE6H] Use Redis sessions')).toEqual([['decision_made', 'Use Redis sessions', { supersedes: ['6TM5GE6H'] }]]);
  });

  it('stays the memory it is when the id is missing or not an id, and a learning supersedes nothing', () => {
    expect(tags('[MEMORY: decision supersedes <id>] Use Redis sessions')).toEqual([['decision_made', 'Use Redis sessions', {}]]);
    expect(tags('[MEMORY: decision replaces JWT] Use Redis sessions')).toEqual([['decision_made', 'Use Redis sessions', {}]]);
    expect(tags('[MEMORY: decision replaces earlier one] Use Redis sessions')).toEqual([['decision_made', 'Use Redis sessions', {}]]);
    expect(tags('[MEMORY: learned supersedes 6TM5GE6H] Redis keys expire lazily')).toEqual([['knowledge_acquired', 'Redis keys expire lazily', {}]]);
  });

  it('is one memory, not a second one read by the heuristics from the same line', () => {
    const found = extractCandidates(session([assistant('[MEMORY: decision supersedes 6TM5GE6H] Going with server-side sessions in Redis rather than JWT, since revocation must be instant.')])).candidates;
    expect(found.map((c) => [c.type, c.provenance, c.meta.supersedes])).toEqual([['decision_made', 'layer3:memory-tag', ['6TM5GE6H']]]);
  });
});

describe('layer 1: tool calls', () => {
  it('keeps a call whose result has not come yet for the read that brings it, and counts it only by that result', () => {
    const first = extractCandidates(session([
      toolUse('w1', 'Write', { file_path: '/repo/src/rejected.ts', content: 'SECRET_BODY' }),
      toolUse('w2', 'Edit', { file_path: '/repo/src/kept.ts', old_string: 'a', new_string: 'b' }),
      toolUse('b1', 'Bash', { command: 'curl -H "Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789" https://api.github.com' }),
      toolUse('g1', 'Grep', { pattern: 'sk_live_51MzAbCdEfGhIjKlMnOpQrSt', path: '/repo/src' }),
      toolUse('b2', 'Bash', { command: `cat <<'EOF' > blob.b64\n${'QUJD'.repeat(50_000)}\nEOF` }),
    ]), { session: 's' });
    expect(first.candidates).toEqual([]);
    expect(JSON.stringify(first.state.unanswered)).not.toMatch(/SECRET_BODY|ghp_abcdefghijklmnopqrstuvwxyz0123456789|sk_live_51MzAbCdEfGhIjKlMnOpQrSt/);
    expect(JSON.stringify(first.state.unanswered).length).toBeLessThan(10_000);
    // A replayed read meets the carried calls again: still one of each.
    expect(extractCandidates('', { session: 's', state: first.state }).state.unanswered).toHaveLength(5);
    const second = extractCandidates(session([
      toolResult('w1', "The user doesn't want to proceed with this tool use.", true),
      toolResult('w2', 'ok'),
      toolResult('b1', 'ok'),
      toolResult('g1', 'no matches', true),
      toolResult('b2', 'cat: blob.b64: No space left on device', true),
    ]), { session: 's', state: first.state });
    expect(second.candidates.map((c) => c.content)).toEqual(['Modified src/kept.ts', 'Ran curl -H "Authorization: Bearer [REDACTED:github-token]" https://api.github.com', "Ran cat <<'EOF' > blob.b64"]);
    expect(second.state.unanswered).toEqual([]);
  });

  it('counts no call that never got its result (a session that ended at a permission prompt)', () => {
    const text = session([toolUse('w1', 'Write', { file_path: '/repo/src/never.ts', content: '' })]);
    expect(extractCandidates(text).candidates).toEqual([]);
  });

  it('records successful edits, reads and commands, not failed or rejected ones', () => {
    const text = session([
      toolUse('t1', 'Edit', { file_path: '/repo/src/a.ts', old_string: 'x', new_string: 'y' }),
      toolResult('t1', 'ok'),
      toolUse('t2', 'Edit', { file_path: '/repo/src/b.ts', old_string: 'x', new_string: 'y' }),
      toolResult('t2', '<tool_use_error>String to replace not found in file.</tool_use_error>', true),
      toolUse('t3', 'Write', { file_path: '/repo/src/c.ts', content: '' }),
      toolResult('t3', "The user doesn't want to proceed with this tool use.", true),
      toolUse('t4', 'Read', { file_path: '/repo/README.md' }),
      toolResult('t4', 'text'),
      toolUse('t5', 'Grep', { pattern: 'TODO', path: '/repo/src' }),
      toolResult('t5', 'matches'),
      toolUse('t6', 'Glob', { pattern: '**/*.ts' }),
      toolResult('t6', 'files'),
      toolUse('t7', 'Bash', { command: 'npm test' }),
      toolResult('t7', 'fail', true),
    ]);
    const found = extractCandidates(text).candidates.map((c) => [c.type, c.meta.path ?? c.meta.command]);
    expect(found).toEqual([
      ['file_modified', 'src/a.ts'],
      ['file_explored', 'README.md'],
      ['file_explored', 'src'],
      ['command_run', 'npm test'],
    ]);
  });

  it('names a file one way however the path was spelled, and an edit of a folder is no file change', () => {
    const text = session([
      toolUse('t1', 'Edit', { file_path: '/repo/./src/../src/a.ts', old_string: 'x', new_string: 'y' }),
      toolResult('t1', 'ok'),
      toolUse('t2', 'Write', { file_path: '/repo//lib/b.ts', content: '' }),
      toolResult('t2', 'ok'),
      toolUse('t3', 'Edit', { file_path: '/repo/', old_string: 'x', new_string: 'y' }),
      toolResult('t3', 'ok'),
    ]);
    expect(extractCandidates(text).candidates.map((c) => [c.type, c.content, c.meta.path])).toEqual([
      ['file_modified', 'Modified src/a.ts', 'src/a.ts'],
      ['file_modified', 'Modified lib/b.ts', 'lib/b.ts'],
    ]);
  });

  it('never keeps the front half of a secret that a length cut went through', () => {
    const token = `ghp_${'A1b2C3d4E5'.repeat(6)}`;
    for (const pad of [905, 915, 925]) {
      const command = `${'x'.repeat(pad)} && gh auth login --with ${token} --hostname github.example.com`;
      const [ran] = extractCandidates(session([toolUse('b', 'Bash', { command }), toolResult('b', 'ok')])).candidates;
      expect(ran?.meta.command).not.toMatch(/ghp_/);
    }
  });

  it('keeps a todo list as one plan across updates and attaches progress to it', () => {
    const todos = (statuses: string[]) => ({ todos: ['Write the schema', 'Add the endpoint', 'Document it'].map((content, i) => ({ content, status: statuses[i], activeForm: content })) });
    const text = session([
      toolUse('a', 'TodoWrite', todos(['in_progress', 'pending', 'pending'])),
      toolResult('a', 'ok'),
      toolUse('b', 'TodoWrite', todos(['completed', 'in_progress', 'pending'])),
      toolResult('b', 'ok'),
      toolUse('c', 'TodoWrite', todos(['completed', 'completed', 'in_progress'])),
      toolResult('c', 'ok'),
    ]);
    const events = extractCandidates(text).candidates;
    const created = events.filter((e) => e.type === 'plan_created');
    const steps = events.filter((e) => e.type === 'plan_step_completed');
    expect(created).toHaveLength(1);
    expect(created[0]?.meta.steps).toEqual(['Write the schema', 'Add the endpoint', 'Document it']);
    expect(steps.map((s) => [s.meta.plan_id, s.meta.step, s.content])).toEqual([
      [created[0]?.meta.plan_id, 1, 'Write the schema'],
      [created[0]?.meta.plan_id, 2, 'Add the endpoint'],
    ]);
  });

  it('writes the plan again under its id when the todo list gains or renames steps, so no step is lost', () => {
    const todos = (items: Array<[string, string]>) => ({ todos: items.map(([content, status]) => ({ content, status, activeForm: content })) });
    const events = extractCandidates(
      session([
        toolUse('a', 'TodoWrite', todos([['Add the table', 'in_progress'], ['Wire the API', 'pending']])),
        toolResult('a', 'ok'),
        toolUse('b', 'TodoWrite', todos([['Add the table', 'completed'], ['Wire the API, with paging', 'completed'], ['Write the docs', 'pending']])),
        toolResult('b', 'ok'),
        toolUse('c', 'TodoWrite', todos([['Add the table', 'completed'], ['Wire the API, with paging', 'completed'], ['Write the docs', 'pending']])),
        toolResult('c', 'ok'),
      ]),
    ).candidates;
    const created = events.filter((e) => e.type === 'plan_created');
    expect(created.map((e) => e.meta.steps)).toEqual([
      ['Add the table', 'Wire the API'],
      ['Add the table', 'Wire the API, with paging', 'Write the docs'],
    ]); // the third list changed only statuses: nothing written again
    expect(new Set(created.map((e) => e.meta.plan_id)).size).toBe(1);
    expect(events.filter((e) => e.type === 'plan_step_completed').map((e) => [e.meta.step, e.content])).toEqual([
      [1, 'Add the table'],
      [2, 'Wire the API, with paging'],
    ]);
  });

  it('keeps todo and task texts redacted in the carried state, and still follows the plan across reads', () => {
    // Fake credentials in the shapes providers issue; none is real.
    const stripe = 'sk_live_51TodoS3cretInAT0doL1stXx0';
    const token = 'ghp_T4skS3cr3tT0k3nAaBbCcDdEeFfGgHh1122';
    const todos = (status: string) => ({ todos: [{ content: `Rotate the Stripe key ${stripe}`, status, activeForm: 'Rotating' }, { content: 'Update docs', status: 'pending', activeForm: 'Updating' }] });
    const first = extractCandidates(
      session([
        toolUse('a', 'TodoWrite', todos('in_progress')),
        toolResult('a', 'ok'),
        toolUse('t', 'TaskCreate', { subject: `Revoke ${token}`, description: 'then tell the team' }),
        toolResult('t', 'Task #7 created successfully'),
      ]),
    );
    expect(JSON.stringify(first.state)).not.toMatch(/sk_live_51Todo|ghp_T4sk/);
    expect(first.state.plans[0]?.steps).toEqual(['Rotate the Stripe key [REDACTED:stripe-key]', 'Update docs']);
    expect(first.candidates.find((c) => c.type === 'plan_created')?.meta).toMatchObject({ steps: ['Rotate the Stripe key [REDACTED:stripe-key]', 'Update docs'], redactions: 1 });

    // The next read sees the raw text again and finds the same plan and task, writing no new plan.
    const taskId = Object.keys(first.state.tasks)[0] as string;
    const second = extractCandidates(
      session([toolUse('b', 'TodoWrite', todos('completed')), toolResult('b', 'ok'), toolUse('u', 'TaskUpdate', { taskId, status: 'completed' }), toolResult('u', 'ok')]),
      { state: first.state },
    );
    expect(second.candidates.map((c) => [c.type, c.meta.plan_id, c.meta.step, c.content])).toEqual([
      ['plan_step_completed', first.state.plans[0]?.id, 1, 'Rotate the Stripe key [REDACTED:stripe-key]'],
      ['plan_step_completed', first.state.plans[1]?.id, 1, 'Revoke [REDACTED:github-token]'],
    ]);
    expect(JSON.stringify(second.state)).not.toMatch(/sk_live_51Todo|ghp_T4sk/);
  });

  it('redacts a carried state kept in clear by an earlier version, and follows its plan', () => {
    const stripe = 'sk_live_51TodoS3cretInAT0doL1stXx0';
    const todos = (status: string) => ({ todos: [{ content: `Rotate the Stripe key ${stripe}`, status }, { content: 'Update docs', status: 'pending' }] });
    const first = extractCandidates(session([toolUse('a', 'TodoWrite', todos('pending')), toolResult('a', 'ok')]));
    const inClear = { ...first.state, plans: first.state.plans.map((p) => ({ ...p, steps: [`Rotate the Stripe key ${stripe}`, 'Update docs'] })) };
    const second = extractCandidates(session([toolUse('b', 'TodoWrite', todos('completed')), toolResult('b', 'ok')]), { state: inClear });
    expect(second.candidates.map((c) => [c.type, c.meta.plan_id])).toEqual([['plan_step_completed', first.state.plans[0]?.id]]);
    expect(JSON.stringify(second.state)).not.toContain(stripe);
  });

  it('continues a plan across incremental reads through the carried state', () => {
    const todos = (s: string) => ({ todos: [{ content: 'Step one', status: s }, { content: 'Step two', status: 'pending' }] });
    const first = extractCandidates(session([toolUse('a', 'TodoWrite', todos('pending')), toolResult('a', 'ok')]));
    const second = extractCandidates(session([toolUse('b', 'TodoWrite', todos('completed')), toolResult('b', 'ok')]), { state: first.state });
    expect(second.candidates.map((c) => [c.type, c.meta.plan_id])).toEqual([['plan_step_completed', first.candidates[0]?.meta.plan_id]]);
  });
});

describe('a plan written as a document (ExitPlanMode)', () => {
  it('takes its numbered headings as the steps, not the context, notes and file lists under them', () => {
    const plan = [
      '# Plan: Enrich the renderer',
      '## Context',
      '- The panel is hard to scan',
      '- Paths are absolute',
      '## Changes',
      '**1. render/2 with opts**',
      '- `def render(messages, opts \\\\ [])`',
      '**2. Thinking visibility**',
      '- emit thinking lines',
      '### 3. Tool threading',
      '## Files to modify',
      '- lib/transcript_renderer.ex',
    ].join('\n');
    const created = extractCandidates(session([toolUse('p1', 'ExitPlanMode', { plan })])).candidates.find((c) => c.type === 'plan_created');
    expect(created?.meta.steps).toEqual(['render/2 with opts', 'Thinking visibility', 'Tool threading']);
  });

  it('else its top-level numbered items, not the bullets nested under them', () => {
    const created = extractCandidates(session([toolUse('p2', 'ExitPlanMode', { plan: 'Plan:\n1. Add the column\n   - nullable first\n2. Backfill\n3. Make it NOT NULL' })])).candidates.find((c) => c.type === 'plan_created');
    expect(created?.meta.steps).toEqual(['Add the column', 'Backfill', 'Make it NOT NULL']);
  });
});

describe('a forked session', () => {
  it('takes nothing from the lines it copied from its parent (forkedFrom), which the parent captured, and what it says itself', () => {
    const copied = { ...assistant('[MEMORY: decision] Use Redis for sessions'), forkedFrom: { sessionId: 'parent', messageUuid: 'p1' } };
    const own = assistant('[MEMORY: decision] Add a /healthz route');
    expect(extractCandidates(session([copied, own])).candidates.map((c) => c.content)).toEqual(['Add a /healthz route']);
  });
});

describe('plans written in prose', () => {
  const plan = "Terraform Cloud won't work here. We're settling on S3.\n\nPlan:\n1. Create a versioned state bucket in a separate `bootstrap/` stack.\n2. Add the backend block to `envs/prod/main.tf`.\n3. Migrate the state with `terraform init -migrate-state`.\n4. Delete the local state files.";

  it('takes a "Plan:" line over a numbered list as a plan, and "Step N done" in a later read as that step done', () => {
    const first = extractCandidates(session([assistant(plan)]));
    const created = first.candidates.filter((c) => c.type === 'plan_created');
    expect(created).toHaveLength(1);
    expect(created[0]?.meta.steps).toEqual(['Create a versioned state bucket in a separate `bootstrap/` stack.', 'Add the backend block to `envs/prod/main.tf`.', 'Migrate the state with `terraform init -migrate-state`.', 'Delete the local state files.']);
    const second = extractCandidates(session([assistant('Step 1 done: the `acme-tfstate-prod` bucket exists with versioning. Steps 2 and 3 are complete. Is step 4 done?')]), { state: first.state });
    expect(second.candidates.filter((c) => c.type.startsWith('plan')).map((c) => [c.type, c.meta.plan_id, c.meta.step, c.content])).toEqual([
      ['plan_step_completed', created[0]?.meta.plan_id, 1, 'Create a versioned state bucket in a separate `bootstrap/` stack. — the `acme-tfstate-prod` bucket exists with versioning.'],
      ['plan_step_completed', created[0]?.meta.plan_id, 2, 'Add the backend block to `envs/prod/main.tf`.'],
      ['plan_step_completed', created[0]?.meta.plan_id, 3, 'Migrate the state with `terraform init -migrate-state`.'],
    ]);
    // Reported again, a step is not done twice.
    const third = extractCandidates(session([assistant('Step 1 done.')]), { state: second.state });
    expect(third.candidates.filter((c) => c.type === 'plan_step_completed')).toEqual([]);
  });

  it('ticks the steps of a plan a [MEMORY: plan] tag stated, as of a written one', () => {
    const first = extractCandidates(session([assistant('[MEMORY: plan] migrate auth; add tests; deploy')]));
    const created = first.candidates.filter((c) => c.type === 'plan_created');
    expect(created).toHaveLength(1);
    const later = extractCandidates(session([assistant('Step 1 done: migrated auth.')]), { state: first.state });
    expect(later.candidates.filter((c) => c.type === 'plan_step_completed').map((c) => [c.meta.plan_id, c.meta.step])).toEqual([[created[0]?.meta.plan_id, 1]]);
    expect(created[0]?.meta.plan_id).toEqual(expect.any(String));
  });

  it.each([
    ['a list offered under a conditional', 'If you agree, the plan would be:\n1. Drop the table.\n2. Recreate it.'],
    ['a single item', 'Plan:\n1. Drop the table.'],
    ['a list in a code block', '```\nPlan:\n1. Drop the table.\n2. Recreate it.\n```'],
    ['a list under a sentence that merely mentions a plan', 'I looked at the old plan for this and it had two parts:\n1. Drop the table.\n2. Recreate it.'],
  ])('takes no plan from %s', (_why, text) => {
    expect(extractCandidates(session([assistant(text)])).candidates.filter((c) => c.type.startsWith('plan'))).toEqual([]);
  });

  it('takes no step as done without a plan, or when the report is a question or a condition', () => {
    expect(extractCandidates(session([assistant('Step 2 done: the index exists.')])).candidates.filter((c) => c.type.startsWith('plan'))).toEqual([]);
    const first = extractCandidates(session([assistant(plan)]));
    const later = extractCandidates(session([assistant('Once step 2 is done, we can deploy. Step 3 done?')]), { state: first.state });
    expect(later.candidates.filter((c) => c.type === 'plan_step_completed')).toEqual([]);
  });
});

describe('layer 2: what a reader of the briefing would call junk', () => {
  it('takes no decision from a "right call" that names no choice, and still takes one that does', () => {
    expect(typeOf('This is the right call because your tool needs to be portable and simple to install.')).toBeNull();
    expect(typeOf('I think that is the best option, given the deadline.')).toBeNull();
    expect(typeOf('SQLite is the right call because your tool needs to be portable.')).toBe('decision_made');
    expect(typeOf('A token bucket is the better fit for bursty clients.')).toBe('decision_made');
  });

  it('reads a check mark as a finished task only before finished work, not before each feature of a summary', () => {
    const found = extractProse('## ✅ CLI scaffold complete\n\n### Key Features\n- ✅ Colour output\n- ✅ Config file support\n- ✅ Full TypeScript support\n- ✅ Persistent storage\n- ✅ Filter by All/Active/Completed\n- ✅ Tasks marked done sync across tabs\n\n✅ Added the config loader\n\n✅ Done: wired the CLI to the loader\n\n✅ All 42 tests pass', '');
    expect(found.map((c) => [c.type, c.content])).toEqual([
      ['task_completed', '✅ CLI scaffold complete'],
      ['task_completed', '✅ Added the config loader'],
      ['task_completed', '✅ Done: wired the CLI to the loader'],
      ['task_completed', '✅ All 42 tests pass'],
    ]);
  });

  it('stores a preference the user states and the assistant echoes once, in the user\'s words', () => {
    const found = extractCandidates(session([user('I prefer tabs over spaces.'), assistant('Noted, you prefer tabs over spaces.'), user("I'd rather keep PRs small."), assistant('Got it: you\'d rather keep PRs small.')])).candidates;
    expect(found.map((c) => [c.type, c.content])).toEqual([
      ['preference_noted', 'I prefer tabs over spaces.'],
      ['preference_noted', "I'd rather keep PRs small."],
    ]);
  });
});

describe('the pipeline', () => {
  it('skips inline subagent lines (1.0.x) and dedupes a memory said twice', () => {
    const text = session([
      assistant('Going with Postgres for the ledger: we need transactions.'),
      assistant('Going with Postgres for the ledger: we need transactions.'),
      { ...assistant('We decided to use DynamoDB for everything.'), isSidechain: true },
      user('thanks'),
    ]);
    expect(extractCandidates(text).candidates.map((c) => c.content)).toEqual(['Going with Postgres for the ledger: we need transactions.']);
  });

  it('redacts secrets in prose, prompts, tool inputs and results before they become candidates', () => {
    const text = session([
      user('here is my key sk-proj-Q2w3E4r5T6y7U8i9O0pAsDfGhJkLzXcVbNm1 [MEMORY: learned] staging uses AKIAZ7QW3ERT5YUI8OPL'),
      toolUse('t', 'Bash', { command: 'export GITHUB_TOKEN=ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ0123456789 && gh api user' }),
      toolResult('t', 'DATABASE_URL=postgres://app:Wq8zR2pXy@db/app'),
      assistant('The 401 was caused by the expired token ghp_R4nd0mT0k3nV4lu3F0rT3st1ngXyZ0123456789; fixed by rotating it.'),
    ]);
    const out = JSON.stringify(extractCandidates(text).candidates);
    expect(out).not.toMatch(/sk-proj-Q2w3|AKIAZ7QW|ghp_R4nd0m|Wq8zR2pXy/);
    expect(out).toContain('[REDACTED:');
    expect(out).toContain('"redactions":1');
  });
});

describe('compaction summaries recount the session: no heuristic memories from them', () => {
  // The compaction agent's file (agent-acompact-*.jsonl): every line a sidechain of agent acompact-….
  const agent = <T extends object>(line: T) => ({ ...line, isSidechain: true, agentId: 'acompact-3f2a1b' });
  const PROMPT = "Your task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions.";
  const SUMMARY = [
    '<analysis>',
    'Let me chronologically analyze the conversation:',
    '',
    '1. **Implementation**:',
    '   - Modified transcript_renderer.ex (prefer id over uuid)',
    '   - Error: sandbox isolation - LiveView runs in separate process, switched to `{:shared, self()}` mode',
    '   - Fixed by using `Sandbox.mode(Repo, {:shared, self()})` instead of just `Sandbox.checkout`.',
    '</analysis>',
    '',
    '<summary>',
    '1. Key Technical Concepts:',
    '   - TranscriptRenderer message ID normalization (prefer DB `id` over JSONL `uuid`)',
    '   - We decided to keep annotations in SQLite rather than in the browser, since they must survive reloads.',
    '</summary>',
  ].join('\n');
  const memories = (text: string) => extractCandidates(text).candidates.filter((c) => c.provenance.startsWith('layer2:') || c.provenance.startsWith('layer3:'));

  it("takes nothing from the compaction agent's file", () => {
    expect(memories(session([agent(user(PROMPT)), agent(assistant(SUMMARY))]))).toEqual([]);
  });

  it('takes nothing from an answer to the compaction prompt, or a continuation message without its flag, and reads on after them', () => {
    const found = memories(
      session([
        user(PROMPT),
        assistant(SUMMARY.replace(/<\/?(?:analysis|summary)>/g, '')),
        user('This session is being continued from a previous conversation that ran out of context. Summary:\n- The user said: always use pnpm, never npm.\n- Went with Postgres rather than MySQL since we need JSONB.'),
        user('ok, now add the pagination'),
        assistant('Going with cursor pagination rather than offsets, since rows are inserted while clients page.'),
      ]),
    );
    expect(found.map((c) => [c.type, c.content])).toEqual([['decision_made', 'Going with cursor pagination rather than offsets, since rows are inserted while clients page.']]);
  });

  it('still keeps a tag written in a summary: tags are explicit', () => {
    const found = memories(session([agent(user(PROMPT)), agent(assistant(`${SUMMARY}\n[MEMORY: decision] Annotations live in SQLite`))]));
    expect(found.map((c) => [c.type, c.content])).toEqual([['decision_made', 'Annotations live in SQLite']]);
  });
});

describe('layer 2: facts are not rejections, and meta fields are whole phrases', () => {
  it.each([
    "No `additionalSystemPrompt` field exists - use `additionalContext` instead to inject information into Claude's context",
    "No Igniter installers exist for credo, dialyxir, mix_audit, or sobelow — they're simple deps added to `mix.exs`",
    'No migration was found for the new column: the schema is already current.',
  ])('does not read "no X exists" as a rejected approach: %j', (sentence) => {
    expect(typeOf(sentence)).not.toBe('approach_rejected');
  });

  it.each([
    ['No Redis: the ops team will not run another service.', 'the ops team will not run another service'],
    ['Skipping the DynamoDB lock table: it is one more resource to pay for.', 'it is one more resource to pay for'],
  ])('still reads %j as a rejection with its reason', (sentence, reason) => {
    expect(extractProse(sentence, '')[0]).toMatchObject({ type: 'approach_rejected', meta: { reason } });
  });

  it.each([
    // Punctuation inside inline code neither ends the alternative nor starts a reason.
    ['Fixed by using `Sandbox.mode(Repo, {:shared, self()})` instead of just `Sandbox.checkout`.', { rejected: 'just `Sandbox.checkout`' }],
    // A bracket closing one opened before the phrase ends it.
    ['Message ids are normalised in the renderer (prefer DB `id` over JSONL `uuid`).', { rejected: 'JSONL `uuid`' }],
    ["We'll use the new renderer (prefer id over uuid) since ids are stable.", { rejected: 'uuid', reason: 'ids are stable' }],
    // A full stop inside a name is not the end of the sentence.
    ["We'll use Deno rather than Node.js since it runs TypeScript as is.", { rejected: 'Node.js', reason: 'it runs TypeScript as is' }],
    ['Going with `std::vector` over a linked list: it is cache friendly.', { rejected: 'a linked list', reason: 'it is cache friendly' }],
  ])('reads whole phrases for the meta of %j', (sentence, meta) => {
    const [c] = extractProse(sentence, '');
    expect(c?.type).toBe('decision_made');
    expect(c?.meta).toEqual(meta);
  });
});
