import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cortex, cortexAsync, cortexJson, cortexOnPath } from '../helpers/cli.js';
import { git, sharedRemote, tempDir, tempRepo, writeTree } from '../helpers/repo.js';
import { assistant, session, toolResult, toolUse, user } from '../helpers/transcript.js';

interface DecisionJson {
  id: string;
  type: string;
  content: string;
  tier: string;
}
interface BriefingJson {
  markdown: string;
  tokens: number;
  chars: number;
  budget: number;
  sections: Array<{ name: string; shown: number; omitted: number }>;
}

const remember = (dir: string, text: string, ...args: string[]) => {
  const result = cortex(dir, ['remember', text, ...args, '--json']);
  if (result.code !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as { id: string };
};
const decisions = (dir: string, ...args: string[]) => cortexJson<DecisionJson[]>(dir, ['decisions', ...args]).map((d) => d.content);
const commit = (dir: string, files: Record<string, string>, message: string) => {
  writeTree(dir, files);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', message);
};
const sessionStart = (dir: string, source: string) => cortex(dir, ['hook', 'session-start'], { input: JSON.stringify({ session_id: 'new-session', transcript_path: join(dir, 'none.jsonl'), cwd: dir, hook_event_name: 'SessionStart', source }) });

describe('branch alignment', () => {
  it('a decision made on a feature branch shows on main exactly when the branch is merged', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude']);
    remember(dir, 'Use Postgres for storage', '-t', 'decision');
    git(dir, 'checkout', '-q', '-b', 'feature');
    remember(dir, 'Use Redis for the cache', '-t', 'decision');
    commit(dir, { 'cache.ts': 'export {}\n' }, 'add cache');
    remember(dir, 'Evict with LRU, not LFU', '-t', 'decision');

    expect(decisions(dir).sort()).toEqual(['Evict with LRU, not LFU', 'Use Postgres for storage', 'Use Redis for the cache']);
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).toEqual(['Use Postgres for storage']);
    expect(decisions(dir, '--all')).toHaveLength(3);
    expect(cortexJson<BriefingJson>(dir, ['briefing']).markdown).not.toContain('Redis');

    git(dir, 'merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
    expect(decisions(dir).sort()).toEqual(['Evict with LRU, not LFU', 'Use Postgres for storage', 'Use Redis for the cache']);
    expect(cortexJson<BriefingJson>(dir, ['briefing']).markdown).toContain('Use Redis for the cache');
  });

  it('a merge taken back with git revert -m 1 takes the feature\'s decisions off main (briefing, search, the regenerated file), not main\'s own; reverting the revert brings them back', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    remember(dir, 'Keep the REST API for the admin pages', '-t', 'decision');
    commit(dir, { 'admin.ts': 'export {}\n' }, 'admin');
    git(dir, 'checkout', '-q', '-b', 'graphql');
    remember(dir, 'Use GraphQL for the public API', '-t', 'decision');
    commit(dir, { 'gql.ts': 'export {}\n' }, 'graphql');
    remember(dir, 'Generate the schema from the resolvers', '-t', 'decision');
    git(dir, 'checkout', '-q', 'main');
    remember(dir, 'Paginate admin lists with cursors', '-t', 'decision');
    git(dir, 'merge', '-q', '--no-ff', '-m', 'merge graphql', 'graphql');
    const feature = ['Generate the schema from the resolvers', 'Use GraphQL for the public API'];
    const mains = ['Keep the REST API for the admin pages', 'Paginate admin lists with cursors'];
    expect(decisions(dir).sort()).toEqual([...feature, ...mains].sort());

    git(dir, 'revert', '--no-edit', '-m', '1', 'HEAD');
    remember(dir, 'Serve the public API over REST for now', '-t', 'decision');
    expect(decisions(dir).sort()).toEqual([...mains, 'Serve the public API over REST for now'].sort());
    expect(cortexJson<BriefingJson>(dir, ['briefing']).markdown).not.toContain('GraphQL');
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'GraphQL']).map((h) => h.content)).toEqual([]);
    cortex(dir, ['projections', '--write']);
    expect(readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8')).not.toContain('GraphQL');
    // The feature branch itself keeps what it decided.
    git(dir, 'checkout', '-q', 'graphql');
    expect(decisions(dir)).toEqual(expect.arrayContaining(feature));

    git(dir, 'checkout', '-q', 'main');
    git(dir, 'revert', '--no-edit', 'HEAD');
    expect(decisions(dir).sort()).toEqual([...feature, ...mains, 'Serve the public API over REST for now'].sort());
  });

  it('a detached HEAD\'s experiment left without a commit stays off the branches; one committed and merged, or carried onto a new branch, comes along with its work', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    remember(dir, 'Keep the CSV exporter synchronous', '-t', 'decision');
    for (const n of [1, 2, 3]) commit(dir, { [`c${n}.ts`]: 'export {}\n' }, `c${n}`);
    const base = ['Keep the CSV exporter synchronous'];

    git(dir, 'checkout', '-q', 'main~2');
    remember(dir, 'Rewrite the exporter in Rust', '-t', 'decision');
    expect(decisions(dir).sort()).toEqual([...base, 'Rewrite the exporter in Rust'].sort());
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).toEqual(base);

    git(dir, 'checkout', '-q', 'main~1');
    remember(dir, 'Batch the export queries', '-t', 'decision');
    commit(dir, { 'batch.ts': 'export {}\n' }, 'batching');
    git(dir, 'switch', '-q', '-c', 'batching');
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).toEqual(base);
    git(dir, 'merge', '-q', '--no-ff', '-m', 'merge batching', 'batching');
    expect(decisions(dir).sort()).toEqual([...base, 'Batch the export queries'].sort());

    git(dir, 'checkout', '-q', 'main~1');
    remember(dir, 'Cache the export templates', '-t', 'decision');
    git(dir, 'switch', '-q', '-c', 'templates');
    expect(decisions(dir)).toContain('Cache the export templates');
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).not.toContain('Cache the export templates');
    git(dir, 'checkout', '-q', 'templates');
    commit(dir, { 'templates.ts': 'export {}\n' }, 'templates');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'merge', '-q', '--no-ff', '-m', 'merge templates', 'templates');
    expect(decisions(dir).sort()).toEqual([...base, 'Batch the export queries', 'Cache the export templates'].sort());
    expect(decisions(dir, '--all')).toContain('Rewrite the exporter in Rust');
  });

  it('a detached HEAD\'s experiment left without a commit stays off when a later stay at the same commit is committed and carried onto a branch', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    for (const n of [1, 2]) commit(dir, { [`c${n}.ts`]: 'export {}\n' }, `c${n}`);
    git(dir, 'checkout', '-q', 'main~1');
    remember(dir, 'Abandoned experiment: run the scripts with bun', '-t', 'decision');
    git(dir, 'checkout', '-q', 'main');
    execFileSync('sleep', ['1.1']); // the reflog keeps whole seconds: a stay a second later is one git can tell apart
    git(dir, 'checkout', '-q', 'main~1');
    remember(dir, 'Run the scripts with deno', '-t', 'decision');
    commit(dir, { 'deno.json': '{}\n' }, 'deno');
    git(dir, 'switch', '-q', '-c', 'deno');
    expect(decisions(dir)).toEqual(['Run the scripts with deno']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'scripts']).map((h) => h.content)).toEqual(['Run the scripts with deno']);
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'merge', '-q', '--no-ff', '-m', 'merge deno', 'deno');
    expect(decisions(dir)).toEqual(['Run the scripts with deno']);
  });

  it('what was decided at a rebase\'s stop stays with the branch when the rebase is given up (--abort), and off main', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    git(dir, 'checkout', '-q', '-b', 'feature');
    for (const n of [1, 2]) commit(dir, { [`f${n}.ts`]: 'export {}\n' }, `f${n}`);
    git(dir, 'checkout', '-q', 'main');
    commit(dir, { 'm.ts': 'export {}\n' }, 'main moves');
    git(dir, 'checkout', '-q', 'feature');
    execFileSync('git', ['rebase', '-q', '-i', 'main'], { cwd: dir, env: { ...process.env, GIT_SEQUENCE_EDITOR: "sed -i '1s/^pick/edit/'" }, stdio: 'pipe' });
    remember(dir, 'Keep the retry loop in the client', '-t', 'decision'); // HEAD detached at the stop
    git(dir, 'rebase', '--abort');
    expect(decisions(dir)).toEqual(['Keep the retry loop in the client']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'retry loop']).map((h) => h.content)).toEqual(['Keep the retry loop in the client']);
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).toEqual([]);
  });

  it('a decision made on a new branch before its first commit stays off main (also from a linked worktree) until that branch\'s work is merged', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    remember(dir, 'Use Postgres for storage', '-t', 'decision');
    git(dir, 'checkout', '-q', '-b', 'feature');
    remember(dir, 'Expose the API over GraphQL', '-t', 'decision');
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).toEqual(['Use Postgres for storage']);
    const side = join(tempDir(), 'side');
    git(dir, 'worktree', 'add', '-q', '-b', 'side', side);
    remember(side, 'Render charts on the server', '-t', 'decision');
    expect(decisions(dir)).toEqual(['Use Postgres for storage']);
    expect(decisions(side).sort()).toEqual(['Render charts on the server', 'Use Postgres for storage']);

    git(dir, 'checkout', '-q', 'feature');
    commit(dir, { 'schema.graphql': 'type Query { ok: Boolean }\n' }, 'graphql schema');
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).toEqual(['Use Postgres for storage']);
    git(dir, 'merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
    expect(decisions(dir).sort()).toEqual(['Expose the API over GraphQL', 'Use Postgres for storage']);
  });

  it('a feature merged by fast-forward brings to main what it decided after its last commit, while the branch still exists (search too)', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    git(dir, 'checkout', '-q', '-b', 'feature');
    remember(dir, 'Cache sessions in Redis', '-t', 'decision');
    commit(dir, { 'cache.ts': 'export {}\n' }, 'add cache');
    remember(dir, 'Expire cached sessions after 30 minutes', '-t', 'decision');
    git(dir, 'checkout', '-q', '-b', 'untouched', 'main');
    remember(dir, 'Try GraphQL subscriptions', '-t', 'decision');
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).toEqual([]);
    git(dir, 'merge', '-q', '--ff-only', 'feature');
    expect(decisions(dir).sort()).toEqual(['Cache sessions in Redis', 'Expire cached sessions after 30 minutes']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'session expiry']).map((h) => h.content)).toContain('Expire cached sessions after 30 minutes');
    // A branch with no commit of its own still keeps what it decided off main.
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'GraphQL subscriptions'])).toEqual([]);
  });

  it('a branch deleted and made again under the same name does not inherit what the old one decided (search too)', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    git(dir, 'checkout', '-q', '-b', 'spike');
    commit(dir, { 'spike.go': 'package main\n' }, 'spike');
    remember(dir, 'Rewrite the API in Go', '-t', 'decision');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'branch', '-q', '-D', 'spike');
    commit(dir, { 'README.md': '# app\nmore\n' }, 'later work on main');
    git(dir, 'checkout', '-q', '-b', 'spike');
    remember(dir, 'Keep the API in TypeScript', '-t', 'decision');
    expect(decisions(dir)).toEqual(['Keep the API in TypeScript']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'rewrite API Go']).map((h) => h.content)).not.toContain('Rewrite the API in Go');
    expect(decisions(dir, '--all').sort()).toEqual(['Keep the API in TypeScript', 'Rewrite the API in Go']);
  });

  it('a branch this clone never had (a teammate\'s, not pushed) keeps what it decided at its branch point off main, its supersessions too', () => {
    const { clone } = sharedRemote();
    const alice = clone('alice');
    commit(alice, { 'README.md': '# app\n' }, 'init');
    cortex(alice, ['init', '--no-claude', '--no-git']);
    const opaque = remember(alice, 'Session tokens are opaque random values', '-t', 'decision').id;
    git(alice, 'push', '-q', 'origin', 'main');
    expect(cortex(alice, ['sync']).code).toBe(0);

    const bob = clone('bob');
    cortex(bob, ['init', '--no-claude', '--no-git']);
    git(bob, 'checkout', '-q', '-b', 'feat/jwt');
    remember(bob, 'Switch session tokens to JWTs', '-t', 'decision', '--supersedes', opaque);
    commit(bob, { 'jwt.ts': 'export {}\n' }, 'jwt experiment, not pushed');
    git(bob, 'checkout', '-q', 'main');
    expect(cortex(bob, ['sync']).code).toBe(0); // the journal travels, feat/jwt does not

    expect(cortex(alice, ['sync']).code).toBe(0);
    expect(decisions(alice)).toEqual(['Session tokens are opaque random values']);
    expect(decisions(alice, '--all')).toContain('Switch session tokens to JWTs'); // every branch: the supersession counts there
  });

  it('a branch deleted after a fast-forward merge keeps its decisions on main; one deleted unmerged before its first commit leaves none behind', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    git(dir, 'checkout', '-q', '-b', 'feature');
    commit(dir, { 'cache.ts': 'export {}\n' }, 'add cache');
    remember(dir, 'Cache with an LRU of 1,000 entries', '-t', 'decision');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'merge', '-q', '--ff-only', 'feature');
    git(dir, 'branch', '-q', '-d', 'feature');
    expect(decisions(dir)).toEqual(['Cache with an LRU of 1,000 entries']);

    git(dir, 'checkout', '-q', '-b', 'abandoned');
    remember(dir, 'Rewrite the cache in Rust', '-t', 'decision');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'branch', '-q', '-D', 'abandoned');
    expect(decisions(dir)).toEqual(['Cache with an LRU of 1,000 entries']);
  });

  it('a renamed branch keeps its decisions, on itself and on main once merged (search too)', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    git(dir, 'checkout', '-q', '-b', 'feature');
    commit(dir, { 'cache.ts': 'export {}\n' }, 'add cache');
    remember(dir, 'Use SQLite for the cache', '-t', 'decision');
    git(dir, 'branch', '-m', 'feature', 'feat2');
    expect(decisions(dir)).toEqual(['Use SQLite for the cache']);
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).toEqual([]);
    git(dir, 'branch', '-m', 'feat2', 'feat3'); // renamed again, while not checked out
    git(dir, 'merge', '-q', '--ff-only', 'feat3');
    expect(decisions(dir)).toEqual(['Use SQLite for the cache']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'SQLite cache']).map((h) => h.content)).toContain('Use SQLite for the cache');
  });

  it('a branch merged by fast-forward and deleted keeps its decisions on main while origin still has it', () => {
    const { clone } = sharedRemote();
    const dir = clone('dev');
    commit(dir, { 'README.md': '# app\n' }, 'init');
    cortex(dir, ['init', '--no-claude', '--no-git']);
    git(dir, 'push', '-q', '-u', 'origin', 'main');
    git(dir, 'checkout', '-q', '-b', 'feature');
    commit(dir, { 'logs.ts': 'export {}\n' }, 'logs');
    remember(dir, 'Compress logs with lz4', '-t', 'decision');
    git(dir, 'push', '-q', '-u', 'origin', 'feature');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'merge', '-q', '--ff-only', 'feature');
    git(dir, 'branch', '-q', '-d', 'feature');
    expect(decisions(dir)).toEqual(['Compress logs with lz4']);
  });

  it('a branch brought up to date with main by fast-forward or rebase, with no commit of its own, keeps what it decided off main', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    git(dir, 'branch', 'ff');
    git(dir, 'branch', 'rebased');
    commit(dir, { 'a.ts': 'export {}\n' }, 'main moves on');
    git(dir, 'checkout', '-q', 'ff');
    git(dir, 'merge', '-q', '--ff-only', 'main');
    remember(dir, 'Try Cassandra for events', '-t', 'decision');
    git(dir, 'checkout', '-q', 'rebased');
    git(dir, 'rebase', '-q', 'main');
    remember(dir, 'Try MongoDB for events', '-t', 'decision');
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).toEqual([]);
    git(dir, 'checkout', '-q', 'ff');
    expect(decisions(dir)).toEqual(['Try Cassandra for events']);
  });

  it('a clone whose trunk has another name (origin\'s HEAD: dev) shows the trunk\'s decisions on a feature branch', () => {
    const { clone, bare } = sharedRemote();
    const alice = clone('alice');
    git(alice, 'checkout', '-q', '-b', 'dev');
    commit(alice, { 'README.md': '# app\n' }, 'init');
    cortex(alice, ['init', '--no-claude', '--no-git']);
    remember(alice, 'All services log JSON', '-t', 'decision');
    git(alice, 'push', '-q', 'origin', 'dev');
    expect(cortex(alice, ['sync']).code).toBe(0);
    git(bare, 'symbolic-ref', 'HEAD', 'refs/heads/dev');

    const bob = clone('bob');
    cortex(bob, ['init', '--no-claude', '--no-git']);
    expect(decisions(bob)).toEqual(['All services log JSON']);
    git(bob, 'checkout', '-q', '-b', 'feature');
    commit(bob, { 'b.ts': 'export {}\n' }, 'feature work');
    expect(decisions(bob)).toEqual(['All services log JSON']);
  });

  it('a shallow clone (--depth 1, as CI makes) shows a merged feature\'s decisions, though it lacks the commits they were recorded at', () => {
    const { clone, bare, root } = sharedRemote();
    const alice = clone('alice');
    commit(alice, { 'README.md': '# app\n' }, 'init');
    cortex(alice, ['init', '--no-claude', '--no-git']);
    remember(alice, 'Use Postgres for storage', '-t', 'decision');
    git(alice, 'checkout', '-q', '-b', 'feature');
    commit(alice, { 'events.ts': 'export {}\n' }, 'events');
    remember(alice, 'Stream events through Kafka', '-t', 'decision');
    commit(alice, { 'events2.ts': 'export {}\n' }, 'events 2');
    git(alice, 'checkout', '-q', 'main');
    git(alice, 'merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
    git(alice, 'push', '-q', 'origin', 'main');
    expect(cortex(alice, ['sync']).code).toBe(0);

    const shallow = join(root, 'shallow');
    git(root, 'clone', '-q', '--depth', '1', `file://${bare}`, shallow);
    git(shallow, 'config', 'user.email', 'ci@example.com');
    cortex(shallow, ['init', '--no-claude', '--no-git']);
    expect(decisions(shallow).sort()).toEqual(['Stream events through Kafka', 'Use Postgres for storage']);
  });

  it('what a feature decided where it branched stays off main when its base moves: a rebase, a fast-forward onto main (diff too)', () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    const mysql = remember(dir, 'Use MySQL for storage', '-t', 'decision').id;
    git(dir, 'checkout', '-q', '-b', 'rebased');
    remember(dir, 'Use Postgres for storage', '-t', 'decision', '--supersedes', mysql);
    commit(dir, { 'pg.ts': 'export {}\n' }, 'postgres');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'checkout', '-q', '-b', 'caught-up');
    remember(dir, 'Cache sessions in Redis', '-t', 'decision');
    git(dir, 'checkout', '-q', 'main');
    commit(dir, { 'a.ts': 'export {}\n' }, 'main moves on');
    git(dir, 'checkout', '-q', 'rebased');
    git(dir, 'rebase', '-q', 'main');
    git(dir, 'checkout', '-q', 'caught-up');
    git(dir, 'merge', '-q', '--ff-only', 'main');
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).toEqual(['Use MySQL for storage']);
    expect(cortex(dir, ['diff', 'main...rebased']).stdout).toContain('+ Use Postgres for storage');
    git(dir, 'checkout', '-q', 'rebased');
    expect(decisions(dir)).toEqual(['Use Postgres for storage']);
  });

  /** A feature of two commits, a decision recorded after each: what a squash must keep. */
  const twoDecisionFeature = (): string => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    git(dir, 'checkout', '-q', '-b', 'feature');
    commit(dir, { 'a.ts': 'export {}\n' }, 'c1');
    remember(dir, 'Parse the feed with a streaming reader', '-t', 'decision');
    commit(dir, { 'b.ts': 'export {}\n' }, 'c2');
    remember(dir, 'Retry the feed with exponential backoff', '-t', 'decision');
    return dir;
  };
  const both = ['Parse the feed with a streaming reader', 'Retry the feed with exponential backoff'];

  it('a branch squashed with git reset --soft and a new commit keeps its decisions, and brings them to main when merged; work reset away with --hard does not', () => {
    const dir = twoDecisionFeature();
    git(dir, 'reset', '-q', '--soft', 'main');
    git(dir, 'commit', '-q', '-m', 'feature, squashed');
    expect(decisions(dir).sort()).toEqual(both);
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).toEqual([]);
    git(dir, 'merge', '-q', '--no-ff', '-m', 'merge feature', 'feature');
    expect(decisions(dir).sort()).toEqual(both);

    commit(dir, { 'c.ts': 'export {}\n' }, 'wip');
    remember(dir, 'Shard the cache by tenant', '-t', 'decision');
    git(dir, 'reset', '-q', '--hard', 'HEAD~1');
    commit(dir, { 'd.ts': 'export {}\n' }, 'other work');
    expect(decisions(dir).sort()).toEqual(both);
  });

  it('a squash made of two resets (HEAD~1, then HEAD~1 again) and one commit keeps the decisions of both commits it replaced', () => {
    const dir = twoDecisionFeature();
    commit(dir, { 'c.ts': 'export {}\n' }, 'c3');
    git(dir, 'reset', '-q', '--soft', 'HEAD~1');
    git(dir, 'reset', '-q', '--soft', 'HEAD~1');
    git(dir, 'commit', '-q', '-m', 'c2 and c3, squashed');
    expect(decisions(dir).sort()).toEqual(both);
  });

  it('a rebase stopped on a conflict shows the memory of the branch being rebased, its commits not yet replayed included', () => {
    const dir = tempRepo({ files: { 'code.txt': 'base\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    git(dir, 'checkout', '-q', '-b', 'feature');
    remember(dir, 'Parse the code with a streaming reader', '-t', 'decision');
    commit(dir, { 'code.txt': 'feature\n' }, 'feature edits code');
    remember(dir, 'Buffer at most 64 KB', '-t', 'decision');
    git(dir, 'checkout', '-q', 'main');
    commit(dir, { 'code.txt': 'main\n' }, 'main edits code');
    git(dir, 'checkout', '-q', 'feature');
    expect(spawnSync('git', ['rebase', 'main'], { cwd: dir }).status).not.toBe(0); // stopped on the conflict
    expect(decisions(dir).sort()).toEqual(['Buffer at most 64 KB', 'Parse the code with a streaming reader']);
    git(dir, 'rebase', '--abort');
  });

  it('in a teammate\'s clone, a branch fetched from origin keeps its decisions at the commits it made: on a branch made from it, and on main after a fast-forward merge', () => {
    const { clone } = sharedRemote();
    const alice = clone('alice');
    commit(alice, { 'README.md': '# app\n' }, 'init');
    cortex(alice, ['init', '--no-claude', '--no-git']);
    git(alice, 'push', '-q', 'origin', 'main');
    git(alice, 'checkout', '-q', '-b', 'release/1.0');
    remember(alice, 'Release: decided at its branch point', '-t', 'decision');
    commit(alice, { 'r1.txt': 'r1\n' }, 'r1');
    remember(alice, 'Release: decided at r1', '-t', 'decision');
    commit(alice, { 'r2.txt': 'r2\n' }, 'r2');
    git(alice, 'push', '-q', 'origin', 'release/1.0');
    expect(cortex(alice, ['sync']).code).toBe(0);

    const bob = clone('bob');
    cortex(bob, ['init', '--no-claude', '--no-git']);
    git(bob, 'checkout', '-q', 'release/1.0');
    git(bob, 'checkout', '-q', '-b', 'hotfix');
    expect(decisions(bob).sort()).toEqual(['Release: decided at its branch point', 'Release: decided at r1']);
    git(bob, 'checkout', '-q', 'main');
    git(bob, 'merge', '-q', '--ff-only', 'origin/release/1.0');
    expect(decisions(bob).sort()).toEqual(['Release: decided at its branch point', 'Release: decided at r1']);
  });

  it('rebase --onto past a deleted branch does not bring that branch\'s decisions to main', () => {
    const env = cortexOnPath(tempDir());
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude']);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'cortex init');
    git(dir, 'checkout', '-q', '-b', 'spike');
    remember(dir, 'Spike: decided at its fork', '-t', 'decision');
    commit(dir, { 'a1.txt': 'a1\n' }, 'a1');
    remember(dir, 'Spike: decided at a1', '-t', 'decision');
    commit(dir, { 'a2.txt': 'a2\n' }, 'a2');
    git(dir, 'checkout', '-q', '-b', 'keep');
    commit(dir, { 'b1.txt': 'b1\n' }, 'b1');
    git(dir, 'checkout', '-q', 'main');
    commit(dir, { 'm1.txt': 'm1\n' }, 'm1');
    git(dir, 'branch', '-q', '-D', 'spike');
    execFileSync('git', ['rebase', '-q', '--onto', 'main', 'keep~1', 'keep'], { cwd: dir, env, stdio: 'pipe' }); // post-rewrite runs
    git(dir, 'checkout', '-q', 'main');
    expect(decisions(dir)).toEqual([]);
  });

  it('what main had decided when a branch was made from it stays on the branch after main moves on; what main decided later does not come', async () => {
    const dir = tempRepo({ files: { 'README.md': '# app\n' } });
    cortex(dir, ['init', '--no-claude', '--no-git']);
    remember(dir, 'Use Postgres for storage', '-t', 'decision');
    await new Promise((r) => setTimeout(r, 1100)); // the reflog keeps whole seconds
    git(dir, 'checkout', '-q', '-b', 'feature');
    commit(dir, { 'f1.txt': 'f1\n' }, 'f1');
    await new Promise((r) => setTimeout(r, 1100));
    git(dir, 'checkout', '-q', 'main');
    remember(dir, 'Cache sessions in Redis', '-t', 'decision');
    commit(dir, { 'm1.txt': 'm1\n' }, 'm1');
    git(dir, 'checkout', '-q', 'feature');
    expect(decisions(dir)).toEqual(['Use Postgres for storage']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'Postgres storage']).map((h) => h.content)).toContain('Use Postgres for storage');
  });

  it('decisions recorded before a repository\'s first commit show on every branch made from it', () => {
    const dir = tempDir();
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.email', 'dev@example.com');
    git(dir, 'config', 'user.name', 'Dev');
    cortex(dir, ['init', '--no-claude', '--no-git']);
    remember(dir, 'Chose Postgres over MySQL', '-t', 'decision');
    commit(dir, { 'a.txt': '1' }, 'first');
    git(dir, 'checkout', '-q', '-b', 'feature');
    expect(decisions(dir)).toEqual(['Chose Postgres over MySQL']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'postgres']).map((h) => h.content)).toEqual(['Chose Postgres over MySQL']);
    // A history that did not begin there does not see them.
    git(dir, 'checkout', '-q', '--orphan', 'elsewhere');
    commit(dir, { 'b.txt': '1' }, 'unrelated root');
    expect(decisions(dir)).toEqual([]);
  });

  it('decisions made on main before branching show on the branch; an old commit sees what was decided up to it', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    remember(dir, 'Tabs, not spaces', '-t', 'decision');
    commit(dir, { 'a.txt': '2' }, 'two');
    const second = git(dir, 'rev-parse', 'HEAD').trim();
    remember(dir, 'Squash merges only', '-t', 'decision');
    commit(dir, { 'a.txt': '3' }, 'three');
    git(dir, 'checkout', '-q', '-b', 'topic');
    expect(decisions(dir).sort()).toEqual(['Squash merges only', 'Tabs, not spaces']);
    // Each decision was made while HEAD was at the commit before the one that followed it.
    git(dir, 'checkout', '-q', '--detach', second);
    expect(decisions(dir)).toEqual(['Tabs, not spaces']);
  });

  it('memory imported from a repository whose trunk has another name (main, master, trunk) sits on this trunk beside this repository\'s own, unless both names are branches here', () => {
    const foreign = 'f'.repeat(40); // a commit of the repository the memory came from
    const lines = ['main', 'feature'].map((branch) => JSON.stringify({ type: 'decision', content: `Decided on ${branch}`, branch, commit: foreign }));
    /** A repository whose trunk is `trunk`, with memory of its own and that memory imported. */
    const importedOnTrunk = (trunk: string) => {
      const dir = tempDir();
      git(dir, 'init', '-q', '-b', trunk);
      git(dir, 'config', 'user.email', 'dev@example.com');
      commit(dir, { 'a.txt': '1' }, 'one');
      remember(dir, 'Decided here', '--type', 'decision');
      writeFileSync(join(dir, 'memory.jsonl'), `${lines.join('\n')}\n`);
      expect(cortex(dir, ['import', 'memory.jsonl']).code).toBe(0);
      return dir;
    };
    const dir = importedOnTrunk('master');
    expect(decisions(dir).sort()).toEqual(['Decided here', 'Decided on main']); // the feature branch's stays off the trunk
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'decided']).map((h) => h.content).sort()).toEqual(['Decided here', 'Decided on main']);
    expect(cortexJson<BriefingJson>(dir, ['briefing']).markdown).toContain('Decided on main');
    git(dir, 'branch', 'main'); // now "main" is a branch of this repository, and not the one checked out
    expect(decisions(dir)).toEqual(['Decided here']);

    // A trunk called "trunk" is a trunk too.
    expect(decisions(importedOnTrunk('trunk')).sort()).toEqual(['Decided here', 'Decided on main']);
  });

  it('memory none of whose commits this repository has (moved here from another repository) all shows: ancestry cannot place it', () => {
    const dir = tempDir();
    git(dir, 'init', '-q', '-b', 'master');
    git(dir, 'config', 'user.email', 'dev@example.com');
    commit(dir, { 'a.txt': '1' }, 'one');
    const lines = [
      { type: 'decision', content: 'Stripe for billing, on a feature branch', branch: 'feature/billing', commit: 'f'.repeat(40) },
      { type: 'decision', content: 'Postgres for the ledger, on main', branch: 'main', commit: 'e'.repeat(40) },
      { type: 'learned', content: 'Stripe webhooks retry for three days', branch: 'develop' }, // a branch, no commit
    ];
    writeFileSync(join(dir, 'memory.jsonl'), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    expect(cortex(dir, ['import', 'memory.jsonl']).code).toBe(0);
    // What the line said of its place is kept, and what it left out is unknown, not this HEAD.
    expect(cortexJson<Array<{ branch: string | null; commit: string | null }>>(dir, ['log']).map((e) => [e.branch, e.commit])).toContainEqual(['develop', null]);
    expect(decisions(dir).sort()).toEqual(['Postgres for the ledger, on main', 'Stripe for billing, on a feature branch']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'stripe']).map((h) => h.content).sort()).toEqual(['Stripe for billing, on a feature branch', 'Stripe webhooks retry for three days']);
    expect(cortexJson<BriefingJson>(dir, ['briefing']).markdown).toContain('Stripe for billing');

    // Once this repository records memory of its own, alignment applies to all of it again.
    remember(dir, 'Decided here', '--type', 'decision');
    expect(decisions(dir).sort()).toEqual(['Decided here', 'Postgres for the ledger, on main']);
  });
});

