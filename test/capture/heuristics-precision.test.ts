import { describe, expect, it } from 'vitest';
import { extractCandidates } from '../../src/capture/extract.js';
import { extractProse } from '../../src/capture/layer2.js';
import { assistant, session, user } from '../helpers/transcript.js';

/**
 * Layer 2 precision: what an assistant proposes, supposes or intends is not what it decided or
 * learned. Each case runs one assistant message through the whole pipeline, as `cortex extract`
 * does, and lists the memory types it yields.
 */
const memories = (...lines: object[]) => extractCandidates(session(lines)).candidates.filter((c) => !['file_modified', 'file_explored', 'command_run'].includes(c.type));
const typesOf = (text: string) => memories(assistant(text)).map((c) => c.type);

describe('layer 2 precision: options offered to the user are not decisions', () => {
  it.each([
    ['a numbered list closed by a choice question', 'Here are the options:\n\n1. Go with Postgres rather than MySQL since it has JSON.\n2. Use SQLite for simplicity.\n\nWhich do you prefer?'],
    ['a bulleted list introduced as alternatives', 'A few alternatives:\n- Switch to Redis for the cache, since it is shared.\n- Keep the in-process LRU and accept per-pod misses.'],
    ['a list introduced with a modal', 'We could:\n1. Go with Kafka instead of SQS for ordering.\n2. Stick with SQS and dedupe downstream.'],
    ['a list with the question before it', 'Which approach do you want?\n1. Use Zod rather than Yup since the forms already use it.\n2. Keep Yup.'],
    ['labelled options', '**Option A:** go with Postgres rather than MySQL since it has JSON.\n\n**Option B:** use SQLite.\n\nLet me know which you prefer.'],
    ['an inline enumeration', 'Options: 1) go with Postgres rather than MySQL 2) use SQLite'],
    ['a list under an options heading', '### Options\n\n- Switch to pnpm workspaces instead of npm, since installs are faster.\n- Keep npm and add a cache step.'],
    ['an inline either/or enumeration', 'Either 1) we switch to Postgres for the ledger, or 2) we keep MySQL and add a JSON column.'],
  ])('stays quiet on %s', (_name, text) => {
    expect(typesOf(text)).toEqual([]);
  });

  it('still takes the decision stated after the user picks', () => {
    const found = memories(
      assistant('Here are the options:\n\n1. Go with Postgres rather than MySQL since it has JSON.\n2. Use SQLite for simplicity.\n\nWhich do you prefer?'),
      user('1'),
      assistant('Going with option 1: Postgres, since we need JSON columns.'),
    );
    expect(found.map((c) => [c.type, c.content])).toEqual([['decision_made', 'Going with option 1: Postgres, since we need JSON columns.']]);
  });

  it('still takes decisions in a list that reports what was done', () => {
    const types = typesOf("Here's what changed:\n\n1. Switched to an LRU cache with a 10k cap, so memory stays bounded.\n2. Went with Zod rather than Yup since the other forms already use it.\n\nAnything else?");
    expect(types).toEqual(['decision_made', 'decision_made']);
  });

  it('still takes a decision that mentions a command-line option', () => {
    expect(typesOf("I'll pass the `--frozen-lockfile` option: it makes CI fail instead of rewriting the lockfile.")).toEqual(['decision_made']);
  });

  it('does not read the rest of an inline enumeration as the rejected alternative', () => {
    const [c] = extractProse('I went with Postgres rather than MySQL 2) because of JSON', '');
    expect(c?.meta.rejected).toBe('MySQL');
  });
});

