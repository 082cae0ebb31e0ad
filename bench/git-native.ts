import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { foldMemory } from '../src/projections/fold.js';
import { renderDecisionsFile } from '../src/projections/render-files.js';
import { DEFAULT_SETTINGS } from '../src/projections/settings.js';
import { benchRepo, CLI } from './fixtures.js';
import { buildProjectionJournal, projectionEvent } from './projections.js';
import { sampleTimed } from './stats.js';

/**
 * Issue 5 budgets: post-checkout and post-merge at 100K events (the whole hook as git runs it),
 * one merge-driver call, and `cortex sync` of 1,000 new events each way over a local bare remote.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function settle(dir: string): Promise<void> {
  await sleep(400);
  for (let waited = 0; waited < 30_000 && existsSync(join(dir, '.git', 'cortex', 'projections.lock')); waited += 50) await sleep(50);
}

export async function benchGitHooks(size: number) {
  const dir = benchRepo();
  try {
    await buildProjectionJournal(dir, size);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
    git('branch', 'other');
    const head = git('rev-parse', 'HEAD');
    const hook = (name: string, args: string[]) => async () => {
      await settle(dir);
      const started = performance.now();
      const result = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" git-hook ${name} "$@"`, 'hook', ...args], { cwd: dir, encoding: 'utf8' });
      const ms = performance.now() - started;
      if (result.status !== 0) throw new Error(`git-hook ${name} failed: ${result.stderr}`);
      return ms;
    };
    const postCheckout = await sampleTimed(11, hook('post-checkout', [head, head, '1']));
    const postMerge = await sampleTimed(11, hook('post-merge', ['0']));
    await settle(dir);
    return { events: size, postCheckoutMs: postCheckout, postMergeMs: postMerge };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchMergeDriver() {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-bench-driver-'));
  try {
    const decisions = (from: number, n: number) => Array.from({ length: n }, (_, i) => projectionEvent(from + i, 'decision_made', `s${i % 7}`, Date.now() + from + i));
    const base = decisions(0, 50);
    const render = (events: typeof base) => renderDecisionsFile(foldMemory(events, DEFAULT_SETTINGS, new Date()));
    const run = async () => {
      writeFileSync(join(dir, 'O'), render(base));
      writeFileSync(join(dir, 'A'), render([...base, ...decisions(100, 3)]));
      writeFileSync(join(dir, 'B'), render([...base, ...decisions(200, 3)]));
      const started = performance.now();
      const result = spawnSync(process.execPath, [CLI, 'merge-driver', 'O', 'A', 'B', '.cortex/decisions.md'], { cwd: dir });
      if (result.status !== 0) throw new Error(String(result.stderr));
      return performance.now() - started;
    };
    return { callMs: await sampleTimed(11, run) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchSync(newEvents: number) {
  const root = mkdtempSync(join(tmpdir(), 'cortex-bench-sync-'));
  try {
    const bare = join(root, 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
    const clone = (name: string) => {
      const dir = join(root, name);
      execFileSync('git', ['clone', '-q', bare, dir], { stdio: 'ignore' });
      for (const [k, v] of [['user.email', `${name}@example.com`], ['user.name', name], ['gc.auto', '0']]) execFileSync('git', ['config', k as string, v as string], { cwd: dir });
      return dir;
    };
    const cli = (dir: string, args: string[], input?: string) => {
      const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, input, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`cortex ${args.join(' ')}: ${r.stderr}`);
    };
    const lines = (who: string, round: number) => Array.from({ length: newEvents }, (_, i) => JSON.stringify({ type: 'learned', content: `${who} round ${round} fact ${i}`, ts: new Date(Date.now() + i).toISOString() })).join('\n');
    const a = clone('a');
    const b = clone('b');
    cli(a, ['init', '--no-claude', '--no-git']);
    cli(a, ['sync']);
    cli(b, ['init', '--no-claude', '--no-git']);
    let round = 0;
    const result = await sampleTimed(3, async () => {
      round++;
      cli(a, ['import', '-'], lines('a', round));
      cli(b, ['import', '-'], lines('b', round));
      cli(a, ['sync']);
      const started = performance.now();
      cli(b, ['sync']); // receives a's 1,000 and sends its own 1,000
      return performance.now() - started;
    });
    return { newEventsEachWay: newEvents, syncMs: result };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

