import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { append } from '../../src/journal/journal.js';
import { searchMemory } from '../../src/search/search.js';
import { DELTA_MAX, FREQUENT_CAP } from '../../src/search/segments.js';
import { readMeta, searchDir } from '../../src/search/store.js';
import { cortex, cortexJson } from '../helpers/cli.js';
import { makeEvent } from '../helpers/events.js';
import { journalAt } from '../helpers/journal.js';
import { git, tempRepo, writeTree } from '../helpers/repo.js';
import { assistant, session, user } from '../helpers/transcript.js';

interface HitJson {
  id: string;
  type: string;
  content: string;
  score: number;
  ts: string;
  superseded: boolean;
  supersededBy?: string;
  reason: string | null;
}

const search = (dir: string, query: string, ...args: string[]) => cortexJson<HitJson[]>(dir, ['search', query, ...args]);
const remember = (dir: string, text: string, ...args: string[]) => {
  const result = cortex(dir, ['remember', text, ...args, '--json']);
  if (result.code !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as { id: string };
};
const newRepo = () => {
  const dir = tempRepo({ files: { 'README.md': '# app\n' } });
  cortex(dir, ['init', '--no-claude', '--no-git']);
  return dir;
};

const FILLER = 'service cache request config deploy worker queue retry schema test build handler'.split(' ');

/** Events whose content mixes common words with one distinctive token each. */
function corpus(n: number, seed: number) {
  return Array.from({ length: n }, (_, i) => {
    const words = Array.from({ length: 8 }, (_, k) => FILLER[(i * 7 + k * 5 + seed) % FILLER.length]);
    const token = `zq${seed}x${i.toString(36)}`;
    words.splice(i % 8, 0, token);
    return { token, event: makeEvent({ type: ['decision', 'learned', 'rejected', 'modified'][i % 4], content: `${words.join(' ')} service`, meta: i % 4 === 3 ? { path: `src/mod${i}.ts` } : {} }) };
  });
}

describe('cortex search', () => {
  it('finds a memory by a word it contains, by a stemmed form and by a synonym; --json gives the contract fields', () => {
    const dir = newRepo();
    const { id } = remember(dir, 'Cache invoice totals in Redis for the dashboard', '-t', 'decision', '--why', 'the totals query took 2 s');
    remember(dir, 'Webhook retries use exponential backoff', '-t', 'learned');
    for (const query of ['invoice', 'caching invoices', 'dashboard totals']) expect(search(dir, query).map((h) => h.id)).toContain(id);
    const [hit] = search(dir, 'redis');
    expect(hit).toMatchObject({ id, type: 'decision_made', content: 'Cache invoice totals in Redis for the dashboard', reason: 'the totals query took 2 s' });
    expect(typeof hit?.score).toBe('number');
    expect(hit?.ts).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(search(dir, 'kubernetes')).toEqual([]);
    expect(search(dir, 'key value store').map((h) => h.id)).toContain(id); // a general term for what Redis is
  });

  it('forgives a one-letter typo, also where stemming hides it ("validaton" is four letters from the term "valid")', () => {
    const dir = newRepo();
    const { id: zod } = remember(dir, 'Use Zod for validation of request bodies', '-t', 'decision');
    const { id: ts } = remember(dir, 'TypeScript type inference breaks on the generic repository', '-t', 'learned');
    for (const typo of ['validaton', 'validatoin', 'valdation']) expect(search(dir, typo).map((h) => h.id)).toEqual([zod]);
    expect(search(dir, 'inferense').map((h) => h.id)).toEqual([ts]);
    expect(search(dir, 'request validaton').map((h) => h.id)[0]).toBe(zod);
    expect(search(dir, 'vlidaton')).toEqual([]); // two edits is not a typo
  });

  it('answers an everyday word by the related words the journal uses (the GloVe and WordNet thesaurus), its own word first', () => {
    const dir = newRepo();
    const { id } = remember(dir, 'Push notifications need the phone to be registered with FCM first', '-t', 'learned');
    remember(dir, 'Invoices render as PDF on the worker', '-t', 'decision');
    expect(search(dir, 'why did the handset stop getting alerts').map((h) => h.id)[0]).toBe(id);
    // A word the journal uses is still tried by its relatives, but the memory that says it comes first.
    const own = remember(dir, 'The dev stack needs 16 GB on a laptop', '-t', 'learned');
    const related = remember(dir, 'The nightly release is built on the office computer', '-t', 'decision');
    const ids = search(dir, 'laptop').map((h) => h.id);
    expect(ids[0]).toBe(own.id);
    expect(ids).toContain(related.id);
  });

  it('finds a memory that shares no word with the question through the memories that answer it (feedback); a retracted memory lends no words', async () => {
    const dir = newRepo();
    const bridge = remember(dir, 'Sessions: the login handler issues a refresh token in an httpOnly cookie', '-t', 'decision');
    const { id: rotation } = remember(dir, 'Refresh tokens rotate every 15 minutes; the cookie is renewed silently', '-t', 'decision');
    const page = remember(dir, 'The login page uses the brand colours', '-t', 'decision');
    remember(dir, 'Bumped the version number of the CLI to 2.1', '-t', 'decision');
    const question = 'how do we keep people logged in';
    const ids = search(dir, question).map((h) => h.id);
    // The notes that say what the question says (login) come first, then the one they lead to.
    expect(ids.slice(0, 2).sort()).toEqual([bridge.id, page.id].sort());
    expect(ids[2]).toBe(rotation);
    // Without the second pass, nothing the question says leads to the rotation note.
    const journal = await journalAt(dir);
    const firstPass = (await searchMemory(journal, { query: question }, { feedback: false })).hits.map((h) => h.id);
    expect(firstPass).not.toContain(rotation);
    // The notes the feedback came from keep their order: their own words raise none of them.
    expect(ids.slice(0, 2)).toEqual(firstPass.slice(0, 2));
    // None of its words were the user's, so none is highlighted.
    expect((await searchMemory(journal, { query: question })).hits.find((h) => h.id === rotation)?.matched).toEqual([]);
    expect(cortex(dir, ['forget', bridge.id]).code).toBe(0);
    expect(search(dir, question).map((h) => h.id)).not.toContain(rotation);
  });

  it('filters by type, date and limit, and explains bad input in one line without losing anything', () => {
    const dir = newRepo();
    remember(dir, 'Rejected GraphQL for the public API', '-t', 'rejected', '--why', 'clients want plain REST');
    remember(dir, 'The public API is REST with OpenAPI', '-t', 'decision');
    expect(search(dir, 'public api', '--type', 'rejected').map((h) => h.type)).toEqual(['approach_rejected']);
    expect(search(dir, 'public api', '--limit', '1')).toHaveLength(1);
    expect(search(dir, 'public api', '--since', '2999-01-01')).toEqual([]);
    const bad = cortex(dir, ['search', 'api', '--type', 'nonsense']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    for (const since of ['someday', '2026-02-30', '0']) expect(cortex(dir, ['search', 'api', '--since', since])).toMatchObject({ code: 2, stderr: `cortex: --since "${since}" is not a date (try 2026-11-01 or "3 days ago")\n` });
    expect(search(dir, 'public api')).toHaveLength(2);
  });

  it('keeps working with a memory stamped past 2106 (a clock set far ahead), which it finds and dates as stamped', () => {
    const dir = newRepo();
    const far = { type: 'decision', content: 'Partition the ledger table by month', ts: '2206-01-01T00:00:00Z' };
    expect(cortex(dir, ['import', '-'], { input: JSON.stringify(far) }).code).toBe(0);
    expect(search(dir, 'ledger partition')).toEqual([expect.objectContaining({ content: far.content, ts: '2206-01-01T00:00:00.000Z' })]);
    expect(search(dir, 'ledger', '--since', '2100-01-01')).toHaveLength(1);
  });

  it('filters the answers to the question, not the ways to them: a decision found through a note of another type is still found with --type decision', () => {
    const dir = newRepo();
    const input = [
      { type: 'learned', content: 'Turns out dedupe() keeps the first row per order_id, so a late correction never replaces the original', ts: '2026-01-01T10:00:00Z', session: 's' },
      { type: 'decision', content: 'Sort by event_ts and keep the last row per order_id, so the latest correction wins', ts: '2026-01-01T10:00:05Z', session: 's' },
    ];
    expect(cortex(dir, ['import', '-'], { input: input.map((e) => JSON.stringify(e)).join('\n') }).code).toBe(0);
    expect(search(dir, 'dedupe').map((h) => h.type)).toEqual(['knowledge_acquired', 'decision_made']);
    expect(search(dir, 'dedupe', '--type', 'decision').map((h) => h.type)).toEqual(['decision_made']);
    expect(search(dir, 'dedupe', '--type', 'decision', '--since', '2999-01-01')).toEqual([]);
  });

  it('never finds a retracted memory, finds an amendment instead of what it amends, and marks superseded decisions', () => {
    const dir = newRepo();
    const gone = remember(dir, 'Store uploads on the local disk under /var/uploads', '-t', 'decision');
    expect(search(dir, 'uploads disk').map((h) => h.id)).toContain(gone.id);
    expect(cortex(dir, ['forget', gone.id]).code).toBe(0);
    expect(search(dir, 'uploads disk').map((h) => h.id)).not.toContain(gone.id);
    expect(search(dir, '/var/uploads')).toEqual([]);

    // An amendment is found as the memory it amends, with the new text: that memory's id, type
    // and reason (as `cortex decisions` shows it), with --type too; the old text is gone. Its
    // target was indexed before it (an incremental update), and a rebuild agrees.
    const cache = { id: '01JAMEND00000000000000000A', type: 'decision', content: 'Cache invoices in Memcached for ten minutes', ts: '2026-01-01T00:00:00Z', meta: { reason: 'invoice pages are slow' } };
    expect(cortex(dir, ['import', '-'], { input: JSON.stringify(cache) }).code).toBe(0);
    expect(search(dir, 'memcached').map((h) => h.id)).toEqual([cache.id]);
    const amendment = { id: '01JAMEND00000000000000000B', type: 'event_amended', content: 'Cache invoices in Varnish for five minutes', ts: '2026-01-02T00:00:00Z', meta: { target: cache.id } };
    expect(cortex(dir, ['import', '-'], { input: JSON.stringify(amendment) }).code).toBe(0);
    for (const pass of ['incremental', 'rebuilt']) {
      if (pass === 'rebuilt') rmSync(join(dir, '.git', 'cortex'), { recursive: true, force: true });
      expect(search(dir, 'varnish', '--type', 'decision')).toEqual([expect.objectContaining({ id: cache.id, type: 'decision_made', content: amendment.content, reason: cache.meta.reason, amendedBy: amendment.id })]);
      expect(search(dir, 'memcached')).toEqual([]);
    }

    const old = remember(dir, 'Deploy with Heroku pipelines', '-t', 'decision');
    const replacement = remember(dir, 'Deploy with Fly.io machines', '-t', 'decision', '--supersedes', old.id);
    const hits = search(dir, 'deploy');
    expect(hits[0]?.id).toBe(replacement.id);
    expect(hits.find((h) => h.id === old.id)?.superseded).toBe(true);
  });

  it('marks what a later decision reversed in its own words, or replaced by a tag naming its id, as the briefing does', () => {
    const dir = newRepo();
    const redis = remember(dir, 'Use Redis for the session store', '-t', 'decision');
    const passport = remember(dir, 'Ruled out Passport.js for OAuth: too much magic for two providers', '-t', 'rejected');
    for (let i = 0; i < 6; i++) remember(dir, `Unrelated decision ${i} about the css grid layout`, '-t', 'decision');
    const postgres = remember(dir, 'Switched the session store from Redis to Postgres, since we already run it', '-t', 'decision');
    const taken = remember(dir, 'Going with Passport.js for OAuth after all: its strategies handle the redirects', '-t', 'decision');

    const sessions = search(dir, 'session store');
    expect(sessions.map((h) => h.id)).toEqual([postgres.id, redis.id]);
    expect(sessions[1]).toMatchObject({ superseded: true, supersededBy: postgres.id });
    expect(sessions[0]?.superseded).toBe(false);
    expect(search(dir, 'passport').find((h) => h.id === passport.id)).toMatchObject({ superseded: true, supersededBy: taken.id });
    expect(cortex(dir, ['decisions']).stdout).not.toContain('Use Redis for the session store');

    // A tag names what it replaces by the short id the briefing shows.
    const pino = remember(dir, 'Use winston for logging', '-t', 'decision');
    const transcript = join(dir, '.git', 'sess-log.jsonl');
    writeFileSync(transcript, session([user('logging?'), assistant(`[MEMORY: decision supersedes ${pino.id.slice(-8)}] Use pino for logging: it writes JSON`)]));
    expect(cortex(dir, ['hook', 'Stop'], { input: JSON.stringify({ session_id: 'sess-log', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false }) }).code).toBe(0);
    const logging = search(dir, 'logging');
    expect(logging[0]?.content).toContain('Use pino for logging');
    expect(logging.find((h) => h.id === pino.id)).toMatchObject({ superseded: true, supersededBy: logging[0]?.id });
  });

  it('every event is found by a distinctive word of it, across the bulk shards, a frequent capped term and the delta', async () => {
    const dir = newRepo();
    const journal = await journalAt(dir);
    const bulk = corpus(DELTA_MAX + 300, 1); // more than the delta holds: a rebuild puts these in term shards
    await append(journal, bulk.map((c) => c.event));
    const first = await searchMemory(journal, { query: bulk[0]?.token ?? '' });
    expect(first.hits[0]?.content).toContain(bulk[0]?.token);
    const meta = await readMeta(searchDir(join(dir, '.git', 'cortex')));
    expect(meta?.bulk?.count).toBe(bulk.length);
    expect(Object.keys(meta?.bulk?.frequent ?? {})).toContain('servic'); // in every document: its own capped shard
    expect(bulk.length).toBeGreaterThan(FREQUENT_CAP);

    const later = corpus(60, 2);
    await append(journal, later.map((c) => c.event));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...bulk, ...later), async ({ token, event }) => {
        const { hits } = await searchMemory(journal, { query: token, limit: 3 });
        expect(hits[0]?.id).toBe(event.id);
      }),
      { numRuns: 150 },
    );
    const after = await readMeta(searchDir(join(dir, '.git', 'cortex')));
    expect(after?.bulk?.gen).toBe(meta?.bulk?.gen); // the append went to the delta, not a rebuild
    expect((await searchMemory(journal, { query: 'service', limit: 50 })).hits).toHaveLength(50);
    remember(dir, 'The reconciliation job runs nightly', '-t', 'learned');
    cortex(dir, ['reindex']); // into the term shards
    expect((await searchMemory(journal, { query: 'reconcilation' })).hits[0]?.content).toBe('The reconciliation job runs nightly');
  });

  it('loses nothing when .git/cortex is deleted or damaged: the next search rebuilds and answers the same', () => {
    const dir = newRepo();
    for (const text of ['Postgres advisory locks guard the job queue', 'Job retries back off exponentially', 'Queue workers run in a separate process']) remember(dir, text, '-t', 'learned');
    const before = search(dir, 'job queue');
    expect(before.length).toBeGreaterThan(1);
    rmSync(join(dir, '.git', 'cortex'), { recursive: true, force: true });
    expect(search(dir, 'job queue').map((h) => [h.id, h.score])).toEqual(before.map((h) => [h.id, h.score]));
    const index = join(dir, '.git', 'cortex', 'search');
    writeFileSync(join(index, 'meta.json'), '{ not json');
    expect(search(dir, 'job queue').map((h) => h.id)).toEqual(before.map((h) => h.id));
    writeFileSync(join(index, 'attrs.bin'), ''); // the attribute table cut short
    expect(search(dir, 'job queue').map((h) => h.id)).toEqual(before.map((h) => h.id));
    for (const f of readdirSync(index)) if (f.startsWith('delta-')) writeFileSync(join(index, f), '{"documentCount":3,'); // a segment cut short
    expect(search(dir, 'job queue').map((h) => h.id)).toEqual(before.map((h) => h.id));
    for (const f of readdirSync(index)) if (f.startsWith('delta-')) rmSync(join(index, f));
    remember(dir, 'Another job queue memory', '-t', 'learned');
    expect(search(dir, 'job queue')).toHaveLength(before.length + 1);
    for (const f of readdirSync(index)) if (f.startsWith('delta-')) writeFileSync(join(index, f), '{"documentCount":4,'); // cut short, then appended to
    remember(dir, 'A third job queue memory', '-t', 'learned');
    expect(search(dir, 'job queue')).toHaveLength(before.length + 2);
  });

  it('is aligned with the branch: a feature branch\'s memory shows on main once merged; --all shows it anywhere', () => {
    const dir = newRepo();
    const main = git(dir, 'symbolic-ref', '--short', 'HEAD').trim();
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeTree(dir, { 'feature.txt': 'x\n' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'feature work');
    const { id } = remember(dir, 'Feature flags are read from LaunchDarkly', '-t', 'decision');
    writeTree(dir, { 'feature.txt': 'y\n' });
    git(dir, 'commit', '-qam', 'more feature work');
    git(dir, 'checkout', '-q', main);
    expect(search(dir, 'launchdarkly')).toEqual([]);
    expect(search(dir, 'launchdarkly', '--all').map((h) => h.id)).toEqual([id]);
    git(dir, 'merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
    expect(search(dir, 'launchdarkly').map((h) => h.id)).toEqual([id]);
  });

  it('prints a readable result list, and says plainly when nothing matches', () => {
    const dir = newRepo();
    remember(dir, 'Rejected MongoDB for billing data', '-t', 'rejected', '--why', 'we need transactions');
    const text = cortex(dir, ['search', 'mongodb']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/rejected\s+\d{4}-\d\d-\d\d score/);
    expect(text.stdout).toContain('why: we need transactions');
    const none = cortex(dir, ['search', 'kubernetes']);
    expect(none.stdout).toMatch(/^Nothing in memory matches "kubernetes"/);
    expect(cortex(dir, ['reindex']).stdout).toMatch(/^Indexed 1 memories/);
  });

  it('echoes a long query that matches nothing in a line of its start, not in full', () => {
    const dir = newRepo();
    remember(dir, 'Rejected MongoDB for billing data', '-t', 'rejected');
    const none = cortex(dir, ['search', 'kubernetes '.repeat(2000)]);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/^Nothing in memory matches "kubernetes kubernetes .{40,80}…" on this branch/);
    expect(none.stdout.length).toBeLessThan(200);
  });
});

