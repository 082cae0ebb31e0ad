import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cortex, cortexAsync, cortexJson, cortexOnPath, gitWith } from '../helpers/cli.js';
import { git, sharedRemote, tempDir, tempRepo, writeTree } from '../helpers/repo.js';

const remember = (dir: string, text: string, ...args: string[]) => {
  const r = cortex(dir, ['remember', text, ...args, '--json']);
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { id: string };
};
/** A repository where `cortex init` (git hooks, no .claude/) is committed, and git that finds `cortex` on PATH. */
function initializedRepo() {
  const g = gitWith(cortexOnPath(tempDir()));
  const dir = tempRepo({ files: { 'a.txt': '1' } });
  cortex(dir, ['init', '--no-claude']);
  g(dir, 'add', '-A');
  g(dir, 'commit', '-qm', 'cortex init');
  /** Commit one new file (its name as its content) with the rest of the tree, or alone (`only`). */
  const work = (file: string, message = file, only = false) => {
    writeFileSync(join(dir, file), file);
    g(dir, 'add', only ? file : '-A');
    g(dir, 'commit', '-qm', message);
  };
  return { g, dir, work };
}
const decisionTexts = (dir: string, ...args: string[]) => cortexJson<Array<{ content: string }>>(dir, ['decisions', ...args]).map((d) => d.content).sort();

describe('the merge driver', () => {
  it('merges .cortex/decisions.md from two branches without markers, keeping both sides; the same through a rebase', () => {
    const env = cortexOnPath(tempDir());
    const g = gitWith(env);
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['init', '--no-claude']);
    for (let i = 0; i < 5; i++) remember(dir, `Base decision ${i}`, '-t', 'decision');
    cortex(dir, ['projections', '--write']);
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'base');

    const branch = (name: string, texts: string[]) => {
      g(dir, 'checkout', '-q', '-b', name, 'main');
      for (const t of texts) remember(dir, t, '-t', 'decision');
      cortex(dir, ['projections', '--write']);
      writeFileSync(join(dir, `${name}.txt`), name);
      g(dir, 'add', '-A');
      g(dir, 'commit', '-qm', name);
    };
    branch('left', ['Left one', 'Left two', 'Left three']);
    branch('right', ['Right one', 'Right two', 'Right three']);
    g(dir, 'checkout', '-q', 'left');
    g(dir, 'branch', 'left-for-rebase');
    g(dir, 'merge', '-q', '--no-edit', 'right');
    const merged = readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8');
    expect(merged).not.toMatch(/^(<<<<<<<|=======|>>>>>>>)/m);
    for (const t of ['Base decision 0', 'Left one', 'Left three', 'Right one', 'Right three']) expect(merged).toContain(`### ${t}`);
    expect(g(dir, 'status', '--porcelain', '--untracked-files=no')).toBe('');

    g(dir, 'checkout', '-q', 'right');
    g(dir, 'rebase', '-q', 'left-for-rebase');
    const rebased = readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8');
    expect(rebased).not.toMatch(/^(<<<<<<<|=======|>>>>>>>)/m);
    for (const t of ['Left two', 'Right two']) expect(rebased).toContain(`### ${t}`);
  });

  it('merges .cortex/active-plan.md step by step: a step either branch finished is done in the merge commit', () => {
    const env = cortexOnPath(tempDir());
    const g = gitWith(env);
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['init', '--no-claude']);
    remember(dir, 'Ship v2', '--type', 'plan', '--step', 'code', '--step', 'tests', '--step', 'deploy');
    cortex(dir, ['projections', '--write']);
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'plan');
    const finish = (branch: string, step: string) => {
      g(dir, 'checkout', '-q', ...(branch === 'main' ? [branch] : ['-b', branch]));
      remember(dir, step, '--type', 'step');
      cortex(dir, ['projections', '--write']);
      g(dir, 'commit', '-qam', step);
    };
    finish('feature', 'code');
    finish('main', 'tests');
    g(dir, 'merge', '-q', '--no-edit', 'feature');
    const merged = g(dir, 'show', 'HEAD:.cortex/active-plan.md');
    expect(merged).toContain('1. ✓ code');
    expect(merged).toContain('2. ✓ tests');
    expect(merged).toContain('3. **→ deploy** ← you are here');
    expect(merged).toContain('Where the work stands: step 3 of 3, 2 done.');
  });

  it('a step remembered on main belongs to main\'s plan: merging a feature with a newer plan of its own does not move it there', () => {
    const { g, dir, work } = initializedRepo();
    remember(dir, 'Old plan', '-t', 'plan', '--step', 'o1', '--step', 'o2');
    g(dir, 'checkout', '-q', '-b', 'feat');
    remember(dir, 'New plan on feat', '-t', 'plan', '--step', 'n1', '--step', 'n2');
    work('f.txt', 'f1');
    g(dir, 'checkout', '-q', 'main');
    const step = remember(dir, 'o1', '-t', 'step');
    work('m.txt', 'm1');
    g(dir, 'merge', '-q', '--no-edit', 'feat');
    const log = cortexJson<Array<{ type: string; id: string; content: string; meta: { plan_id?: string } }>>(dir, ['log']);
    expect(log.find((e) => e.id === step.id)?.meta.plan_id).toBe(log.find((e) => e.type === 'plan_created' && e.content === 'Old plan')?.id);
    const plan = cortexJson<{ title: string; steps: Array<{ text: string; done: boolean }> }>(dir, ['plan']);
    expect(plan.title).toBe('Old plan');
    expect(plan.steps).toEqual([{ text: 'o1', done: true }, { text: 'o2', done: false }].map((s) => expect.objectContaining(s)));
  });

  it('after a merge leaves two plans open, a step names its own plan by its text', () => {
    const { g, dir, work } = initializedRepo();
    remember(dir, 'Plan A', '-t', 'plan', '--step', 'a1', '--step', 'a2');
    g(dir, 'checkout', '-q', '-b', 'feat');
    remember(dir, 'Plan B', '-t', 'plan', '--step', 'b1', '--step', 'b2');
    work('f.txt', 'f1');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'merge', '-q', '--no-ff', '--no-edit', 'feat');
    const step = remember(dir, 'a2', '-t', 'step');
    const log = cortexJson<Array<{ type: string; id: string; content: string; meta: { plan_id?: string } }>>(dir, ['log']);
    expect(log.find((e) => e.id === step.id)?.meta.plan_id).toBe(log.find((e) => e.content === 'Plan A')?.id);
    const plan = cortexJson<{ title: string; steps: Array<{ text: string; done: boolean }> }>(dir, ['plan']);
    expect(plan.title).toBe('Plan A');
    expect(plan.steps.map((s) => [s.text, s.done])).toEqual([['a1', false], ['a2', true]]);
  });

  it('where cortex is not on git\'s PATH, the merge still keeps both sides\' entries, without conflict markers', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['init', '--no-claude']);
    const g = gitWith({ ...process.env, PATH: '/usr/bin:/bin' }); // a GUI client's PATH: git, no cortex
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'cortex init');
    const side = (branch: string, text: string) => {
      g(dir, 'checkout', '-q', ...(branch === 'main' ? [branch] : ['-b', branch]));
      remember(dir, text, '-t', 'decision');
      cortex(dir, ['projections', '--write']);
      g(dir, 'commit', '-qam', text);
    };
    side('feature', 'Use Redis for sessions');
    side('main', 'Use Kafka for events');
    g(dir, 'merge', '-q', '--no-edit', 'feature');
    const merged = readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8');
    expect(merged).not.toMatch(/^(<<<<<<<|=======|>>>>>>>)/m);
    expect(merged).toContain('### Use Redis for sessions');
    expect(merged).toContain('### Use Kafka for events');
  });

  it('is a pure three-way merge by id: an entry removed on one side stays removed', () => {
    const dir = tempDir();
    const file = (ids: string[]) => `---\ncortex: decisions\nformat: 1\n---\n# Decisions\n\nnote\n\n## Decisions\n\n<!-- d00 -->\n\n${ids.map((id) => `### ${id}\n\n- **Id:** \`${id}\``).join('\n\n')}\n`;
    writeFileSync(join(dir, 'O'), file(['A1', 'B1']));
    writeFileSync(join(dir, 'A'), file(['B1', 'C1']));
    writeFileSync(join(dir, 'B'), file(['A1', 'B1', 'D1']));
    expect(cortex(dir, ['merge-driver', 'O', 'A', 'B', '.cortex/decisions.md']).code).toBe(0);
    const out = readFileSync(join(dir, 'A'), 'utf8');
    expect(out.match(/^### \w+$/gm)?.sort()).toEqual(['### B1', '### C1', '### D1']);
  });

  it('leaves ours untouched and reports a conflict when not even git can merge the file (a binary one)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'O'), 'x\n');
    writeFileSync(join(dir, 'A'), Buffer.from([0, 1, 98, 105, 110]));
    writeFileSync(join(dir, 'B'), 'y\n');
    const result = cortex(dir, ['merge-driver', 'O', 'A', 'B', '.cortex/decisions.md']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^cortex merge-driver: git could not merge \.cortex\/decisions\.md \(.+\); resolve it by hand or run cortex projections --write\n$/);
    expect(readFileSync(join(dir, 'A'))).toEqual(Buffer.from([0, 1, 98, 105, 110]));
  });
});

