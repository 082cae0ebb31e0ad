import type { CortexEvent } from '../events/types.js';

/**
 * Branch alignment: which events belong to the line of history HEAD is on. The I/O shell asks
 * git the ancestry questions once and hands the answers in as sets, so this stays pure.
 *
 * An event records the branch and the HEAD commit it was captured at. It is visible when:
 * - it was captured on the current branch, or
 * - its commit is an ancestor of HEAD, and the work that followed it on its own branch is too.
 *
 * The second condition is what keeps a decision made on a fresh feature branch (whose recorded
 * commit is still the branch point, an ancestor of main) off `main` until the feature's next
 * commit is merged. `unmerged` holds, per branch, the commits in HEAD's history whose child on that
 * branch is not (yet) in HEAD's history; seen from a long-lived branch (main), a feature branch
 * that has no commit of its own yet counts its tip among them.
 *
 * An event captured before its branch's first commit (commit null) is visible where the history
 * that branch began is: the first session of a new project shows on every branch made later. One
 * of a branch this repository does not have shows everywhere: nothing places it.
 *
 * Some merges leave no ancestry: a squash merge, a forge's "rebase and merge", a cherry-pick.
 * What they do carry is the tracked decision files, so an event those files list at HEAD came to
 * this line, and with it what its branch did before it: `squashed`.
 *
 * A merge can also be taken back while its ancestry stays: `git revert -m 1 <merge>` removes the
 * feature's code, and its memory goes with it (`reverted`), until that revert is reverted too.
 */
export interface BranchView {
  /** The current branch, or null when HEAD is detached. */
  branch: string | null;
  /** Every commit reachable from HEAD. */
  ancestors: ReadonlySet<string>;
  /** branch name → commits of HEAD's history followed on that branch by commits HEAD lacks. */
  unmerged: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * branch name → its root commits, for branches with events captured before their first
   * commit (commit null): such an event is visible where the history that branch began is.
   */
  roots?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Rewritten commits (amend, rebase: `commit_linked` events from post-rewrite), old → new. */
  rewrites?: ReadonlyMap<string, string>;
  /**
   * Other names of the current branch: the trunk's other name (main ↔ master) when this
   * repository has no branch of that name, so memory imported from a repository whose trunk is
   * called otherwise still sits on this one's trunk.
   */
  aliases?: ReadonlySet<string>;
  /**
   * branch name → a time (milliseconds since the epoch): that branch's work up to then reached
   * HEAD's line without ancestry. Only where no better evidence is kept: what the branch HEAD's
   * branch was made from had recorded by the reflog's time of creation (see `origin`).
   */
  squashedUntil?: ReadonlyMap<string, number>;
  /**
   * branch name → what a merge without ancestry brought of it, by where its work stood: every
   * commit older than one whose memory HEAD's tracked files list (`before`), and at such a
   * commit, what was recorded up to the latest listed there (`at`: commit, '' for none → time).
   * Times decide only at those commits: replayed transcripts may all carry one time.
   */
  squashed?: ReadonlyMap<string, SquashedBranch>;
  /**
   * What the branch HEAD's branch was made from had recorded at the fork commit when it was made
   * (the journal's order says, fork-records.ts): events at `place` came with the branch, except
   * those recorded there since (`since`).
   */
  origin?: { place: Place; since: ReadonlySet<string> };
  /**
   * Commits this repository has, outside HEAD's history, at which events were recorded on a
   * branch of HEAD's branch's name: another line of history by that name (a branch deleted and
   * made again, a teammate's branch of the same name that was fetched, work reset away). Events
   * there are not this branch's. A commit this repository lacks cannot be judged (memory imported
   * from elsewhere, a teammate's work not pulled yet), so its events still count by name.
   */
  elsewhere?: ReadonlySet<string>;
  /**
   * Commits of HEAD's history at which a detached HEAD recorded memory that did not come to this
   * line: the detached work there was left, or committed and thrown away (HEAD's reflog says so).
   */
  detachedOff?: ReadonlySet<string>;
  /**
   * Commits where a detached HEAD's work was carried onto a branch (`git switch -c` there, a
   * rebase finished there, or given up there with `--abort`): memory recorded there is judged as
   * that branch's.
   */
  detachedCarried?: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Commits of HEAD's history a detached HEAD stayed at more than once, left without a commit
   * before a later stay whose work was kept: what was recorded there before that stay began
   * (milliseconds since the epoch; the reflog keeps whole seconds) is the abandoned work's.
   */
  detachedOffBefore?: ReadonlyMap<string, number>;
  /**
   * Per branch name, the events an earlier branch of that name recorded (deleted or renamed since
   * this one was made): judged as the branch `<name>@{previous}` (`judgedPlace`).
   */
  previous?: ReadonlyMap<string, ReadonlySet<string>>;
  /**
   * Merges HEAD's history reverts (`git revert -m`), each as two views of HEAD's branch: at the
   * merge, and at the parent the revert kept. What the first sees and the second does not is
   * what the merge brought, and the revert took it back out.
   */
  reverted?: ReadonlyArray<{ merge: BranchView; kept: BranchView }>;
  /** `--all`: ignore alignment. */
  all?: boolean;
}

