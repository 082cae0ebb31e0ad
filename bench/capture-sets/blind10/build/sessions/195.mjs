import { U, A, think, say, Read, Edit, Bash, Grep, Todo } from '../gen.mjs';

const T1 = 'Find which input changes the global hash between CI runs';
const T2 = 'Scope GITHUB_SHA to the @acme/web#build task';
const T3 = 'Run only affected packages on PRs with --filter=...[origin/main]';
const T4 = 'Bump turbo to 2.3';
const af = { [T1]: 'Finding the changing hash input', [T2]: 'Scoping GITHUB_SHA to the web build', [T3]: 'Adding the affected-only filter', [T4]: 'Bumping turbo' };
const todos = (...st) => [T1, T2, T3, T4].map((c, i) => ({ content: c, status: st[i], activeForm: af[c] }));

const TOKEN = '⟦S⟧a1yYJGVPwGIlJaNySNc5Yk6A⟦/S⟧';
const TURBO = `{
  "$schema": "https://turbo.build/schema.json",
  "globalDependencies": ["tsconfig.base.json"],
  "globalEnv": ["NODE_ENV", "GITHUB_SHA"],
  "tasks": {
    "build": {
      "dependsOn": ["^build"],
      "outputs": ["dist/**", ".next/**", "!.next/cache/**"]
    },
    "test": { "dependsOn": ["^build"], "outputs": [] },
    "lint": {}
  }
}
`;
const CI = `name: ci
on: [pull_request, push]
jobs:
  build:
    runs-on: ubuntu-latest
    env:
      TURBO_TOKEN: \${{ secrets.TURBO_TOKEN }}
      TURBO_TEAM: acme
      TURBO_API: https://turbo-cache.acme.dev
    steps:
      - uses: actions/checkout@v4
      - uses: pnpm/action-setup@v4
      - uses: actions/setup-node@v4
        with: { node-version: 20, cache: pnpm }
      - run: pnpm install --frozen-lockfile
      - run: pnpm turbo run build test lint
`;
const DRY = (shaVar) => `for sha in 4f1c2e9 9b07d3a; do GITHUB_SHA=$sha TURBO_TOKEN=${TOKEN} TURBO_TEAM=acme TURBO_API=https://turbo-cache.acme.dev pnpm turbo run build --dry=json --filter=@acme/ui --filter=@acme/web | jq -r --arg sha $sha '.tasks[] | "\\($sha) \\(.taskId) \\(.hash)"'; done`;