describe('the tracked files cortex init writes', () => {
  it('are the base the first decisions of parallel branches go into: merged without the driver (a fresh clone, a forge) or in one octopus merge, without conflict', () => {
    const { g, dir } = initializedRepo();
    expect(g(dir, 'ls-files', '.cortex').split('\n').filter(Boolean).sort()).toEqual(['.cortex/active-plan.md', '.cortex/decisions-archive.md', '.cortex/decisions.md']);
    const base = g(dir, 'rev-parse', 'HEAD').trim();
    const branches = ['f1', 'f2', 'f3'];
    for (const b of branches) {
      g(dir, 'checkout', '-q', '-b', b, 'main');
      // Ids of three different slots (random ones share one now and then, and a shared slot is a real conflict).
      cortex(dir, ['import', '-'], { input: `${JSON.stringify({ id: `01KDECISIONONBRANCH0000${b.toUpperCase()}`, type: 'decision', content: `Decided on ${b}`, branch: b, commit: base })}\n` });
      cortex(dir, ['projections', '--write']);
      writeFileSync(join(dir, `${b}.txt`), b);
      g(dir, 'add', '-A');
      g(dir, 'commit', '-qm', b);
    }
    g(dir, 'checkout', '-q', 'main');

    const clone = join(tempDir(), 'clone');
    git(dir, 'clone', '-q', dir, clone);
    git(clone, 'config', 'user.email', 'reviewer@example.com');
    git(clone, 'config', 'user.name', 'Reviewer');
    for (const b of branches) git(clone, 'merge', '-q', '--no-edit', `origin/${b}`);
    expect(readFileSync(join(clone, '.cortex', 'decisions.md'), 'utf8').match(/^### .*$/gm)).toEqual(expect.arrayContaining(branches.map((b) => `### Decided on ${b}`)));

    // Octopus merges go through git-merge-one-file, which never calls a merge driver.
    g(dir, 'merge', '-q', '--no-edit', ...branches);
    expect(decisionTexts(dir)).toEqual(branches.map((b) => `Decided on ${b}`));
    expect(readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8').match(/^### .*$/gm)?.sort()).toEqual(branches.map((b) => `### Decided on ${b}`));

    // uninstall takes back what init wrote, not what memory has filled in since.
    const fresh = tempRepo({ files: { 'a.txt': '1' } });
    cortex(fresh, ['init', '--no-claude']);
    cortex(dir, ['uninstall']);
    cortex(fresh, ['uninstall']);
    expect(existsSync(join(fresh, '.cortex'))).toBe(false);
    expect(readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8')).toContain('### Decided on f1');
  });
});

describe('git hooks next to the user\'s own', () => {
  it('keeps the user\'s pre-commit and post-merge hooks running, and uninstall restores the hooks directory byte for byte', () => {
    const env = cortexOnPath(tempDir());
    const g = gitWith(env);
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const hooks = join(dir, '.git', 'hooks');
    writeFileSync(join(hooks, 'pre-commit'), '#!/bin/sh\necho pre-commit >> "$(git rev-parse --git-dir)/ran"\n');
    writeFileSync(join(hooks, 'post-merge'), '#!/bin/bash\nset -e\necho post-merge >> "$(git rev-parse --git-dir)/ran"\n');
    writeFileSync(join(hooks, 'pre-push'), '#!/usr/bin/env python3\nimport sys\nopen(".git/ran", "a").write("pre-push\\n")\n');
    for (const h of ['pre-commit', 'post-merge', 'pre-push']) chmodSync(join(hooks, h), 0o755);
    const snapshot = () => Object.fromEntries(readdirSync(hooks).sort().map((f) => [f, `${statSync(join(hooks, f)).mode.toString(8)} ${readFileSync(join(hooks, f), 'utf8')}`]));
    const before = snapshot();

    expect(cortex(dir, ['init', '--no-claude'], { env }).code).toBe(0);
    expect(cortex(dir, ['init', '--no-claude'], { env }).stdout).not.toContain('wrote .git/hooks');
    expect(readFileSync(join(hooks, 'post-merge'), 'utf8')).toMatch(/^#!\/bin\/bash\n# >>> cortex >>>[\s\S]*# <<< cortex <<<\nset -e\necho post-merge/);
    expect(readFileSync(join(hooks, 'pre-push.cortex-chained'), 'utf8')).toContain('python3');

    g(dir, 'checkout', '-q', '-b', 'side');
    writeFileSync(join(dir, 'b.txt'), 'b');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'side');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'merge', '-q', '--no-ff', '--no-edit', 'side');
    // (a merge commit runs pre-merge-commit, not pre-commit)
    expect(readFileSync(join(dir, '.git', 'ran'), 'utf8').split('\n').filter(Boolean)).toEqual(['pre-commit', 'post-merge']);

    expect(cortex(dir, ['uninstall'], { env }).code).toBe(0);
    expect(snapshot()).toEqual(before);
    expect(spawnSync('git', ['config', '--get-regexp', '^merge\\.'], { cwd: dir }).status).toBe(1); // no merge.* keys left
  });

  it('a hook in another language keeps running after init, with its stdin, and a pre-push that refuses still stops the push; uninstall restores it and its mode', () => {
    const env = { ...cortexOnPath(tempDir()), CORTEX_FOREGROUND: '1' }; // the journal sync in process: nothing outlives the test
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const bare = tempDir();
    git(bare, 'init', '-q', '--bare');
    git(dir, 'remote', 'add', 'origin', bare);
    const hook = join(dir, '.git', 'hooks', 'pre-push');
    const script = '#!/usr/bin/env node\nconst fs = require("fs");\nfs.writeFileSync(".git/pushed-refs", fs.readFileSync(0, "utf8"));\nconsole.error("pre-push: refusing");\nprocess.exit(1);\n';
    writeFileSync(hook, script, { mode: 0o755 });

    expect(cortex(dir, ['init', '--no-claude'], { env }).code).toBe(0);
    const push = spawnSync('git', ['push', 'origin', 'main'], { cwd: dir, env, encoding: 'utf8' });
    expect(push.stderr).toContain('pre-push: refusing');
    expect(push.status).not.toBe(0);
    expect(git(bare, 'for-each-ref', 'refs/heads/main')).toBe('');
    expect(readFileSync(join(dir, '.git', 'pushed-refs'), 'utf8')).toMatch(/^refs\/heads\/main [0-9a-f]{40} refs\/heads\/main /);
    expect(readFileSync(join(dir, '.git', 'cortex', 'log'), 'utf8')).toContain('git pre-push');

    expect(cortex(dir, ['uninstall'], { env }).code).toBe(0);
    expect(readFileSync(hook, 'utf8')).toBe(script);
    expect(statSync(hook).mode & 0o777).toBe(0o755);
  });

  it('runs a CORTEX_HOOK_COMMAND whose path has a space (quoted as sh quotes it) from every hook, and commits and checkouts go through', () => {
    const bin = join(tempDir(), 'my tools');
    mkdirSync(bin);
    cortexOnPath(bin); // writes the wrapper; the hooks reach it by its quoted path, not PATH
    const command = `"${join(bin, 'cortex')}"`;
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    expect(cortex(dir, ['init', '--no-claude'], { env: { CORTEX_HOOK_COMMAND: command } }).code).toBe(0);
    for (const hook of ['prepare-commit-msg', 'post-checkout', 'pre-push']) expect(spawnSync('sh', ['-n', join(dir, '.git', 'hooks', hook)]).status).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'cortex init');
    git(dir, 'checkout', '-q', '-b', 'feature');
    expect(existsSync(join(dir, '.git', 'cortex', 'forks.json'))).toBe(true); // post-checkout ran it
  });

  it('with husky (core.hooksPath .husky/_) adds its block to .husky/<hook>, and uninstall takes it away', () => {
    const dir = tempRepo({ files: { '.husky/_/h': '# husky\n', '.husky/pre-commit': 'npm test\n' } });
    git(dir, 'config', 'core.hooksPath', '.husky/_');
    cortex(dir, ['init', '--no-claude']);
    expect(readFileSync(join(dir, '.husky', 'post-merge'), 'utf8')).toContain('cortex git-hook post-merge');
    expect(readFileSync(join(dir, '.husky', 'pre-commit'), 'utf8')).toBe('npm test\n');
    cortex(dir, ['uninstall']);
    expect(readdirSync(join(dir, '.husky')).sort()).toEqual(['_', 'pre-commit']);
  });

  it('with husky v9 (shebang-less, non-executable .husky/<hook> run by sh -e) pushes and merges still go through, the user\'s scripts still run, and uninstall restores .husky/ byte for byte', () => {
    const env = { ...cortexOnPath(tempDir()), CORTEX_FOREGROUND: '1' };
    const g = gitWith(env);
    // husky v9's runner, trimmed: .husky/_/<hook> sources .husky/_/h, which runs `sh -e .husky/<hook>`.
    const h = '#!/usr/bin/env sh\nn=$(basename "$0")\ns=$(dirname "$(dirname "$0")")/$n\n[ ! -f "$s" ] && exit 0\nsh -e "$s" "$@"\n';
    const runner = '#!/usr/bin/env sh\n. "$(dirname "$0")/h"\n';
    const dir = tempRepo({ files: { 'a.txt': '1', '.husky/_/h': h, '.husky/_/pre-push': runner, '.husky/_/post-merge': runner, '.husky/pre-push': 'cat > .git/husky-pre-push\n', '.husky/post-merge': 'echo merged >> .git/husky-post-merge\n' } });
    for (const f of ['h', 'pre-push', 'post-merge']) chmodSync(join(dir, '.husky', '_', f), 0o755);
    git(dir, 'config', 'core.hooksPath', '.husky/_');
    const bare = tempDir();
    git(bare, 'init', '-q', '--bare');
    git(dir, 'remote', 'add', 'origin', bare);
    const husky = join(dir, '.husky');
    const snapshot = () => Object.fromEntries(readdirSync(husky, { recursive: true, encoding: 'utf8' }).sort().map((f) => [f, statSync(join(husky, f)).isDirectory() ? 'dir' : `${statSync(join(husky, f)).mode.toString(8)} ${readFileSync(join(husky, f), 'utf8')}`]));
    const before = snapshot();

    expect(cortex(dir, ['init', '--no-claude'], { env }).code).toBe(0);
    expect(readdirSync(husky)).not.toContain('pre-push.cortex-chained');
    g(dir, 'push', '-q', 'origin', 'main');
    expect(git(bare, 'rev-parse', 'main')).toBe(git(dir, 'rev-parse', 'main'));
    expect(readFileSync(join(dir, '.git', 'husky-pre-push'), 'utf8')).toMatch(/^refs\/heads\/main [0-9a-f]{40} refs\/heads\/main /);
    g(dir, 'checkout', '-q', '-b', 'side');
    g(dir, 'commit', '-q', '--allow-empty', '-m', 'side');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'merge', '-q', '--no-ff', '--no-edit', 'side');
    expect(readFileSync(join(dir, '.git', 'husky-post-merge'), 'utf8')).toBe('merged\n');

    expect(cortex(dir, ['uninstall'], { env }).code).toBe(0);
    expect(snapshot()).toEqual(before);
  });

  it('cortex init again repairs a shebang-less hook an earlier version moved aside to <hook>.cortex-chained', () => {
    const env = cortexOnPath(tempDir());
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const bare = tempDir();
    git(bare, 'init', '-q', '--bare');
    git(dir, 'remote', 'add', 'origin', bare);
    const hook = join(dir, '.git', 'hooks', 'pre-push');
    // What an earlier version left: a wrapper that execs a chained file that is not executable.
    writeFileSync(hook, '#!/usr/bin/env node\n', { mode: 0o755 });
    cortex(dir, ['init', '--no-claude'], { env });
    writeFileSync(`${hook}.cortex-chained`, 'echo user pre-push >> .git/ran\n');
    chmodSync(`${hook}.cortex-chained`, 0o644);
    chmodSync(hook, 0o644);

    expect(cortex(dir, ['init', '--no-claude'], { env }).stdout).toContain('wrote .git/hooks/pre-push');
    expect(readdirSync(join(dir, '.git', 'hooks'))).not.toContain('pre-push.cortex-chained');
    expect(readFileSync(hook, 'utf8')).toMatch(/^# >>> cortex >>>[\s\S]*# <<< cortex <<<\necho user pre-push >> .git\/ran\n$/);
    expect(cortex(dir, ['uninstall'], { env }).code).toBe(0);
    expect(readFileSync(hook, 'utf8')).toBe('echo user pre-push >> .git/ran\n');
    expect(statSync(hook).mode & 0o777).toBe(0o644);
  });

  it('a commit dropped in an interactive rebase keeps the memory recorded at it with the work that followed, on the branch and on main once merged', () => {
    const { g, dir, work } = initializedRepo();
    g(dir, 'checkout', '-q', '-b', 'feature');
    work('f1.txt', 'c1');
    work('f2.txt', 'c2 debug logging');
    remember(dir, 'Cache tokens in memory for 5 minutes', '-t', 'decision');
    work('f3.txt', 'c3 token cache');
    execFileSync('git', ['rebase', '-q', '-i', 'main'], { cwd: dir, env: { ...cortexOnPath(tempDir()), GIT_SEQUENCE_EDITOR: "sed -i '/c2 debug/s/^pick/drop/'" }, stdio: 'pipe' });
    expect(decisionTexts(dir)).toEqual(['Cache tokens in memory for 5 minutes']);
    g(dir, 'checkout', '-q', 'main');
    expect(decisionTexts(dir)).toEqual([]);
    g(dir, 'merge', '-q', '--no-ff', '--no-edit', 'feature');
    expect(decisionTexts(dir)).toEqual(['Cache tokens in memory for 5 minutes']);
  });

  it('a commit a rebase skips as already on main (cherry-picked there) keeps the memory recorded at it with the feature, and off main until the feature merges', () => {
    const { g, dir, work } = initializedRepo();
    g(dir, 'checkout', '-q', '-b', 'feature');
    work('c1.js', 'c1 hotfix');
    const hotfix = g(dir, 'rev-parse', 'HEAD').trim();
    remember(dir, 'Use Kysely as the query builder', '-t', 'decision');
    work('c2.js', 'c2 uses Kysely');
    g(dir, 'checkout', '-q', 'main');
    work('m.txt', 'main moves');
    g(dir, 'cherry-pick', hotfix);
    g(dir, 'checkout', '-q', 'feature');
    g(dir, 'rebase', '-q', 'main'); // git: "skipped previously applied commit"; post-rewrite names only c2
    expect(decisionTexts(dir)).toEqual(['Use Kysely as the query builder']);
    g(dir, 'checkout', '-q', 'main');
    expect(decisionTexts(dir)).toEqual([]);
    g(dir, 'merge', '-q', '--no-ff', '--no-edit', 'feature');
    expect(decisionTexts(dir)).toEqual(['Use Kysely as the query builder']);
  });

  it('a branch made in a linked worktree keeps what main decided before it was made, and never sees what main decides after, whether or not main has committed since; the briefing agrees', () => {
    const { g, dir } = initializedRepo();
    remember(dir, 'Use tabs for indentation', '-t', 'decision');
    const linked = join(tempDir(), 'wt');
    g(dir, 'worktree', 'add', '-q', '-b', 'feature', linked); // its reflog says only "Created from HEAD"
    remember(dir, 'Use spaces for indentation', '-t', 'decision'); // main, after the fork, at the same commit
    const briefing = () => cortexJson<{ markdown: string }>(linked, ['briefing']).markdown;
    expect(decisionTexts(linked)).toEqual(['Use tabs for indentation']);
    expect(cortexJson<Array<{ content: string }>>(linked, ['search', 'indentation']).map((h) => h.content)).toEqual(['Use tabs for indentation']);
    expect(briefing()).toContain('Use tabs for indentation');
    expect(briefing()).not.toContain('Use spaces');
    expect(decisionTexts(dir)).toEqual(['Use spaces for indentation', 'Use tabs for indentation']);

    writeFileSync(join(dir, 'x.txt'), 'x');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'main moves');
    expect(decisionTexts(linked)).toEqual(['Use tabs for indentation']);
    expect(briefing()).toContain('Use tabs for indentation'); // not the briefing cached before main moved
    expect(briefing()).not.toContain('Use spaces');
  });

  it('git filter-branch, which runs no hook, keeps the memory recorded at the commits it rewrote, on main and on a feature it rewrote too', () => {
    const { g, dir, work } = initializedRepo();
    work('a.js', 'c1');
    remember(dir, 'Use Postgres for storage', '-t', 'decision');
    work('secrets.txt', 'c2');
    remember(dir, 'Use Helm for deploys', '-t', 'decision');
    g(dir, 'checkout', '-q', '-b', 'feat');
    work('f.js', 'f1');
    remember(dir, 'Queue jobs in Kafka', '-t', 'decision');
    g(dir, 'checkout', '-q', 'main');
    const filter = (...args: string[]) => execFileSync('git', ['filter-branch', '-f', ...args], { cwd: dir, env: { ...cortexOnPath(tempDir()), FILTER_BRANCH_SQUELCH_WARNING: '1' }, stdio: 'pipe' });
    filter('--msg-filter', 'sed s/c/C/', '--', '--all');
    expect(decisionTexts(dir)).toEqual(['Use Helm for deploys', 'Use Postgres for storage']);
    g(dir, 'checkout', '-q', 'feat');
    expect(decisionTexts(dir)).toEqual(['Queue jobs in Kafka', 'Use Helm for deploys', 'Use Postgres for storage']);
    g(dir, 'checkout', '-q', 'main');
    filter('--index-filter', 'git rm -q --cached --ignore-unmatch secrets.txt', '--', 'main');
    expect(decisionTexts(dir)).toEqual(['Use Helm for deploys', 'Use Postgres for storage']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'Helm']).map((h) => h.content)).toContain('Use Helm for deploys');
  });

  it('a branch deleted unmerged and made again under its name does not inherit what the old one decided where it branched, nor bring it to main', () => {
    const { g, dir, work } = initializedRepo();
    g(dir, 'checkout', '-q', '-b', 'feature');
    remember(dir, 'Use MongoDB for the event store', '-t', 'decision'); // at the branch point
    work('f1');
    g(dir, 'checkout', '-q', 'main');
    work('m1');
    g(dir, 'branch', '-q', '-D', 'feature');
    g(dir, 'checkout', '-q', '-b', 'feature');
    expect(decisionTexts(dir)).toEqual([]);
    remember(dir, 'Use Postgres for the event store', '-t', 'decision');
    work('n1');
    expect(decisionTexts(dir)).toEqual(['Use Postgres for the event store']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'event store']).map((h) => h.content)).toEqual(['Use Postgres for the event store']);
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'merge', '-q', '--no-ff', '--no-edit', 'feature');
    expect(decisionTexts(dir)).toEqual(['Use Postgres for the event store']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'event store']).map((h) => h.content)).toEqual(['Use Postgres for the event store']);
  });

  it('a branch renamed to keep an old attempt keeps what it decided where it branched when a new branch takes its old name', () => {
    const { g, dir, work } = initializedRepo();
    g(dir, 'checkout', '-q', '-b', 'feature');
    remember(dir, 'Render the charts with D3', '-t', 'decision'); // at the branch point
    work('v1.js');
    g(dir, 'branch', '-m', 'feature', 'feature-v1');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'checkout', '-q', '-b', 'feature');
    expect(decisionTexts(dir)).toEqual([]);
    g(dir, 'checkout', '-q', 'feature-v1');
    expect(decisionTexts(dir)).toEqual(['Render the charts with D3']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'charts']).map((h) => h.content)).toEqual(['Render the charts with D3']);
    g(dir, 'checkout', '-q', 'feature');
    work('v2.js');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'merge', '-q', '--no-ff', '--no-edit', 'feature');
    expect(decisionTexts(dir)).toEqual([]);
  });

  it('a rebase that skips every commit (all cherry-picked to main already) runs no hook, and the branch keeps what it recorded at them; so does rebase --onto with its branch-point decision', () => {
    const { g, dir, work } = initializedRepo();
    g(dir, 'checkout', '-q', '-b', 'feat');
    work('a', 'a', true);
    remember(dir, 'Retry the client three times', '-t', 'decision');
    work('b', 'b', true);
    g(dir, 'checkout', '-q', 'main');
    work('m0', 'm0', true); // else, in the same second, the cherry-picks are the very same commits
    g(dir, 'cherry-pick', 'feat~1', 'feat');
    work('m1', 'm1', true);
    g(dir, 'checkout', '-q', 'feat');
    g(dir, '-c', 'advice.skippedCherryPicks=false', 'rebase', '-q', 'main');
    expect(decisionTexts(dir)).toEqual(['Retry the client three times']);
    g(dir, 'checkout', '-q', 'main');
    expect(decisionTexts(dir)).toEqual([]);

    g(dir, 'checkout', '-q', '-b', 'feat1');
    work('x1', 'x1', true);
    g(dir, 'checkout', '-q', '-b', 'feat2');
    remember(dir, 'Stream the export as CSV', '-t', 'decision'); // where feat2 branched off feat1
    work('y1', 'y1', true);
    g(dir, 'rebase', '-q', '--onto', 'main', 'feat1', 'feat2');
    expect(decisionTexts(dir)).toEqual(['Stream the export as CSV']);
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'merge', '-q', '--no-ff', '--no-edit', 'feat2');
    expect(decisionTexts(dir)).toEqual(['Stream the export as CSV']);
  });

  it('git filter-branch --env-filter, rewriting who made every commit, keeps the memory recorded at them (paired by position)', () => {
    const { g, dir, work } = initializedRepo();
    work('a.js', 'c1');
    remember(dir, 'Use Postgres for storage', '-t', 'decision');
    work('b.js', 'c2');
    execFileSync('git', ['filter-branch', '-f', '--env-filter', 'GIT_AUTHOR_EMAIL=new@example.com; GIT_COMMITTER_EMAIL=new@example.com; export GIT_AUTHOR_EMAIL GIT_COMMITTER_EMAIL', '--', 'main'], { cwd: dir, env: { ...cortexOnPath(tempDir()), FILTER_BRANCH_SQUELCH_WARNING: '1' }, stdio: 'pipe' });
    expect(decisionTexts(dir)).toEqual(['Use Postgres for storage']);
  });

  it('what main decided before a branch was made stays on it after the reflogs expire (the fork record keeps the creation); a branch made with git branch and checked out later does not get what main decided in between', () => {
    const { g, dir, work } = initializedRepo();
    remember(dir, 'Use tabs for indentation', '-t', 'decision');
    g(dir, 'checkout', '-q', '-b', 'feat');
    work('f.js', 'f');
    g(dir, 'checkout', '-q', 'main');
    work('m.js', 'm');
    g(dir, 'checkout', '-q', 'feat');
    expect(decisionTexts(dir)).toEqual(['Use tabs for indentation']);
    g(dir, 'reflog', 'expire', '--expire=now', '--all');
    expect(decisionTexts(dir)).toEqual(['Use tabs for indentation']);

    g(dir, 'checkout', '-q', 'main');
    g(dir, 'branch', 'later');
    execFileSync('sleep', ['2.1']); // the branch's reflog keeps whole seconds
    remember(dir, 'Use spaces for indentation', '-t', 'decision'); // main, after the branch was made
    g(dir, 'checkout', '-q', 'later'); // the fork record is taken only now
    expect(decisionTexts(dir)).toEqual(['Use tabs for indentation']);
  });

  it('main amending the commit a feature branched from does not bring what the feature decided there to main', () => {
    const { g, dir } = initializedRepo();
    g(dir, 'checkout', '-q', '-b', 'feature');
    remember(dir, 'Queue jobs in Kafka', '-t', 'decision');
    writeFileSync(join(dir, 'k.txt'), 'k');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'kafka');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'commit', '-q', '--amend', '-m', 'cortex init, reworded'); // post-rewrite links the amended commit
    expect(decisionTexts(dir)).toEqual([]);
    g(dir, 'merge', '-q', '--no-ff', '--no-edit', 'feature');
    expect(decisionTexts(dir)).toEqual(['Queue jobs in Kafka']);
  });

  it('a branch checkout refreshes the briefing and leaves the work tree clean; a merge leaves a clean tree clean and regenerates .cortex/ beside work in progress', () => {
    const { g, dir } = initializedRepo();
    g(dir, 'checkout', '-q', '-b', 'feature');
    remember(dir, 'Feature decision', '-t', 'decision');
    writeFileSync(join(dir, 'b.txt'), 'b');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'feature');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'checkout', '-q', 'feature');
    expect(readFileSync(join(dir, '.git', 'cortex', 'briefing.md'), 'utf8')).toContain('Feature decision');
    expect(g(dir, 'status', '--porcelain')).toBe('');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'merge', '-q', '--no-ff', '--no-edit', 'feature');
    // A tracked file rewritten behind the user's back would make git refuse their next checkout.
    expect(g(dir, 'status', '--porcelain')).toBe('');
    expect(readFileSync(join(dir, '.git', 'cortex', 'briefing.md'), 'utf8')).toContain('Feature decision');
    g(dir, 'checkout', '-q', 'feature');
    g(dir, 'checkout', '-q', 'main');

    g(dir, 'checkout', '-q', '-b', 'second');
    remember(dir, 'Second decision', '-t', 'decision');
    writeFileSync(join(dir, 'c.txt'), 'c');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'second');
    g(dir, 'checkout', '-q', 'main');
    writeFileSync(join(dir, 'notes.txt'), 'work in progress');
    g(dir, 'merge', '-q', '--no-ff', '--no-edit', 'second');
    const decisions = readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8');
    expect(decisions).toContain('### Feature decision');
    expect(decisions).toContain('### Second decision');
  });

  it('a squash-merged feature brings its decisions to main, with what it learned up to them (search too); its later work and an unmerged branch stay off; the tracked file keeps them', async () => {
    const { g, dir, work } = initializedRepo();
    g(dir, 'checkout', '-q', '-b', 'spike');
    work('spike.txt');
    remember(dir, 'Dispatch webhooks through Kafka', '-t', 'decision');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'checkout', '-q', '-b', 'webhooks');
    work('webhooks.txt');
    remember(dir, 'The payment provider retries a webhook for three days', '-t', 'learning');
    remember(dir, 'Queue incoming webhooks in Redis streams', '-t', 'decision');
    cortex(dir, ['projections', '--write']);
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'webhook queue');
    remember(dir, 'Sign webhook payloads with Ed25519', '-t', 'decision');
    work('signing.txt');

    g(dir, 'checkout', '-q', 'main');
    g(dir, 'merge', '-q', '--squash', 'webhooks');
    // post-merge ran for the staged squash: it must not take the branch's entries back out.
    expect(g(dir, 'status', '--porcelain')).not.toMatch(/^.M \.cortex/m);
    g(dir, 'commit', '-qm', 'Webhooks (#1)');
    const squashed = ['Queue incoming webhooks in Redis streams', 'Sign webhook payloads with Ed25519'];
    expect(readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8')).not.toContain(squashed[1]);
    expect(decisionTexts(dir)).toEqual([squashed[0]]);
    const search = (query: string) => cortexJson<Array<{ content: string }>>(dir, ['search', query]).map((h) => h.content);
    expect(search('webhooks')).toEqual(expect.arrayContaining([squashed[0], 'The payment provider retries a webhook for three days']));
    expect(search('webhooks')).not.toContain('Dispatch webhooks through Kafka');
    expect(search('Ed25519')).toEqual([]);
    cortex(dir, ['projections', '--write']);
    expect(g(dir, 'status', '--porcelain')).toBe('');
    expect(decisionTexts(dir, '--all')).toEqual(['Dispatch webhooks through Kafka', ...squashed]);
  });

  it('a Stop hook while a merge is stopped on a conflict leaves the merged .cortex/ alone, so the merge commit keeps the feature\'s decisions', () => {
    const env = cortexOnPath(tempDir());
    const g = gitWith(env);
    const dir = tempRepo({ files: { 'f.txt': 'base\n' } });
    cortex(dir, ['init', '--no-claude']);
    const decide = (text: string) => {
      remember(dir, text, '-t', 'decision');
      cortex(dir, ['projections', '--write']);
    };
    decide('Use Postgres');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'main: cortex');
    g(dir, 'checkout', '-q', '-b', 'feat');
    decide('Slugs are base62');
    writeFileSync(join(dir, 'f.txt'), 'feat\n');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'feat');
    g(dir, 'checkout', '-q', 'main');
    writeFileSync(join(dir, 'f.txt'), 'main\n');
    g(dir, 'commit', '-qam', 'main');
    expect(spawnSync('git', ['merge', 'feat'], { cwd: dir, env }).status).not.toBe(0); // f.txt conflicts; the driver merged .cortex/
    expect(readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8')).toContain('Slugs are base62');

    const transcript = join(tempDir(), 't.jsonl');
    writeFileSync(transcript, `${JSON.stringify({ type: 'assistant', sessionId: 's1', cwd: dir, timestamp: '2026-03-01T10:00:00.000Z', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: "[MEMORY: decision] Keep main's f.txt: the feature's change was a typo." }] } })}\n`);
    expect(cortex(dir, ['hook', 'stop'], { env, input: JSON.stringify({ session_id: 's1', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop' }) }).code).toBe(0);
    expect(readFileSync(join(dir, '.git', 'cortex', 'log'), 'utf8')).toContain('git is mid-operation, so .cortex/ is left alone');
    expect(readFileSync(join(dir, '.cortex', 'decisions.md'), 'utf8')).toContain('Slugs are base62');
    writeFileSync(join(dir, 'f.txt'), 'main\n');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'merge feat');
    expect(g(dir, 'show', 'HEAD:.cortex/decisions.md')).toContain('Slugs are base62');
  });

  it('amending a commit keeps memory aligned (post-rewrite), and commits during a session carry its trailer', () => {
    const env = cortexOnPath(tempDir());
    const g = gitWith(env);
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['init', '--no-claude']);
    g(dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(dir, 'b.txt'), 'b');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'feature work');
    remember(dir, 'Feature decision after the first commit', '-t', 'decision');
    cortex(dir, ['hook', 'session-start'], { input: JSON.stringify({ session_id: 'sess-trailer', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }) });
    writeFileSync(join(dir, 'b.txt'), 'bb');
    g(dir, 'commit', '-qa', '--amend', '-m', 'feature work, amended');
    expect(g(dir, 'log', '-1', '--format=%(trailers:key=Cortex-Session,valueonly)').trim()).toBe('sess-trailer');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'merge', '-q', '--no-ff', '--no-edit', 'feature');
    g(dir, 'branch', '-D', 'feature');
    expect(decisionTexts(dir)).toEqual(['Feature decision after the first commit']);
  });
});