/** Follow a commit through its rewrites to the commit that replaced it last. */
export function currentCommit(commit: string, rewrites: ReadonlyMap<string, string> | undefined): string {
  let c = commit;
  for (let hops = 0; hops < 50 && rewrites?.has(c); hops++) c = rewrites.get(c) as string;
  return c;
}

/** old → new for every rewrite recorded in the journal. */
export function rewritesFrom(events: readonly CortexEvent[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const e of events) {
    if (e.type !== 'commit_linked') continue;
    const from = e.meta.rewritten_from;
    const to = e.meta.commit;
    if (typeof from === 'string' && typeof to === 'string' && from !== to) map.set(from, to);
  }
  return map;
}

/** old → its parents, for every rewrite that recorded them: where the rewritten work branched. */
export function rewrittenParentsFrom(events: readonly CortexEvent[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const e of events) {
    const rewrite = rewrittenParentsOf(e);
    if (rewrite) map.set(rewrite[0], rewrite[1]);
  }
  return map;
}

/** A `commit_linked` event's old commit and the parents it had, where post-rewrite recorded them. */
export function rewrittenParentsOf(e: CortexEvent): [string, string[]] | undefined {
  const { rewritten_from: from, rewritten_from_parents: parents } = e.meta;
  if (e.type !== 'commit_linked' || typeof from !== 'string' || !Array.isArray(parents)) return undefined;
  return [from, parents.filter((p): p is string => typeof p === 'string')];
}

/** Where an event was captured: all alignment looks at. */
export type Place = Pick<CortexEvent, 'branch' | 'commit'>;

export function isVisible(event: Place, view: BranchView): boolean {
  if (!isOnLine(event, view)) return false;
  return !view.reverted?.some((r) => isOnLine(event, r.merge) && !isOnLine(event, r.kept));
}

function isOnLine(event: Place, view: BranchView): boolean {
  if (view.all) return true;
  if (event.branch === null && event.commit === null) return true; // imported without a place: everywhere
  if (event.branch !== null && (event.branch === view.branch || view.aliases?.has(event.branch))) return event.commit === null || !view.elsewhere?.has(event.commit);
  if (event.commit === null) {
    // Recorded before its branch's first commit: visible where that history began. A branch this
    // repository does not have (memory imported without its commits, a name given up before the
    // first commit) cannot be placed, and the little of it there is stays in sight.
    const roots = view.roots?.get(event.branch as string);
    return roots === undefined || [...roots].some((root) => view.ancestors.has(root));
  }
  // Detached work carried onto a branch is that branch's, wherever its commit is now.
  const carried = event.branch === null ? view.detachedCarried?.get(event.commit) : undefined;
  if (carried) return [...carried].some((branch) => isOnLine({ branch, commit: event.commit as string }, view));
  const commit = view.ancestors.has(event.commit) ? event.commit : currentCommit(event.commit, view.rewrites);
  if (!view.ancestors.has(commit)) return false;
  if (event.branch === null) return !view.detachedOff?.has(event.commit);
  return !view.unmerged.get(event.branch)?.has(commit);
}

/**
 * Visible by its place, or brought to this line by a merge without ancestry (`squashedUntil`).
 * The time is parsed only for events of a squashed branch: this runs over the whole journal.
 */
export const visibleEvents = (events: readonly CortexEvent[], view: BranchView): CortexEvent[] =>
  events.filter((e) => ((atOrigin(e, view) ? !view.origin?.since.has(e.id) : isVisible(judgedPlace(e, view), view)) && !(millisOf(e.ts) < detachedStayBefore(e, view))) || squashedIn(e, view));

/** Where an event is judged: where it was recorded, under the name of the branch that recorded it (`previous`). */
export const judgedPlace = (e: Place & { id: string }, view: BranchView): Place => (e.branch !== null && view.previous?.get(e.branch)?.has(e.id) ? { branch: previousName(e.branch), commit: e.commit } : e);

/** The name an earlier branch of a name is judged by: one no branch can have (`@{` is not allowed in ref names). */
export const previousName = (branch: string): string => `${branch}@{previous}`;
export const baseName = (branch: string): string => branch.replace(/@\{previous\}$/, '');

/** For memory a detached HEAD recorded: before when (ms) it was an abandoned stay's (`detachedOffBefore`); -Infinity for none. */
export const detachedStayBefore = (place: Place, view: BranchView): number => (place.branch === null && place.commit !== null ? (view.detachedOffBefore?.get(place.commit) ?? Number.NEGATIVE_INFINITY) : Number.NEGATIVE_INFINITY);

