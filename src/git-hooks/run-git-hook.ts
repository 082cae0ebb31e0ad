import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deniedPath } from '../errors.js';
import { refreshProjections } from '../workspace/refresh.js';
import { startInBackground } from '../background.js';
import { writeHookLog } from '../claude/hook-log.js';
import { cortexDir, discoverRepo, hasGitState, readAuthor, readGitConfig, readHead, type Repo } from '../git/repo.js';
import { recordFork } from '../workspace/fork-records.js';
import { runGit } from '../git/run-git.js';
import { append, buildEvents, captureContext, openJournal, type Journal } from '../journal/journal.js';
import { readTip } from '../journal/tip.js';
import { readActiveSession } from './active-session.js';
import { isEmptyMessage } from './commit-message.js';
import { readGitCommandLine } from './git-command-line.js';
import { isDryRunPush } from './push-command.js';

/**
 * `cortex git-hook <name> [args]`: what the git hooks installed by `cortex init` hand over to.
 * Like Claude Code hooks they fail open: whatever happens the exit code is 0 (a pre-push must
 * never block a push because of memory), problems go to `.git/cortex/log`. The slow part,
 * regenerating `.cortex/` and the briefing for the new HEAD, runs in the background.
 */
export interface GitHookIO {
  cwd: string;
  args: readonly string[];
  readStdin: () => Promise<string>;
  stderr: { write(text: string): unknown };
}

const TRAILER = 'Cortex-Session';
/**
 * What git keeps while it makes commits nobody is writing now: the sequencer replaying old ones
 * (rebase, cherry-pick, revert, one or a range; a revert done in one go leaves only MERGE_MSG),
 * a merge or a squash merge being concluded. The hook's source does not say: a replay is `message`.
 */
const REPLAYING = ['rebase-merge', 'rebase-apply', 'sequencer', 'CHERRY_PICK_HEAD', 'REVERT_HEAD', 'MERGE_HEAD', 'MERGE_MSG', 'SQUASH_MSG'];

export async function runGitHook(name: string | undefined, io: GitHookIO): Promise<void> {
  let repo: Repo | undefined;
  try {
    repo = await discoverRepo(io.cwd, { fast: true });
    const summary = await handle(name ?? '', repo, io);
    if (summary) await writeHookLog(cortexDir(repo), `git ${name}: ${summary}`);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const denied = deniedPath(err, repo && cortexDir(repo));
    io.stderr.write(`cortex git-hook ${name}: ${denied ? `cannot write ${denied}; cortex doctor says how to fix it` : message.split('\n')[0]} (continuing)\n`);
    if (repo) await writeHookLog(cortexDir(repo), `git ${name}: error: ${(err as Error)?.stack ?? message}`);
  }
}

/**
 * After HEAD moved. The briefing always follows. The tracked files only after a merge (and
 * never while git is mid-operation, see refresh.ts): rewriting tracked files on every checkout
 * would leave the tree dirty and make git refuse the next checkout or rebase.
 */
const refresh = (journal: Journal, options: { files: boolean; afterMerge?: boolean; keepCleanTree?: boolean }): Promise<string> => refreshProjections(journal, { ...options, briefing: true });

async function refreshIfJournal(journal: Journal, options: { files: boolean; afterMerge?: boolean; keepCleanTree?: boolean }): Promise<string> {
  return (await readTip(journal.store)) ? refresh(journal, options) : '';
}

/**
 * After a pull (a merge, or a rebase onto what was fetched): the remote journals git fetched are
 * united first, so what is regenerated shows the teammates' memories with their code. `git pull
 * origin main` fetched that branch only: its journal is still on the remote, so it is fetched
 * after, in the background, and the pull never waits on it.
 */
async function afterPull(repo: Repo, j: Journal, regenerate: () => Promise<string>): Promise<string> {
  const { remoteFetchedWithoutJournal, syncJournal, uniteFetchedJournals } = await import('../journal/sync.js');
  const united = await uniteFetchedJournals(repo, j.store, await readAuthor(repo));
  const refreshed = await regenerate();
  const summary = united > 0 ? `united ${united} fetched remote journal${united === 1 ? '' : 's'}; ${refreshed}` : refreshed;
  const remote = (await readGitConfig(repo))['cortex.pulljournal'] === 'false' ? null : await remoteFetchedWithoutJournal(repo, j.store);
  if (!remote) return summary;
  if (startInBackground(['sync', remote, '--no-push', '--quiet'], { cwd: repo.workTree ?? repo.gitDir, cortexDir: cortexDir(repo) })) return `${summary}; fetching the journal from ${remote} in the background`;
  await syncJournal(repo, j.store, remote, await readAuthor(repo), { push: false });
  return `${summary}; fetched the journal from ${remote}`;
}