describe('the scripts in hooks/ (for hook managers that run their own)', () => {
  it('let git commit, check out and push without cortex on PATH', () => {
    const env = { ...process.env, PATH: dirname(execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()) };
    const g = gitWith(env);
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const remote = join(tempDir(), 'remote.git');
    g(dir, 'init', '-q', '--bare', remote);
    g(dir, 'config', 'core.hooksPath', join(dirname(dirname(CLI)), 'hooks'));
    writeFileSync(join(dir, 'b.txt'), 'b');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'without cortex');
    g(dir, 'checkout', '-q', '-b', 'feature');
    g(dir, 'push', '-q', remote, 'feature');
    expect(g(remote, 'log', '-1', '--format=%s', 'feature').trim()).toBe('without cortex');
  });
});

describe('the Cortex-Session trailer', () => {
  it('a message that already names a session (an amend in another session) keeps its one trailer', () => {
    const g = gitWith(cortexOnPath(tempDir()));
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['init', '--no-claude']);
    const startSession = (id: string) => cortex(dir, ['hook', 'session-start'], { input: JSON.stringify({ session_id: id, cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }) });
    const trailers = () => g(dir, 'log', '-1', '--format=%(trailers:key=Cortex-Session,valueonly,separator=%x2C)').trim();
    startSession('sess-one');
    writeFileSync(join(dir, 'b.txt'), 'b');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'work from session one');
    expect(trailers()).toBe('sess-one');
    startSession('sess-two');
    writeFileSync(join(dir, 'b.txt'), 'bb');
    g(dir, 'commit', '-qa', '--amend', '--no-edit');
    expect(trailers()).toBe('sess-one');
  });
});

