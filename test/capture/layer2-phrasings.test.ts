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
  ])('stays silent on %s', (_name, text) => {
    expect(fromUser(text)).toEqual([]);
  });

  it("is the user's: the assistant's prose and tool results are not read for it", () => {
    expect(typesOf('We use pnpm, not npm — always.')).not.toContain('preference_noted');
    expect(inToolResult('we use pnpm, not npm — always.')).toEqual([]);
  });
});

describe('layer 2: a table of choices gives one decision per row; no table row is a learning', () => {
  const decisionTable = '## Summary\n\n| Area | Choice | Why |\n|---|---|---|\n| Query shape | Projection via `Select` into `OrderSummaryDto` | one round trip. Only the columns the endpoint returns |\n| Ordering | `OrderBy(PlacedOn).ThenBy(Id)` | makes the sort deterministic for ties |\n\nThe suite passes.';

  it('reads each row of a table whose header names the choice and why as a decision, with its reason', () => {
    const found = memories(assistant(decisionTable));
    expect(found.map((c) => [c.type, c.content, c.meta.reason])).toEqual([
      ['decision_made', 'Query shape: Projection via `Select` into `OrderSummaryDto` — one round trip. Only the columns the endpoint returns', 'one round trip. Only the columns the endpoint returns'],
      ['decision_made', 'Ordering: `OrderBy(PlacedOn).ThenBy(Id)` — makes the sort deterministic for ties', 'makes the sort deterministic for ties'],
    ]);
  });

  it('keeps what a row chose over, from a column that says so', () => {
    const [found] = memories(assistant('| Decision | Instead of | Rationale |\n|---|---|---|\n| Postgres | MySQL | JSONB columns |'));
    expect(found?.meta).toEqual({ reason: 'JSONB columns', rejected: 'MySQL' });
  });

  it.each([
    ['a table of options with pros and cons', '| Approach | Pros | Cons |\n|---|---|---|\n| Redis | fast, by default it only keeps data in memory | one more service |'],
    ['a table without a why column', '| Area | Choice |\n|---|---|\n| Cache | Redis |'],
    ['a table of choices put to the user', 'Here are the options:\n\n| Area | Choice | Why |\n|---|---|---|\n| Cache | Redis | shared across pods |\n\nWhich do you prefer?'],
    ['a row left undecided', '| Area | Decision | Why |\n|---|---|---|\n| Cache | TBD | needs a load test |\n| Queue | maybe SQS | cheaper |'],
    ['a table of work done', '| Commit | Task | Description |\n|---|---|---|\n| `3bb8701` | fum.1 | By default the renderer now only returns metadata fields |'],
    ['a table inside a code block', '```\n| Area | Choice | Why |\n|---|---|---|\n| Cache | Redis | shared across pods |\n```'],
  ])('reads nothing from %s', (_name, text) => {
    expect(typesOf(text)).toEqual([]);
  });

  it("reads no decision from a table in the user's prose or a tool result", () => {
    const table = '| Area | Choice | Why |\n|---|---|---|\n| Cache | Redis | shared across pods |';
    expect(memories(user(table)).map((c) => c.type)).toEqual([]);
    expect(inToolResult(table)).toEqual([]);
  });
});

describe('layer 2: a step undone or dropped with its reason is a rejection', () => {
  it.each([
    ['reverted, with why', 'Reverted the `retry: 0` change — it would hide the flaky upload instead of fixing it.'],
    ['a step that did not help', "Doubling the worker pool didn't help, because the bottleneck is the single database connection."],
    ['"isn\'t an option"', "Caching at the CDN isn't an option here: responses are personalised per account."],
  ])('reads %s', (_name, text) => {
    expect(typesOf(text)).toEqual(['approach_rejected']);
  });

  it.each([
    ['a bare revert with no reason', 'Reverted the last commit.'],
    ['a question', "Doubling the worker pool didn't help, did it?"],
    ['a doubt', 'It might be worth sharding the table later, but I am not sure the queries allow it.'],
  ])('stays silent on %s', (_name, text) => {
    expect(typesOf(text)).not.toContain('approach_rejected');
  });
});