describe('anticipatory recall (UserPromptSubmit)', () => {
  const prompt = (dir: string, text: string, session = 'new-session') =>
    cortex(dir, ['hook', 'user-prompt-submit'], { input: JSON.stringify({ session_id: session, transcript_path: join(dir, 'none.jsonl'), cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: text }) });
  /** A session that writes its todo list with TodoWrite, captured by the Stop hook as a plan_created. */
  const todoSession = (dir: string, session: string, todos: Array<{ content: string; status: string }>) => {
    const list = todos.map((t) => ({ ...t, activeForm: t.content }));
    const base = { sessionId: session, cwd: dir, version: '2.1.39', gitBranch: 'main', userType: 'external', isSidechain: false };
    const transcript = join(dir, '.git', `${session}.jsonl`);
    writeFileSync(transcript, [
      { ...base, type: 'assistant', uuid: `${session}-1`, parentUuid: null, timestamp: '2026-11-20T10:00:00.000Z', message: { id: `msg_${session}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${session}`, name: 'TodoWrite', input: { todos: list } }] } },
      { ...base, type: 'user', uuid: `${session}-2`, parentUuid: `${session}-1`, timestamp: '2026-11-20T10:00:01.000Z', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${session}`, content: 'Todos have been modified successfully.' }] }, toolUseResult: { oldTodos: [], newTodos: list } },
    ].map((l) => JSON.stringify(l)).join('\n') + '\n');
    expect(cortex(dir, ['hook', 'Stop'], { input: JSON.stringify({ session_id: session, transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false }) }).code).toBe(0);
  };

  it('puts a rejected approach in front of a prompt that is about to revisit it, and is silent otherwise', () => {
    const dir = newRepo();
    remember(dir, 'Redis for session storage', '-t', 'rejected', '--why', 'one more service to operate', '--instead', 'signed cookies');
    remember(dir, 'Invoices are rendered to PDF with Playwright', '-t', 'decision');
    for (let i = 0; i < 30; i++) remember(dir, `Unrelated learning number ${i} about the billing cron`, '-t', 'learned');

    const revisit = prompt(dir, 'Can we move user sessions into Redis? Cookies are getting big.');
    expect(revisit.code).toBe(0);
    expect(revisit.stdout).toContain('Previously rejected: Redis for session storage — because one more service to operate (chosen instead: signed cookies)');
    expect(revisit.stdout.length).toBeLessThanOrEqual(2000);

    for (const quiet of ['thanks, looks good', 'please run the tests again', 'rename the variable in the sidebar component']) {
      const result = prompt(dir, quiet);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
    }
  });

  it('speaks when a prompt goes against a preference or asks why a decision was made; never offers a plan; silent on chatter', () => {
    const dir = newRepo();
    remember(dir, 'Always use pnpm, never npm, in this repo', '-t', 'preference');
    remember(dir, 'pg_cron must be installed in shared_preload_libraries; RDS needs a parameter group change', '-t', 'learned');
    remember(dir, 'Going with pg_cron rather than a node-cron worker since the database already owns expiry', '-t', 'decision');
    remember(dir, 'We picked pino for logging because it emits JSON', '-t', 'decision');
    remember(dir, 'The 500 on /login was caused by the bcrypt cost read as a string; fixed by Number()', '-t', 'error');
    remember(dir, 'The pre-commit hook runs eslint on staged files only', '-t', 'learned');
    for (let i = 0; i < 12; i++) remember(dir, `Unrelated note ${i} about the billing export and its CSV columns`, '-t', 'learned');
    // A plan captured from a TodoWrite call, every step since done.
    todoSession(dir, 'sess-plan', [{ content: 'Login endpoint', status: 'completed' }, { content: 'Session expiry job', status: 'completed' }]);
    expect(search(dir, 'login endpoint').map((h) => h.type)).toContain('plan_created');

    for (const text of ['npm install lodash and add it to package.json', 'which package manager should I use to add lodash?']) {
      expect(prompt(dir, text).stdout).toContain('- Preference: Always use pnpm, never npm, in this repo');
    }
    const why = prompt(dir, 'why did we pick pg_cron?').stdout;
    expect(why).toContain('- Decided: Going with pg_cron rather than a node-cron worker');
    expect(why).not.toContain('pino');
    const again = prompt(dir, 'the login endpoint returns 500 again').stdout;
    expect(again).toContain('- Fixed before: The 500 on /login');
    expect(again).not.toContain('Plan');
    for (const quiet of ['thanks', 'run the tests', 'ok continue', 'looks good, commit it', "what's next?", 'fix the failing test']) {
      expect(prompt(dir, quiet)).toMatchObject({ code: 0, stdout: '' });
    }
  });

  it('is not muted on a topic by the todo lists that name it: plans are neither offered nor counted', () => {
    const dir = newRepo();
    remember(dir, 'Sessions are server-side in Redis with a sliding expiry, replacing JWT access tokens', '-t', 'decision', '--why', 'revocation must be instant');
    remember(dir, 'The job queue already runs on Redis', '-t', 'learned');
    remember(dir, 'Going with Passport.js rather than hand-written OAuth flows, since its strategies handle the redirects', '-t', 'decision');
    for (let i = 0; i < 8; i++) remember(dir, `Unrelated decision ${i} about the css grid layout`, '-t', 'decision');
    // Each session rewrites its todo list, and each list is a plan_created naming Redis again.
    for (const session of ['sess-3', 'sess-4', 'sess-5', 'sess-6']) {
      todoSession(dir, session, [{ content: 'Design the session model', status: 'completed' }, { content: 'Replace JWT with Redis sessions', status: 'in_progress' }, { content: 'Write auth tests', status: 'pending' }]);
    }
    expect(cortexJson<HitJson[]>(dir, ['log', '--type', 'plan'])).toHaveLength(4);

    const drop = prompt(dir, 'Can we drop Redis?');
    expect(drop.code).toBe(0);
    expect(drop.stdout).toContain('- Decided: Sessions are server-side in Redis');
    expect(drop.stdout).not.toContain('Plan');
    expect(drop.stdout).not.toContain('Passport'); // "redirects" starts like the stem of Redis, and shares no word with the prompt
    expect(prompt(dir, "Let's remove the Redis session store").stdout).toContain('- Decided: Sessions are server-side in Redis');
    for (const quiet of ['thanks', 'what is next?', 'rename the variable in the sidebar component']) expect(prompt(dir, quiet)).toMatchObject({ code: 0, stdout: '' });
  });

  it('offers what replaced a decision, or took up a rejected approach, and not the memory it retired', () => {
    const dir = newRepo();
    remember(dir, 'Use Redis for the session store', '-t', 'decision');
    remember(dir, 'Ruled out Passport.js for OAuth: too much magic for two providers', '-t', 'rejected');
    const old = remember(dir, 'Render invoices to PDF with wkhtmltopdf', '-t', 'decision');
    for (let i = 0; i < 20; i++) remember(dir, `Unrelated learning number ${i} about the billing cron`, '-t', 'learned');
    remember(dir, 'Switched the session store from Redis to Postgres, since we already run it', '-t', 'decision');
    remember(dir, 'Going with Passport.js for OAuth after all: its strategies handle the redirects', '-t', 'decision');
    remember(dir, 'Render invoices to PDF with Playwright', '-t', 'decision', '--supersedes', old.id);

    const sessions = prompt(dir, 'Should the session store stay in Redis?').stdout;
    expect(sessions).toContain('- Decided: Switched the session store from Redis to Postgres');
    expect(sessions).not.toContain('Use Redis for the session store');
    const oauth = prompt(dir, "Let's wire up Passport.js for the OAuth login").stdout;
    expect(oauth).toContain('- Decided: Going with Passport.js for OAuth after all');
    expect(oauth).not.toContain('Previously rejected');
    const pdf = prompt(dir, 'the wkhtmltopdf invoices look blurry').stdout;
    expect(pdf).not.toContain('Render invoices to PDF with wkhtmltopdf');
  });

  it('recalls a rejected approach for any sentence that names it, not for one that shares only its reason', () => {
    const dir = newRepo();
    // Captured from what Claude said, as the Stop hook reads it: the only memory in the journal.
    const transcript = join(dir, '.git', 'sess-kafka.jsonl');
    writeFileSync(transcript, session([user('can we use kafka for the order events?'), assistant('Ruled out Kafka for the order events: the ops burden is too high for a team of three.')]));
    expect(cortex(dir, ['hook', 'Stop'], { input: JSON.stringify({ session_id: 'sess-kafka', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false }) }).code).toBe(0);
    expect(search(dir, 'kafka').map((h) => h.type)).toEqual(['approach_rejected']);

    for (const text of ['Add Kafka', "Let's bring Kafka back", 'I want to use Kafka for replay', "Kafka would make replay easy, let's add it", 'should we migrate to Kafka?', 'can we move the order events to Kafka?']) {
      expect(prompt(dir, text).stdout).toContain('- Previously rejected: Ruled out Kafka for the order events');
    }
    // One word of its reason or of where it was turned down is not the approach.
    for (const quiet of ['the team is off on Friday', 'why is the ops dashboard red?', 'the order page crashes on submit', 'thanks']) {
      expect(prompt(dir, quiet)).toMatchObject({ code: 0, stdout: '' });
    }
  });

  it('recalls a decision when the prompt proposes what it was chosen over, however the move is worded', () => {
    const dir = newRepo();
    remember(dir, 'Going with Redis rather than Memcached since it persists sessions', '-t', 'decision');
    for (const text of ['should we switch to Memcached?', 'should we move to Memcached?', "let's migrate to Memcached"]) {
      expect(prompt(dir, text).stdout).toContain('Going with Redis rather than Memcached');
    }
  });

  it('names each recalled memory by an id that forget and --supersedes take, also for memories of one message', () => {
    const dir = newRepo();
    const transcript = join(dir, '.git', 'sess-db.jsonl');
    writeFileSync(transcript, session([user('which store for the jobs table?'), assistant('Going with Postgres rather than MySQL, since we need JSONB indexes. Ruled out Redis: no durability guarantees for the jobs table.')]));
    expect(cortex(dir, ['hook', 'Stop'], { input: JSON.stringify({ session_id: 'sess-db', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false }) }).code).toBe(0);
    const events = cortexJson<Array<{ id: string; content: string }>>(dir, ['log']);
    expect(events).toHaveLength(2);
    expect(events[0]?.id.slice(0, 10)).toBe(events[1]?.id.slice(0, 10)); // one message, one millisecond

    const out = prompt(dir, 'Should the jobs table use MySQL with JSONB indexes or Redis?').stdout;
    const shown = [...out.matchAll(/^- [^:]+: (.*) \[\d{4}-\d{2}-\d{2}, (\w+)\]$/gmu)].map((m) => ({ content: m[1] as string, id: m[2] as string }));
    expect(shown).toHaveLength(2);
    expect(new Set(shown.map((s) => s.id)).size).toBe(2);
    for (const { id, content } of shown) expect(events.find((e) => e.id.endsWith(id))?.content).toBe(content);
    const rejection = shown.find((s) => s.content.startsWith('Ruled out Redis')) as { id: string };
    expect(cortex(dir, ['remember', 'Redis with AOF for the jobs table after all', '-t', 'decision', '--supersedes', rejection.id])).toMatchObject({ code: 0 });
    expect(cortex(dir, ['forget', (shown.find((s) => s.content.startsWith('Going with Postgres')) as { id: string }).id])).toMatchObject({ code: 0 });
  });

  it('respects cortex.recallBudget (0 turns recall off) and never blocks on a broken index', () => {
    const dir = newRepo();
    remember(dir, 'Redis for session storage', '-t', 'rejected');
    git(dir, 'config', 'cortex.recallBudget', '0');
    expect(prompt(dir, 'should sessions go to redis?').stdout).toBe('');
    git(dir, 'config', 'cortex.recallBudget', '2000');
    expect(prompt(dir, 'should sessions go to redis?').stdout).toContain('Redis for session storage');
    writeFileSync(join(dir, '.git', 'cortex', 'search', 'meta.json'), 'garbage');
    const result = prompt(dir, 'should sessions go to redis?');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Redis for session storage'); // rebuilt from the journal
  });
});
