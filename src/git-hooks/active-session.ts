import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Repo } from '../git/repo.js';

/**
 * Which Claude Code session is working in this worktree right now, so a commit made meanwhile
 * can carry a `Cortex-Session:` trailer. Claude Code's hooks keep it fresh; SessionEnd clears it;
 * a record untouched for 12 hours is stale (a session killed without SessionEnd).
 *
 * One record per worktree, in the worktree's own git dir (`.git/cortex/` for the main one, where
 * it always was; `.git/worktrees/<name>/cortex/` for a linked one, which `git worktree remove`
 * takes with it): a session per worktree is a common way to work in parallel, and one shared
 * record gave a commit in one worktree the session of another.
 */
const STALE_MS = 12 * 3_600_000;
const path = (repo: Repo) => join(repo.gitDir, 'cortex', 'active-session.json');

/**
 * A session id goes into commit messages as it is: one with a line break or a control character
 * in it (a hand-made payload, never Claude Code's UUIDs) would write a trailer of its own choosing
 * ("s\nSigned-off-by: …"), so such an id is never recorded or read back. Nor is the hook's
 * stand-in for a payload that named none.
 */
const trailerSafe = (session: string): boolean => /^[^\s\p{Cc}]{1,200}$/u.test(session) && session !== 'unknown-session';

export async function markSessionActive(repo: Repo, session: string): Promise<void> {
  // Whatever is working now is not the session recorded before, whose trailer would go on its commits.
  if (!trailerSafe(session)) {
    if (session !== 'unknown-session') await rm(path(repo), { force: true }).catch(() => undefined);
    return;
  }
  const file = path(repo);
  await mkdir(dirname(file), { recursive: true })
    .then(() => writeFile(file, JSON.stringify({ session, ts: new Date().toISOString() })))
    .catch(() => undefined);
}

export async function markSessionEnded(repo: Repo, session: string): Promise<void> {
  const current = await readActiveSession(repo);
  if (current === session) await rm(path(repo), { force: true });
}

export async function readActiveSession(repo: Repo, now = Date.now()): Promise<string | null> {
  try {
    const record = JSON.parse(await readFile(path(repo), 'utf8')) as { session?: unknown; ts?: unknown };
    if (typeof record.session !== 'string' || typeof record.ts !== 'string' || !trailerSafe(record.session)) return null;
    return now - Date.parse(record.ts) < STALE_MS ? record.session : null;
  } catch {
    return null;
  }
}