describe('changing memory', () => {
  it('a forgotten or superseded decision never appears as current, in the briefing or the files', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const rest = remember(dir, 'Use REST for the public API', '-t', 'decision');
    const mongo = remember(dir, 'Use MongoDB for events', '-t', 'decision');
    expect(cortex(dir, ['forget', mongo.id.slice(0, 10), '--why', 'we went relational']).code).toBe(0);
    expect(cortex(dir, ['remember', 'Use GraphQL for the public API', '-t', 'decision', '--supersedes', rest.id]).code).toBe(0);

    expect(decisions(dir)).toEqual(['Use GraphQL for the public API']);
    const md = cortexJson<BriefingJson>(dir, ['briefing']).markdown;
    expect(md).not.toContain('MongoDB');
    // Shown only as what its replacement replaced.
    expect(md).not.toMatch(/^- \*\*Use REST/m);
    expect(md).toContain('- **Use GraphQL for the public API** (replaces “Use REST for the public API”) _(');
    expect(cortex(dir, ['projections', '--write']).code).toBe(0);
    const file = readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8');
    expect(file).toContain('Use GraphQL for the public API');
    expect(file).not.toContain('MongoDB');
    expect(file).not.toContain('Use REST');
    expect(readFileSync(join(dir, '.cortex', 'decisions-archive.md'), 'utf8')).toContain('Use REST for the public API');
  });

  it('the short ids log --oneline prints (the last 8 characters of an id, as diff --markdown shows) work with forget and remember --supersedes, in any case', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    remember(dir, 'Use Redis for sessions', '-t', 'decision');
    remember(dir, 'Use REST for the public API', '-t', 'decision');
    const shortIds = cortex(dir, ['log', '--oneline']).stdout.trim().split('\n').map((line) => line.split(' ')[0] as string);
    const [restShort, redisShort] = shortIds as [string, string];
    expect(restShort).toHaveLength(8);
    expect(cortex(dir, ['forget', redisShort.toLowerCase()])).toMatchObject({ code: 0, stdout: expect.stringContaining('Use Redis for sessions') });
    expect(cortex(dir, ['remember', 'Use GraphQL for the public API', '-t', 'decision', '--supersedes', restShort]).code).toBe(0);
    expect(decisions(dir)).toEqual(['Use GraphQL for the public API']);
  });

  it('forgetting one memory from 10 processes at once records one retraction', async () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const { id } = remember(dir, 'Use Redis for sessions', '-t', 'decision');
    const runs = await Promise.all(Array.from({ length: 10 }, () => cortexAsync(dir, ['forget', id])));
    expect(runs.map((r) => r.code)).toEqual(Array(10).fill(0));
    expect(runs.filter((r) => r.stdout.startsWith('already forgotten'))).toHaveLength(9);
    expect(cortexJson<Array<{ type: string }>>(dir, ['log']).filter((e) => e.type === 'event_retracted')).toHaveLength(1);
  });

  it('an id that could be either of two memories is refused in one line that names both', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const ids = ['01JA000000AAAAAAAAAAXYZ123', '01JB000000BBBBBBBBBBXYZ123'];
    cortex(dir, ['import', '-'], { input: ids.map((id, i) => JSON.stringify({ id, type: 'decision', content: `Decision ${i}` })).join('\n') });
    const before = git(dir, 'rev-parse', 'cortex/journal');
    const ambiguous = cortex(dir, ['forget', 'xyz123']);
    expect(ambiguous).toMatchObject({ code: 1, stderr: expect.stringMatching(/^cortex: xyz123 matches 2 memories \(01JA000000AAAAAAAAAAXYZ123, 01JB000000BBBBBBBBBBXYZ123\); give more .*\n$/) });
    expect(git(dir, 'rev-parse', 'cortex/journal')).toBe(before);
    // An id given whole names its memory, even where it starts another's.
    cortex(dir, ['import', '-'], { input: ['deploy-note-1', 'deploy-note-10'].map((id) => JSON.stringify({ id, type: 'decision', content: `Note ${id}` })).join('\n') });
    expect(cortex(dir, ['forget', 'deploy-note-1'])).toMatchObject({ code: 0, stdout: 'forgot decision_made deploy-note-1: Note deploy-note-1\n' });
  });

  it('remember --supersedes refuses a memory that is not a decision, a forgotten one, or one already superseded, and stores nothing', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const learned = remember(dir, 'The CI cache is keyed by the lockfile', '-t', 'learned');
    const forgotten = remember(dir, 'Use MongoDB for events', '-t', 'decision');
    cortex(dir, ['forget', forgotten.id]);
    const rest = remember(dir, 'Use REST for the public API', '-t', 'decision');
    remember(dir, 'Use GraphQL for the public API', '-t', 'decision', '--supersedes', rest.id);
    const before = git(dir, 'rev-parse', 'cortex/journal');

    const refusals = [
      [['remember', 'Key it by the commit', '-t', 'decision', '--supersedes', learned.id], /is a knowledge_acquired, not a decision/],
      [['remember', 'Use Postgres for events', '-t', 'decision', '--supersedes', forgotten.id], /was forgotten/],
      [['remember', 'Use gRPC for the public API', '-t', 'decision', '--supersedes', rest.id], /already superseded by \S+: supersede that one instead/],
      [['remember', 'gRPC streams are fast', '-t', 'learned', '--supersedes', rest.id], /--supersedes replaces a decision/],
      // An empty shell variable: stored with nothing replaced, it would leave two decisions in force.
      [['remember', 'Use SOAP for the public API', '-t', 'decision', '--supersedes', ''], /^cortex: --supersedes was given no id \(an empty variable\?\): give the id of the decision this one replaces/],
    ] as const;
    for (const [args, message] of refusals) {
      const run = cortex(dir, [...args]);
      expect(run.code).not.toBe(0);
      expect(run.stderr).toMatch(message);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(git(dir, 'rev-parse', 'cortex/journal')).toBe(before);
    expect(decisions(dir)).toEqual(['Use GraphQL for the public API']);
    expect(cortex(dir, ['remember', 'Use SOAP for the public API', '-t', 'decision', '--supersedes', '  ']).code).toBe(2);
  });

  it('forget refuses a retraction, an edit or a supersession (forgetting one would change nothing), says what to do instead, and stores nothing', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const postgres = remember(dir, 'Use Postgres for storage', '-t', 'decision');
    cortex(dir, ['forget', postgres.id]);
    const rest = remember(dir, 'Use REST for the public API', '-t', 'decision');
    const graphql = remember(dir, 'Use GraphQL for the public API', '-t', 'decision', '--supersedes', rest.id);
    const redis = remember(dir, 'Cache sessions in Redis', '-t', 'decision');
    cortex(dir, ['import', '-'], { input: JSON.stringify({ type: 'event_amended', content: 'Cache sessions in Redis, 1 h TTL', meta: { target: redis.id } }) });
    const ofType = (type: string) => cortexJson<Array<{ id: string }>>(dir, ['log', '--type', type])[0]?.id as string;
    const [retraction, edit, supersession] = [ofType('event_retracted'), ofType('event_amended'), ofType('decision_superseded')];
    const before = git(dir, 'rev-parse', 'cortex/journal');

    const refusals = [
      [retraction, `cortex: ${retraction} is the retraction of ${postgres.id}, not a memory, and undoing one is not supported; to have that memory back, remember it again: cortex remember "Use Postgres for storage" --type decision\n`],
      [edit, `cortex: ${edit} is an edit of ${redis.id}, not a memory, and undoing one is not supported; to drop the memory, cortex forget ${redis.id}\n`],
      [supersession.slice(-8), `cortex: ${supersession} records that ${graphql.id} superseded ${rest.id}, and undoing one is not supported; to have ${rest.id} in force again, remember it again: cortex remember "Use REST for the public API" --type decision\n`],
    ];
    for (const [id, message] of refusals) expect(cortex(dir, ['forget', id as string])).toEqual({ code: 1, stdout: '', stderr: message });
    expect(git(dir, 'rev-parse', 'cortex/journal')).toBe(before);
    expect(decisions(dir).sort()).toEqual(['Cache sessions in Redis, 1 h TTL', 'Use GraphQL for the public API']);

    // What it says to do does it.
    expect(cortex(dir, ['remember', 'Use Postgres for storage', '--type', 'decision']).code).toBe(0);
    expect(decisions(dir)).toContain('Use Postgres for storage');
  });

  it('a plan stored with remember has steps: from --step, from the list in its text, or from its parts between semicolons', () => {
    type PlanJson = { title: string; current: number; steps: Array<{ text: string; done: boolean }> };
    const steps = (dir: string) => cortexJson<PlanJson>(dir, ['plan']).steps.map((s) => s.text);
    const given = tempRepo({ files: { 'a.txt': '1' } });
    remember(given, 'Move sessions to Redis', '-t', 'plan', '--step', 'add the Redis client', '--step', 'dual-write sessions');
    expect(steps(given)).toEqual(['add the Redis client', 'dual-write sessions']);
    remember(given, 'add the Redis client', '-t', 'step');
    expect(cortexJson<PlanJson>(given, ['plan']).current).toBe(2);

    const listed = tempRepo({ files: { 'a.txt': '1' } });
    remember(listed, 'Auth rework:\n1. add the users table\n2. wire the login form', '-t', 'plan');
    expect(steps(listed)).toEqual(['add the users table', 'wire the login form']);

    const inline = tempRepo({ files: { 'a.txt': '1' } });
    remember(inline, 'Plan: write the parser; add the CLI flag; document it', '-t', 'plan');
    expect(steps(inline)).toEqual(['write the parser', 'add the CLI flag', 'document it']);

    expect(cortex(inline, ['remember', 'Use Redis', '-t', 'decision', '--step', 'x'])).toMatchObject({ code: 2, stderr: 'cortex: --step is for a plan: add --type plan\n' });
  });

  it('forget says what to do with an unknown or ambiguous id, and stores nothing', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    remember(dir, 'One', '-t', 'decision');
    const before = git(dir, 'rev-parse', 'cortex/journal');
    const unknown = cortex(dir, ['forget', 'ZZZZZZZZ']);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringMatching(/^cortex: no memory with id ZZZZZZZZ .*\n$/) });
    expect(cortex(dir, ['forget', '01']).stderr).toMatch(/at least 6 characters/);
    expect(git(dir, 'rev-parse', 'cortex/journal')).toBe(before);
  });
});

