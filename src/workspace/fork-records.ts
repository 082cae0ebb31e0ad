import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { listRefs, readRef } from '../git/refs.js';
import { cortexDir, readGitConfig, type Repo } from '../git/repo.js';
import { runGit } from '../git/run-git.js';
import { journalRef } from '../journal/journal.js';
import type { Place } from '../projections/visibility.js';
import { writeIfChanged } from '../write-if-changed.js';

/**
 * Where the journal stood when each branch was made, as this clone saw it happen (post-checkout
 * writes it on the checkout that creates a branch). What the branch a new one was made from had
 * recorded at the fork commit by then comes with the new branch; what it records there later
 * does not. The journal's order says which is which; event times cannot: a transcript replayed
 * later, or several stamped alike, carries times that say nothing of when it was recorded, and a
 * reflog keeps only whole seconds.
 *
 * Kept in `.git/cortex/forks.json`: branch → the branch reflog's first line (which names the
 * creation, so a branch deleted and made again is not mistaken for the old one) and the journal
 * commit then (null for an empty journal).
 */
interface ForkRecord {
  created: string;
  journal: string | null;
  /**
   * The branch it was made from, where its reflog does not say ("Created from HEAD", as `git
   * worktree add -b` writes it) and one other branch sat at its first commit then.
   */
  from?: string;
  /**
   * The events the journal already held under this branch's name when it was made: another
   * branch's of that name (one deleted or renamed since), judged apart from this one's.
   */
  previous?: string[];
  /** Recorded again for the same creation line, the branch it named having been renamed away: this is the new one. */
  afterRename?: boolean;
}

const forksFile = (repo: Repo): string => join(cortexDir(repo), 'forks.json');
const branchLog = (repo: Repo, branch: string): string => join(repo.commonDir, 'logs', 'refs', 'heads', ...branch.split('/'));

/** A local branch's reflog; '' when it has none. */
export const readBranchLog = (repo: Repo, branch: string): Promise<string> => readFile(branchLog(repo, branch), 'utf8').catch(() => '');

/** The local branches' names, from the ref files (loose and packed). */
export const branchNames = (commonDir: string): Set<string> => new Set(listRefs(commonDir, ['refs/heads/']).map(([name]) => name.slice('refs/heads/'.length)));

/** A reflog message of `git branch -m a b`, in b's reflog. */
export const RENAMED = /^Branch: renamed refs\/heads\/(\S+) to refs\/heads\/(\S+)$/;

/** Old branch name → the name it was renamed to, as the local branches' reflogs record it ("Branch: renamed refs/heads/a to refs/heads/b"). */
export async function readRenames(repo: Repo): Promise<Map<string, string>> {
  const renames = new Map<string, string>();
  for (const name of branchNames(repo.commonDir)) {
    for (const line of (await readBranchLog(repo, name)).split('\n')) {
      const renamed = RENAMED.exec(line.slice(line.indexOf('\t') + 1));
      if (renamed) renames.set(renamed[1] as string, renamed[2] as string);
    }
  }
  return renames;
}

async function readForks(repo: Repo): Promise<Record<string, ForkRecord>> {
  try {
    return JSON.parse(await readFile(forksFile(repo), 'utf8')) as Record<string, ForkRecord>;
  } catch {
    return {};
  }
}

/** A branch's first reflog line, its creation ("… branch: Created from main"); '' when it has none. */
export async function creationLine(repo: Repo, branch: string): Promise<string> {
  return ((await readBranchLog(repo, branch)).split('\n', 1)[0] ?? '').trim();
}

/**
 * The creation line as the reflog has it, or, once the reflog is gone (expired by gc after 90
 * days, by a history rewrite's cleanup), as the fork record kept it for a branch that still exists.
 */
export async function creationOrRecorded(repo: Repo, branch: string): Promise<string> {
  const line = await creationLine(repo, branch);
  if (line || !(await readRef(repo.commonDir, `refs/heads/${branch}`))) return line;
  return (await readForks(repo))[branch]?.created ?? '';
}

