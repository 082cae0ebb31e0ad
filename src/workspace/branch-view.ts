import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CortexEvent } from '../events/types.js';
import { isObjectId, readRef } from '../git/refs.js';
import { readHead, type HeadState, type Repo } from '../git/repo.js';
import { listedIds, PROJECTION_FILES } from '../projections/tracked-files.js';
import { branchNames, creationOrRecorded, journalAtFork, previousIncarnations, readBranchLog, readRenames, recordedAfter, RENAMED } from './fork-records.js';
import { gitOutput, runGit } from '../git/run-git.js';
import { baseName, branchesToCheck, currentCommit, detachedCommitsToCheck, isVisible, millisOf, previousName, rewritesFrom, rewrittenParentsFrom, sameNameCommitsToCheck, squashedAtOf, unbornBranchesToCheck, visibleEvents, type BranchView, type Listed, type Place, type SquashedBranch } from '../projections/visibility.js';

/**
 * The ancestry answers branch alignment needs, asked of git once per view: every commit
 * reachable from HEAD, and for each other branch with events on that history, which of its
 * fork points are followed by commits HEAD does not have.
 */
export function readBranchView(repo: Repo, events: readonly CortexEvent[], options: { all?: boolean; at?: HeadState; withOrigin?: boolean; tip?: boolean } = {}): Promise<BranchView & { head: HeadState }> {
  const listed = (ids: ReadonlySet<string>): Listed[] => events.filter((e) => ids.has(e.id)).map((e) => ({ id: e.id, branch: e.branch, commit: e.commit, millis: millisOf(e.ts) }));
  return readBranchViewOf(repo, events, rewritesFrom(events), { ...options, listed, rewrittenParents: rewrittenParentsFrom(events) });
}

/**
 * The events in force on HEAD: what the projections show. A memory forgotten or superseded on a
 * branch HEAD has not merged is still in force here, and can be forgotten or superseded here.
 */
export async function eventsInView(repo: Repo, events: readonly CortexEvent[]): Promise<CortexEvent[]> {
  return visibleEvents(events, await readBranchView(repo, events));
}

export interface ViewOptions {
  all?: boolean;
  /** Another commit than HEAD's (a revision range's ends). */
  at?: HeadState;
  /** Where and when the events with these ids were recorded (those the journal has). */
  listed?: (ids: ReadonlySet<string>) => Promise<readonly Listed[]> | readonly Listed[];
  /** A view a revert is judged by (at the merge it reverts, or the parent it kept): reverts before it are not asked about again. */
  withinRevert?: boolean;
  /**
   * At another commit (`at`), still count what the branch named was made with (HEAD's view always
   * does), where this clone recorded the fork: the base of `cortex diff feature..main`, so main's
   * decisions from before the feature was made are not what main adds. Not a range's head: a
   * feature's PR would list main's. Not by the reflog's time, which replayed transcripts defeat.
   */
  withOrigin?: boolean;
  /** `at` is the branch's tip, seen as HEAD would see it checked out there (`cortex log feature`): its origin by the reflog's time too, where no fork was recorded. */
  tip?: boolean;
  /** The parents rewritten commits had (`commit_linked` events), old → parents: where a rebased branch once branched. */
  rewrittenParents?: ReadonlyMap<string, readonly string[]>;
  /** Read already (fork-records.ts `previousIncarnations`), and where those events were recorded, under their own names (`previousName`). */
  previous?: ReadonlyMap<string, ReadonlySet<string>>;
  previousPlaces?: readonly Place[];
}