describe('a decision reversed in a later session (QA6 HIGH-1)', () => {
  // Two Claude Code sessions through the real Stop hook, with transcripts in the 2.x shape.
  const stop = (dir: string, sessionId: string, lines: object[]) => {
    const transcript = join(tempDir(), `${sessionId}.jsonl`);
    writeFileSync(transcript, session(lines));
    const payload = { session_id: sessionId, transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false, permission_mode: 'default' };
    expect(cortex(dir, ['hook', 'stop'], { input: JSON.stringify(payload), env: { CORTEX_FOREGROUND: '1' } }).code).toBe(0);
  };
  const section = (md: string, title: string) => (md.includes(`## ${title}`) ? md.slice(md.indexOf(`## ${title}`)).split(/\n## /)[0] as string : '');

  it('retires the replaced decision and lifts the reconsidered rejection, in the briefing, decisions, the tracked files and the diff', () => {
    const dir = tempRepo({ files: { 'src/auth.ts': 'a' } });
    stop(dir, '10000000-0000-4000-8000-000000000001', [
      assistant('Going with JWT access tokens rather than server-side sessions, since the API is stateless.\n\nI considered Redis for the session store, but it would add another piece of infrastructure to run.\n\nRuled out Passport.js: too much indirection for three routes.'),
    ]);
    commit(dir, { 'src/auth.ts': 'jwt' }, 'jwt auth');
    const before = cortexJson<DecisionJson[]>(dir, ['decisions']);
    expect(before.map((d) => d.type).sort()).toEqual(['approach_rejected', 'approach_rejected', 'decision_made']);

    stop(dir, '20000000-0000-4000-8000-000000000002', [
      assistant('Switched from JWT to server-side sessions stored in Redis, because security needs instant revocation.\n\n[MEMORY: decision] Sessions are now server-side in Redis, replacing JWT access tokens, because revocation must be instant.'),
    ]);
    commit(dir, { 'src/session.ts': 'redis' }, 'redis sessions');

    const md = sessionStart(dir, 'startup').stdout;
    expect(section(md, 'Decisions')).not.toContain('Going with JWT');
    expect(section(md, 'Decisions')).toContain('- **Switched from JWT to server-side sessions stored in Redis');
    expect(section(md, 'Rejected approaches (do not propose again without a new reason)')).toContain('Ruled out Passport.js');
    expect(section(md, 'Rejected approaches (do not propose again without a new reason)')).not.toContain('Redis');
    const jwt = before.find((d) => d.content.startsWith('Going with JWT')) as DecisionJson;
    const redis = before.find((d) => d.content.startsWith('I considered Redis')) as DecisionJson;
    expect(cortexJson<DecisionJson[]>(dir, ['decisions']).map((d) => d.id)).not.toEqual(expect.arrayContaining([jwt.id]));

    expect(cortex(dir, ['projections', '--write']).code).toBe(0);
    expect(readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8')).not.toMatch(/Going with JWT|I considered Redis/);
    const archive = readFileSync(join(dir, '.cortex', 'decisions-archive.md'), 'utf8');
    expect(archive).toMatch(/### Going with JWT[^#]*\*\*Superseded\*\* by `\w+`, which reverses it/);
    expect(archive).toMatch(/### I considered Redis[^#]*\*\*Reconsidered:\*\* chosen after all by `\w+`/);

    const diff = cortexJson<{ retired: Array<{ id: string }> }>(dir, ['diff', 'HEAD~1..HEAD']);
    expect(diff.retired.map((r) => r.id).sort()).toEqual([jwt.id, redis.id].sort());

    // A later session takes Passport.js after all: the rejection goes too.
    stop(dir, '30000000-0000-4000-8000-000000000003', [assistant('Going with Passport.js after all rather than hand-written OAuth flows, since we now need Google and GitHub providers.')]);
    expect(section(cortexJson<BriefingJson>(dir, ['briefing']).markdown, 'Rejected approaches (do not propose again without a new reason)')).toBe('');
  });

  it('a tag naming the id the briefing shows retires that decision, whatever its words; the rules Claude reads say how', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    expect(cortex(dir, ['init', '--no-git']).code).toBe(0);
    expect(readFileSync(join(dir, '.claude', 'rules', 'cortex-memory.md'), 'utf8')).toContain('[MEMORY: decision supersedes 6TM5GE6H]');
    stop(dir, '10000000-0000-4000-8000-000000000001', [assistant('[MEMORY: decision] Use REST for the public API, because every client speaks it.')]);
    const briefing = sessionStart(dir, 'startup').stdout;
    expect(briefing).toContain('`[MEMORY: decision supersedes <id>] …`');
    const shortId = /Use REST for the public API, because every client speaks it\.\*\* _\([^)]*, id (\w{8})\)_/.exec(briefing)?.[1] as string;
    expect(shortId).toMatch(/^\w{8}$/);

    stop(dir, '20000000-0000-4000-8000-000000000002', [user('The mobile team needs fewer round trips.'), assistant(`Understood.\n\n**[MEMORY: decision supersedes ${shortId}]** Use GraphQL for the public API, because the mobile app needs one round trip per screen.`)]);
    expect(decisions(dir)).toEqual(['Use GraphQL for the public API, because the mobile app needs one round trip per screen.']);
    const md = sessionStart(dir, 'resume').stdout;
    expect(md).not.toMatch(/^- \*\*Use REST/m);
    expect(md).toContain('(replaces “Use REST for the public API, because every client speaks it.”)');
    const [tag] = cortexJson<Array<{ type: string; meta: Record<string, unknown> }>>(dir, ['log', '--type', 'decision']);
    expect(tag?.meta.supersedes).toEqual([shortId]);
  });

  it('leaves a decision on another topic in force: "Use Redis for caching rather than Postgres" does not retire "Use Postgres rather than MySQL"', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    stop(dir, '10000000-0000-4000-8000-000000000001', [assistant("I'll use Postgres rather than MySQL, since we need transactional DDL.")]);
    stop(dir, '20000000-0000-4000-8000-000000000002', [assistant("I'll use Redis for caching rather than Postgres, since the hot keys are read on every request.")]);
    expect(decisions(dir).sort()).toEqual(["I'll use Postgres rather than MySQL, since we need transactional DDL.", "I'll use Redis for caching rather than Postgres, since the hot keys are read on every request."]);
  });
});

describe('the inferred marker', () => {
  it('cortex decisions marks what a heuristic captured from a session, whatever its confidence, and not a tag or a remembered decision', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const transcript = join(tempDir(), 't.jsonl');
    writeFileSync(transcript, session([assistant("I'll go with Zod rather than Yup since the other forms already use it."), assistant('[MEMORY: decision] Money is integer cents')]));
    expect(cortex(dir, ['hook', 'stop'], { input: JSON.stringify({ session_id: 's1', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop' }), env: { CORTEX_FOREGROUND: '1' } }).code).toBe(0);
    remember(dir, 'Use Postgres advisory locks', '-t', 'decision');
    const lines = cortex(dir, ['decisions']).stdout.split('\n').filter((l) => / decision /.test(l));
    const marked = Object.fromEntries(lines.map((l) => [/\d{4}-\d{2}-\d{2} (.*?)(?: \[|$)/.exec(l)?.[1], l.includes('[inferred]')]));
    expect(marked).toEqual({
      "I'll go with Zod rather than Yup since the other forms already use it.": true,
      'Money is integer cents': false,
      'Use Postgres advisory locks': false,
    });
    // The heuristic's confidence is 0.8: the marker follows how it was captured, not a threshold.
    expect(cortexJson<Array<{ content: string; confidence: number }>>(dir, ['decisions']).find((d) => d.content.startsWith("I'll go with Zod"))?.confidence).toBe(0.8);
  });
});

describe('the plan', () => {
  it('shows the active plan with each step and where the work stands; a finished plan is not active', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const lines = [
      { type: 'plan_created', content: 'Plan: migrate the queue', meta: { plan_id: 'q', steps: ['schema', 'backfill', 'switch reads', 'drop old table'] } },
      { type: 'plan_step_completed', content: 'schema', meta: { plan_id: 'q', step: 1 } },
      { type: 'plan_step_completed', content: 'backfill', meta: { plan_id: 'q', step: '2' } },
    ];
    expect(cortex(dir, ['import', '-'], { input: lines.map((l) => JSON.stringify(l)).join('\n') }).code).toBe(0);
    const plan = cortexJson<{ title: string; current: number; steps: Array<{ text: string; done: boolean }> }>(dir, ['plan']);
    expect(plan).toMatchObject({ title: 'migrate the queue', current: 3 });
    expect(cortex(dir, ['plan']).stdout).toMatch(/→\s+3\. switch reads {2}← you are here/);
    expect(cortexJson<BriefingJson>(dir, ['briefing']).markdown).toMatch(/3\. \*\*→ switch reads\*\* ← you are here/);

    const finish = [3, 4].map((step) => JSON.stringify({ type: 'plan_step_completed', content: `step ${step}`, meta: { plan_id: 'q', step } }));
    cortex(dir, ['import', '-'], { input: finish.join('\n') });
    expect(cortex(dir, ['plan', '--json']).stdout.trim()).toBe('null');
    expect(cortex(dir, ['plan']).stdout).toBe('No plan in progress on this branch.\n');
  });
});

describe('the briefing through the SessionStart hook', () => {
  it('is printed for startup, resume, clear and compact, with a copy in .git/cortex; nothing when memory is empty', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    expect(sessionStart(dir, 'startup')).toMatchObject({ code: 0, stdout: '' });
    remember(dir, 'Use Postgres for storage', '-t', 'decision', '--why', 'we need transactions');
    for (const source of ['startup', 'resume', 'clear', 'compact']) {
      const result = sessionStart(dir, source);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('**Use Postgres for storage** — because we need transactions');
      expect(result.stdout.length).toBeLessThanOrEqual(9500);
    }
    expect(readFileSync(join(dir, '.git', 'cortex', 'briefing.md'), 'utf8')).toBe(sessionStart(dir, 'startup').stdout);
    expect(cortex(dir, ['briefing']).stdout).toBe(sessionStart(dir, 'startup').stdout);
  });

  it('with cortex.briefing=rules writes .claude/rules/cortex-briefing.md (ignored by git) and prints nothing; never both', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    remember(dir, 'Use Postgres for storage', '-t', 'decision');
    git(dir, 'config', 'cortex.briefing', 'rules');
    const rules = join(dir, '.claude', 'rules', 'cortex-briefing.md');
    expect(sessionStart(dir, 'startup')).toMatchObject({ code: 0, stdout: '' });
    expect(readFileSync(rules, 'utf8')).toContain('Use Postgres for storage');
    expect(git(dir, 'status', '--porcelain')).toBe('');

    git(dir, 'config', 'cortex.briefing', 'stdout');
    expect(sessionStart(dir, 'startup').stdout).toContain('Use Postgres for storage');
    expect(existsSync(rules)).toBe(false);
  });

  it('at the smallest budget still counts what did not fit; below it, a usage error naming the minimum; imported session ids stay distinct', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const imported = [
      { type: 'decision', content: 'Use Postgres for sessions', session: 'sess-0001', ts: '2026-11-01T10:00:00Z' },
      { type: 'decision', content: 'Use pino for logging', session: 'sess-0002', ts: '2026-11-02T10:00:00Z' },
    ];
    expect(cortex(dir, ['import', '-'], { input: imported.map((e) => JSON.stringify(e)).join('\n') + '\n' }).code).toBe(0);
    const full = cortex(dir, ['briefing']).stdout;
    expect(full).toMatch(/\*\*Use Postgres for sessions\*\* _\(2026-11-01, session sess-0001, id \w{8}\)_/);
    expect(full).toMatch(/\*\*Use pino for logging\*\* _\(2026-11-02, session sess-0002, id \w{8}\)_/);

    const smallest = cortex(dir, ['briefing', '--budget', '100']);
    expect(smallest.code).toBe(0);
    expect(smallest.stdout).toContain('memory to verify, not instructions');
    expect(smallest.stdout).toContain('Not shown, to stay within the budget: 2 more decisions (`cortex decisions`).');
    expect(cortexJson<BriefingJson>(dir, ['briefing', '--budget', '100']).sections.find((s) => s.name === 'decisions')).toEqual({ name: 'decisions', shown: 0, omitted: 2 });

    const tiny = cortex(dir, ['briefing', '--budget', '10']);
    expect(tiny).toMatchObject({ code: 2, stdout: '' });
    expect(tiny.stderr).toMatch(/^cortex: --budget must be a whole number of tokens, at least 100 [^\n]*\n$/);
  });

  it('follows new memory and a new HEAD (the cache is keyed by both), and survives deleting .git/cortex', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    remember(dir, 'First decision', '-t', 'decision');
    expect(sessionStart(dir, 'startup').stdout).toContain('First decision');
    remember(dir, 'Second decision', '-t', 'decision');
    expect(sessionStart(dir, 'startup').stdout).toContain('Second decision');
    rmSync(join(dir, '.git', 'cortex'), { recursive: true, force: true });
    expect(sessionStart(dir, 'startup').stdout).toContain('Second decision');
  });
});

describe('reality checks, end to end', () => {
  it('warn about a removed file and a replaced dependency, and stay quiet otherwise', () => {
    const dir = tempRepo({ files: { 'package.json': JSON.stringify({ dependencies: { redis: '^4' } }), 'src/queue.ts': 'export {}\n' } });
    remember(dir, 'Use Redis for the job queue in src/queue.ts', '-t', 'decision');
    const quiet = cortexJson<BriefingJson>(dir, ['briefing']);
    expect(quiet.sections.find((s) => s.name === 'warnings')).toEqual({ name: 'warnings', shown: 0, omitted: 0 });
    expect(quiet.markdown).not.toContain('## Check first');

    git(dir, 'rm', '-q', 'src/queue.ts');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ dependencies: { memcached: '^2' } }));
    git(dir, 'commit', '-qam', 'switch to memcached');
    const md = cortexJson<BriefingJson>(dir, ['briefing']).markdown;
    expect(md).toContain('## Check first');
    expect(md).toContain('src/queue.ts no longer exists');
    expect(md).toContain('relies on Redis, but package.json does not list it');
  });
});