/** Recorded where HEAD's branch was made, on the branch it was made from: in view if recorded before it was made. */
const atOrigin = (e: Place, view: BranchView): boolean => view.origin !== undefined && e.branch === view.origin.place.branch && e.commit === view.origin.place.commit;

function fromOrigin(e: Place & { id: string }, view: BranchView): boolean {
  return atOrigin(e, view) && !view.origin?.since.has(e.id);
}

function squashedIn(e: CortexEvent, view: BranchView): boolean {
  const limit = squashLimit(e, view);
  return limit !== undefined && millisOf(e.ts) <= limit;
}

export interface SquashedBranch {
  at: ReadonlyMap<string, number>;
  /** Null when git could not say (a listed commit gone): then the latest time listed decides everywhere. */
  before: ReadonlySet<string> | null;
}

/**
 * Up to when (ms) what was recorded at `place` came to HEAD's line without ancestry; undefined
 * when nothing of it did. Infinity for a commit older than one a squash listed memory at.
 */
export function squashLimit(place: Place, view: BranchView): number | undefined {
  if (place.branch === null) return undefined;
  const squashed = view.squashed?.get(place.branch);
  const limits: number[] = [];
  if (squashed) {
    const commit = place.commit ?? '';
    if (squashed.before === null) limits.push(Math.max(...squashed.at.values()));
    else if (squashed.before.has(commit)) return Number.POSITIVE_INFINITY;
    else if (squashed.at.has(commit)) limits.push(squashed.at.get(commit) as number);
  }
  const until = view.squashedUntil?.get(place.branch);
  if (until !== undefined) limits.push(until);
  return limits.length > 0 ? Math.max(...limits) : undefined;
}

/**
 * To the millisecond: a squash merge's boundary falls between two memories recorded within one
 * second (a decision, the commit, the next decision), and the search index must draw it where
 * the projections do.
 */
export const millisOf = (ts: string): number => Date.parse(ts) || 0;

/** An event a tracked file at HEAD lists: where and when (milliseconds) it was recorded. */
export type Listed = Place & { id: string; millis: number };

/**
 * From the listed events that are not visible by ancestry: per branch, per commit they were
 * recorded at ('' for none), the time of the latest. Empty when everything listed is visible
 * already, the usual case. The shell then asks git which of the branch's other commits are older.
 */
export function squashedAtOf(listed: readonly Listed[], view: BranchView): Map<string, Map<string, number>> {
  const at = new Map<string, Map<string, number>>();
  for (const e of listed) {
    if (e.branch === null || isVisible(e, view) || fromOrigin(e, view)) continue;
    const commits = at.get(e.branch) ?? new Map<string, number>();
    const commit = e.commit ?? '';
    commits.set(commit, Math.max(e.millis, commits.get(commit) ?? Number.NEGATIVE_INFINITY));
    at.set(e.branch, commits);
  }
  return at;
}

/** The other branches with events from before their first commit: the shell asks git their roots. */
export function unbornBranchesToCheck(events: readonly Place[], view: Pick<BranchView, 'branch'>): string[] {
  const branches = new Set<string>();
  for (const e of events) if (e.branch !== null && e.branch !== view.branch && e.commit === null) branches.add(e.branch);
  return [...branches].sort();
}

/** Commits of events recorded on HEAD's branch (by name) that are not in its history: the shell asks git which exist. */
export function sameNameCommitsToCheck(events: readonly Place[], view: Pick<BranchView, 'branch' | 'ancestors' | 'rewrites'>): string[] {
  const commits = new Set<string>();
  // Most are in HEAD's history as recorded: one set lookup, no walk through the rewrites.
  for (const e of events) if (e.branch !== null && e.branch === view.branch && e.commit !== null && !view.ancestors.has(e.commit) && !view.ancestors.has(currentCommit(e.commit, view.rewrites))) commits.add(e.commit);
  return [...commits].sort();
}

/** Commits a detached HEAD recorded events at that sit on HEAD's history: the shell asks the reflogs whether that work came here. */
export function detachedCommitsToCheck(events: readonly Place[], view: Pick<BranchView, 'ancestors' | 'rewrites'>): string[] {
  const commits = new Set<string>();
  // Off HEAD's history too: a rebase given up (`--abort`) leaves what was recorded at its stop
  // on commits no branch has, and that memory goes back to the branch being rebased.
  for (const e of events) if (e.branch === null && e.commit !== null) commits.add(e.commit);
  return [...commits].sort();
}

/** The other branches whose events sit on HEAD's history: the ones the shell must ask git about. */
export function branchesToCheck(events: readonly Place[], view: Pick<BranchView, 'branch' | 'ancestors' | 'rewrites'>): string[] {
  const branches = new Set<string>();
  for (const e of events) {
    if (e.branch !== null && e.branch !== view.branch && e.commit !== null && view.ancestors.has(currentCommit(e.commit, view.rewrites))) branches.add(e.branch);
  }
  return [...branches].sort();
}