/** On the checkout that made `branch` (its reflog has only its creation): note where the journal stands. */
export async function recordFork(repo: Repo, branch: string): Promise<boolean> {
  const log = (await readBranchLog(repo, branch)).trim();
  if (!log || log.includes('\n') || !/\tbranch: Created from /.test(log)) return false;
  const forks = await readForks(repo);
  // The same creation line is this branch checked out again, unless the branch recorded was
  // renamed away since: then this one, made in the same second at the same commit, is new.
  const known = forks[branch];
  if (known?.created === log && (known.afterRename || !(await readRenames(repo)).has(branch))) return false;
  const afterRename = known?.created === log;
  const ref = journalRef(await readGitConfig(repo));
  forks[branch] = { created: log, journal: await journalWhenMade(repo, ref, log), ...(afterRename ? { afterRename } : {}) };
  const start = log.split(' ', 2)[1];
  const others = listRefs(repo.commonDir, ['refs/heads/']).filter(([name, oid]) => oid === start && name !== `refs/heads/${branch}` && name !== ref);
  if (others.length === 1) forks[branch].from = (others[0] as [string, string])[0].slice('refs/heads/'.length);
  // Made from the remote's branch of the same name (`git switch feature` tracking origin/feature):
  // what that name recorded before is this branch's own history.
  const fromSameName = new RegExp(`\\tbranch: Created from (?:refs/remotes/)?[^/\\s]+/${branch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`).test(log);
  const previous = forks[branch].journal && !fromSameName ? await idsNamedAt(repo, forks[branch].journal as string, branch) : [];
  if (previous.length > 0) forks[branch].previous = previous;
  return writeIfChanged(forksFile(repo), `${JSON.stringify(forks, null, 1)}\n`);
}

/**
 * The journal commit when the branch was made. Most branches are made by the checkout that
 * records this (`git switch -c`): the journal's tip now. One made earlier without a checkout
 * (`git branch feature`, checked out later) was made when its reflog says: the last journal
 * commit by then, to the second (memory recorded in that same second counts as before).
 */
async function journalWhenMade(repo: Repo, ref: string, created: string): Promise<string | null> {
  const tip = await readRef(repo.commonDir, ref);
  const seconds = Number(/ (\d+) [+-]\d{4}\t/.exec(created)?.[1]);
  if (!tip || !Number.isFinite(seconds) || Date.now() / 1000 - seconds < 2) return tip;
  const then = (await runGit(['rev-list', '-1', `--before=${seconds}`, tip], { cwd: repo.workTree ?? repo.gitDir })).stdout.trim();
  return /^[0-9a-f]{40,64}$/.test(then) ? then : null;
}

/** The ids of the events recorded on `branch` that the journal held at `journal` (git grep over its shards). */
async function idsNamedAt(repo: Repo, journal: string, branch: string): Promise<string[]> {
  const result = await runGit(['grep', '-h', '-F', `"branch":${JSON.stringify(branch)},"commit":`, journal, '--', 'events/'], { cwd: repo.workTree ?? repo.gitDir });
  const ids: string[] = [];
  for (const line of result.stdout.split('\n')) {
    const json = line.slice(line.indexOf('{'));
    try {
      const event = JSON.parse(json) as { id?: unknown; branch?: unknown };
      if (typeof event.id === 'string' && event.branch === branch) ids.push(event.id);
    } catch {
      // not an event line
    }
  }
  return ids;
}

/**
 * Per branch of `branches` this clone saw made while the journal already held events under its
 * name: those events' ids. They are another branch's of that name, judged as the branch
 * `previousName(branch)` (visibility.ts). Only while the branch is the one recorded, or gone.
 */
export async function previousIncarnations(repo: Repo, branches: Iterable<string>): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  const forks = await readForks(repo);
  for (const branch of branches) {
    const record = forks[branch];
    if (!record?.previous?.length) continue;
    const created = await creationLine(repo, branch);
    if (created === '' || created === record.created) out.set(branch, new Set(record.previous));
  }
  return out;
}

/** The journal commit when `branch` was made, and the branch it was made from where known, if this clone saw it made (`created`: its reflog's first line). */
export async function journalAtFork(repo: Repo, branch: string, created: string): Promise<{ journal: string | null; from?: string } | undefined> {
  const record = (await readForks(repo))[branch];
  return record && record.created === created.trim() ? { journal: record.journal, ...(record.from ? { from: record.from } : {}) } : undefined;
}

/** git's empty tree: what the journal held before its first commit. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/**
 * The ids of events recorded at `place` that the journal gained after `since`: the lines its
 * shards gained, as `git diff` tells them. Only lines naming the place's commit are parsed.
 */
export async function recordedAfter(repo: Repo, since: string | null, place: Place): Promise<Set<string>> {
  const ref = journalRef(await readGitConfig(repo));
  const ids = new Set<string>();
  if (!place.commit) return ids;
  const result = await runGit(['diff', '--no-color', '--no-renames', '--no-ext-diff', '-U0', since ?? EMPTY_TREE, ref, '--', 'events/'], { cwd: repo.workTree ?? repo.gitDir });
  for (const line of result.stdout.split('\n')) {
    if (!line.startsWith('+{') || !line.includes(place.commit)) continue;
    try {
      const event = JSON.parse(line.slice(1)) as { id?: unknown; branch?: unknown; commit?: unknown };
      if (typeof event.id === 'string' && event.branch === place.branch && event.commit === place.commit) ids.add(event.id);
    } catch {
      // a line cut short: not an event
    }
  }
  return ids;
}