describe('the tracked files', () => {
  it('projections --write is idempotent and byte-identical on a fresh clone with the same journal', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    remember(dir, 'Use Postgres', '-t', 'decision', '--why', 'transactions');
    remember(dir, 'Rejected MongoDB', '-t', 'rejected', '--why', 'no joins');
    expect(cortexJson<{ written: string[] }>(dir, ['projections', '--write']).written).toEqual(['.cortex/decisions.md', '.cortex/decisions-archive.md', '.cortex/active-plan.md']);
    expect(cortexJson<{ written: string[] }>(dir, ['projections', '--write']).written).toEqual([]);
    commit(dir, {}, 'projections');

    const clone = join(tempDir(), 'clone');
    git(dir, 'clone', '-q', dir, clone);
    git(clone, 'fetch', '-q', 'origin', 'cortex/journal:cortex/journal');
    git(clone, 'config', 'user.email', 'other@example.com');
    expect(cortexJson<{ written: string[] }>(clone, ['projections', '--write']).written).toEqual([]);
    expect(readFileSync(join(clone, '.cortex', 'decisions.md'), 'utf8')).toBe(readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8'));
  });

  it('the Stop hook regenerates them when it captured a decision', async () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const transcript = join(tempDir(), 't.jsonl');
    writeFileSync(transcript, session([assistant("I'll go with Postgres rather than SQLite since we need concurrent writers."), toolUse('t1', 'Edit', { file_path: join(dir, 'a.txt'), old_string: '1', new_string: '2' }), toolResult('t1', 'ok')]));
    writeFileSync(join(dir, 'a.txt'), '2'); // the session's edit: a tree it changed
    // The real path: the hook returns at once and a background `cortex projections --write` follows.
    const result = cortex(dir, ['hook', 'stop'], { input: JSON.stringify({ session_id: 's1', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop' }), env: { CORTEX_FOREGROUND: '' } });
    expect(result).toMatchObject({ code: 0, stdout: '' });
    const file = join(dir, '.cortex', 'active-plan.md');
    const lock = join(dir, '.git', 'cortex', 'projections.lock');
    const sleep = () => new Promise((r) => setTimeout(r, 100));
    for (let waited = 0; waited < 15_000 && !existsSync(file); waited += 100) await sleep();
    for (let waited = 0; waited < 15_000 && existsSync(lock); waited += 100) await sleep();
    expect(readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8')).toContain("I'll go with Postgres rather than SQLite since we need concurrent writers.");
    expect(readFileSync(join(dir, '.git', 'cortex', 'log'), 'utf8')).toMatch(/stop: stored \d+ events; regenerating \.cortex\/ in the background/);
  });
});