/** The same from just the places events were captured at (the search index keeps only those). */
export async function readBranchViewOf(repo: Repo, placesRecorded: readonly Place[], recordedRewrites: ReadonlyMap<string, string>, options: ViewOptions = {}): Promise<BranchView & { head: HeadState }> {
  const head = options.at ?? (await readHead(repo));
  // Events another branch of a name recorded before this one was made (deleted, or renamed
  // since) are judged under a name of their own: where they were recorded, as that branch.
  const previous = options.previous ?? (await previousIncarnations(repo, new Set(placesRecorded.map((p) => p.branch).filter((b): b is string => b !== null))));
  const previousPlaces = options.previousPlaces ?? placesRecorded.filter((p) => p.branch !== null && 'id' in p && previous.get(p.branch)?.has(p.id as string)).map((p) => ({ branch: previousName(p.branch as string), commit: p.commit }));
  const places = previousPlaces.length === 0 ? placesRecorded : [...placesRecorded, ...previousPlaces];
  // A rebase stopped on a conflict leaves HEAD detached: the view is the branch being rebased,
  // whose memory the assistant resolving the conflict needs, its commits not yet replayed included.
  const rebasing = !options.at && head.branch === null ? await rebaseInProgress(repo) : null;
  const branch = head.branch ?? rebasing?.branch ?? null;
  if (options.all) return { head, branch, ancestors: new Set(), unmerged: new Map(), all: true };
  const cwd = repo.workTree ?? repo.gitDir;
  // HEAD's reflogs, read once for the view, whoever asks first.
  let rawHeadLogs: Promise<string[]> | undefined;
  const headLogsOnce = () => (rawHeadLogs ??= readHeadLogs(repo));
  // Asked beside the ancestry, and only where another branch has events: a merge without ancestry may have brought them.
  const otherBranches = places.some((p) => p.branch !== null && p.branch !== branch);
  const listing = options.listed && head.commit && otherBranches ? idsListedAt(repo, head.commit).catch(() => new Set<string>()) : null;
  // Likewise: a reverted merge takes back only what another branch brought.
  const reverting = !options.withinRevert && head.commit && otherBranches ? revertedMerges(repo, head.commit).catch(() => []) : null;
  const ancestors = new Set<string>();
  if (head.commit) for (const line of (await gitOutput(['rev-list', head.commit], { cwd })).split('\n')) if (line) ancestors.add(line);
  // The rewrites git runs no hook for, from the branches' reflogs, each read once for the view.
  const branchLogs = new Map<string, Promise<string>>();
  const branchLog = (name: string) => branchLogs.get(name) ?? branchLogs.set(name, readBranchLog(repo, name)).get(name) as Promise<string>;
  const squashed = await withResetSquashes(repo, places, ancestors, recordedRewrites, branchLog);
  const rewrites = await withFilteredHistories(repo, places, ancestors, await withSkippingRebases(repo, places, ancestors, squashed, branchLog, branch), branchLog);
  if (await fromElsewhere(repo, places, ancestors, rewrites)) return { head, branch, ancestors, unmerged: new Map(), all: true };

  // Memory a detached HEAD recorded here: left (off), or carried onto a branch, judged as that branch's.
  const detached = await readDetachedWork(repo, detachedCommitsToCheck(places, { ancestors, rewrites }), head, ancestors, rewrites, headLogsOnce);
  const judged = detached.carried.size === 0 ? places : [...places, ...[...detached.carried].flatMap(([commit, branches]) => [...branches].map((branch) => ({ branch, commit })))];
  const tipOf = (branch: string) => branchTip(repo, branch);
  let firstParents: Promise<Set<string>> | undefined;
  const mainLine = () => (firstParents ??= gitOutput(['rev-list', '--first-parent', head.commit as string], { cwd }).then((out) => new Set(out.split('\n').filter(Boolean))));
  const unmerged = new Map<string, Set<string>>();
  // For branches this clone does not have: their recorded commits in HEAD's history, and the
  // names the reflogs record merging. One pass over the places, one read of the reflogs, for all.
  // Per branch: each commit it recorded memory at that HEAD's history has (as recorded → as it is now).
  let recorded: Map<string, Map<string, string>> | undefined;
  const recordedAt = (judgedBranch: string): Map<string, string> => {
    if (!recorded) {
      recorded = new Map();
      for (const p of judged) {
        if (p.branch === null || p.commit === null) continue;
        const commit = ancestors.has(p.commit) ? p.commit : currentCommit(p.commit, rewrites);
        if (!ancestors.has(commit)) continue;
        const at = recorded.get(p.branch) ?? new Map<string, string>();
        recorded.set(p.branch, at.set(p.commit, commit));
      }
    }
    return recorded.get(judgedBranch) ?? new Map();
  };
  const commitsOf = (judgedBranch: string): Set<string> => new Set(recordedAt(judgedBranch).values());
  let merged: Promise<Set<string>> | undefined;
  const mergedPerReflog = (judgedBranch: string) => (merged ??= mergedNames(repo, branch, ancestors)).then((names) => names.has(judgedBranch));
  let renames: Promise<Map<string, string>> | undefined;
  let trunk: Promise<string | null> | undefined;
  let headLogs: Promise<HeadHistory> | undefined;
  const history = () => (headLogs ??= headLogsOnce().then(readHeadHistory));
  const committedWhileOn = async (judgedBranch: string, tip: string) => (await history()).madeOn(tip).includes(judgedBranch);
  /**
   * Where this clone saw a branch sit at a commit it did not make: created there, fast-forwarded
   * or reset there, an empty rebase onto it (its own reflog, and HEAD's while it was checked
   * out). What the branch recorded there was decided where it branched, however far the fork has
   * moved since (a rebase, a fast-forward onto main, main amending the base commit): it stays the
   * branch's until the branch's work is merged. Only what the reflogs show: a teammate's branch
   * fetched from origin has none here, and keeps its fork commit alone (its tip, or fork points).
   */
  const satAt = async (judgedBranch: string, recordedAs: string, forks: readonly string[] = []): Promise<string[]> => {
    const line = await mainLine();
    const at = [...commitsOf(recordedAs)];
    // Some of its work came in through a merge: what it recorded before that came with it.
    if (at.some((c) => !line.has(c)) || forks.some((c) => !line.has(c))) return [];
    const log = await readBranchLog(repo, judgedBranch);
    const sat = new Set((await history()).satOn(judgedBranch));
    for (const entry of log.split('\n')) {
      const [, to = ''] = entry.split(' ', 2);
      const message = entry.slice(entry.indexOf('\t') + 1);
      if (/^[0-9a-f]{40,64}$/.test(to) && !RENAMED.test(message) && !madeThere(message, to)) sat.add(to);
    }
    const out: string[] = [];
    for (const [asRecorded, commit] of recordedAt(recordedAs)) {
      if (sat.has(asRecorded) && !(await committedOn(repo, judgedBranch, commit)) && !(await committedWhileOn(judgedBranch, commit))) out.push(commit);
    }
    return out;
  };
  await Promise.all(
    branchesToCheck(judged, { branch, ancestors, rewrites }).map(async (recordedAs) => {
      // A branch renamed since (`git branch -m`) is judged by the name it has now.
      let name = recordedAs;
      // An earlier branch of the name is gone, renamed since, or a teammate's that origin has.
      let tip = name === baseName(name) ? await tipOf(name) : await readRef(repo.commonDir, `refs/remotes/origin/${baseName(name)}`);
      if (!tip) {
        // The first name along its renames that is a branch now (renamed away and back: a cycle).
        const all = await (renames ??= readRenames(repo));
        for (let i = 0, next = all.get(baseName(name)); next !== undefined && !tip && i < 20; i++, next = all.get(next)) {
          tip = await tipOf(next);
          if (tip) name = next;
        }
      }
      if (!tip) {
        // Not here: deleted after it was merged, or never here at all (a teammate's branch that
        // was not pushed, one abandoned before its first commit). Its work came to this line
        // only if something shows it did: a commit of it off HEAD's first-parent line (merged),
        // more than one of them on the line (fast-forwarded), or a reflog's merge of it. A single
        // commit on the line, with no such sign, is where it branched: what was decided there
        // is its own, and must not rewrite this line's memory.
        const at = commitsOf(recordedAs);
        const line = await mainLine();
        if (at.size === 1 && [...at].every((c) => line.has(c)) && !(await mergedPerReflog(recordedAs)) && !(await committedWhileOn(recordedAs, [...at][0] as string))) unmerged.set(recordedAs, at);
        return;
      }
      if (ancestors.has(tip)) {
        // Wholly merged, or a feature branch with no commit of its own yet, whose tip is where
        // HEAD's line was when it branched: what was decided there at its tip is still the
        // feature's. A merged feature's tip came in through a merge, off HEAD's first-parent
        // line, or by a fast-forward, onto it: then the branch's reflog shows the tip was
        // committed there (where the reflog is, in the clone the work was done in).
        if (!LONG_LIVED.includes(name) && name !== (await (trunk ??= remoteDefaultBranch(repo))) && (await mainLine()).has(tip) && !(await committedOn(repo, name, tip)) && !(await committedWhileOn(name, tip))) unmerged.set(recordedAs, new Set([tip, ...(await satAt(name, recordedAs))]));
        return;
      }
      // Along the branch's own line only (first parents): a branch merged into it came with its
      // own fork points, which are that branch's, not this one's (a merged feature's fork from
      // main would otherwise hide main's decisions made there, at any commit before the merge).
      const forks = new Set<string>();
      const out = await gitOutput(['rev-list', '--first-parent', '--parents', tip, '--not', head.commit as string], { cwd });
      for (const line of out.split('\n')) for (const parent of line.split(' ').slice(1)) if (ancestors.has(parent)) forks.add(parent);
      // Rebased since (here perhaps only as a teammate's force-push, whose old commits this clone
      // never had): where its rewritten commits branched before, as the journal recorded it.
      // What the branch decided there is still its own, though its line now starts further on.
      const own = new Set(out.split('\n').map((line) => line.split(' ')[0]).filter(Boolean));
      for (const [old, parents] of options.rewrittenParents ?? []) if (own.has(currentCommit(old, rewrites))) for (const parent of parents) if (ancestors.has(parent)) forks.add(parent);
      if (!LONG_LIVED.includes(name)) for (const c of await satAt(name, recordedAs, [...forks])) forks.add(c);
      unmerged.set(recordedAs, forks);
    }),
  );
  const roots = new Map<string, Set<string>>();
  await Promise.all(
    unbornBranchesToCheck(places, { branch }).map(async (unborn) => {
      const tip = await tipOf(unborn);
      if (tip) roots.set(unborn, new Set((await gitOutput(['rev-list', '--max-parents=0', tip], { cwd })).split('\n').filter(Boolean)));
    }),
  );
  const elsewhere = await existingCommits(repo, sameNameCommitsToCheck(places, { branch, ancestors, rewrites }));
  if (rebasing && elsewhere.size > 0) for (const c of (await gitOutput(['rev-list', rebasing.orig, '--not', 'HEAD'], { cwd })).split('\n')) elsewhere.delete(c);
  const view: BranchView & { head: HeadState } = { head, branch, ancestors, unmerged, roots, rewrites, aliases: await trunkAliases(repo, branch), ...(elsewhere.size > 0 ? { elsewhere } : {}), ...(detached.off.size > 0 ? { detachedOff: detached.off } : {}), ...(detached.carried.size > 0 ? { detachedCarried: detached.carried } : {}), ...(detached.offBefore.size > 0 ? { detachedOffBefore: detached.offBefore } : {}), ...(previous.size > 0 ? { previous } : {}) };
  const reverts = reverting ? await reverting : [];
  if (reverts.length > 0) {
    // Seen from HEAD's branch at the merge and at the parent the revert kept, as the merge found them.
    const at = (commit: string) => readBranchViewOf(repo, places, rewrites, { at: { branch, commit }, withinRevert: true, rewrittenParents: options.rewrittenParents, previous, previousPlaces });
    const judged = await Promise.all(reverts.map(({ merge, kept }) => Promise.all([at(merge), at(kept)]).then(([m, k]) => ({ merge: m, kept: k }), () => null)));
    const reverted = judged.filter((r) => r !== null);
    if (reverted.length > 0) view.reverted = reverted;
  }
  const until = new Map<string, number>();
  // What the branch HEAD's branch was made from had decided by then came with it, though its
  // fork commit is that branch's until its next commit: main's decision, then `git switch -c
  // feat`, stays on feat after main moves on. Where this clone saw the branch made, the
  // journal's order says what came before; else the reflog's time does.
  const origin = (!options.at || options.withOrigin || options.tip) && branch && otherBranches ? await branchOrigin(repo, branch, headLogsOnce) : null;
  if (origin && branch && origin.from !== branch) {
    const place = { branch: origin.from, commit: origin.start };
    const atPlace = (p: Place) => p.branch === place.branch && p.commit === place.commit;
    // The parent has moved on: its memory at the fork commit is out of view, and what it had
    // recorded there when the branch was made comes back. Or it has made no commit since (main
    // in another worktree): its memory there is in view, and what it recorded there after the
    // branch was made goes. The journal's diff since the fork is read only then, and only when
    // this clone recorded the fork: the hooks ask on every prompt, and on an old branch it is long.
    const outOfView = places.some((p) => p.branch === origin.from && !isVisible(p, view));
    const idle = !outOfView && places.some(atPlace) && (await tipOf(origin.from)) === origin.start;
    if (outOfView || idle) {
      const fork = await journalAtFork(repo, branch, origin.created);
      if (fork) {
        if (idle || places.some((p) => atPlace(p) && !isVisible(p, view))) view.origin = { place, since: await recordedAfter(repo, fork.journal, place) };
      } else if (outOfView && (!options.at || options.tip)) until.set(origin.from, Math.max(until.get(origin.from) ?? 0, origin.millis));
    }
  }
  // A squash merge's listed decisions that came with the fork are no sign of one.
  if (listing && options.listed && places.some((p) => p.branch !== null && !isVisible(p, view))) {
    const ids = await listing;
    if (ids.size > 0) {
      const at = squashedAtOf(await options.listed(ids), view);
      if (at.size > 0) view.squashed = await squashedBranches(repo, at, places, { commit: head.commit, ancestors });
    }
  }
  if (until.size > 0) view.squashedUntil = until;
  return view;
}