describe('layer 2: a value or approach taken, with what it is for, is a decision', () => {
  it.each([
    'Raised the connection pool to 40 so bursts of webhooks no longer queue behind reports.',
    'Pinned the image to `node:20.11-slim` because the floating tag broke the build twice.',
    'Adding an index on `(tenant_id, created_at)` instead, so the report query stops scanning.',
  ])('reads %j as a decision', (text) => {
    expect(typesOf(text)).toEqual(['decision_made']);
  });

  it.each([
    ['a step narrated without a reason', 'Moving the provider to `AppModule`.'],
    ['a change with no target value', 'Raised an error so the caller sees it.'],
  ])('reads no decision from %s', (_name, text) => {
    expect(typesOf(text)).not.toContain('decision_made');
  });

  it('reads no decision from the same words in a tool result', () => {
    expect(inToolResult('Raised the connection pool to 40 so bursts of webhooks no longer queue.')).toEqual([]);
  });
});

describe('layer 2: what a tool or library does by default, or only, is a learning', () => {
  it.each([
    'Sidekiq defaults to 25 retries over about three weeks, so a dead endpoint keeps getting hit.',
    'The scheduler only runs on the leader pod, so a job added on a follower waits for failover.',
    'Removing a parent node removes all of its children too, which is why the pool lost its entries.',
  ])('reads %j as a learning', (text) => {
    expect(typesOf(text)).toEqual(['knowledge_acquired']);
  });

  it('reads no learning from the same words in a tool result', () => {
    expect(inToolResult('Sidekiq defaults to 25 retries over about three weeks.')).toEqual([]);
  });
});

describe('layer 2: a status line is not a finished task; the user\'s standing instructions are preferences', () => {
  it('"Done — suite: 17/17 passed." reports a test run; "Done: migrated the settings page" is a task', () => {
    expect(typesOf('Done — unit suite: 17/17 passed.')).toEqual([]);
    expect(typesOf('Done: migrated the settings page to the new form library.')).toEqual(['task_completed']);
  });

  it.each(['going forward, put new endpoints under /v2.', 'Stick to named exports in this package, never default exports.', "We're phasing out Enzyme, so new component tests use Testing Library."])('reads %j from the user as a preference', (text) => {
    expect(memories(user(text)).map((c) => c.type)).toEqual(['preference_noted']);
  });
});