describe('the Cortex-Session trailer while a session is active', () => {
  /** A repository with `cortex init`, a Claude Code session active in it, and a staged change. */
  function repoWithSession() {
    const env = cortexOnPath(tempDir());
    const g = gitWith(env);
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['init', '--no-claude']);
    cortex(dir, ['hook', 'session-start'], { input: JSON.stringify({ session_id: 'sess-now', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }) });
    writeFileSync(join(dir, 'b.txt'), 'b');
    g(dir, 'add', '-A');
    return { env, g, dir };
  }

  it('leaves an empty message empty, so quitting the editor still aborts the commit (comments, commit -v, an untouched template)', () => {
    const { env, g, dir } = repoWithSession();
    const head = g(dir, 'rev-parse', 'HEAD');
    const template = join(tempDir(), 'template');
    writeFileSync(template, 'Ticket: \n');
    // GIT_EDITOR=true: the editor opens and closes, nothing written.
    const abandon = (...args: string[]) => spawnSync('git', [...args], { cwd: dir, env: { ...env, GIT_EDITOR: 'true' }, encoding: 'utf8' });
    for (const args of [['commit'], ['commit', '-v'], ['-c', 'core.commentChar=;', 'commit'], ['-c', 'core.commentChar=auto', 'commit'], ['commit', '-m', ' \n']]) {
      const result = abandon(...args);
      expect({ args, code: result.status, stderr: result.stderr.trim() }).toEqual({ args, code: 1, stderr: 'Aborting commit due to empty commit message.' });
    }
    expect(abandon('commit', '-t', template).stderr).toContain('you did not edit the message');
    expect(g(dir, 'rev-parse', 'HEAD')).toBe(head);
    g(dir, 'commit', '-qm', 'now with a message');
    expect(g(dir, 'log', '-1', '--format=%(trailers:key=Cortex-Session,valueonly)').trim()).toBe('sess-now');
  });
});