describe('layer 2 precision: hypotheticals are not decisions', () => {
  it.each([
    'We could go with Postgres rather than MySQL since it has JSON.',
    'We might switch to Redis for the session store.',
    "I'd go with Postgres rather than MySQL here, since it has JSON.",
    'Maybe we go with Postgres instead of MySQL.',
    'Perhaps going with Postgres rather than MySQL makes sense.',
    'If we go with Postgres rather than MySQL, we get JSONB.',
    'Should we go with Postgres rather than MySQL?',
    'Alternatively, we could use SQLite instead of Postgres for tests.',
    'We could store sessions in Redis rather than in memory.',
    'For the ledger, we could also just go with Postgres.',
    // Proposed, for the user to confirm: hedged ("probably", "likely") or waiting on their word.
    "I'll probably go with Vitest rather than Jest since it is faster, unless you object.",
    "We'll likely switch to pnpm workspaces.",
    "Unless you object, I'll go with Vitest rather than Jest.",
    "I'll go with Postgres for the ledger if that's OK with you.",
    "Going with Postgres rather than MySQL, if you agree.",
  ])('stays quiet on %j', (text) => {
    expect(typesOf(text)).not.toContain('decision_made');
  });

  it.each([
    "We'll use Postgres rather than MySQL because we need JSONB.",
    'Decided to go with Postgres.',
    'We went with Postgres, since MySQL could not store JSON well.',
    "I'll use Postgres rather than MySQL, since it would let us use JSONB.",
    'Since the old driver could not batch, we switched to pgx.',
    'Because the id may be null we switched to an optional type for it.',
    'We could not batch with the old driver, so we went with pgx.',
    'We would rather use Postgres over MySQL here since we need JSONB.',
  ])('still finds the decision in %j', (text) => {
    expect(typesOf(text)).toEqual(['decision_made']);
  });
});

describe('layer 2 precision: intentions and self-talk are not learnings', () => {
  it.each([
    "I'll create a CLAUDE.md file with the build commands for future reference.",
    'Created a CLAUDE.md file with the build commands for future reference.',
    'Right, I need to actually wire the `touch` calls into the read path.',
    'Right, I need to actually wire the `touch` calls into the read path, which is why the test fails.',
    'It turns out that I need to read the file first.',
    'Turns out I have to read the file before editing it.',
    'I realized I forgot to save the file.',
    'The header uses tab alignment, which is why my edit missed.',
    'Okay, now I need to update the handler as well, which is why I reopened it.',
  ])('stays quiet on %j', (text) => {
    expect(typesOf(text)).not.toContain('knowledge_acquired');
  });

  it.each([
    'It turns out the API paginates at 100 items.',
    'It turns out that we never close the pool on shutdown.',
    'For future reference: the staging database is read-only.',
    'I realized the cache key ignores the locale.',
    'Note that the SDK silently drops events larger than 256 KB.',
    "We'll need to paginate, since the API only returns 100 items per page.",
    'It turns out I was wrong: the worker only retries 3 times.',
    'Alternatively, the API also supports cursors, which is why the SDK never loses a page.',
  ])('still finds the learning in %j', (text) => {
    expect(typesOf(text)).toEqual(['knowledge_acquired']);
  });
});

describe('layer 2 recall: plain rejections and decisions said in other words', () => {
  const found = (text: string) => memories(assistant(text)).map((c) => ({ type: c.type, meta: c.meta }));

  it.each([
    ['We should not use GraphQL here: the API has three endpoints and REST is simpler.', 'the API has three endpoints and REST is simpler'],
    ['We must not add a second ORM: the migrations would fight each other.', 'the migrations would fight each other'],
  ])('takes %j as a rejection with its reason', (text, reason) => {
    expect(found(text)).toEqual([{ type: 'approach_rejected', meta: { reason } }]);
  });

  it.each([
    ['After testing both, Fastify beats Express here, so I switched the server to Fastify.', { rejected: 'Express' }],
    ['We migrated the background jobs to Sidekiq, since Resque has no retries.', { reason: 'Resque has no retries' }],
    ['We switched from npm to pnpm since installs are faster.', { rejected: 'npm', reason: 'installs are faster' }],
    // "switched over to" names no alternative.
    ['We switched over to pnpm since installs are faster.', { reason: 'installs are faster' }],
    ['Zod is simpler than Yup for our forms, so I switched the schemas to Zod.', { rejected: 'Yup' }],
  ])('takes %j as a decision, with what it was chosen over', (text, meta) => {
    expect(found(text)).toEqual([{ type: 'decision_made', meta }]);
  });
});