describe('layer 2: plain explanatory prose with no cue phrase (how Claude usually writes)', () => {
  it.each([
    ['error_resolved', 'The release build broke on a missing `crc32` symbol, which only the debug HAL exports; the checksum now goes through `hal_crc()` instead.'],
    ['error_resolved', '`make docs` stopped with E149 because two sections shared a tag; the second one is now `*plugin-keys*`.'],
    ['error_resolved', 'The importer refused the file because its header row had a BOM, so the reader now strips it before parsing.'],
    ['approach_rejected', 'Adding a retry around the upload wouldn\'t help: the token has already expired by the time the second attempt runs.'],
    ['approach_rejected', 'A bigger thread pool isn\'t enough on its own, because every worker still waits on the same connection.'],
    ['approach_rejected', 'A read replica would take load off the primary, but the reports need read-after-write consistency for the same request.'],
    ['approach_rejected', 'Bumping the heap was my first thought, but the graph shows the cache growing without bound, so more heap only delays the OOM.'],
    ['approach_rejected', 'Vendoring the whole SDK would mean patching it by hand on every upstream release.'],
    ['decision_made', 'Parsing moves into a background worker, because the main thread has to stay free for input.'],
    ['decision_made', 'The fix is a `Mutex` around the cache plus a generation counter on each entry.'],
    ['decision_made', 'So the exporter now batches rows in groups of 500, which keeps each request under the gateway limit.'],
    ['decision_made', "I'm also taking the legacy flag out: nothing has read it since the 3.0 migration."],
    ['knowledge_acquired', '`load_config()` swallows the parse error and returns the defaults, so a typo in the file silently resets every option.'],
    ['knowledge_acquired', 'Nothing in `setup.cfg` pins the plugin version, so each CI run installs whatever is newest.'],
    ['knowledge_acquired', 'The slowdown is the ORM loading every tag of every post, one query per post.'],
    ['knowledge_acquired', 'Safari doesn\'t implement `requestIdleCallback` at all, so the prefetch never starts there.'],
    ['knowledge_acquired', 'The queue only lives in memory, so anything not yet synced is lost when the app is killed.'],
    ['knowledge_acquired', 'Keep in mind that `loss` in the log is measured before clipping, so spikes there are expected.'],
    ['knowledge_acquired', 'There\'s already a `RetryPolicy` in `net/retry.ts` that handles backoff; the uploader simply predates it.'],
    ['error_resolved', 'The widget no longer freezes after a network switch: the heartbeat notices the dead socket.'],
    ['error_resolved', 'The nightly job died with `OutOfMemoryError` because it loaded the whole table; streaming it in pages of 10,000 rows fits in 2 GB.'],
    ['approach_rejected', 'Doubling the timeout only moved the failure from the 30th request to the 60th, so it is not the cause.'],
    ['approach_rejected', "I'm also leaving `navigator.onLine` out of it, since browsers report true behind a captive portal."],
    ['approach_rejected', 'A covering index is the other thing people reach for; it doesn\'t touch the row estimate, so the plan stays the same.'],
    ['decision_made', "I'm giving the client a 30-second leeway instead, so clock skew between pods stops failing the check."],
    ['error_resolved', 'The test caught a double submit: the retry and the timeout both called `send()`, so `send()` now returns early while a request is pending, which fixed the failing assertion.'],
    ['decision_made', 'Stale sessions are now detected with a heartbeat: the client pings every 25 s and closes the socket itself when no pong comes back.'],
    ['approach_rejected', "Switching to the built-in cache option wouldn't change anything either: it saves through the same service with the same scoping."],
    ['approach_rejected', 'Re-adding the push trigger would fix the cache too, but #1893 removed it on purpose to stop running the suite twice.'],
    ['decision_made', "I'm turning `start()` into a suspend function, which loops inside whichever coroutine calls it, so the caller's scope decides how long it lives."],
    ['decision_made', 'The new script reads the webhook from the environment instead.'],
    ['knowledge_acquired', 'With `volatile-lru`, Redis only evicts keys that have a TTL, so counters without one are never candidates.'],
    ['knowledge_acquired', 'The ingest key is in plain text in the ConfigMap rather than a Secret.'],
    ['knowledge_acquired', 'The Slack webhook URL is hardcoded in the committed script, so it needs rotating.'],
    ['error_resolved', 'The edit form no longer wipes typed input when another admin saves the same order.'],
    ['error_resolved', 'The second compile failed on `SampleSceneDepth` because its include was missing; adding that include cleared it.'],
    ['error_resolved', 'The `multiple definition of hdma_rx` link error is because CubeMX already defines that handle; `uart.c` now declares it `extern` instead.'],
    ['error_resolved', 'The deleted copy constructor error came from the vector copying smoothers when it grows; the processor now holds them in a fixed array.'],
    ['error_resolved', 'The new test failed at first because it checked right after `cancel()`; polling with `require.Eventually` made it deterministic.'],
    ['error_resolved', 'The test could not find the alert because it queried synchronously; `await screen.findByRole` is what the test needed.'],
    ['error_resolved', 'The build error about `Recipe` not being `Sendable` came from the cache stored on each recipe; moving the cache into an environment value let it compile.'],
    ['error_resolved', 'Postgres refuses to build the index concurrently inside a transaction; adding `transaction:false` to the migration lets it through.'],
    ['decision_made', 'The page now fires at a 14.4× burn rate over both 1h and 5m, so a one-minute blip no longer pages anyone.'],
    ['error_resolved', 'The pre-commit hook rejected `RefundService.php` for an import-order rule; running `pint` on that file sorted the imports and the commit went through.'],
    ['error_resolved', '`dotnet ef migrations add` failed because the API registers the context only in production; a design-time factory gives the tools their own context, and the migration then generated cleanly.'],
    ['error_resolved', '`createIndex` failed as not authorized because the URI logs in as the read-only user; running the migration through `npm run migrate` applied the index.'],
    ['error_resolved', 'The four `ClaimsControllerTest` failures were the tests still minting tokens with the old secret; the helper now uses `jwt()` from spring-security-test.'],
    ['error_resolved', 'The 500 was SvelteKit refusing to mix a default action with named ones; the rename form now posts to `?/rename`.'],
    ['error_resolved', '`test_checkout_creates_span` saw no spans because the provider can be set only once per process; the fixture now creates one provider per session.'],
    ['error_resolved', '`web#build` kept failing because `apps/web/tsconfig.build.json` has its own `include` list without `src/types`; adding it lets the build see the declaration.'],
    ['error_resolved', 'The blank page came from `chartTheme.js` still being CommonJS, and with `import`/`export default` the module loads.'],
    ['error_resolved', 'The `generation expression is not immutable` failure came from `unaccent()` being only STABLE, and wrapping it in an IMMUTABLE function made the column valid.'],
    ['decision_made', 'Instead there is a new migration that re-enables autovacuum on the table, so every environment keeps a good plan.'],
  ])('reads %s from %j', (type, text) => {
    expect(typesOf(text)).toEqual([type]);
  });

  it.each([
    ['a failure still to fix', 'The build failed because of a missing header; I\'ll add the include next.'],
    ['a failure that now happens', 'The migration worked locally, but the deploy now fails on the lock timeout.'],
    ['a suggestion without a cost', 'Moving the cache into Redis would be the quickest patch.'],
    ['a conditional plan', 'If the hitch still shows up after this ships, the next suspect is the audio thread.'],
    ['a question', 'Would a bigger thread pool help here?'],
    ['narration', "Now let's move to the next ticket — the exporter."],
    ['code described with no consequence', '`main.ts` creates the app and registers the routes from `routes/`.'],
    ['a guess about code', '`asgi_lifespan` isn\'t installed, so the other tests must be getting their lifespan some other way.'],
    ['a proposal opening on "Instead"', 'Instead, we should use a local key stored in a config file.'],
    ['a command the server rejected', 'Every `EXPIRE` in that pipeline has been rejected since the deploy.'],
    ['the order of the work', "I'll do the dashboard next: an error-budget panel fed by the same recording rules."],
    ['a process step', "This splits into four pieces, so I'll track them as todos and start by reading the program."],
  ])('stays silent on %s', (_name, text) => {
    expect(typesOf(text)).toEqual([]);
  });

  it('reads what is, said with "rather than", as a finding and not a choice', () => {
    expect(typesOf('The saving tab receives its own broadcast, since `broadcast/2` uses `PubSub.broadcast/3` rather than `broadcast_from/4`.')).toEqual(['knowledge_acquired']);
  });

  it('reads a sentence after a bold heading as its own, and one after a ✅ as its own', () => {
    expect(typesOf('**High: the signature check is not constant-time.** `verify()` compares digests with `==`, which stops at the first differing byte.')).toEqual(['knowledge_acquired']);
    expect(typesOf("Going with Postgres rather than MySQL, since we need transactions. ✅ Ruled out Redis: the ops team won't run it.")).toEqual(['decision_made', 'approach_rejected']);
  });
});

