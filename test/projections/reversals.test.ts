import { describe, expect, it } from 'vitest';
import type { CortexEvent } from '../../src/events/types.js';
import { foldMemory } from '../../src/projections/fold.js';
import { createStems, readStance, reconsiders, reversal, type Statement } from '../../src/projections/reversals.js';
import { DEFAULT_SETTINGS } from '../../src/projections/settings.js';
import { makeEvent } from '../helpers/events.js';

const stems = createStems();
let n = 0;
const said = (type: 'decision_made' | 'approach_rejected', content: string, extra: { reason?: string; rejected?: string; session?: string; inferred?: boolean } = {}): Statement => ({
  id: `m${++n}`,
  type,
  session: extra.session ?? `session-${n}`,
  inferred: extra.inferred ?? true,
  stance: readStance({ type, content, reason: extra.reason, rejected: extra.rejected }, stems),
});
const decision = (content: string, extra = {}) => said('decision_made', content, extra);
const rejection = (content: string, extra = {}) => said('approach_rejected', content, extra);

describe('a later decision reverses an earlier one', () => {
  // [earlier, later, expected]: 'swap' (each chose what the other turned down), 'explicit' (its
  // wording replaces or goes back, and it fits), null (left alone).
  const cases: Array<[string, Statement, Statement, 'swap' | 'explicit' | null]> = [
    [
      'QA6: JWT, then server-side sessions in Redis (Layer 2, with what capture recorded in meta)',
      decision('Going with JWT access tokens rather than server-side sessions, since the API is stateless.', { reason: 'the API is stateless', rejected: 'server-side sessions' }),
      decision('Switched from JWT to server-side sessions stored in Redis, because security needs instant revocation.', { reason: 'security needs instant revocation', rejected: 'JWT' }),
      'swap',
    ],
    [
      'QA6: the same, said in a tag ("replacing X")',
      decision('Going with JWT access tokens rather than server-side sessions, since the API is stateless.', { reason: 'the API is stateless', rejected: 'server-side sessions' }),
      decision('Sessions are now server-side in Redis, replacing JWT access tokens, because revocation must be instant.', { inferred: false }),
      'swap',
    ],
    ['a plain swap', decision('Use Postgres rather than MySQL'), decision('Use MySQL rather than Postgres'), 'swap'],
    ['switched from the choice, no topic named', decision('Use Postgres rather than MySQL'), decision('Switched from Postgres to Redis'), 'explicit'],
    ['going back to what was turned down ("after all")', decision('Use Postgres rather than MySQL'), decision('Going with MySQL after all, the hosting only offers it'), 'explicit'],
    ['reverting to it, about the same thing', decision('Use GraphQL for the public API rather than REST'), decision('Reverting to REST for the public API: GraphQL caching was too hard'), 'explicit'],
    ['"Replaced X with Y"', decision('Use pnpm workspaces for the monorepo'), decision('Replaced pnpm workspaces with Nx'), 'explicit'],
    ['the topic before the verb ("Background sync moved from …")', decision('Background sync uses expo-background-fetch + expo-task-manager with minimumInterval 15 minutes'), decision('Background sync moved from expo-background-fetch to expo-background-task, which replaces the deprecated fetch API'), 'explicit'],
    ['an aside in parentheses is not where the statement ends', decision('Background jobs (emails, PDF rendering, Stripe sync) will run on BullMQ backed by the same Redis we use for sessions.'), decision('Replacing BullMQ with pg-boss so background jobs also live in Postgres'), 'explicit'],
    // Different topics: precision first.
    ['the brief\'s example: Postgres rather than MySQL, then Redis for caching rather than Postgres', decision('Use Postgres rather than MySQL'), decision('Use Redis for caching rather than Postgres'), null],
    ['switched caching from it: another topic', decision('Use Postgres rather than MySQL'), decision('Switched caching from Postgres to Redis'), null],
    ['switched from it to something for another purpose', decision('Use Postgres rather than MySQL'), decision('Switched from Postgres to Redis for caching'), null],
    ['"after all", but for something the earlier decision never named', decision('Use Postgres rather than MySQL'), decision('Going with MySQL for the analytics warehouse after all'), null],
    ['"Rails.cache moved off Redis": what moved is not what the earlier decision is about', decision('Switched background jobs from GoodJob to Sidekiq 7 on Redis: Redis is already required for ActionCable.'), decision('Rails.cache moved off Redis to Solid Cache; Redis now only serves Sidekiq and ActionCable.'), null],
    ['e2e tests moving off Jest leave the unit tests\' choice alone', decision('Use Vitest rather than Jest for unit tests'), decision('Switched e2e tests from Jest to Playwright'), null],
    ['the same choice said again with another alternative', decision('Use REST for the public API'), decision('Use REST rather than gRPC for the public API'), null],
    ['what it replaces is more than the earlier choice', decision('Use Postgres rather than MySQL'), decision('Use SQLite instead of Postgres read replicas now'), null],
    ['a swap without "now" on an unrelated purpose', decision('Use Postgres for the job queue rather than Redis'), decision('Use Redis for rate limiting rather than Postgres'), null],
    ['a choice that turns down what the earlier one also turned down', decision('Use Postgres rather than MySQL'), decision('Use SQLite for tests, replacing MySQL'), null],
    ['an exception for some files is no reversal of the rule', decision('Use tabs rather than spaces for indentation'), decision('Use spaces rather than tabs in YAML files'), null],
    ['nor one for a platform', decision('Use bash rather than PowerShell for the scripts'), decision('Use PowerShell instead of bash on Windows'), null],
    ['a new rule with its exception does reverse it', decision('Use tabs rather than spaces'), decision('Use spaces rather than tabs, except in Makefiles'), 'swap'],
  ];
  it.each(cases)('%s', (_name, earlier, later, expected) => {
    expect(reversal(later, earlier)).toBe(expected);
  });

  it('within one assistant session only wording that replaces counts; a heuristic reading never overturns what was stated outright', () => {
    const first = decision('Use Postgres rather than MySQL', { session: 'one' });
    expect(reversal(decision('Use MySQL rather than Postgres', { session: 'one' }), first)).toBe(null);
    expect(reversal(decision('Switched from Postgres to MySQL', { session: 'one' }), first)).toBe('swap');
    const outright = decision('Use Postgres rather than MySQL', { inferred: false });
    expect(reversal(decision('Use MySQL rather than Postgres'), outright)).toBe(null);
    expect(reversal(decision('Use MySQL rather than Postgres', { inferred: false }), outright)).toBe('swap');
    // `cortex remember` and the MCP tool share a session name; they are not one conversation.
    expect(reversal(decision('Use MySQL rather than Postgres', { session: 'cli', inferred: false }), decision('Use Postgres rather than MySQL', { session: 'cli', inferred: false }))).toBe('swap');
  });
});

