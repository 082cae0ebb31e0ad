import { startInBackground } from '../background.js';
import { cortexDir, hasGitState, type Repo } from '../git/repo.js';
import { readRef } from '../git/refs.js';
import { gitOutput, runGit } from '../git/run-git.js';
import type { Journal } from '../journal/journal.js';
import { PROJECTION_FILES } from '../projections/tracked-files.js';
import type { RegenerateOptions } from './regenerate.js';

/*
 * Kept apart from regenerate.ts: hooks load this on every stop that captured a decision, and
 * the regeneration itself (remark, gray-matter, the fold) loads only when it runs in process.
 */
export interface RefreshOptions extends RegenerateOptions {
  /** From post-merge: MERGE_HEAD is still there, but that merge is done. */
  afterMerge?: boolean;
  /**
   * From a session hook: leave a clean work tree clean. A tracked file modified behind the user's
   * back makes git refuse their next `git pull --rebase`, and a merge pull that touches it; with
   * other changes in the tree, `.cortex/` is committed along with them.
   */
  keepCleanTree?: boolean;
}

/**
 * What a hook does after memory or HEAD changed: regenerate in the background, or here. Never
 * the tracked files while git is in the middle of a merge, rebase or cherry-pick: they are
 * part of what git is merging (our merge driver may have merged them already), and rewriting
 * them for the HEAD from before would drop the other side's entries from the result.
 */
export async function refreshProjections(journal: Journal, options: RefreshOptions): Promise<string> {
  const root = journal.repo.workTree;
  if (!root) return 'no work tree';
  const check = options.files === true ? await mayWriteFiles(journal.repo, options) : { ok: false, note: '' };
  const files = check.ok;
  if (!files && !options.briefing) return check.note || 'nothing to regenerate';
  const what = [files ? '.cortex/' : '', options.briefing ? 'the briefing' : ''].filter(Boolean).join(' and ');
  const done = (summary: string) => [summary, check.note].filter(Boolean).join('; ');
  // The background job asks again just before it writes: by then the user may have committed,
  // stashed or switched, and a file written into that tree would be a change nobody made.
  const guard = files ? ['--write', '--guard', ...(options.keepCleanTree ? ['--keep-clean-tree'] : []), ...(options.afterMerge ? ['--after-merge'] : [])] : [];
  if (startInBackground(['projections', ...guard, ...(options.briefing ? ['--briefing'] : []), '--quiet'], { cwd: root, cortexDir: cortexDir(journal.repo) })) {
    return done(`regenerating ${what} in the background`);
  }
  const { regenerateProjections } = await import('./regenerate.js');
  const { written } = await regenerateProjections(journal, { ...options, files });
  return done(written.length > 0 ? `rewrote ${written.join(', ')}` : `${what} up to date`);
}

/**
 * Whether a hook may write the tracked files now, and if not, why: not while git is in the
 * middle of an operation, not into a clean tree it was asked to keep clean, not while the
 * latest stash holds them.
 */
export async function mayWriteFiles(repo: Repo, options: Pick<RefreshOptions, 'afterMerge' | 'keepCleanTree'>): Promise<{ ok: boolean; note: string }> {
  const root = repo.workTree;
  if (!root) return { ok: false, note: 'no work tree' };
  if (await operationInProgress(repo, options.afterMerge ? ['MERGE_HEAD'] : [])) return { ok: false, note: 'git is mid-operation, so .cortex/ is left alone' };
  if (options.keepCleanTree === true && (await gitOutput(['status', '--porcelain'], { cwd: root })).trim() === '') return { ok: false, note: 'the work tree is clean, so .cortex/ waits for the next change or merge' };
  if (await stashHoldsProjections(repo)) return { ok: false, note: 'the latest stash holds changes to .cortex/, so it waits until the stash is popped or dropped' };
  return { ok: true, note: '' };
}

const IN_PROGRESS = ['rebase-merge', 'rebase-apply', 'MERGE_HEAD', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'BISECT_LOG'];

const operationInProgress = (repo: Repo, except: readonly string[]): Promise<boolean> => hasGitState(repo, IN_PROGRESS.filter((name) => !except.includes(name)));

/**
 * Whether the latest stash changes a tracked file or holds one untracked (`stash -u`). `git
 * stash pop` refuses to apply over a file modified since, after putting back the stash's
 * untracked files: the user is left with half a stash to sort out by hand. So hooks leave
 * `.cortex/` as the stash expects it until it is popped or dropped; the next regeneration then
 * catches up. No stash, no git call.
 */
async function stashHoldsProjections(repo: Repo): Promise<boolean> {
  if (!(await readRef(repo.commonDir, 'refs/stash'))) return false;
  const cwd = repo.workTree ?? repo.gitDir;
  const paths = Object.values(PROJECTION_FILES);
  // A stash's first parent is the commit it was made on, its third (with -u) the untracked files.
  const [changed, untracked] = await Promise.all([
    runGit(['diff', '--name-only', 'refs/stash^1', 'refs/stash', '--', ...paths], { cwd }),
    runGit(['ls-tree', '--name-only', 'refs/stash^3', '--', ...paths], { cwd }),
  ]);
  return (changed.code === 0 && changed.stdout.trim() !== '') || (untracked.code === 0 && untracked.stdout.trim() !== '');
}