describe("layer 2: the user's standing instructions in plain words", () => {
  it.each([
    'Please don\'t add any new npm packages, we keep the bundle under 200 KB.',
    'Never edit the generated `schema.graphql` by hand.',
    'Keep the tests table-driven like the rest of the repo, please.',
    'And please, no emoji in the docs.',
    'Only ever deploy from the release branch.',
    'One rule for this repo: always show me the plan output before anything is applied.',
    'Also, no `unwrap()` outside tests, please: a panic in the relay is an outage.',
    'For hidden labels, use our `<VisuallyHidden>` component rather than the `sr-only` class.',
    'And in general, platform code goes in `src/platform/`, not inline checks.',
    'Use `cdk diff` only — never `cdk deploy` from here, deployments go through CI.',
    'When you have before/after plans, put them in the PR description.',
    'Also: keep actions pinned to full commit SHAs, never tags.',
    'This repo uses pnpm, never npm or yarn.',
    'For span attributes, use the semconv constants, don\'t hardcode strings.',
    'We ship with Mix releases, so please don\'t bring Distillery back in.',
    'Charts go in ggplot2; base plots are fine for quick checks but never save them into `figures/`.',
    'Please keep new code on async/await.',
    'We\'re moving off Redux, so no new slices.',
    'Please leave lib/parser.mly alone, it\'s synced from the course repo.',
    'Every alert needs a `runbook_url` annotation, no exceptions.',
    'All schema changes go through a numbered Flyway migration, never ad-hoc DDL against prod.',
    'We log through the `?LOG_*` macros here, never `io:format`.',
    'This is a published library: no new runtime dependencies without asking me first.',
    'Results must stay bit-for-bit identical to the serial reference.',
    'And no build step, the extension ships as plain ES modules.',
    'Keep it Fortran 2008, no coarrays: the Cray box cannot build them.',
    'ground rules for DB work here: migrations must never take an ACCESS EXCLUSIVE lock on big tables in prod.',
    'we use a 10s deadline on all unary calls, that is the standard across our services.',
    "we like scale-down to be slow, 5 minutes minimum, that's our default everywhere.",
    "also please keep open-in-view disabled, it's off on purpose.",
    'please don\'t change the celery settings module without flagging it to me first.',
    'anything merchant-facing must be deduped.',
    'keep using the Observation framework, no new ObservableObjects.',
  ])('reads %j as a preference', (text) => {
    expect(memories(user(text)).map((c) => c.type)).toEqual(['preference_noted']);
  });

  it.each([
    "Don't push yet, I want to look at it first.",
    "Don't worry about the flaky test.",
    'Keep going.',
    'Can you keep the tests table-driven?',
    'Fix the login bug.',
    'It looks fine, so don\'t worry about the tests.',
    'Ok so don\'t merge it until CI is green.',
    'Please leave it alone for now.',
    'It failed again, never mind.',
    'No exception, the request never completes and IIS kills it.',
    'No rush, take your time.',
    'Every test passes now, nice.',
    "The 3.4 job runs with RUBYOPT=--enable-frozen-string-literal (we want to be ready for when that's the default) and dies with FrozenError.",
    'The page stays blank after login.',
    'Every 5 minutes our p99 on GET /home jumps to ~4s and Postgres CPU spikes.',
  ])('stays silent on %j (this task only, a question, a request)', (text) => {
    expect(memories(user(text)).map((c) => c.type)).toEqual([]);
  });
});