describe('a later decision reconsiders a rejection', () => {
  const cases: Array<[string, Statement, Statement, boolean]> = [
    [
      'QA6: "I considered Redis for the session store, but…", then sessions stored in Redis',
      rejection('I considered Redis for the session store, but it would add another piece of infrastructure to run.', { reason: 'it would add another piece of infrastructure to run' }),
      decision('Switched from JWT to server-side sessions stored in Redis, because security needs instant revocation.', { reason: 'security needs instant revocation', rejected: 'JWT' }),
      true,
    ],
    [
      'QA6: "Ruled out Passport.js", then "Going with Passport.js after all"',
      rejection('Ruled out Passport.js: too much indirection for three routes.', { reason: 'too much indirection for three routes' }),
      decision('Going with Passport.js after all rather than hand-written OAuth flows, since we now need Google and GitHub providers.', { rejected: 'hand-written OAuth flows' }),
      true,
    ],
    ['"X won\'t work here", then X after all', rejection("Terraform Cloud won't work here because the security team blocks outbound state"), decision('Going with Terraform Cloud after all, security approved it'), true],
    ['chosen over it again is not chosen', rejection('Ruled out Redis: ops burden'), decision('Use Postgres for the session store rather than Redis'), false],
    ['chosen for another purpose', rejection('Rejected Redis for caching: memory cost'), decision('Use Redis for the job queue'), false],
    ['a narrower purpose than what was turned down', rejection('Ruled out Redis: ops burden'), decision('Use Redis for the job queue'), false],
    ['a choice that negates it', rejection('Kafka is overkill for one consumer'), decision('Stop using Kafka; poll the table'), false],
  ];
  it.each(cases)('%s', (_name, earlier, later, expected) => {
    expect(reconsiders(later, earlier)).toBe(expected);
  });
});