/**
 * What squash merges brought, per branch: the commits its memory was recorded at that are older
 * than one a listed memory was recorded at, besides those listed commits themselves. Older: in
 * the listed commits' history and not HEAD's (one `git rev-list`, as long as the squashed work),
 * or in HEAD's, where the branch sat before its own first commit. Memory recorded before the
 * branch's first commit came too.
 */
async function squashedBranches(repo: Repo, at: ReadonlyMap<string, ReadonlyMap<string, number>>, places: readonly Place[], head: { commit: string | null; ancestors: ReadonlySet<string> }): Promise<Map<string, SquashedBranch>> {
  const listedCommits = [...new Set([...at.values()].flatMap((commits) => [...commits.keys()].filter(Boolean)))];
  const args = ['rev-list', ...listedCommits, ...(head.commit ? ['--not', head.commit] : [])];
  const cwd = repo.workTree ?? repo.gitDir;
  const squashedWork = listedCommits.length === 0 ? new Set<string>() : await runGit(args, { cwd }).then((r) => (r.code === 0 ? new Set(r.stdout.split('\n').filter(Boolean)) : null));
  // A commit of HEAD's history the branch recorded at: older only if a listed commit descends
  // from it (where it branched, say), not where it was reset to after the squash. Few, asked one by one.
  const inHistory = new Set<string>();
  for (const p of places) if (p.branch !== null && at.has(p.branch) && p.commit !== null && head.ancestors.has(p.commit) && !at.get(p.branch)?.has(p.commit)) inHistory.add(p.commit);
  const isAncestor = async (c: string) => (await Promise.all(listedCommits.map((l) => runGit(['merge-base', '--is-ancestor', c, l], { cwd })))).some((r) => r.code === 0);
  const olderInHistory = new Set((await Promise.all([...inHistory].map(async (c) => ((await isAncestor(c)) ? c : null)))).filter((c): c is string => c !== null));
  const older = squashedWork && { has: (c: string) => squashedWork.has(c) || olderInHistory.has(c) };
  const out = new Map<string, SquashedBranch>();
  for (const [branch, commits] of at) {
    if (older === null) {
      out.set(branch, { at: commits, before: null });
      continue;
    }
    const before = new Set<string>(['']);
    for (const p of places) if (p.branch === branch && p.commit !== null && !commits.has(p.commit) && older.has(p.commit)) before.add(p.commit);
    out.set(branch, { at: commits, before });
  }
  return out;
}

