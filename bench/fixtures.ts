import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { createIdGenerator } from '../src/events/ids.js';
import { normalizeEvent } from '../src/events/parse-event.js';
import type { CortexEvent } from '../src/events/types.js';
import { discoverRepo } from '../src/git/repo.js';
import { append, openJournal, type Journal } from '../src/journal/journal.js';

/** Temp repositories and synthetic journals for the bench (never the user's repos). */
export const CLI = new URL('../dist/cli.js', import.meta.url).pathname;

export function benchRepo(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cortex-bench-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'bench@example.com');
  git('config', 'user.name', 'Bench');
  git('config', 'gc.auto', '0');
  writeFileSync(join(dir, 'README.md'), '# bench\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return dir;
}

const TYPES = ['decision_made', 'approach_rejected', 'knowledge_acquired', 'file_modified', 'file_explored', 'command_run', 'plan_step_completed', 'error_resolved'] as const;
const WORDS = 'postgres redis cache queue worker retry backoff schema migration index token auth session cookie header proxy build bundle test fixture deploy rollout canary metric trace span log parser lexer router handler'.split(' ');
const nextId = createIdGenerator((n) => randomBytes(n));

export function syntheticEvent(i: number, session: string, tsMs: number): CortexEvent {
  const type = TYPES[i % TYPES.length] as (typeof TYPES)[number];
  const words = Array.from({ length: 12 }, (_, k) => WORDS[(i * 7 + k * 13) % WORDS.length]).join(' ');
  const result = normalizeEvent(
    { type, content: `${type.replace('_', ' ')} ${i}: ${words}`, ts: new Date(tsMs).toISOString(), session, meta: type.startsWith('file_') ? { path: `src/module-${i % 300}.ts` } : {} },
    { now: new Date(tsMs), session, author: 'bench@example.com', branch: 'main', commit: null, provenance: 'layer1:bench', newId: nextId },
  );
  if (!result.ok) throw new Error(result.error);
  return result.event;
}

/**
 * A journal of `size` events written as sessions of 100 events each, spread over the last six
 * months: the shape months of real use produce (many shards, several month folders).
 */
export async function buildJournal(dir: string, size: number): Promise<{ journal: Journal; buildMs: number }> {
  const journal = await openJournal(await discoverRepo(dir));
  const perSession = 100;
  const sessions = Math.ceil(size / perSession);
  const span = 180 * 86_400_000;
  const start = Date.now() - span;
  const began = performance.now();
  for (let s = 0; s < sessions; s++) {
    const sessionStart = start + Math.floor((s / sessions) * span);
    const count = Math.min(perSession, size - s * perSession);
    const batch = Array.from({ length: count }, (_, k) => syntheticEvent(s * perSession + k, `session-${s}`, sessionStart + k * 1000));
    await append(journal, batch);
  }
  return { journal, buildMs: performance.now() - began };
}

/** Run the built CLI as a user would and return its wall time in ms. */
export function runCli(dir: string, args: string[]): number {
  const start = performance.now();
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`cortex ${args.join(' ')} failed: ${result.stderr}`);
  return ms;
}