describe('foldMemory: what a later decision says retires what it reverses', () => {
  const NOW = new Date('2026-11-21T12:00:00.000Z');
  let clock = Date.parse('2026-11-01T00:00:00.000Z');
  const at = (raw: Record<string, unknown>, session = 'session-a'): CortexEvent => {
    clock += 60_000;
    return makeEvent({ ts: new Date(clock).toISOString(), session, provenance: 'layer2:chose', confidence: 0.8, ...raw }, { session });
  };
  const fold = (events: CortexEvent[]) => foldMemory(events, DEFAULT_SETTINGS, NOW);

  it('the QA6 story: JWT is replaced, the Redis session store is reconsidered, and each replacement says what it replaced', () => {
    const jwt = at({ type: 'decision', content: 'Going with JWT access tokens rather than server-side sessions, since the API is stateless.', meta: { reason: 'the API is stateless', rejected: 'server-side sessions' } }, 's1');
    const redis = at({ type: 'rejected', content: 'I considered Redis for the session store, but it would add another piece of infrastructure to run.', provenance: 'layer2:considered-but', meta: { reason: 'it would add another piece of infrastructure to run' } }, 's1');
    const passport = at({ type: 'rejected', content: 'Ruled out Passport.js: too much indirection for three routes.', provenance: 'layer2:ruled-out', meta: { reason: 'too much indirection for three routes' } }, 's1');
    const switched = at({ type: 'decision', content: 'Switched from JWT to server-side sessions stored in Redis, because security needs instant revocation.', provenance: 'layer2:set-to-so', meta: { reason: 'security needs instant revocation', rejected: 'JWT' } }, 's2');
    const tag = at({ type: 'decision', content: 'Sessions are now server-side in Redis, replacing JWT access tokens, because revocation must be instant.', provenance: 'layer3:memory-tag', confidence: 1 }, 's2');
    const state = fold([jwt, redis, passport, switched, tag]);
    expect(state.decisions.map((d) => d.id).sort()).toEqual([switched.id, tag.id].sort());
    expect(state.rejections.map((r) => r.id)).toEqual([passport.id]);
    expect(state.superseded.map((i) => [i.id, i.supersededBy, i.implied])).toEqual(expect.arrayContaining([[jwt.id, switched.id, 'reversed'], [redis.id, switched.id, 'reconsidered']]));
    expect(state.decisions.find((d) => d.id === switched.id)?.replaces).toEqual([{ id: jwt.id, type: 'decision_made', content: jwt.content, implied: 'reversed' }, { id: redis.id, type: 'approach_rejected', content: redis.content, implied: 'reconsidered' }]);

    const after = fold([jwt, redis, passport, switched, tag, at({ type: 'decision', content: 'Going with Passport.js after all rather than hand-written OAuth flows, since we now need Google and GitHub providers.', meta: { rejected: 'hand-written OAuth flows' } }, 's5')]);
    expect(after.rejections).toEqual([]);
  });

  it('leaves a decision on another topic in force (the brief\'s Postgres / Redis-for-caching case)', () => {
    const postgres = at({ type: 'decision', content: 'Use Postgres rather than MySQL', provenance: 'cli:remember', confidence: 1 }, 'cli');
    const caching = at({ type: 'decision', content: 'Use Redis for caching rather than Postgres', provenance: 'cli:remember', confidence: 1 }, 'cli');
    expect(fold([postgres, caching]).decisions.map((d) => d.content).sort()).toEqual(['Use Postgres rather than MySQL', 'Use Redis for caching rather than Postgres']);
  });

  it('explicit wording that fits several decisions in force retires none of them', () => {
    const sessions = at({ type: 'decision', content: 'Session data is kept in Redis via connect-redis' }, 's1');
    const jobs = at({ type: 'decision', content: 'Background jobs run on BullMQ backed by Redis' }, 's1');
    const state = fold([sessions, jobs, at({ type: 'decision', content: 'Switched from Redis to Postgres, one less moving part' }, 's2')]);
    expect(state.decisions).toHaveLength(3);
  });

  it('what is said again later is in force again, and retires what had replaced it; the journal decides, in any order', () => {
    const postgres = at({ type: 'decision', content: 'Use Postgres rather than MySQL' }, 's1');
    const mysql = at({ type: 'decision', content: 'Use MySQL rather than Postgres' }, 's2');
    expect(fold([postgres, mysql]).decisions.map((d) => d.id)).toEqual([mysql.id]);
    const again = at({ type: 'decision', content: 'use postgres rather than MySQL!' }, 's3');
    for (const events of [[postgres, mysql, again], [again, mysql, postgres]]) {
      const state = fold(events);
      expect(state.decisions.map((d) => d.id)).toEqual([postgres.id]);
      expect(state.superseded.map((i) => [i.id, i.implied])).toEqual([[mysql.id, 'reversed']]);
    }
  });

  it('a supersession an event records wins over what the words imply, and is not undone by saying the decision again', () => {
    const rest = at({ type: 'decision', content: 'Use REST rather than GraphQL for the public API' }, 's1');
    const graphql = at({ type: 'decision', content: 'Use GraphQL for the public API', provenance: 'cli:remember', confidence: 1 }, 'cli');
    const supersede = at({ type: 'decision_superseded', content: 'Superseded', meta: { target: rest.id, by: graphql.id } }, 'cli');
    const again = at({ type: 'decision', content: rest.content }, 's2');
    const state = fold([rest, graphql, supersede, again]);
    expect(state.decisions.map((d) => d.id)).toEqual([graphql.id]);
    expect(state.superseded[0]).toMatchObject({ id: rest.id, supersededBy: graphql.id });
    expect(state.superseded[0]?.implied).toBeUndefined();
  });

  it('a forgotten decision reverses nothing', () => {
    const postgres = at({ type: 'decision', content: 'Use Postgres rather than MySQL' }, 's1');
    const mysql = at({ type: 'decision', content: 'Use MySQL rather than Postgres' }, 's2');
    const forget = at({ type: 'event_retracted', content: 'Forgot it', meta: { target: mysql.id } }, 'cli');
    expect(fold([postgres, mysql, forget]).decisions.map((d) => d.id)).toEqual([postgres.id]);
  });
});