/**
 * The commits of the rebased range that did not come through: dropped (`drop` in an interactive
 * rebase's todo), skipped as already upstream (a cherry-picked fix, a patch a teammate pushed)
 * or left empty. Post-rewrite names only the commits it rewrote, so each of these is linked to
 * where the work it led to now sits: the new parent of the next commit kept, or the branch's tip
 * when none was kept after it. Memory recorded at such a commit was about that next piece of
 * work, which the rebase kept. The range is the one git's todo list names ("# Rebase a..b onto
 * c", kept with `done` in `rebase-merge/` until post-rewrite has run), so commits a rebase only
 * left behind (below an `--onto` range) are not counted; without it, the todo's own lines.
 */
async function leftOutByRebase(repo: Repo, rewritten: ReadonlyMap<string, string>): Promise<Array<{ from: string; to: string }>> {
  const dir = join(repo.gitDir, 'rebase-merge');
  const cwd = repo.workTree ?? repo.gitDir;
  const git = async (args: string[]) => (await runGit(args, { cwd })).stdout.trim();
  const todo = await readFile(join(dir, 'git-rebase-todo.backup'), 'utf8').catch(() => '');
  const range = /^# Rebase ([0-9a-f]{4,64})\.\.([0-9a-f]{4,64}) onto /m.exec(todo);
  let commits: string[];
  if (range) {
    commits = (await git(['rev-list', '--reverse', '--topo-order', `${range[1]}..${range[2]}`])).split('\n').filter((c) => /^[0-9a-f]{40,64}$/.test(c));
  } else {
    const done = await readFile(join(dir, 'done'), 'utf8').catch(() => '');
    commits = done.split('\n').map((line) => /^\w+\s+([0-9a-f]{40,64})\b/.exec(line.trim())?.[1]).filter((c): c is string => c !== undefined);
  }
  const out: Array<{ from: string; to: string }> = [];
  for (const [i, commit] of commits.entries()) {
    if (rewritten.has(commit)) continue;
    const kept = commits.slice(i + 1).find((c) => rewritten.has(c));
    const to = kept ? await git(['rev-parse', `${rewritten.get(kept)}^`]) : await git(['rev-parse', 'HEAD']);
    if (/^[0-9a-f]{40,64}$/.test(to) && to !== commit) out.push({ from: commit, to });
  }
  return out;
}

/**
 * Each old commit's parents, recorded with its rewrite: where the rewritten work branched. A
 * teammate's clone never has the old commits of a rebased, force-pushed branch, and without
 * this would not know which commit the branch's memory was decided at before the rebase.
 */
async function parentsOf(repo: Repo, commits: readonly string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (commits.length === 0) return out;
  const listing = await runGit(['rev-list', '--no-walk=unsorted', '--parents', ...commits], { cwd: repo.workTree ?? repo.gitDir });
  for (const line of listing.stdout.split('\n')) {
    const [commit, ...parents] = line.trim().split(' ');
    if (commit) out.set(commit, parents);
  }
  return out;
}

async function noteForkOfHead(repo: Repo): Promise<void> {
  const { branch } = await readHead(repo);
  if (branch) await recordFork(repo, branch).catch(() => false);
}

