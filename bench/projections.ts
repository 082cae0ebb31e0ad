import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIdGenerator } from '../src/events/ids.js';
import { normalizeEvent } from '../src/events/parse-event.js';
import type { CortexEvent } from '../src/events/types.js';
import { discoverRepo } from '../src/git/repo.js';
import { append, openJournal } from '../src/journal/journal.js';
import { foldMemory } from '../src/projections/fold.js';
import { renderDecisionsFile } from '../src/projections/render-files.js';
import { DEFAULT_SETTINGS } from '../src/projections/settings.js';
import { benchRepo, CLI } from './fixtures.js';
import { round, sample } from './stats.js';

/**
 * Issue 4 budgets: the SessionStart hook at 100K events (5,000 decisions), warm and after the
 * derived state is deleted; and how often a plain `git merge` (no driver) of two branches that
 * each added 3 decisions to a 50-decision history conflicts on .cortex/decisions.md.
 */
const nextId = createIdGenerator((n) => randomBytes(n));
const MIX = ['file_modified', 'file_explored', 'command_run', 'file_modified', 'knowledge_acquired', 'command_run', 'file_modified', 'error_resolved', 'file_explored', 'task_completed'] as const;
const WORDS = 'postgres redis cache queue worker retry backoff schema migration index token auth session cookie header proxy build bundle test fixture deploy rollout canary metric trace span log parser lexer router handler'.split(' ');

export function projectionEvent(i: number, type: string, session: string, tsMs: number): CortexEvent {
  const words = Array.from({ length: 12 }, (_, k) => WORDS[(i * 7 + k * 13) % WORDS.length]).join(' ');
  const result = normalizeEvent(
    { type, content: `${type.replace('_', ' ')} ${i}: ${words}`, ts: new Date(tsMs).toISOString(), session, meta: type.startsWith('file_') ? { path: `src/module-${i % 300}.ts` } : type === 'decision_made' ? { reason: `because ${words.slice(0, 40)}` } : {} },
    { now: new Date(tsMs), session, author: 'bench@example.com', branch: 'main', commit: null, provenance: 'layer1:bench', newId: nextId },
  );
  if (!result.ok) throw new Error(result.error);
  return result.event;
}

/** `size` events in sessions of 100 over six months; one in twenty is a decision. */
export async function buildProjectionJournal(dir: string, size: number): Promise<void> {
  const journal = await openJournal(await discoverRepo(dir));
  const span = 180 * 86_400_000;
  const start = Date.now() - span;
  for (let s = 0; s * 100 < size; s++) {
    const sessionStart = start + Math.floor(((s * 100) / size) * span);
    const batch = Array.from({ length: Math.min(100, size - s * 100) }, (_, k) => {
      const i = s * 100 + k;
      return projectionEvent(i, i % 20 === 0 ? 'decision_made' : i % 20 === 10 ? 'approach_rejected' : (MIX[i % MIX.length] as string), `session-${s}`, sessionStart + k * 1000);
    });
    await append(journal, batch);
  }
}

export async function benchSessionStart(size: number) {
  const dir = benchRepo();
  try {
    await buildProjectionJournal(dir, size);
    const payload = JSON.stringify({ session_id: 'bench', transcript_path: join(dir, 'none.jsonl'), cwd: dir, hook_event_name: 'SessionStart', source: 'startup' });
    const hook = () => {
      const result = spawnSync(process.execPath, [CLI, 'hook', 'session-start'], { cwd: dir, input: payload, encoding: 'utf8' });
      if (result.status !== 0 || result.stdout.length === 0) throw new Error(`session-start printed nothing: ${result.stderr}`);
      return result.stdout.length;
    };
    const cold = await sample(3, () => {
      rmSync(join(dir, '.git', 'cortex'), { recursive: true, force: true });
      hook();
    });
    const chars = hook();
    const warm = await sample(15, hook);
    return { events: size, decisions: size / 20, briefingChars: chars, warmMs: warm, afterDeletingGitCortexMs: cold };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Real git merges of decisions.md files rendered by the real renderer. */
export function benchMergeConflicts(trials: number) {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-bench-merge-'));
  const git = (...args: string[]) => spawnSync('git', args, { cwd: dir, encoding: 'utf8' });
  const file = join(dir, '.cortex', 'decisions.md');
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  for (const [k, v] of [['user.email', 'bench@example.com'], ['user.name', 'Bench'], ['gc.auto', '0'], ['commit.gpgsign', 'false']]) git('config', k as string, v as string);
  const render = (events: CortexEvent[]) => renderDecisionsFile(foldMemory(events, DEFAULT_SETTINGS, new Date()));
  const decision = (n: number, session: string) => projectionEvent(n, 'decision_made', session, Date.now() + n);
  let conflicts = 0;
  try {
    for (let t = 0; t < trials; t++) {
      git('checkout', '-q', '-B', 'main');
      const base = Array.from({ length: 50 }, (_, i) => decision(t * 1000 + i, `base-${i % 10}`));
      const ours = Array.from({ length: 3 }, (_, i) => decision(t * 1000 + 100 + i, 'ours'));
      const theirs = Array.from({ length: 3 }, (_, i) => decision(t * 1000 + 200 + i, 'theirs'));
      execFileSync('mkdir', ['-p', join(dir, '.cortex')]);
      writeFileSync(file, render(base));
      git('add', '-A');
      git('commit', '-q', '-m', `base ${t}`);
      git('checkout', '-q', '-B', 'theirs');
      writeFileSync(file, render([...base, ...theirs]));
      git('commit', '-q', '-am', 'theirs');
      git('checkout', '-q', 'main');
      writeFileSync(file, render([...base, ...ours]));
      git('commit', '-q', '-am', 'ours');
      const merge = git('merge', '-q', '--no-edit', 'theirs');
      if (merge.status !== 0) {
        conflicts++;
        git('merge', '--abort');
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { trials, conflicts, conflictRate: conflicts / trials };
}
