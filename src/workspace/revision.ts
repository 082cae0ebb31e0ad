import { CortexError } from '../errors.js';
import type { CortexEvent } from '../events/types.js';
import { readRef } from '../git/refs.js';
import { readHead, type HeadState, type Repo } from '../git/repo.js';
import { runGit } from '../git/run-git.js';
import { visibleEvents } from '../projections/visibility.js';
import { readBranchView } from './branch-view.js';

/**
 * Revisions and ranges as git takes them (`main`, `HEAD~2`, `a1b2c3`, `main..feature`,
 * `main...feature`), resolved to the commit and, when the revision names a branch, the branch:
 * memory captured on a branch belongs to it.
 */
export async function resolveRevision(repo: Repo, rev: string): Promise<HeadState> {
  const cwd = repo.workTree ?? repo.gitDir;
  if (rev === 'HEAD' || rev === '') return readHead(repo);
  const result = await runGit(['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], { cwd });
  const commit = result.stdout.trim();
  if (result.code !== 0 || !commit) throw new CortexError('USAGE', `unknown revision "${rev}" (a branch, tag or commit, as git takes it)`);
  const remote = /^[\w.-]+\/(.+)$/.exec(rev);
  const branch = (await readRef(repo.commonDir, `refs/heads/${rev}`)) ? rev : remote && (await readRef(repo.commonDir, `refs/remotes/${rev}`)) ? (remote[1] as string) : null;
  return { branch, commit };
}

export interface RangeViews {
  base: HeadState;
  head: HeadState;
  /** Events visible on head and not on base. */
  added: CortexEvent[];
  baseVisible: CortexEvent[];
  headVisible: CortexEvent[];
}

export function parseRange(range: string): { base: string; head: string; symmetric: boolean } {
  if (range.trim() === '') throw new CortexError('USAGE', 'no range given (an empty variable?): give one as git does, such as main..feature or main...HEAD');
  const three = range.split('...');
  if (three.length === 2) return { base: three[0] || 'HEAD', head: three[1] || 'HEAD', symmetric: true };
  const two = range.split('..');
  if (two.length === 2) return { base: two[0] || 'HEAD', head: two[1] || 'HEAD', symmetric: false };
  return { base: range, head: 'HEAD', symmetric: false };
}

/** `base..head`: what head sees that base does not; `base...head` compares with their merge base. */
export async function readRange(repo: Repo, events: readonly CortexEvent[], range: string): Promise<RangeViews> {
  const parsed = parseRange(range);
  const head = await resolveRevision(repo, parsed.head);
  let base = await resolveRevision(repo, parsed.base);
  if (parsed.symmetric && base.commit && head.commit) {
    const mergeBase = await runGit(['merge-base', base.commit, head.commit], { cwd: repo.workTree ?? repo.gitDir });
    // The base branch as it stood where the two lines parted: what it had then, its name's and
    // what it was made with (`feature...main`: main's decisions from before feature are not main's news).
    if (mergeBase.code === 0) base = { branch: base.branch, commit: mergeBase.stdout.trim() };
  }
  const [baseView, headView] = await Promise.all([readBranchView(repo, events, { at: base, withOrigin: true }), readBranchView(repo, events, { at: head })]);
  const baseVisible = visibleEvents(events, baseView);
  const headVisible = visibleEvents(events, headView);
  const inBase = new Set(baseVisible.map((e) => e.id));
  return { base, head, added: headVisible.filter((e) => !inBase.has(e.id)), baseVisible, headVisible };
}

/** The events in view at one revision (`cortex log main`): at a branch's name, as that branch checked out sees them. */
export async function readVisibleAt(repo: Repo, events: readonly CortexEvent[], rev: string): Promise<CortexEvent[]> {
  if (rev === 'HEAD') return visibleEvents(events, await readBranchView(repo, events));
  const at = await resolveRevision(repo, rev);
  return visibleEvents(events, await readBranchView(repo, events, { at, withOrigin: true, tip: at.branch === rev }));
}