async function handle(name: string, repo: Repo, io: GitHookIO): Promise<string> {
  const journal = () => openJournal(repo);
  switch (name) {
    case 'post-checkout':
      // Third argument: 1 for a branch checkout, 0 for checking out files.
      if (io.args[2] !== '1') return '';
      // The checkout that makes a branch: where the journal stands now is what came with it.
      await noteForkOfHead(repo);
      return refreshIfJournal(await journal(), { files: false });
    case 'post-merge': {
      // `git merge --squash` stages the merge without committing it: HEAD has not moved, and
      // regenerating now would take the branch's entries back out of the staged tracked files.
      if (io.args[0] === '1') return 'squash merge staged; nothing regenerated';
      // A pull brings teammates' tracked files; their memories come with the remote journal git
      // fetched beside them, united first so the files are regenerated from both.
      const j = await journal();
      return afterPull(repo, j, () => refreshIfJournal(j, { files: true, afterMerge: true, keepCleanTree: true }));
    }
    case 'post-rewrite': {
      // stdin: "<old> <new> [extra]" per rewritten commit; alignment follows the new commits.
      const pairs = (await io.readStdin()).split('\n').map((l) => l.trim().split(/\s+/)).filter((p) => /^[0-9a-f]{40,64}$/.test(p[0] ?? '') && /^[0-9a-f]{40,64}$/.test(p[1] ?? ''));
      const j = await journal();
      if (pairs.length === 0 || !(await readTip(j.store))) return '';
      const kind = io.args[0] === 'amend' ? 'amend' : 'rebase';
      const ctx = await captureContext(j, 'git', `git:post-rewrite:${kind}`);
      const rewritten = pairs.map(([from, to]) => ({ from: from as string, to: to as string, how: kind }));
      const leftOut = kind === 'rebase' ? await leftOutByRebase(repo, new Map(rewritten.map((r) => [r.from, r.to]))).catch(() => []) : [];
      const links = [...rewritten, ...leftOut.map((d) => ({ ...d, how: 'rebase, left out' }))];
      const parents = await parentsOf(repo, links.map((l) => l.from));
      const events = buildEvents(links.map(({ from, to, how }) => ({ type: 'commit_linked', content: `${how}: ${from.slice(0, 10)} → ${to.slice(0, 10)}`, meta: { commit: to, rewritten_from: from, rewritten_from_parents: parents.get(from) ?? [] } })), ctx);
      await append(j, events);
      const linked = `linked ${events.length} rewritten commit${events.length === 1 ? '' : 's'}`;
      // A pull that rebases (pull.rebase) runs this, not post-merge: the teammates' journal came too.
      if (kind === 'rebase') return `${linked}; ${await afterPull(repo, j, () => refresh(j, { files: false }))}`;
      return `${linked}; ${await refresh(j, { files: false })}`;
    }
    case 'prepare-commit-msg': {
      const [file, source = ''] = io.args;
      // A merge or a squash brings another branch's work; an untouched template aborts only while it is untouched.
      if (!file || source === 'merge' || source === 'squash' || source === 'template') return '';
      const session = await readActiveSession(repo);
      if (!session) return '';
      if (await hasGitState(repo, REPLAYING)) return 'git is replaying or merging commits, no trailer';
      // An amend (or commit -c/-C) keeps the author of the commit it starts from: a teammate's
      // commit amended now is still their work, which blame-decision would credit to this session.
      if (await keepsAnotherAuthor(repo, source)) return "amending another author's commit, no trailer";
      // Git runs this hook before the editor: an empty message now is what the user is about to
      // write, and one left empty aborts the commit. With our trailer in it, it would commit.
      if (isEmptyMessage(await readFile(file, 'utf8'), await readCommentChar(repo))) return 'empty message, no trailer (an empty message aborts the commit)';
      // A message that already names a session (an amend, a reused message) keeps it: the
      // commit's work came from that session, and two trailers would credit both.
      const result = await runGit(['interpret-trailers', '--in-place', '--if-exists', 'doNothing', '--trailer', `${TRAILER}: ${session}`, file], { cwd: repo.workTree ?? repo.gitDir });
      return result.code === 0 ? `trailer ${TRAILER}: ${session}` : `could not add the trailer: ${result.stderr.trim()}`;
    }
    case 'pre-push': {
      const [remote] = io.args;
      const stdin = await io.readStdin();
      const config = await readGitConfig(repo);
      if (!remote || config['cortex.pushjournal'] === 'false') return '';
      // Git runs pre-push for `push --dry-run` too, without saying so: a dry run pushes nothing, the journal neither.
      const command = await readGitCommandLine();
      if (command && isDryRunPush(command)) return 'dry-run push; the journal is not synced';
      const j = await journal();
      if (!(await readTip(j.store)) || stdin.includes(j.store.ref)) return '';
      if (startInBackground(['sync', remote, '--quiet'], { cwd: repo.workTree ?? repo.gitDir, cortexDir: cortexDir(repo) })) return `syncing the journal with ${remote} in the background`;
      const { syncJournal } = await import('../journal/sync.js');
      const result = await syncJournal(repo, j.store, remote, await readAuthor(repo));
      return `synced the journal with ${remote}${result.pushed ? ' (pushed)' : ''}`;
    }
    default:
      return `unknown git hook "${name}"; nothing done`;
  }
}

/**
 * Whether this commit starts from an existing one and keeps its author, someone other than the
 * committer. Git exports the author it will record to the hook (GIT_AUTHOR_EMAIL and _DATE: for
 * an amend the amended commit's, unless --reset-author). Source `commit` is an amend, -c or -C;
 * an amend with -m or -F comes as `message`, told from a new commit by keeping HEAD's author
 * and date. The committer is who git says commits (user.email, or GIT_COMMITTER_EMAIL). When
 * anything is unknown the commit counts as the user's own, as before.
 */
async function keepsAnotherAuthor(repo: Repo, source: string): Promise<boolean> {
  const { GIT_AUTHOR_EMAIL: author, GIT_AUTHOR_DATE: date } = process.env;
  if (!author || (source !== 'commit' && source !== 'message')) return false;
  const cwd = repo.workTree ?? repo.gitDir;
  const committer = /<([^>]*)>/.exec((await runGit(['var', 'GIT_COMMITTER_IDENT'], { cwd })).stdout)?.[1];
  if (committer === undefined || committer.toLowerCase() === author.toLowerCase()) return false;
  return source === 'commit' || (await runGit(['log', '-1', '--format=%ae @%ad', '--date=raw', 'HEAD'], { cwd })).stdout.trim() === `${author} ${date}`;
}

/**
 * `core.commentChar` (or its newer name `core.commentString`), as git reads it for this commit:
 * asked of git, not of the cached config, which cannot see `git -c core.commentChar=…` (handed to
 * hooks in GIT_CONFIG_PARAMETERS). A commit is not a hot path; one spawn is fine.
 */
async function readCommentChar(repo: Repo): Promise<string | undefined> {
  const { stdout } = await runGit(['config', '--get-regexp', '^core\\.comment(char|string)$'], { cwd: repo.workTree ?? repo.gitDir });
  const last = stdout.split('\n').filter(Boolean).pop() ?? '';
  const space = last.indexOf(' ');
  return space === -1 ? undefined : last.slice(space + 1);
}