describe('the Cortex-Session trailer on an amend', () => {
  it('amending a teammate\'s commit while a session is active leaves it without the trailer; with --reset-author it is the user\'s and gets it', () => {
    const { g, dir } = initializedRepo();
    writeFileSync(join(dir, 'b.txt'), 'bob');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'Bob\'s work', '--author', 'Bob <bob@example.com>');
    cortex(dir, ['hook', 'session-start'], { input: JSON.stringify({ session_id: 'sess-now', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }) });
    const last = () => g(dir, 'log', '-1', '--format=%ae|%s|%(trailers:key=Cortex-Session,valueonly)').trim();

    g(dir, 'commit', '-q', '--amend', '--no-edit');
    expect(last()).toBe('bob@example.com|Bob\'s work|');
    g(dir, 'commit', '-q', '--amend', '-m', 'Bob\'s work, reworded');
    expect(last()).toBe('bob@example.com|Bob\'s work, reworded|');
    g(dir, 'commit', '-q', '--amend', '--no-edit', '--reset-author');
    expect(last()).toBe('dev@example.com|Bob\'s work, reworded|sess-now');
  });
});

describe('the Cortex-Session trailer and commits git replays', () => {
  it('rebase, cherry-pick, revert and merges made while a session is active leave the messages alone; a commit written now gets it', () => {
    const env = cortexOnPath(tempDir());
    const g = gitWith(env);
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['init', '--no-claude']);
    const commit = (file: string, message: string) => {
      writeFileSync(join(dir, file), message);
      g(dir, 'add', '-A');
      gitWith({ ...env, GIT_AUTHOR_EMAIL: 'bob@example.com' })(dir, 'commit', '-qm', message);
    };
    // Bob's work, from before the session.
    g(dir, 'checkout', '-q', '-b', 'feature');
    commit('f1.txt', 'feature one');
    commit('f2.txt', 'feature two');
    g(dir, 'checkout', '-q', '-b', 'hotfix', 'main');
    commit('h.txt', 'hotfix');
    g(dir, 'checkout', '-q', '-b', 'clash', 'main');
    commit('a.txt', 'clash on a');
    g(dir, 'checkout', '-q', 'main');
    commit('m.txt', 'main moves on');
    cortex(dir, ['hook', 'session-start'], { input: JSON.stringify({ session_id: 'sess-now', cwd: dir, hook_event_name: 'SessionStart', source: 'startup' }) });

    g(dir, 'checkout', '-q', 'feature');
    g(dir, 'rebase', '-q', 'main');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'cherry-pick', 'hotfix');
    g(dir, 'cherry-pick', 'feature~2..feature');
    g(dir, 'revert', '--no-edit', 'HEAD');
    g(dir, 'revert', '--no-edit', 'HEAD~4..HEAD~2');
    g(dir, 'merge', '-q', '--squash', 'hotfix');
    g(dir, 'commit', '-qm', 'squash merge of hotfix');
    writeFileSync(join(dir, 'a.txt'), 'main side');
    g(dir, 'commit', '-qam', 'main on a');
    expect(spawnSync('git', ['merge', 'clash'], { cwd: dir, env }).status).not.toBe(0);
    writeFileSync(join(dir, 'a.txt'), 'resolved');
    g(dir, 'commit', '-qam', 'merge clash, resolved');
    writeFileSync(join(dir, 'n.txt'), 'new');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'written now');

    const stamped = g(dir, 'log', '--all', '--format=%s|%(trailers:key=Cortex-Session,valueonly,separator=%x2C)').split('\n').filter((line) => !line.endsWith('|') && line !== '');
    expect(stamped).toEqual(['written now|sess-now', 'main on a|sess-now']);
  });
});

describe('the Cortex-Session trailer in linked worktrees', () => {
  it('a commit carries the session working in its own worktree, not the one whose hook ran last in another', () => {
    const { g, dir } = initializedRepo();
    const linked = join(tempDir(), 'linked');
    g(dir, 'worktree', 'add', '-q', '-b', 'feature', linked);
    const hook = (event: 'SessionStart' | 'UserPromptSubmit' | 'SessionEnd', session: string, cwd: string) =>
      cortex(cwd, ['hook', event.replace(/(?<=.)([A-Z])/g, '-$1').toLowerCase()], { input: JSON.stringify({ session_id: session, cwd, hook_event_name: event, prompt: 'go on', source: 'startup' }) });
    const commit = (cwd: string, file: string) => {
      writeFileSync(join(cwd, file), file);
      g(cwd, 'add', '-A');
      g(cwd, 'commit', '-qm', `${file} work`);
      return g(cwd, 'log', '-1', '--format=%(trailers:key=Cortex-Session,valueonly)').trim();
    };
    hook('SessionStart', 'sess-main', dir);
    hook('UserPromptSubmit', 'sess-linked', linked);
    expect(commit(dir, 'm.txt')).toBe('sess-main');
    expect(commit(linked, 'l.txt')).toBe('sess-linked');
    // Ending one session leaves the other worktree's alone.
    hook('SessionEnd', 'sess-linked', linked);
    expect(commit(linked, 'l2.txt')).toBe('');
    expect(commit(dir, 'm2.txt')).toBe('sess-main');
  });
});