/**
 * The branch `branch` was made from, and when, as the reflogs tell it: its own first entry
 * ("branch: Created from main", or "Created from HEAD" with HEAD's "checkout: moving from main
 * to feat" at the same commit). Null when they do not say (a branch fetched, a reflog expired).
 * A reflog keeps whole seconds: what was recorded within the second the branch was made counts
 * as before it.
 */
async function branchOrigin(repo: Repo, branch: string, headLogs: () => Promise<string[]>): Promise<{ from: string; start: string; millis: number; created: string } | null> {
  const created = await creationOrRecorded(repo, branch);
  const first = REFLOG_ENTRY.exec(created);
  if (!first) return null;
  const [, , start, seconds, message] = first as unknown as [string, string, string, string, string];
  const named = /^branch: Created from (?!HEAD$)(?:refs\/heads\/)?(\S+)$/.exec(message)?.[1];
  const millis = Number(seconds) * 1000 + 999;
  if (named) return { from: named, start, millis, created };
  if (message !== 'branch: Created from HEAD') return null;
  for (const head of await headLogs()) {
    for (const line of head.split('\n')) {
      const entry = REFLOG_ENTRY.exec(line);
      const from = entry && /^checkout: moving from (\S+) to (\S+)$/.exec(entry[4] as string);
      if (entry && from && from[2] === branch && entry[1] === start && entry[2] === start && Number(entry[3]) >= Number(seconds)) return { from: from[1] as string, start, millis, created };
    }
  }
  // Made without a checkout that names where from (`git worktree add -b`): the fork record may know.
  const recorded = (await journalAtFork(repo, branch, created))?.from;
  return recorded ? { from: recorded, start, millis, created } : null;
}

/** A reflog line: old and new commit, the time (seconds), the message. */
const REFLOG_ENTRY = /^([0-9a-f]{40,64}) ([0-9a-f]{40,64}) .*? (\d+) [+-]\d{4}\t(.*)$/;

/**
 * The rewrites git runs no hook for: a branch squashed by `git reset --soft <base>` (or several
 * resets in a row) and a new commit of the same tree (or the last commit undone with `reset
 * --soft HEAD~1` and made again).
 * The branch's reflog tells it: a reset from T, then a commit on where it moved to, whose tree is
 * T's. Each commit the reset left behind is then rewritten to that commit, as a squash in
 * `rebase -i` would be. Asked only of branches with memory at commits HEAD's history lacks, and
 * of git only when such a reflog has a reset followed by a commit.
 */