describe("a preference said twice, the user's words and the assistant's acknowledgement, is one", () => {
  it('keeps the first saying and drops its restatement; two different preferences stay two', () => {
    const once = memories(user('Please always use pnpm, not npm, in this repo.'), assistant('Noted, you prefer pnpm over npm for this repo.'));
    expect(once.map((c) => [c.type, c.content])).toEqual([['preference_noted', 'Please always use pnpm, not npm, in this repo.']]);
    const two = memories(user('Please always use pnpm, not npm, in this repo.'), assistant('Noted, you prefer tabs over spaces in the Go code.'));
    expect(two.map((c) => c.type)).toEqual(['preference_noted', 'preference_noted']);
  });

  it('drops the restatement in a later read of the session too', () => {
    const first = extractCandidates(session([user('Please always use pnpm, not npm, in this repo.')]));
    const later = extractCandidates(session([assistant('Noted, you prefer pnpm over npm for this repo.')]), { state: first.state });
    expect(later.candidates.filter((c) => c.type === 'preference_noted')).toEqual([]);
  });
});

describe('a user types in lower case: each of their sentences is read on its own', () => {
  it('finds the standing instruction inside a prompt whose sentences start in lower case, and only it', () => {
    const prompt = "thanks, that looks right. can you add the retry too? we pin every third-party action to a full commit SHA, not a tag. push when done.";
    expect(memories(user(prompt)).map((c) => [c.type, c.content])).toEqual([['preference_noted', 'we pin every third-party action to a full commit SHA, not a tag.']]);
  });

  it('still ends no sentence at an abbreviation', () => {
    expect(memories(user('we always use named exports, e.g. export function foo.')).map((c) => c.content)).toEqual(['we always use named exports, e.g. export function foo.']);
  });
});