describe('foldMemory: a decision\'s meta.supersedes (a memory tag) retires what it names', () => {
  const NOW = new Date('2026-11-21T12:00:00.000Z');
  let clock = Date.parse('2026-11-01T00:00:00.000Z');
  const at = (raw: Record<string, unknown>, session = 'session-a'): CortexEvent => {
    clock += 60_000;
    return makeEvent({ ts: new Date(clock).toISOString(), session, ...raw }, { session });
  };

  it('by full id, or the short id the briefing and log --oneline show, in any case; a name that fits nothing or several retires nothing', () => {
    const rest = at({ type: 'decision', content: 'Use REST for the public API' });
    const pino = at({ type: 'decision', content: 'Use pino for logging' });
    const kafka = at({ type: 'rejected', content: 'Rejected Kafka: too heavy' });
    const graphql = at({ type: 'decision', content: 'Use GraphQL for the public API', provenance: 'layer3:memory-tag', meta: { supersedes: [rest.id.slice(-8).toLowerCase()] } });
    const kafkaAfterAll = at({ type: 'decision', content: 'Use the event bus for audit events', provenance: 'layer3:memory-tag', meta: { supersedes: kafka.id } });
    const nothing = at({ type: 'decision', content: 'Use tabs', meta: { supersedes: ['ZZZZZZZZ', '01'] } });
    const state = foldMemory([rest, pino, kafka, graphql, kafkaAfterAll, nothing], DEFAULT_SETTINGS, NOW);
    expect(state.decisions.map((d) => d.id).sort()).toEqual([pino.id, graphql.id, kafkaAfterAll.id, nothing.id].sort());
    expect(state.rejections).toEqual([]);
    expect(state.superseded.map((i) => [i.id, i.supersededBy, i.implied])).toEqual(expect.arrayContaining([[rest.id, graphql.id, undefined], [kafka.id, kafkaAfterAll.id, undefined]]));
  });

  it('a forgotten tag retires nothing', () => {
    const rest = at({ type: 'decision', content: 'Use REST for the public API' });
    const graphql = at({ type: 'decision', content: 'Use GraphQL for the public API', meta: { supersedes: rest.id } });
    const forget = at({ type: 'event_retracted', content: 'Forgot it', meta: { target: graphql.id } });
    expect(foldMemory([rest, graphql, forget], DEFAULT_SETTINGS, NOW).decisions.map((d) => d.id)).toEqual([rest.id]);
  });
});