async function withResetSquashes(repo: Repo, places: readonly Place[], ancestors: ReadonlySet<string>, rewrites: ReadonlyMap<string, string>, branchLog: (branch: string) => Promise<string>): Promise<ReadonlyMap<string, string>> {
  const branches = new Set<string>();
  for (const p of places) if (p.branch !== null && p.commit !== null && !ancestors.has(p.commit) && !ancestors.has(currentCommit(p.commit, rewrites))) branches.add(p.branch);
  const pairs: Array<{ from: string; to: string }> = [];
  for (const branch of branches) {
    const log = await branchLog(branch);
    if (!log.includes('\treset: moving to ')) continue;
    let reset: { from: string; to: string } | null = null;
    for (const line of log.split('\n')) {
      const [from = '', to = ''] = line.split(' ', 2);
      const message = line.slice(line.indexOf('\t') + 1);
      // Resets in a row ("HEAD~1", and again) are one: from where the first left.
      if (message.startsWith('reset: moving to ')) reset = from === to ? reset : { from: resetFrom(reset, from), to };
      else if (reset && from === reset.to && /^commit\b/.test(message)) {
        pairs.push({ from: reset.from, to });
        reset = null;
      } else reset = null;
    }
  }
  if (pairs.length === 0) return rewrites;
  const cwd = repo.workTree ?? repo.gitDir;
  const trees = (await runGit(['rev-parse', ...pairs.flatMap(({ from, to }) => [`${from}^{tree}`, `${to}^{tree}`])], { cwd })).stdout.split('\n');
  const extended = new Map(rewrites);
  for (const [i, { from, to }] of pairs.entries()) {
    if (!trees[2 * i] || trees[2 * i] !== trees[2 * i + 1]) continue;
    const left = (await runGit(['rev-list', from, '--not', to], { cwd })).stdout.split('\n').filter(Boolean);
    for (const commit of left) if (!extended.has(commit)) extended.set(commit, to);
  }
  return extended;
}

/**
 * The rewrites that run no hook and replace a history wholesale: `git filter-branch` (the
 * branch's reflog has "filter-branch: rewrite" from the old tip to the new) and `git filter-repo`
 * (which leaves `.git/filter-repo/commit-map`). filter-branch keeps each commit's author,
 * committer and their times, so old and new commits pair by those, in order where several share
 * them; by position where it rewrote those too and kept every commit. Asked only where memory
 * sits at commits HEAD's history lacks.
 */
async function withFilteredHistories(repo: Repo, places: readonly Place[], ancestors: ReadonlySet<string>, rewrites: ReadonlyMap<string, string>, branchLog: (branch: string) => Promise<string>): Promise<ReadonlyMap<string, string>> {
  const off = places.filter((p) => p.commit !== null && !ancestors.has(p.commit) && !ancestors.has(currentCommit(p.commit, rewrites)));
  if (off.length === 0) return rewrites;
  let extended: Map<string, string> | undefined;
  const link = (from: string, to: string) => {
    if (!(extended ?? rewrites).has(from)) (extended ??= new Map(rewrites)).set(from, to);
  };
  const map = await readFile(join(repo.commonDir, 'filter-repo', 'commit-map'), 'utf8').catch(() => '');
  for (const line of map.split('\n')) {
    const [from = '', to = ''] = line.trim().split(/\s+/);
    if (/^[0-9a-f]{40,64}$/.test(from) && /^[0-9a-f]{40,64}$/.test(to) && !/^0+$/.test(to)) link(from, to);
  }
  const cwd = repo.workTree ?? repo.gitDir;
  const identities = async (tip: string) => (await runGit(['log', '--topo-order', '--format=%H %an <%ae> %at %cn <%ce> %ct', tip], { cwd })).stdout.split('\n').filter(Boolean).map((line) => [line.slice(0, line.indexOf(' ')), line.slice(line.indexOf(' ') + 1)] as const);
  for (const branch of new Set(off.map((p) => p.branch).filter((b): b is string => b !== null))) {
    const log = await branchLog(branch);
    if (!log.includes('\tfilter-branch: rewrite')) continue;
    for (const line of log.split('\n')) {
      if (!line.includes('\tfilter-branch: rewrite')) continue;
      const [from = '', to = ''] = line.split(' ', 2);
      const [before, after] = [(await identities(from)).reverse(), (await identities(to)).reverse()];
      // An --env-filter that rewrites who made them leaves nothing to pair by: as many commits as
      // before, oldest first, pair by position.
      const byPosition = before.length === after.length && before.some(([, who], i) => who !== after[i]?.[1]);
      const fresh = new Map<string, string[]>();
      for (const [commit, who] of after) fresh.set(who, [...(fresh.get(who) ?? []), commit]);
      for (const [i, [commit, who]] of before.entries()) {
        const next = byPosition ? after[i]?.[0] : fresh.get(who)?.shift();
        if (next && next !== commit) link(commit, next);
      }
    }
  }
  return extended ?? rewrites;
}

/**
 * A rebase that skipped every commit it was given (all already upstream: cherry-picked, or
 * applied by a teammate) rewrites nothing, so git runs no post-rewrite. The branch's reflog
 * still says where it went ("rebase (finish): refs/heads/feat onto …"): its old commits that
 * are not in the new history, and that no rewrite names, are linked to where the branch now is.
 * Only commits where this branch alone recorded memory: a link applies to every event there.
 */