describe('the GitHub workflow template', () => {
  const workflow = readFileSync(new URL('../../templates/github/cortex-decisions.yml', import.meta.url), 'utf8');
  const runOf = (step: string) => {
    const at = workflow.indexOf(`- name: ${step}`);
    return /\n\s+run: (.*)/.exec(workflow.slice(at))?.[1] ?? '';
  };

  it('installs Cortex from a pinned commit of its repository, never by package name, and keeps pull-request text out of its scripts', () => {
    const code = workflow.split('\n').filter((l) => !/^\s*#/.test(l)).join('\n');
    expect(code).not.toMatch(/\bnpx\b/);
    expect(workflow).toMatch(/CORTEX_REF: /);
    for (const line of workflow.split('\n').filter((l) => /^\s+(run: |[a-z].*;)/.test(l))) expect(line, line).not.toContain('${{');
  });

  it('its diff step, run as the runner runs it, posts what the pull request\'s head decided', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const bare = join(tempDir(), 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    git(dir, 'remote', 'add', 'origin', bare);
    git(dir, 'push', '-q', 'origin', 'main');
    git(dir, 'fetch', '-q', 'origin');
    cortex(dir, ['init', '--no-claude', '--no-git']);
    git(dir, 'checkout', '-q', '-b', 'feature');
    remember(dir, 'Retry webhooks with exponential backoff', '-t', 'decision');
    writeFileSync(join(dir, 'b.txt'), '2');
    git(dir, 'add', 'b.txt');
    git(dir, 'commit', '-q', '-m', 'retries');
    const runner = tempDir();
    mkdirSync(join(runner, 'cortex'));
    symlinkSync(dirname(CLI), join(runner, 'cortex', 'dist'));
    const env = { ...process.env, RUNNER_TEMP: runner, BASE_REF: 'main', HEAD_SHA: git(dir, 'rev-parse', 'HEAD').trim() };
    execFileSync('bash', ['-e', '-c', runOf('Decision diff')], { cwd: dir, env });
    expect(readFileSync(join(dir, 'decisions.md'), 'utf8')).toContain('Retry webhooks with exponential backoff');
  });
});

describe('team sync through a shared remote', () => {
  /** Alice pushes a first commit to a shared remote; both run cortex init (no hooks). */
  const aliceAndBob = () => {
    const { bare, clone } = sharedRemote();
    const alice = clone('alice');
    writeFileSync(join(alice, 'a.txt'), '1');
    git(alice, 'add', '-A');
    git(alice, 'commit', '-q', '-m', 'init');
    git(alice, 'push', '-q', 'origin', 'main');
    cortex(alice, ['init', '--no-claude', '--no-git']);
    const bob = clone('bob');
    cortex(bob, ['init', '--no-claude', '--no-git']);
    return { bare, alice, bob };
  };

  it('a reviewer who only fetched sees the branch\'s decisions in cortex diff and cortex log <range> (the fetched journal is united first)', () => {
    const { bare, alice, bob } = aliceAndBob();
    git(bob, 'checkout', '-q', '-b', 'feature');
    expect(cortex(bob, ['remember', 'Use pino rather than winston: it writes JSON', '-t', 'decision']).code).toBe(0);
    writeFileSync(join(bob, 'log.ts'), 'export {}\n');
    git(bob, 'add', '-A');
    git(bob, 'commit', '-q', '-m', 'logging');
    git(bob, 'push', '-q', 'origin', 'feature');
    expect(cortex(bob, ['sync']).code).toBe(0);

    git(alice, 'fetch', '-q', 'origin');
    const remoteJournal = git(alice, 'ls-remote', bare, 'refs/heads/cortex/journal');
    const diff = cortexJson<{ decisions: Array<{ content: string }> }>(alice, ['diff', 'main...origin/feature']);
    expect(diff.decisions.map((d) => d.content)).toEqual(['Use pino rather than winston: it writes JSON']);
    expect(cortexJson<Array<{ content: string }>>(alice, ['log', 'main..origin/feature']).map((e) => e.content)).toContain('Use pino rather than winston: it writes JSON');
    // Reading unites locally: nothing is pushed.
    expect(git(alice, 'ls-remote', bare, 'refs/heads/cortex/journal')).toBe(remoteJournal);
    expect(remoteJournal).not.toBe('');
  });

  it('after a git fetch, switching to a teammate\'s branch or resetting to what they pushed brings their memory: the briefing at session start, cortex decisions (the fetched journal is united first)', () => {
    const { alice, bob } = aliceAndBob();
    const decide = (branch: string, text: string) => {
      git(bob, 'checkout', '-q', branch);
      expect(cortex(bob, ['remember', text, '-t', 'decision']).code).toBe(0);
      writeFileSync(join(bob, `${branch}.txt`), text);
      git(bob, 'add', '-A');
      git(bob, 'commit', '-q', '-m', text);
      git(bob, 'push', '-q', 'origin', branch);
      expect(cortex(bob, ['sync']).code).toBe(0);
    };
    const sessionStart = () => cortex(alice, ['hook', 'session-start'], { input: JSON.stringify({ session_id: 's-alice', cwd: alice, hook_event_name: 'SessionStart', source: 'startup' }) }).stdout;
    expect(cortex(alice, ['remember', 'Ship on Fridays only', '-t', 'decision']).code).toBe(0);
    expect(sessionStart()).toContain('Ship on Fridays only');

    git(bob, 'checkout', '-q', '-b', 'feat-live');
    decide('feat-live', 'Use server-sent events for live updates, not websockets');
    git(alice, 'fetch', '-q', 'origin');
    git(alice, 'switch', '-q', 'feat-live');
    expect(sessionStart()).toContain('Use server-sent events for live updates');
    expect(decisionTexts(alice)).toEqual(['Ship on Fridays only', 'Use server-sent events for live updates, not websockets']);

    decide('main', 'Keep the API versioned in the path');
    git(alice, 'switch', '-q', 'main');
    git(alice, 'fetch', '-q', 'origin');
    git(alice, 'reset', '-q', '--hard', 'origin/main');
    expect(sessionStart()).toContain('Keep the API versioned in the path');
  });

  it('a feature rebased onto main and force-pushed keeps what it decided where it branched off a teammate\'s main, fresh clone or pulled, and in their pull request diff', () => {
    const g = gitWith(cortexOnPath(tempDir()));
    const { clone } = sharedRemote(g);
    const alice = clone('alice');
    writeFileSync(join(alice, 'a.txt'), '1');
    g(alice, 'add', '-A');
    g(alice, 'commit', '-qm', 'init');
    cortex(alice, ['init', '--no-claude']);
    g(alice, 'add', '-A');
    g(alice, 'commit', '-qm', 'cortex init');
    g(alice, 'push', '-q', '-u', 'origin', 'main');
    g(alice, 'switch', '-qc', 'feature');
    remember(alice, 'Use JWT tokens for auth', '-t', 'decision'); // at the branch point
    writeFileSync(join(alice, 'auth.js'), 'auth');
    g(alice, 'add', '-A');
    g(alice, 'commit', '-qm', 'auth');
    g(alice, 'push', '-q', '-u', 'origin', 'feature');
    g(alice, 'switch', '-q', 'main');
    writeFileSync(join(alice, 'm.txt'), 'm');
    g(alice, 'add', '-A');
    g(alice, 'commit', '-qm', 'main moves');
    g(alice, 'push', '-q');
    const pulling = clone('pulling');
    cortex(pulling, ['init', '--no-claude']);
    g(alice, 'switch', '-q', 'feature');
    g(alice, 'rebase', '-q', 'main'); // post-rewrite records where the old commit branched
    g(alice, 'push', '-q', '-f');
    g(alice, 'switch', '-q', 'main');

    const fresh = clone('fresh'); // never had the feature's old commits
    cortex(fresh, ['init', '--no-claude']);
    g(pulling, 'pull', '-q');
    for (const dir of [alice, fresh, pulling]) {
      expect(decisionTexts(dir), dir).toEqual([]);
      expect(cortexJson<unknown[]>(dir, ['search', 'JWT']), dir).toEqual([]);
      expect(cortexJson<{ decisions: Array<{ content: string }> }>(dir, ['diff', 'main...origin/feature']).decisions.map((d) => d.content), dir).toEqual(['Use JWT tokens for auth']);
    }
    g(fresh, 'merge', '-q', '--no-ff', '--no-edit', 'origin/feature');
    expect(decisionTexts(fresh)).toEqual(['Use JWT tokens for auth']);
  });

  it('three clones append concurrently and sync in random order: all end with the same events, none lost or doubled', async () => {
    const root = tempDir();
    const bare = join(root, 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    const seed = tempRepo({ files: { 'a.txt': '1' } });
    git(seed, 'remote', 'add', 'origin', bare);
    git(seed, 'push', '-q', 'origin', 'main');
    const clones = ['a', 'b', 'c'].map((name) => {
      const dir = join(root, name);
      git(root, 'clone', '-q', bare, dir);
      git(dir, 'config', 'user.email', `${name}@example.com`);
      git(dir, 'config', 'user.name', name);
      return dir;
    });
    const lines = (clone: number, round: number) => Array.from({ length: 20 }, (_, i) => JSON.stringify({ type: 'learned', content: `clone ${clone} round ${round} fact ${i}` })).join('\n');
    for (let round = 0; round < 3; round++) {
      await Promise.all(clones.map((dir, i) => cortexAsync(dir, ['import', '-'], { input: lines(i, round) })));
      const order = [...clones].sort(() => Math.random() - 0.5);
      const results = await Promise.all(order.map((dir) => cortexAsync(dir, ['sync'])));
      for (const r of results) expect(r.code, r.stderr).toBe(0);
    }
    for (const dir of clones) expect(cortex(dir, ['sync']).code).toBe(0);
    for (const dir of clones) expect(cortex(dir, ['sync']).code).toBe(0);
    const sets = clones.map((dir) => cortexJson<Array<{ id: string }>>(dir, ['log']).map((e) => e.id).sort());
    expect(sets[0]).toHaveLength(180);
    expect(new Set(sets[0]).size).toBe(180);
    expect(sets[1]).toEqual(sets[0]);
    expect(sets[2]).toEqual(sets[0]);
    expect(spawnSync('git', ['fsck', '--strict'], { cwd: clones[0] }).status).toBe(0);

    const fresh = join(root, 'fresh');
    git(root, 'clone', '-q', bare, fresh);
    expect(cortexJson<{ adopted: string | null }>(fresh, ['init', '--no-claude']).adopted).toBe('origin/cortex/journal');
    expect(cortexJson<unknown[]>(fresh, ['log'])).toHaveLength(180);

    // A shallow clone is single-branch: it fetched no journal, so init fetches origin's by name.
    const shallow = join(root, 'shallow');
    git(root, 'clone', '-q', '--depth', '1', `file://${bare}`, shallow);
    expect(git(shallow, 'for-each-ref', 'refs/remotes/origin/cortex')).toBe('');
    expect(cortexJson<{ adopted: string | null }>(shallow, ['init', '--no-claude']).adopted).toBe('origin/cortex/journal');
    expect(cortexJson<unknown[]>(shallow, ['log'])).toHaveLength(180);

    // Set up by hand, fetching only main (the refspec is the wildcard; FETCH_HEAD tells): the same.
    const byHand = join(root, 'by-hand');
    git(root, 'init', '-q', '-b', 'main', byHand);
    git(byHand, 'remote', 'add', 'origin', bare);
    git(byHand, 'fetch', '-q', 'origin', 'main');
    git(byHand, 'checkout', '-q', '-B', 'main', 'origin/main');
    expect(cortexJson<{ adopted: string | null }>(byHand, ['init', '--no-claude']).adopted).toBe('origin/cortex/journal');
    expect(cortexJson<unknown[]>(byHand, ['log'])).toHaveLength(180);
  });
  it('git push to a URL (no remote by that name) syncs the journal there; cortex sync takes a URL or a path too, and a name that is neither is one clear line', () => {
    const env = { ...cortexOnPath(tempDir()), CORTEX_FOREGROUND: '1' };
    const root = tempDir();
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    cortex(dir, ['init', '--no-claude']);
    remember(dir, 'Pushed to a URL', '-t', 'decision');
    execFileSync('git', ['init', '-q', '--bare', join(root, 'by-url.git')]);
    gitWith(env)(dir, 'push', '-q', `file://${join(root, 'by-url.git')}`, 'main');
    expect(git(join(root, 'by-url.git'), 'rev-parse', 'cortex/journal')).toBe(git(dir, 'rev-parse', 'cortex/journal'));

    execFileSync('git', ['init', '-q', '--bare', join(root, 'by-path.git')]);
    expect(cortex(dir, ['sync', join(root, 'by-path.git')]).code).toBe(0);
    expect(git(join(root, 'by-path.git'), 'rev-parse', 'cortex/journal')).toBe(git(dir, 'rev-parse', 'cortex/journal'));

    const typo = cortex(dir, ['sync', 'orign']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('cortex: no remote named "orign" (git remote -v lists them; a URL works too)\n');
  });
  it('git push --dry-run (or -n) pushes nothing of the journal either; the real push then syncs it', () => {
    const { g, dir } = initializedRepo();
    const remote = join(tempDir(), 'remote.git');
    g(dir, 'init', '-q', '--bare', remote);
    g(dir, 'remote', 'add', 'origin', remote);
    remember(dir, 'Not pushed by a dry run', '-t', 'decision');
    for (const args of [['--dry-run', 'origin', 'main'], ['-n', 'origin', 'main'], ['-qn', 'origin', 'main'], ['origin', 'main', '--dry-run']]) g(dir, 'push', '-q', ...args);
    expect(g(remote, 'for-each-ref', '--format=%(refname)')).toBe('');
    g(dir, 'push', '-q', 'origin', 'main');
    expect(git(remote, 'rev-parse', 'cortex/journal')).toBe(git(dir, 'rev-parse', 'cortex/journal'));
  });
});

describe('pulling a teammate\'s work', () => {
  it('post-merge unites the remote journal git fetched with it, and never drops a decision the journal has not seen yet; the tree stays clean', () => {
    const env = cortexOnPath(tempDir());
    const g = gitWith(env);
    const { root, bare, clone } = sharedRemote(g);
    const a = clone('a');
    writeFileSync(join(a, 'a.txt'), '1');
    cortex(a, ['init', '--no-claude']);
    g(a, 'add', '-A');
    g(a, 'commit', '-qm', 'init');
    g(a, 'push', '-q', 'origin', 'main');
    const b = clone('b');
    cortex(b, ['init', '--no-claude']);
    const decide = (text: string) => {
      remember(a, text, '-t', 'decision');
      cortex(a, ['projections', '--write']);
      g(a, 'add', '-A');
      g(a, 'commit', '-qm', text);
      g(a, 'push', '-q', 'origin', 'main');
      expect(cortex(a, ['sync']).code).toBe(0);
    };

    // Pulling one branch by name fetches nothing else: post-merge fetches the journal after it
    // (in the background outside tests), and never pushes; the file kept the entry meanwhile.
    decide('Use Terraform for infrastructure');
    const remoteJournal = () => g(bare, 'for-each-ref', '--format=%(objectname)', 'refs/heads/cortex/journal');
    const before = remoteJournal();
    remember(b, 'Learned on b, kept on b until b pushes', '-t', 'learning');
    g(b, 'pull', '-q', '--no-rebase', 'origin', 'main');
    expect(g(b, 'status', '--porcelain')).toBe('');
    expect(readFileSync(join(b, '.cortex', 'decisions.md'), 'utf8')).toContain('### Use Terraform for infrastructure');
    expect(decisionTexts(b)).toEqual(['Use Terraform for infrastructure']);
    expect(remoteJournal()).toBe(before);
    expect(readFileSync(join(b, '.git', 'cortex', 'log'), 'utf8')).toContain('fetched the journal from origin');

    // A plain pull fetches the remote journal too: united, so the decisions are memory on b.
    decide('Deploy with GitHub Actions');
    g(b, 'pull', '-q', '--no-rebase');
    expect(g(b, 'status', '--porcelain')).toBe('');
    expect(decisionTexts(b)).toEqual(['Deploy with GitHub Actions', 'Use Terraform for infrastructure']);
    const file = readFileSync(join(b, '.cortex', 'decisions.md'), 'utf8');
    expect(file.match(/### Use Terraform for infrastructure/g)).toHaveLength(1);

    // A pull that rebases local work (pull.rebase) runs post-rewrite, not post-merge: united too.
    writeFileSync(join(b, 'b.txt'), 'local work');
    g(b, 'add', 'b.txt');
    g(b, 'commit', '-qm', 'local work on b');
    decide('Cache sessions in Redis');
    g(b, 'pull', '-q', '--rebase');
    expect(decisionTexts(b)).toEqual(['Cache sessions in Redis', 'Deploy with GitHub Actions', 'Use Terraform for infrastructure']);
  });
});

describe('decision diffs and blame', () => {
  it('cortex diff main..feature lists exactly the feature\'s decisions, as text, markdown and JSON; log takes the range too', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    remember(dir, 'Main decision', '-t', 'decision');
    git(dir, 'checkout', '-q', '-b', 'feature');
    remember(dir, 'Feature decision one', '-t', 'decision', '--why', 'it is simpler');
    writeTree(dir, { 'b.txt': 'b' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'feature');
    remember(dir, 'Rejected the feature flag service', '-t', 'rejected', '--why', 'one more vendor');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'more');
    git(dir, 'checkout', '-q', 'main');
    remember(dir, 'Later main decision', '-t', 'decision');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'main moves');

    const json = cortexJson<{ decisions: Array<{ content: string }>; rejections: Array<{ content: string }> }>(dir, ['diff', 'main...feature']);
    expect(json.decisions.map((d) => d.content)).toEqual(['Feature decision one']);
    expect(json.rejections.map((d) => d.content)).toEqual(['Rejected the feature flag service']);
    expect(cortex(dir, ['diff', 'main..feature']).stdout).toContain('+ Feature decision one — because it is simpler');
    expect(cortex(dir, ['diff', 'main...feature', '--markdown']).stdout).toMatch(/^## Decisions in this change \(Cortex\)/);
    expect(cortexJson<Array<{ content: string }>>(dir, ['log', 'main...feature']).map((e) => e.content).sort()).toEqual(['Feature decision one', 'Rejected the feature flag service']);
    expect(cortex(dir, ['diff', 'main..nope']).stderr).toMatch(/unknown revision "nope"/);
  });

  it('cortex log <branch> lists what is in view on that branch, as git log <branch> lists its history, wherever HEAD is', () => {
    const { g, dir } = initializedRepo();
    remember(dir, 'Main decision', '-t', 'decision');
    g(dir, 'checkout', '-q', '-b', 'feature');
    remember(dir, 'Feature decision', '-t', 'decision');
    g(dir, 'commit', '-q', '--allow-empty', '-m', 'feature');
    g(dir, 'checkout', '-q', 'main');
    remember(dir, 'Later main decision', '-t', 'decision');
    g(dir, 'commit', '-q', '--allow-empty', '-m', 'main moves');
    const logAt = (rev: string) => cortexJson<Array<{ content: string }>>(dir, ['log', rev, '--type', 'decision']).map((e) => e.content).sort();
    for (const head of ['main', 'feature']) {
      g(dir, 'checkout', '-q', head);
      expect(logAt('feature')).toEqual(['Feature decision', 'Main decision']);
      expect(logAt('main')).toEqual(['Later main decision', 'Main decision']);
    }
  });

  it('after a merge, the commits before it keep their own decisions: diff HEAD^1..HEAD is the merged branch\'s, and a checkout of HEAD^1 shows main\'s', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    remember(dir, 'Main decision A', '-t', 'decision');
    git(dir, 'checkout', '-q', '-b', 'feature');
    writeTree(dir, { 'f.txt': 'f' });
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'f1');
    remember(dir, 'Feature decision B', '-t', 'decision');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'f2');
    git(dir, 'checkout', '-q', 'main');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'm2');
    git(dir, 'merge', '-q', '--no-ff', 'feature', '-m', 'merge feature');
    expect(cortexJson<{ decisions: Array<{ content: string }> }>(dir, ['diff', 'HEAD^1..HEAD']).decisions.map((d) => d.content)).toEqual(['Feature decision B']);
    git(dir, 'checkout', '-q', 'HEAD^1');
    expect(cortexJson<Array<{ content: string }>>(dir, ['decisions']).map((d) => d.content)).toEqual(['Main decision A']);
  });

  it('cortex diff base..head retires only what head retracted or superseded, never the decisions base made after they parted', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    const dropped = remember(dir, 'Use Redis for sessions', '-t', 'decision');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'base');
    git(dir, 'checkout', '-q', '-b', 'pr');
    remember(dir, 'Switch to Fastify', '-t', 'decision');
    expect(cortex(dir, ['forget', dropped.id]).code).toBe(0);
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'pr');
    git(dir, 'checkout', '-q', 'main');
    remember(dir, 'Adopt pnpm', '-t', 'decision');
    git(dir, 'commit', '-q', '--allow-empty', '-m', 'main moves on');

    for (const range of ['main..pr', 'main...pr']) {
      const json = cortexJson<{ decisions: Array<{ content: string }>; retired: Array<{ content: string }> }>(dir, ['diff', range]);
      expect(json.decisions.map((d) => d.content)).toEqual(['Switch to Fastify']);
      expect(json.retired.map((d) => d.content)).toEqual(['Use Redis for sessions']);
      expect(cortex(dir, ['diff', range]).stdout).not.toContain('Adopt pnpm');
      expect(cortex(dir, ['diff', range, '--markdown']).stdout).not.toContain('Adopt pnpm');
    }
  });

  it('cortex diff counts a plan step once: a later session writing the same todo list again is not progress for steps done before the branch point', () => {
    const dir = tempRepo({ files: { 'a.txt': '1' } });
    // One session's TodoWrite call and its result, in Claude Code's transcript shape.
    const todoSession = (id: string, day: string, statuses: string[]) => {
      const todos = ['Add migration', 'Login endpoint', 'Expiry job'].map((content, i) => ({ content, status: statuses[i] ?? 'pending', activeForm: content }));
      const base = { sessionId: id, cwd: dir, version: '2.1.39', gitBranch: 'main', userType: 'external', isSidechain: false };
      const transcript = join(tempDir(), `${id}.jsonl`);
      writeFileSync(transcript, [
        { ...base, type: 'assistant', uuid: `${id}-1`, parentUuid: null, timestamp: `${day}T10:00:00.000Z`, message: { id: `msg_${id}`, type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${id}`, name: 'TodoWrite', input: { todos } }] } },
        { ...base, type: 'user', uuid: `${id}-2`, parentUuid: `${id}-1`, timestamp: `${day}T10:00:01.000Z`, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${id}`, content: 'Todos have been modified successfully.' }] }, toolUseResult: { oldTodos: [], newTodos: todos } },
      ].map((l) => JSON.stringify(l)).join('\n') + '\n');
      const stop = cortex(dir, ['hook', 'Stop'], { input: JSON.stringify({ session_id: id, transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false }) });
      expect(stop.code).toBe(0);
    };
    todoSession('sess-monday', '2026-11-16', ['completed', 'in_progress']);
    writeTree(dir, { 'a.txt': 'migration' });
    git(dir, 'commit', '-qam', 'migration');
    git(dir, 'branch', 'feature');
    todoSession('sess-wednesday', '2026-11-18', ['completed', 'completed']);
    writeTree(dir, { 'a.txt': 'login' });
    git(dir, 'commit', '-qam', 'login');

    const text = cortex(dir, ['diff', 'feature..main']).stdout;
    expect(text).toContain('Plan progress (1)\n  ✓ Login endpoint  (Add migration; Login endpoint; …)\n');
    expect(text).not.toContain('Add migration  (');
    expect(text).not.toContain('(a plan)');
    const json = cortexJson<{ planProgress: Array<{ plan: string; step: string }> }>(dir, ['diff', 'feature..main']);
    expect(json.planProgress.map((p) => [p.step, p.plan])).toEqual([['Login endpoint', 'Add migration; Login endpoint; …']]);
    expect(cortexJson<{ planProgress: Array<{ step: string }> }>(dir, ['diff', 'main..feature']).planProgress).toEqual([]);
  });

  it('blame-decision follows the sessions a squash merge\'s message names (git\'s own indents them) to the one that wrote the file', () => {
    const { g, dir } = initializedRepo();
    const env = { CORTEX_FOREGROUND: '1' };
    g(dir, 'checkout', '-q', '-b', 'feat');
    const work = (session: string, text: string, file: string) => {
      const transcript = join(tempDir(), `${session}.jsonl`);
      const line = (o: object) => JSON.stringify({ sessionId: session, cwd: dir, timestamp: new Date().toISOString(), version: '2.1.39', ...o });
      writeFileSync(transcript, [
        line({ type: 'assistant', message: { id: `${session}-1`, role: 'assistant', content: [{ type: 'text', text }] } }),
        line({ type: 'assistant', message: { id: `${session}-2`, role: 'assistant', content: [{ type: 'tool_use', id: `${session}-t`, name: 'Write', input: { file_path: join(dir, file), content: 'x' } }] } }),
        line({ type: 'user', toolUseResult: { type: 'create', filePath: join(dir, file) }, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `${session}-t`, content: 'ok' }] } }),
      ].join('\n') + '\n');
      writeTree(dir, { [file]: `export const by = '${session}';\n` });
      const payload = { session_id: session, transcript_path: transcript, cwd: dir };
      cortex(dir, ['hook', 'session-start'], { env, input: JSON.stringify({ ...payload, hook_event_name: 'SessionStart', source: 'startup' }) });
      expect(cortex(dir, ['hook', 'stop'], { env, input: JSON.stringify({ ...payload, hook_event_name: 'Stop' }) }).code).toBe(0);
      g(dir, 'add', '-A');
      g(dir, 'commit', '-qm', file);
    };
    work('sess-zod', '[MEMORY: decision] Use zod for validation: it infers the types.', 'src/v.ts');
    work('sess-yup', '[MEMORY: rejected] yup — its TypeScript types are weaker', 'src/v2.ts');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'merge', '-q', '--squash', 'feat');
    g(dir, 'commit', '-q', '--no-edit');
    expect(g(dir, 'log', '-1', '--format=%B')).toMatch(/^ {4}Cortex-Session: sess-yup$/m);

    const blamed = (target: string) => cortexJson<Array<{ sessions: string[]; decisions: Array<{ content: string }> }>>(dir, ['blame-decision', target])[0];
    expect(blamed('src/v2.ts:1')?.sessions).toEqual(['sess-yup']);
    expect(blamed('src/v2.ts:1')?.decisions.map((d) => d.content)).toEqual(['yup — its TypeScript types are weaker']);
    expect(blamed('src/v.ts:1')?.sessions).toEqual(['sess-zod']);
    expect(blamed('src/v.ts:1')?.decisions.map((d) => d.content)).toEqual(['Use zod for validation: it infers the types.']);
  });

  it('blame-decision follows a line to its commit, the session that wrote it, and that session\'s decision', () => {
    const dir = tempRepo({ files: { 'README.md': '# x\n' } });
    const transcript = join(tempDir(), 't.jsonl');
    const line = (o: object) => JSON.stringify({ sessionId: 'sess-blame', cwd: dir, timestamp: new Date().toISOString(), version: '2.1.39', ...o });
    writeFileSync(transcript, [
      line({ type: 'assistant', message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: "I'll go with exponential backoff rather than a fixed delay, since the upstream rate-limits bursts." }] } }),
      line({ type: 'assistant', message: { id: 'm2', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Write', input: { file_path: join(dir, 'src/retry.ts'), content: 'x' } }] } }),
      line({ type: 'user', toolUseResult: { type: 'create', filePath: join(dir, 'src/retry.ts') }, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] } }),
    ].join('\n') + '\n');
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/retry.ts'), 'export const delay = (n: number) => 2 ** n * 100;\n');
    remember(dir, 'Unrelated decision from another session', '-t', 'decision', '--session', 'other');
    expect(cortex(dir, ['hook', 'stop'], { input: JSON.stringify({ session_id: 'sess-blame', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop' }) }).code).toBe(0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'retry with backoff');

    const [match] = cortexJson<Array<{ sessions: string[]; decisions: Array<{ content: string }> }>>(dir, ['blame-decision', 'src/retry.ts:1']);
    expect(match?.sessions).toEqual(['sess-blame']);
    expect(match?.decisions.map((d) => d.content)).toEqual(["I'll go with exponential backoff rather than a fixed delay, since the upstream rate-limits bursts."]);
    const blamed = cortex(dir, ['blame-decision', 'src/retry.ts']).stdout;
    expect(blamed).toMatch(/decision I'll go with exponential backoff/);
    expect(blamed).toMatch(/\(\d{4}-\d{2}-\d{2}, session sess-blame\)/); // not cut to 'sess-bla': only a UUID is shortened
    // A file or line git cannot blame is an expected failure (exit 1), not a usage error (2).
    for (const target of ['src/nosuch.ts', 'src/retry.ts:99']) expect(cortex(dir, ['blame-decision', target])).toMatchObject({ code: 1, stderr: expect.stringMatching(/^cortex: git blame .* failed: .+\n$/) });
  });
});

describe('blame-decision and branch alignment', () => {
  it('names what the line\'s session decided on HEAD\'s line, before the commit first; not what it decided later on a branch HEAD has not merged', () => {
    const { g, dir } = initializedRepo();
    const session = ['--session', 'sess-cache'];
    remember(dir, 'Cache tokens in memory for 5 minutes', '-t', 'decision', ...session);
    writeFileSync(join(dir, 'cache.ts'), 'export const ttl = 300;\n');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', `token cache\n\nCortex-Session: sess-cache`);
    execFileSync('sleep', ['1.1']); // git keeps whole seconds: what follows is after the commit
    g(dir, 'checkout', '-q', '-b', 'experiment');
    remember(dir, 'Move the token cache to Redis', '-t', 'decision', ...session);
    g(dir, 'checkout', '-q', 'main');
    const blamed = () => cortexJson<Array<{ decisions: Array<{ content: string }> }>>(dir, ['blame-decision', 'cache.ts'])[0]?.decisions.map((d) => d.content);
    expect(blamed()).toEqual(['Cache tokens in memory for 5 minutes']);
    remember(dir, 'Log every cache miss', '-t', 'decision', ...session); // on main, after the commit
    expect(blamed()).toEqual(['Cache tokens in memory for 5 minutes', 'Log every cache miss']);
  });
});

describe('branch alignment when event times say nothing (transcripts replayed later, or all stamped alike)', () => {
  /** A Stop hook on a transcript of one assistant line stamped `ts`, as a harness replaying fixtures runs it. */
  const stopWith = (dir: string, session: string, said: string | object[], ts = '2025-01-15T10:00:00.000Z') => {
    const transcript = join(tempDir(), `${session}.jsonl`);
    const content = typeof said === 'string' ? [{ type: 'text', text: said }] : said;
    writeFileSync(transcript, `${JSON.stringify({ type: 'assistant', sessionId: session, cwd: dir, timestamp: ts, message: { id: `m-${session}`, role: 'assistant', content } })}\n`);
    expect(cortex(dir, ['hook', 'stop'], { input: JSON.stringify({ session_id: session, transcript_path: transcript, cwd: dir, hook_event_name: 'Stop' }) }).code).toBe(0);
  };

  it("a branch keeps what main decided before it was made, and not what main decided at the same commit after, by the journal's order", () => {
    const { g, dir } = initializedRepo();
    stopWith(dir, 's1', '[MEMORY: decision] Use Postgres for storage.');
    g(dir, 'checkout', '-q', '-b', 'feature');
    g(dir, 'checkout', '-q', 'main');
    stopWith(dir, 's2', '[MEMORY: decision] Use Kafka for events.');
    writeFileSync(join(dir, 'm.txt'), 'main moves on');
    g(dir, 'add', 'm.txt');
    g(dir, 'commit', '-qm', 'main moves on');
    g(dir, 'checkout', '-q', 'feature');
    expect(decisionTexts(dir)).toEqual(['Use Postgres for storage.']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'Kafka events']).map((h) => h.content)).toEqual([]);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'Postgres storage']).map((h) => h.content)).toEqual(['Use Postgres for storage.']);
    g(dir, 'checkout', '-q', 'main');
    expect(decisionTexts(dir)).toEqual(['Use Kafka for events.', 'Use Postgres for storage.']);
    // What main adds to the feature, as the feature sees itself: Postgres came with it.
    for (const range of ['feature..main', 'feature...main']) expect(cortexJson<{ decisions: Array<{ content: string }> }>(dir, ['diff', range]).decisions.map((d) => d.content)).toEqual(['Use Kafka for events.']);
  });

  it('a squash merge brings what was recorded before the commit it squashed, not what was recorded at that commit after, by the commits', () => {
    const { g, dir } = initializedRepo();
    g(dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(dir, 'f.txt'), 'feature'); // work in progress: the Stop hook writes .cortex/ beside it
    stopWith(dir, 's1', '[MEMORY: decision] Store blobs in SQLite.');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'feature work');
    stopWith(dir, 's2', '[MEMORY: decision] Encode messages with Protobuf.');
    g(dir, 'checkout', '-q', 'main');
    g(dir, 'merge', '-q', '--squash', 'feature');
    g(dir, 'commit', '-qm', 'feature (#1)');
    expect(decisionTexts(dir)).toEqual(['Store blobs in SQLite.']);
    expect(cortexJson<Array<{ content: string }>>(dir, ['search', 'Protobuf messages']).map((h) => h.content)).toEqual([]);

    // The feature goes on from the squash (reset onto main): what it decides there is not main's.
    g(dir, 'checkout', '-q', 'feature');
    g(dir, 'reset', '-q', '--hard', 'main');
    writeFileSync(join(dir, 'g.txt'), 'more feature work');
    stopWith(dir, 's3', '[MEMORY: decision] Compress blobs with zstd.');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'more feature work');
    g(dir, 'checkout', '-q', 'main');
    expect(decisionTexts(dir)).toEqual(['Store blobs in SQLite.']);
  });

  it('a squash merge carries what the feature forgot and how far it took the plan: the archive lists corrections by id, the plan file its newest plan event', () => {
    const { g, dir } = initializedRepo();
    const todos = (auth: string, tests: string) => [{ type: 'tool_use', id: `t-${auth}`, name: 'TodoWrite', input: { todos: [{ content: 'Migrate auth to OIDC', status: auth, activeForm: 'Migrating auth' }, { content: 'Add login tests', status: tests, activeForm: 'Adding tests' }] } }];
    writeFileSync(join(dir, 'm.txt'), 'main');
    const mysql = remember(dir, 'Use MySQL for the primary database', '--type', 'decision');
    stopWith(dir, 's1', todos('in_progress', 'pending'));
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'main: a decision and a plan');
    g(dir, 'checkout', '-q', '-b', 'feature');
    writeFileSync(join(dir, 'f.txt'), 'feature');
    expect(cortex(dir, ['forget', mysql.id]).code).toBe(0);
    stopWith(dir, 's2', todos('completed', 'in_progress'), '2025-01-16T10:00:00.000Z');
    g(dir, 'add', '-A');
    g(dir, 'commit', '-qm', 'feature: drop MySQL, auth migrated');
    const archive = readFileSync(join(dir, '.cortex', 'decisions-archive.md'), 'utf8');
    expect(archive).toMatch(new RegExp(`^- \`\\w+\` forgets \`${mysql.id}\``, 'm'));
    expect(archive).not.toContain('MySQL');

    g(dir, 'checkout', '-q', 'main');
    const planDone = () => cortexJson<{ steps: Array<{ done: boolean }> }>(dir, ['plan', '--json']).steps.map((s) => s.done);
    expect(decisionTexts(dir)).toEqual(['Use MySQL for the primary database']);
    expect(planDone()).toEqual([false, false]);
    g(dir, 'merge', '-q', '--squash', 'feature');
    g(dir, 'commit', '-qm', 'feature (#2)');
    expect(decisionTexts(dir)).toEqual([]);
    expect(cortexJson<unknown[]>(dir, ['search', 'MySQL primary database'])).toEqual([]);
    expect(planDone()).toEqual([true, false]);
    // Regenerated on main, the files are what the squash committed.
    expect(cortex(dir, ['projections', '--write']).code).toBe(0);
    expect(g(dir, 'status', '--porcelain')).toBe('');
  });
});