describe('a sentence may start with a lower-case name, in the assistant\'s prose too', () => {
  it('reads the two sentences of "… in one short transaction. pg_partman isn\'t …" apart', () => {
    const texts = memories(assistant("The swap runs in one short transaction. pg_partman isn't in the allowed extensions for this RDS parameter group, so that approach is out.")).map((c) => [c.type, c.content]);
    expect(texts).toContainEqual(['approach_rejected', "pg_partman isn't in the allowed extensions for this RDS parameter group, so that approach is out."]);
    expect(texts.every(([, content]) => !String(content).includes('transaction. pg_partman'))).toBe(true);
  });

  it('ends no sentence at an ellipsis that trails off before a lower-case word, nor at "p.m."', () => {
    expect(memories(user('i like method chains, not df = df... on every line')).map((c) => c.content)).toEqual(['i like method chains, not df = df... on every line']);
    expect(memories(user('we never deploy after 4 p.m. on a friday')).map((c) => c.content)).toEqual(['we never deploy after 4 p.m. on a friday']);
  });
});

describe('standing instructions typed the quick way', () => {
  it.each([
    'dont add new deps, the ops image is pinned.',
    'use pnpm not npm',
    'i like method chains, not one assignment per line',
    'keep everything read-only against the prod cluster unless i say otherwise',
    'crons go in config/runtime.exs, not config.exs.',
    'for perf work i want before/after numbers in the PR description',
    'log with structlog not print, the nightly job greps the json logs',
  ])('reads %j as a preference', (text) => {
    expect(memories(user(text)).map((c) => c.type)).toEqual(['preference_noted']);
  });

  it.each([
    "Keep it pandas, we're not moving this to spark.",
    'for this bug i want a failing test first',
    'the fix goes in utils.py, not the handler',
  ])('reads no rule in a request about this one piece of work (%j)', (text) => {
    expect(memories(user(text)).map((c) => c.type)).toEqual([]);
  });
});

describe('a fix told by its symptom being gone', () => {
  it.each([
    'Moved the page reset into `setRegion()`, so the effect only reads `filters` and the depth error is gone.',
    'The `_sqlite3_*` undefined symbols are gone: the app target links `-lsqlite3` through `OTHER_LDFLAGS`.',
    'Opting in with `-Xexpect-actual-classes` silences the Beta warning, so the `-Werror` compile passes again.',
  ])('reads %j as a fix', (text) => {
    expect(typesOf(text)).toEqual(['error_resolved']);
  });

  it('reads no fix in a symptom still there', () => {
    expect(typesOf('The depth error is still there after moving the reset.')).toEqual([]);
  });
});

describe('a change to what code does is no symptom gone; a wrong step and what runs now is a fix', () => {
  it('reads "the controller no longer writes X" as the change it is, not a fix', () => {
    expect(typesOf('`For(&BackupSchedule{})` now gets a generation predicate, and the controller no longer writes `LastReconcileTime`.')).not.toContain('error_resolved');
  });

  it.each([
    'The header probe was reading `schemaVersion` only, so every v2 save skipped the migration; it now falls back to the old `version` field and all four `SaveMigrationTests` pass.',
    'With `fill_nan(None)` applied on read, the 251 mismatched `avg_basket` rows are gone and all 9 columns match the baseline.',
  ])('reads %j as a fix', (text) => {
    expect(typesOf(text)).toEqual(['error_resolved']);
  });
});

describe('what is no memory: a list introduced after "Noted", a prediction, a user reporting what breaks', () => {
  it('reads no preference in "Noted, here are all three from the runs:"', () => {
    expect(typesOf('Noted, here are all three from the 6a runs:')).toEqual([]);
  });

  it('reads no rejection in a prediction still to be checked', () => {
    expect(typesOf("I'd expect the stall to be gone, but it needs a long soak on the board to be sure.")).toEqual([]);
  });

  it('reads no preference in a user reporting a failure, and still one in a rule that gives a failure as its reason', () => {
    expect(memories(user('cover uploads on the book form die for anything over ~8mb.'))).toEqual([]);
    expect(memories(user('we keep the framework static, dynamic broke the crashlytics dsym upload last time')).map((c) => c.type)).toEqual(['preference_noted']);
  });
});