async function withSkippingRebases(repo: Repo, places: readonly Place[], ancestors: ReadonlySet<string>, rewrites: ReadonlyMap<string, string>, branchLog: (branch: string) => Promise<string>, headBranch: string | null): Promise<ReadonlyMap<string, string>> {
  const byCommit = new Map<string, Set<string | null>>();
  for (const p of places) if (p.commit !== null) byCommit.set(p.commit, (byCommit.get(p.commit) ?? new Set()).add(p.branch));
  // Per branch, the commits off HEAD's history where it alone recorded memory, linked to nothing.
  const unlinked = new Map<string, Set<string>>();
  for (const [commit, names] of byCommit) {
    const [only] = names;
    if (names.size === 1 && only && !ancestors.has(commit) && !rewrites.has(commit)) unlinked.set(only, (unlinked.get(only) ?? new Set()).add(commit));
  }
  let extended: Map<string, string> | undefined;
  const cwd = repo.workTree ?? repo.gitDir;
  for (const [branch, commits] of unlinked) {
    // A link matters only where it lands in HEAD's history: HEAD's own branch, or one merged into it.
    const tip = branch === headBranch ? null : await branchTip(repo, branch);
    if (branch !== headBranch && !(tip && ancestors.has(tip))) continue;
    const log = await branchLog(branch);
    if (!log.includes('(finish): refs/heads/')) continue;
    // Newest first, and only the last few: older rebases kept commits, and post-rewrite linked them.
    const finishes = log.split('\n').filter((line) => /^[\w -]*\(finish\): refs\/heads\/\S+ onto [0-9a-f]+$/.test(line.slice(line.indexOf('\t') + 1))).reverse().slice(0, 3);
    for (const line of finishes) {
      const [from = '', to = ''] = line.split(' ', 2);
      if (from === to || commits.size === 0) continue;
      for (const commit of (await runGit(['rev-list', from, '--not', to], { cwd })).stdout.split('\n')) {
        if (!commits.delete(commit)) continue;
        (extended ??= new Map(rewrites)).set(commit, to);
      }
    }
  }
  return extended ?? rewrites;
}

/** Where a reset from `from` started: where the reset before it started, when it moved here. */
const resetFrom = (previous: { from: string; to: string } | null, from: string): string => (previous?.to === from ? previous.from : from);

/**
 * Memory none of whose recorded commits this repository has: imported from another repository
 * (a project's history moved here, a grader's fixture), or kept across a history rewritten
 * wholesale. Ancestry cannot place any of it, and hiding every event recorded off the trunk
 * would hide most of it, so all of it shows, as with `--all`. One event on HEAD's history, or
 * one recorded commit this repository has, and alignment applies as usual: a teammate's work
 * not pulled yet sits beside memory of this repository's own, and stays off this line.
 */
async function fromElsewhere(repo: Repo, places: readonly Place[], ancestors: ReadonlySet<string>, rewrites: ReadonlyMap<string, string>): Promise<boolean> {
  const recorded = new Set<string>();
  for (const p of places) {
    if (p.commit === null) continue;
    if (ancestors.has(p.commit) || ancestors.has(currentCommit(p.commit, rewrites))) return false;
    if (recorded.size < FOREIGN_SAMPLE && isObjectId(p.commit)) recorded.add(p.commit);
  }
  return recorded.size > 0 && (await existingCommits(repo, [...recorded])).size === 0;
}

/** How many recorded commits are asked about: a repository that has none of these has none of the rest. */
const FOREIGN_SAMPLE = 200;

/**
 * Which of the recorded commits this clone has (one `git cat-file --batch-check`; none asked, no
 * call). Only a full hash names a commit: an imported
 * line's `commit` may say anything ("HEAD", a branch, a short hash), and git would resolve that
 * to HEAD's own commit, judging everything recorded there to be on another line of history.
 */
async function existingCommits(repo: Repo, commits: readonly string[]): Promise<Set<string>> {
  const hashes = commits.filter(isObjectId);
  if (hashes.length === 0) return new Set();
  const { stdout } = await runGit(['cat-file', '--batch-check'], { cwd: repo.workTree ?? repo.gitDir, input: `${hashes.join('\n')}\n` });
  const found = new Set(stdout.split('\n').filter((line) => / commit \d+$/.test(line)).map((line) => line.split(' ')[0] as string));
  return new Set(hashes.filter((c) => found.has(c)));
}

/**
 * The merges HEAD's history reverts (`git revert -m <n> <merge>`, by hand or by a forge's revert
 * button), with the parent each revert kept, as git's message for it names them: "This reverts
 * commit <merge>, reversing changes made to <kept>." A revert that is itself reverted (the merge
 * brought back, as git's own advice on re-merging a reverted branch goes) counts for nothing.
 * One `git log` that walks what the ancestry read walks, asked only when other branches have memory.
 */
async function revertedMerges(repo: Repo, head: string): Promise<Array<{ merge: string; kept: string }>> {
  const out = await gitOutput(['log', '--no-color', '--no-show-signature', '-E', `--grep=^${REVERTS}`, '--format=%x01%H%x00%B', head], { cwd: repo.workTree ?? repo.gitDir });
  const revertedBy = new Map<string, string[]>();
  const merges = new Map<string, { merge: string; kept: string }>();
  for (const chunk of out.split('\x01')) {
    const [commit, body = ''] = chunk.split('\0');
    if (!commit) continue;
    for (const m of body.matchAll(new RegExp(`^${REVERTS}(?:, reversing\\s+changes made to ([0-9a-f]{40,64}))?`, 'gm'))) {
      const [, reverted, kept] = m as unknown as [string, string, string | undefined];
      revertedBy.set(reverted, [...(revertedBy.get(reverted) ?? []), commit]);
      if (kept) merges.set(commit, { merge: reverted, kept });
    }
  }
  const standing = new Map<string, boolean>();
  const stands = (revert: string, depth = 0): boolean => {
    if (depth > 50) return true;
    const known = standing.get(revert);
    if (known !== undefined) return known;
    const result = !(revertedBy.get(revert) ?? []).some((by) => stands(by, depth + 1));
    standing.set(revert, result);
    return result;
  };
  const found = new Map<string, { merge: string; kept: string }>();
  for (const [revert, reverted] of merges) if (stands(revert)) found.set(reverted.merge, reverted);
  return [...found.values()];
}

const REVERTS = 'This reverts commit ([0-9a-f]{40,64})';

/** The event ids the tracked files name as committed at `commit`. */
async function idsListedAt(repo: Repo, commit: string): Promise<Set<string>> {
  const input = [PROJECTION_FILES.decisions, PROJECTION_FILES.archive, PROJECTION_FILES.plan].map((path) => `${commit}:${path}\n`).join('');
  const { stdout } = await runGit(['cat-file', '--batch'], { cwd: repo.workTree ?? repo.gitDir, input });
  return new Set(listedIds(stdout));
}

