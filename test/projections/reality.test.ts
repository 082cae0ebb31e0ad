import { describe, expect, it } from 'vitest';
import type { CortexEvent } from '../../src/events/types.js';
import { foldMemory } from '../../src/projections/fold.js';
import { parseDependencies, pathsIn, realityChecks, type RepoFacts } from '../../src/projections/reality.js';
import { DEFAULT_SETTINGS } from '../../src/projections/settings.js';
import { makeEvent } from '../helpers/events.js';

const NOW = new Date('2026-11-21T12:00:00.000Z');
const facts = (overrides: Partial<RepoFacts> = {}): RepoFacts => ({ branch: 'main', detached: false, missingFiles: new Set(), manifests: [], commitsByOthers: [], ...overrides });
const check = (events: CortexEvent[], f: RepoFacts) => {
  const state = foldMemory(events, DEFAULT_SETTINGS, NOW);
  return realityChecks(state, f, [...state.decisions, ...state.rejections, ...state.recent]);
};
const pkg = (deps: Record<string, string>) => ({ path: 'package.json', text: JSON.stringify({ dependencies: deps }) });

describe('reality checks', () => {
  const redis = makeEvent({ type: 'decision', content: 'Use Redis for the job queue', meta: { files: ['src/queue.ts'] } }, { branch: 'main' });

  it('stay quiet when memory and the repository agree', () => {
    expect(check([redis], facts({ manifests: [pkg({ ioredis: '^5' })] }))).toEqual([]);
  });

  it('fire on a referenced file that no longer exists', () => {
    const warnings = check([redis], facts({ missingFiles: new Set(['src/queue.ts']) }));
    expect(warnings).toEqual([{ kind: 'missing-file', text: expect.stringContaining('src/queue.ts no longer exists') }]);
  });

  it('fire on a dependency that was replaced, in every manifest format', () => {
    const manifests = [
      pkg({ memcached: '^2' }),
      { path: 'requirements.txt', text: 'pymemcache==4.0\n# redis was here\n' },
      { path: 'pyproject.toml', text: '[project]\ndependencies = [\n  "pymemcache>=4",\n]\n' },
      { path: 'Cargo.toml', text: '[dependencies]\nmemcache = "0.17"\n' },
      { path: 'go.mod', text: 'module x\n\nrequire (\n\tgithub.com/bradfitz/gomemcache v0.0.0\n)\n' },
    ];
    for (const manifest of manifests) {
      const warnings = check([redis], facts({ manifests: [manifest] }));
      expect(warnings.map((w) => w.kind), manifest.path).toEqual(['dependency']);
      expect(warnings[0]?.text).toContain(`relies on Redis, but ${manifest.path} does not list it`);
    }
  });

  it('check only what a decision chose: not what it chose it over, why, or what it drops', () => {
    const manifests = [pkg({ pg: '^8' })];
    for (const content of ['Going with Postgres rather than Redis since we already run Postgres', 'Use Postgres; it can take Redis-style pub/sub later', 'Use Postgres over Redis for sessions', "Don't use Redis for sessions", 'Replace Redis with Postgres for the queue', 'Move off Redis to Postgres']) {
      expect(check([makeEvent({ type: 'decision', content })], facts({ manifests })), content).toEqual([]);
    }
    expect(check([makeEvent({ type: 'decision', content: 'Cache sessions in Redis because Postgres is slow for this' })], facts({ manifests })).map((w) => w.text)).toEqual([expect.stringContaining('relies on Redis')]);
  });

  it('fire when a rejected technology is back in the dependencies', () => {
    const rejected = makeEvent({ type: 'rejected', content: 'Rejected Moment.js: too big for the bundle' });
    expect(check([rejected], facts({ manifests: [pkg({ moment: '^2' })] })).map((w) => w.kind)).toEqual(['dependency']);
    expect(check([rejected], facts({ manifests: [pkg({ 'date-fns': '^3' })] }))).toEqual([]);
    // What it was rejected for is not what was rejected.
    expect(check([makeEvent({ type: 'rejected', content: 'Rejected Moment.js; date-fns does the same in 2 KB' })], facts({ manifests: [pkg({ 'date-fns': '^3' })] }))).toEqual([]);
  });

  it('fire when a package the technologies list does not know is named as the thing rejected, and only then', () => {
    const joi = makeEvent({ type: 'rejected', content: 'Joi for request validation, because its types drift from the schema' });
    expect(check([joi], facts({ manifests: [pkg({ joi: '^17' })] })).map((w) => w.text)).toEqual([expect.stringMatching(/^joi was rejected, yet package\.json depends on it/)]);
    expect(check([joi], facts({ manifests: [pkg({ zod: '^3' })] }))).toEqual([]);
    // A word further in is not what was rejected; a later decision that takes it up silences it.
    expect(check([makeEvent({ type: 'rejected', content: 'A debug endpoint in production' })], facts({ manifests: [pkg({ debug: '^4' })] }))).toEqual([]);
    // An English word is a package only when written as code; a known technology is warned about once.
    expect(check([makeEvent({ type: 'rejected', content: 'Debug in production' })], facts({ manifests: [pkg({ debug: '^4' })] }))).toEqual([]);
    expect(check([makeEvent({ type: 'rejected', content: '`debug` in production: too chatty' })], facts({ manifests: [pkg({ debug: '^4' })] }))).toHaveLength(1);
    expect(check([makeEvent({ type: 'rejected', content: 'Redis for caching' })], facts({ manifests: [pkg({ redis: '^4' })] }))).toHaveLength(1);
    expect(check([joi, makeEvent({ type: 'decision', content: 'Use joi after all: zod lacks the custom messages' })], facts({ manifests: [pkg({ joi: '^17' })] }))).toEqual([]);
  });

  it('do not guess: no manifest of the ecosystem, or an ORM that can sit on any database, proves nothing', () => {
    const pg = makeEvent({ type: 'decision', content: 'Use Postgres for storage' });
    expect(check([pg], facts({ manifests: [{ path: 'go.mod', text: 'module x\n' }] })).map((w) => w.kind)).toEqual(['dependency']);
    expect(check([pg], facts({ manifests: [pkg({ prisma: '^5' })] }))).toEqual([]);
    expect(check([pg], facts())).toEqual([]);
  });

  it('say which branch the last session was on, and who committed since', () => {
    const onFeature = makeEvent({ type: 'learned', content: 'x', session: 's1' }, { session: 's1', branch: 'feature' });
    const warnings = check([onFeature], facts({ branch: 'main', commitsByOthers: [{ author: 'bob@example.com', subject: 'Switch to pnpm' }] }));
    expect(warnings.map((w) => w.text)).toEqual(['You are on branch main; the last session worked on feature.', '1 commit by bob@example.com since the last session: "Switch to pnpm".']);
  });
});

describe('parsing manifests and paths', () => {
  it('reads dependency names from each manifest format', () => {
    const deps = parseDependencies([
      { path: 'package.json', text: '{"dependencies":{"A":"1"},"devDependencies":{"vitest":"4"}}' },
      { path: 'pyproject.toml', text: '[tool.poetry.dependencies]\npython = "^3.11"\nFastAPI = "^0.1"\n' },
      { path: 'go.mod', text: 'require github.com/spf13/cobra/v2 v2.0.0\n' },
      { path: 'package.json', text: 'not json' },
    ]);
    expect([...(deps.get('npm') ?? [])]).toEqual(['a', 'vitest']);
    expect(deps.get('pypi')?.has('fastapi')).toBe(true);
    expect(deps.get('go')?.has('github.com/spf13/cobra')).toBe(true);
  });

  it('finds repository paths in text, not URLs or versions', () => {
    expect(pathsIn('Moved the retry into `src/queue/retry.ts` and docs/README.md. See https://x.io/a/b.html, v1.2/3.4')).toEqual(['src/queue/retry.ts', 'docs/README.md']);
  });
});