export default {
  num: 195,
  slug: 'turborepo-remote-cache-misses',
  version: '2.0.55',
  model: 'claude-sonnet-4-5-20250929',
  cwd: '/Users/dev/acme/platform',
  branch: 'main',
  abs: true,
  start: '2025-12-01T10:14:33.915Z',
  todoKeywords: {
    [T1]: ['global hash', 'CI runs'],
    [T2]: ['GITHUB_SHA', '@acme/web#build'],
    [T3]: ['affected', '--filter'],
    [T4]: ['bump', 'turbo'],
  },
  notes: [
    'Long session, four user turns, two standing instructions (small PRs with one concern; never bump turbo without asking). "ok do the filter one too" and the pasted CI failure are one-off.',
    'Tool inputs use absolute paths under cwd; files are listed relative to cwd. The turbo bump todo stays pending because of the second instruction.',
    'The TURBO_TOKEN value appears in the user text and in two Bash commands.',
  ],
  script: [
    U(`CI never hits the turbo remote cache, every task is a MISS, while locally I get hits all the time. pnpm + turbo 2.1 with our self-hosted cache at turbo-cache.acme.dev. If you need to poke at it: TURBO_TOKEN=${TOKEN}, team acme.`),
    A(
      say('⟦F⟧Let me look at the turbo config and the CI workflow first.⟦/⟧'),
      Read('turbo.json', TURBO),
      Read('.github/workflows/ci.yml', CI),
    ),
    A(
      think("globalEnv has GITHUB_SHA. ⟦F⟧Locally that variable is unset, so the local hash never changes between commits.⟦/⟧ Confirm with two dry runs that only differ in GITHUB_SHA."),
      say('⟦F⟧`GITHUB_SHA` in `globalEnv` looks suspicious, but I want to see it change a hash before touching anything.⟦/⟧'),
      Todo(todos('in_progress', 'pending', 'pending', 'pending')),
    ),
    A(
      Bash(DRY(), 'Compare task hashes for two different GITHUB_SHA values', { stdout: `4f1c2e9 @acme/ui#build 8e2a71c04b9d3f15
4f1c2e9 @acme/web#build 1c94be0d27f6a8e3
9b07d3a @acme/ui#build 5d0f13a9c8e27b64
9b07d3a @acme/web#build f3a86c1e0b4d9275` }),
    ),
    A(
      say(`⟦E knowledge_acquired|globalEnv;global hash⟧Values of \`globalEnv\` variables feed the global hash, so a variable that changes on every commit invalidates every task in every package; that's why CI never hits while your machine, where \`GITHUB_SHA\` is unset, always does.⟦/⟧ ⟦N⟧Even \`@acme/ui\`, which never reads the SHA, gets a new hash per commit.⟦/⟧`),
      Todo(todos('completed', 'in_progress', 'pending', 'pending')),
      Grep('GITHUB_SHA|NEXT_PUBLIC_COMMIT', { path: 'apps/web', output_mode: 'content', n: true, result: `/Users/dev/acme/platform/apps/web/next.config.mjs:5:    NEXT_PUBLIC_COMMIT: process.env.GITHUB_SHA ?? 'dev',
/Users/dev/acme/platform/apps/web/src/app/layout.tsx:31:          <Footer commit={process.env.NEXT_PUBLIC_COMMIT} />` }),
    ),
    A(
      say(`⟦N⟧Only the web app uses the SHA, and it bakes it into the bundle for the footer in the root layout.⟦/⟧

⟦E approach_rejected|passThroughEnv;old SHA⟧Moving it to \`passThroughEnv\` would keep it out of the hash entirely, but then a cache hit would replay a bundle with an old SHA baked in.⟦/⟧ ⟦E approach_rejected|runtime;static page⟧Reading the SHA at runtime would let the web build hit too, but the footer lives in the root layout, and making it dynamic would turn every static page into a server-rendered one.⟦/⟧ ⟦E decision_made|task-level;@acme/web#build⟧\`GITHUB_SHA\` leaves \`globalEnv\` and becomes a task-level \`env\` entry on \`@acme/web#build\`, so only that one build misses per commit and everything else can hit.⟦/⟧`),
      Edit('turbo.json', `  "globalEnv": ["NODE_ENV", "GITHUB_SHA"],
  "tasks": {
    "build": {
      "dependsOn": ["^build"],
      "outputs": ["dist/**", ".next/**", "!.next/cache/**"]
    },`, `  "globalEnv": ["NODE_ENV"],
  "tasks": {
    "build": {
      "dependsOn": ["^build"],
      "outputs": ["dist/**", ".next/**", "!.next/cache/**"]
    },
    "@acme/web#build": {
      "dependsOn": ["^build"],
      "env": ["GITHUB_SHA"],
      "outputs": [".next/**", "!.next/cache/**"]
    },`),
      Bash(DRY(), 'Re-run the hash comparison', { stdout: `4f1c2e9 @acme/ui#build 2b6e90d1f4a37c58
4f1c2e9 @acme/web#build 7a13c5e2d09f4b86
9b07d3a @acme/ui#build 2b6e90d1f4a37c58
9b07d3a @acme/web#build c4e8a0b7136d2f95` }),
    ),
    A(
      Todo(todos('completed', 'completed', 'pending', 'pending')),
    ),
    A(
      say(`⟦N⟧With the change, \`@acme/ui#build\` keeps the same hash across both SHAs and only \`@acme/web#build\` changes.⟦/⟧

- ⟦N⟧\`turbo.json\`: the SHA moved from \`globalEnv\` to the web build task⟦/⟧

⟦F⟧Next I'd make PR runs build only what changed against \`main\`; CI spends most of its time on \`test\` for packages nobody touched.⟦/⟧`),
    ),
    U(`⟦E preference_noted|small;one concern⟧Keep PRs small, one concern each: the turbo.json change and the CI filter go in separate PRs.⟦/⟧ ⟦F⟧ok do the filter one too.⟦/⟧`),
    A(
      say('⟦F⟧Committing the hash fix on its own branch first.⟦/⟧'),
      Bash('git switch -c fix/turbo-global-env && git add turbo.json && git commit -qm "turbo: scope GITHUB_SHA to the web build" && git push -qu origin fix/turbo-global-env && git switch -q main', 'Commit the turbo.json change on its own branch and push', { stdout: "Switched to a new branch 'fix/turbo-global-env'\nremote: Create a pull request for 'fix/turbo-global-env' on GitHub by visiting:\nremote:      https://github.com/acme/platform/pull/new/fix/turbo-global-env" }),
    ),
    A(
      Edit('.github/workflows/ci.yml', '      - run: pnpm turbo run build test lint', `      - run: pnpm turbo run build test lint \${{ github.event_name == 'pull_request' && '--filter=...[origin/main]' || '' }}`),
      Bash('git switch -c ci/affected-only && git add .github/workflows/ci.yml && git commit -qm "ci: only run affected packages on PRs" && git push -qu origin ci/affected-only', 'Commit the CI filter on a separate branch and push', { stdout: "Switched to a new branch 'ci/affected-only'\nremote: Create a pull request for 'ci/affected-only' on GitHub by visiting:\nremote:      https://github.com/acme/platform/pull/new/ci/affected-only" }),
    ),
    A(
      say("Two branches, one change each:\n- ⟦N⟧`fix/turbo-global-env`: the `turbo.json` change⟦/⟧\n- `ci/affected-only`: ⟦N⟧PR runs use `--filter=...[origin/main]`, pushes to main still build everything⟦/⟧"),
    ),
    U("⟦F⟧the filter PR fails in CI:⟦/⟧\n```\nx No package found with name '...[origin/main]' in workspace\n  git error: fatal: ambiguous argument 'origin/main...HEAD': unknown revision or path not in the working tree.\n```"),
    A(
      say("⟦N⟧`actions/checkout` fetches a single commit by default, so there is no `origin/main` in the CI workspace to compare against.⟦/⟧"),
      Edit('.github/workflows/ci.yml', '      - uses: actions/checkout@v4\n', '      - uses: actions/checkout@v4\n        with:\n          fetch-depth: 0\n'),
    ),
    A(
      Bash('git add .github/workflows/ci.yml && git commit -qm "ci: fetch full history so turbo can diff against main" && git push -q && gh pr checks --watch --fail-fast', 'Push the fix and wait for the PR checks', { stdout: 'build	pass	3m12s	https://github.com/acme/platform/actions/runs/12071829931/job/33664120057\n\nAll checks were successful' }),
    ),
    A(
      Todo(todos('completed', 'completed', 'completed', 'pending')),
    ),
    A(
      say("⟦E error_resolved|ambiguous argument;fetch-depth: 0⟧The `ambiguous argument 'origin/main...HEAD'` failure came from the default shallow checkout, and `fetch-depth: 0` on `actions/checkout` gives turbo the history it needs; the PR is green now.⟦/⟧\n\n⟦F⟧turbo 2.3 is out with a faster hasher; should I bump it while we're in here?⟦/⟧"),
    ),
    U(`no. ⟦E preference_noted|bump turbo;asking⟧Never bump turbo without asking me first, our self-hosted cache server only speaks the 2.1 API.⟦/⟧ what's left?`),
    A(
      say(`⟦N⟧Nothing else on this issue; the only open item is the turbo bump, which stays parked until you say otherwise.⟦/⟧

- ⟦N⟧\`fix/turbo-global-env\`: ready for review⟦/⟧
- ⟦N⟧\`ci/affected-only\`: ready for review, green⟦/⟧

⟦F⟧Once the first PR is merged, the second CI run on main should show cache hits for everything except \`@acme/web#build\`.⟦/⟧`),
    ),
  ],
};