/**
 * What became of the work a detached HEAD recorded memory at, commit by commit, as HEAD's reflog
 * (this worktree's and the others') tells it. Where a commit made on top while detached (a
 * commit, a rebase's pick) is in HEAD's history, the work came here: visible. Where HEAD went on
 * to a branch at the same commit (`git switch -c fix`, the changes carried along) or a rebase
 * finished or was given up there (`--abort`, whose stop is on no branch's history), the work is
 * that branch's: `carried`, judged as if recorded on it. Otherwise
 * the experiment was looked at and left, or committed and thrown away: `off`. Memory of a
 * detached HEAD the reflogs do not show (another clone's, or older than the reflog) cannot be
 * judged and stays in sight. Asked on a branch only: a detached HEAD (a bisect, say) sees what
 * was recorded on its history, as before. No memory recorded on a detached HEAD, nothing read.
 */
async function readDetachedWork(repo: Repo, commits: readonly string[], head: HeadState, ancestors: ReadonlySet<string>, rewrites: ReadonlyMap<string, string>, headLogs: () => Promise<string[]>): Promise<{ off: Set<string>; carried: Map<string, Set<string>>; offBefore: Map<string, number> }> {
  const off = new Set<string>();
  const carried = new Map<string, Set<string>>();
  const offBefore = new Map<string, number>();
  if (commits.length === 0 || head.branch === null) return { off, carried, offBefore };
  const [branches, logs] = [branchNames(repo.commonDir), await headLogs()];
  const detachedAt = new Set<string>();
  const followed = new Set<string>();
  // Each stay of a detached HEAD at a commit (seconds), and whether its work was kept.
  const visits = new Map<string, Array<{ start: number; kept: boolean }>>();
  const keep = (commit: string) => {
    const visit = visits.get(commit)?.at(-1);
    if (visit) visit.kept = true;
  };
  const carry = (commit: string, branch: string) => {
    carried.set(commit, (carried.get(commit) ?? new Set()).add(branch));
    keep(commit);
  };
  for (const log of logs) {
    let detached = false;
    for (const line of log.split('\n')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const [from = '', to = ''] = line.slice(0, tab).split(' ', 2);
      const message = line.slice(tab + 1);
      const target = /^checkout: moving from \S+ to (\S+)$/.exec(message)?.[1];
      const step = /^[\w -]*\((start|finish|abort)\)(?:: returning to refs\/heads\/(\S+))?/.exec(message);
      const wasDetached = detached;
      if (detached) {
        if (target !== undefined && branches.has(target) && to === from) carry(from, target);
        // A rebase finished, or given up: what was recorded at its stop is the branch's.
        else if ((step?.[1] === 'finish' || step?.[1] === 'abort') && step[2]) carry(from, step[2]);
        else if (!step && MAKES_COMMIT.test(message) && ancestors.has(currentCommit(to, rewrites))) {
          followed.add(from);
          keep(from);
        }
      }
      if (target !== undefined) detached = !branches.has(target);
      else if (step) detached = step[1] === 'start';
      if (detached) {
        detachedAt.add(to);
        if (!wasDetached || to !== from) visits.set(to, [...(visits.get(to) ?? []), { start: Number(REFLOG_ENTRY.exec(line)?.[3] ?? 0), kept: false }]);
      }
    }
  }
  for (const c of commits) {
    if (!detachedAt.has(c) || followed.has(c)) carried.delete(c);
    else if (!carried.has(c)) off.add(c);
    // Kept work from a later stay: what earlier stays there, all left, recorded stays off.
    const stays = [...(visits.get(c) ?? [])].sort((a, b) => a.start - b.start);
    const firstKept = stays.findIndex((v) => v.kept);
    if (!off.has(c) && firstKept > 0) offBefore.set(c, (stays[firstKept] as { start: number }).start * 1000);
  }
  for (const c of carried.keys()) if (!commits.includes(c)) carried.delete(c);
  return { off, carried, offBefore };
}


/** Reflog entries that make a commit on top of where HEAD was. */
const MAKES_COMMIT = /^(?:commit|merge|rebase|cherry-pick|revert|pull|am)\b/;

/**
 * Whether `tip` was made on `branch` (committed, merged or rebased there), as its reflog says,
 * rather than where the branch was created ("branch: Created from main") or reset to. No reflog
 * (a branch only origin has, reflogs turned off): not known, so no.
 */
async function committedOn(repo: Repo, branch: string, tip: string): Promise<boolean> {
  const log = await readBranchLog(repo, branch);
  // A rename moves no commit: the entry that brought the branch to its tip is before it.
  const entry = log.split('\n').reverse().find((line) => line.split(' ', 2)[1] === tip && !RENAMED.test(line.slice(line.indexOf('\t') + 1)));
  return entry !== undefined && madeThere(entry.slice(entry.indexOf('\t') + 1), tip);
}

/**
 * Whether a reflog entry that moved a ref to `tip` made that commit there. A fast-forward ("merge
 * main: Fast-forward", "pull: Fast-forward") or a rebase that replayed nothing ("rebase (finish):
 * refs/heads/feat onto <tip>"; in HEAD's reflog, its "(start)" and "(finish): returning to") only
 * brought the ref to a commit made elsewhere.
 */
const madeThere = (message: string, tip: string): boolean =>
  MAKES_COMMIT.test(message) && !/: Fast-forward$/.test(message) && !message.endsWith(` onto ${tip}`) && !/^rebase[\w -]*\((?:start|abort)\)|^rebase[\w -]*\(finish\): returning to/.test(message);

/** What HEAD's reflogs say about branches: which commits were made while each was checked out, and where each sat. */
interface HeadHistory {
  /** The branches (by their names now) a commit was made on while checked out. */
  madeOn(commit: string): string[];
  /** The commits a branch was checked out at without making them (by its name now). */
  satOn(branch: string): string[];
}

/**
 * HEAD's reflogs read once: which branch was checked out at each entry ("checkout: moving from
 * a to b", renames of the branch checked out followed), what was committed then, and where a
 * branch was checked out at a commit it did not make. For a branch since deleted, whose own
 * reflog went with it, this is what the clone still knows of it.
 */
function readHeadHistory(logs: readonly string[]): HeadHistory {
  const made = new Map<string, Set<string>>();
  const sat = new Map<string, Set<string>>();
  const renames = new Map<string, string>();
  const add = (table: Map<string, Set<string>>, key: string, value: string) => table.set(key, (table.get(key) ?? new Set()).add(value));
  for (const log of logs) {
    let current: string | null = null;
    for (const line of log.split('\n')) {
      const tab = line.indexOf('\t');
      if (tab < 0) continue;
      const to = line.split(' ', 2)[1] ?? '';
      const message = line.slice(tab + 1);
      const moved = /^checkout: moving from (\S+) to (\S+)$/.exec(message);
      const renamed = RENAMED.exec(message);
      if (moved) {
        current = moved[2] as string;
        add(sat, current, to);
      } else if (renamed) renames.set(renamed[1] as string, renamed[2] as string);
      else if (current !== null && madeThere(message, to)) add(made, to, current);
      else if (current !== null) add(sat, current, to);
    }
  }
  const now = (name: string) => renamedTo(name, renames);
  return {
    madeOn: (commit) => [...(made.get(commit) ?? [])].map(now),
    satOn: (branch) => [...sat].filter(([name]) => name === branch || now(name) === branch).flatMap(([, commits]) => [...commits]),
  };
}

/** HEAD's reflogs: this repository's and its other worktrees'. */
async function readHeadLogs(repo: Repo): Promise<string[]> {
  const worktrees = await readdir(join(repo.commonDir, 'worktrees')).catch(() => [] as string[]);
  return Promise.all([repo.commonDir, ...worktrees.map((w) => join(repo.commonDir, 'worktrees', w))].map((dir) => readFile(join(dir, 'logs', 'HEAD'), 'utf8').catch(() => '')));
}


/** The name a branch has now, following renames (a → b → c). */
function renamedTo(branch: string, renames: ReadonlyMap<string, string>): string {
  let name = branch;
  for (let i = 0; i < 20 && renames.has(name); i++) name = renames.get(name) as string;
  return name;
}

/** The branch origin's HEAD names (the remote's default branch, a trunk whatever it is called), or null. */
async function remoteDefaultBranch(repo: Repo): Promise<string | null> {
  const ref = await readFile(join(repo.commonDir, 'refs', 'remotes', 'origin', 'HEAD'), 'utf8').catch(() => '');
  return /^ref: refs\/remotes\/origin\/(\S+)/.exec(ref)?.[1] ?? null;
}

/**
 * The branches HEAD's reflog, or the current branch's, records merging into a commit of HEAD's
 * history (`merge feat: Fast-forward`, `merge origin/feat: …`, `pull origin feat: …`), by name,
 * with a remote's prefix taken off too. It is how a fast-forward merge of a branch since deleted
 * is told from a branch never merged.
 */
async function mergedNames(repo: Repo, current: string | null, ancestors: ReadonlySet<string>): Promise<Set<string>> {
  const names = new Set<string>();
  const logs = [join(repo.gitDir, 'logs', 'HEAD'), ...(current ? [join(repo.commonDir, 'logs', 'refs', 'heads', ...current.split('/'))] : [])];
  for (const path of logs) {
    const log = await readFile(path, 'utf8').catch(() => '');
    for (const line of log.split('\n')) {
      const tab = line.indexOf('\t');
      const merge = /^(?:merge|pull)\b([^:]*):/.exec(line.slice(tab + 1));
      if (tab < 0 || !merge || !ancestors.has(line.split(' ', 2)[1] ?? '')) continue;
      for (const name of (merge[1] ?? '').trim().split(/\s+/)) names.add(name).add(name.slice(name.indexOf('/') + 1));
    }
  }
  return names;
}

/** The branch a rebase in progress is rebasing and where it was before, or null (no rebase, or one of a detached HEAD). */
async function rebaseInProgress(repo: Repo): Promise<{ branch: string; orig: string } | null> {
  for (const dir of ['rebase-merge', 'rebase-apply']) {
    const [name, orig] = await Promise.all(['head-name', 'orig-head'].map((f) => readFile(join(repo.gitDir, dir, f), 'utf8').then((t) => t.trim(), () => '')));
    if (name?.startsWith('refs/heads/') && /^[0-9a-f]{40,64}$/.test(orig ?? '')) return { branch: name.slice('refs/heads/'.length), orig: orig as string };
  }
  return null;
}

/** A branch's tip: in CI (and other fresh checkouts) a branch may exist only as origin's. */
const branchTip = async (repo: Repo, branch: string): Promise<string | null> =>
  (await readRef(repo.commonDir, `refs/heads/${branch}`)) ?? (await readRef(repo.commonDir, `refs/remotes/origin/${branch}`));

/** Branches that features branch from and merge back into. */
const LONG_LIVED = ['main', 'master', 'trunk', 'develop'];

const TRUNK_NAMES = ['main', 'master', 'trunk'];

/** The trunk's other names, when HEAD is on the trunk and no branch (local or origin's) has such a name. */
async function trunkAliases(repo: Repo, branch: string | null): Promise<Set<string>> {
  const aliases = new Set<string>();
  if (!branch || !TRUNK_NAMES.includes(branch)) return aliases;
  for (const other of TRUNK_NAMES.filter((name) => name !== branch)) {
    if (!(await branchTip(repo, other))) aliases.add(other);
  }
  return aliases;
}
