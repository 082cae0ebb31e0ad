import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CortexError } from '../errors.js';
import { readRef } from './refs.js';
import { runGit } from './run-git.js';

/**
 * Where a repository lives. `commonDir` holds objects and refs (shared by linked worktrees);
 * `gitDir` holds this worktree's HEAD. Everything Cortex derives lives in `<commonDir>/cortex`.
 */
export interface Repo {
  gitDir: string;
  commonDir: string;
  workTree: string | null;
}

/** Git's author email for `cwd`, as `git commit` would record it (GIT_AUTHOR_EMAIL, then config). */
export async function readAuthorAt(cwd: string): Promise<string> {
  const fromEnv = process.env.GIT_AUTHOR_EMAIL;
  if (fromEnv) return fromEnv;
  const result = await runGit(['config', 'user.email'], { cwd });
  return result.stdout.trim() || 'unknown';
}

const authors = new WeakMap<Repo, Promise<string>>();

/**
 * Find the repository. With `withAuthor`, the author lookup runs alongside discovery (both are
 * git spawns; in parallel they cost one), for commands that will write events.
 */
const discovered = new Map<string, Promise<Repo>>();
const authorsByCwd = new Map<string, Promise<string>>();

export async function discoverRepo(cwd: string, options: { withAuthor?: boolean } = {}): Promise<Repo> {
  if (options.withAuthor && !authorsByCwd.has(cwd)) authorsByCwd.set(cwd, readAuthorAt(cwd).catch(() => 'unknown'));
  let found = discovered.get(cwd);
  if (!found) discovered.set(cwd, (found = findRepo(cwd)));
  // A failed discovery is not cached: the next call (after `git init`, say) tries again.
  found.catch(() => discovered.delete(cwd));
  const repo = await found;
  const author = authorsByCwd.get(cwd);
  if (author && !authors.has(repo)) authors.set(repo, author);
  return repo;
}

/**
 * Start the git spawns a command will need before anything else loads: the CLI calls this
 * first thing, so git runs on the other core while yargs is being compiled.
 */
export function prefetchRepo(cwd: string, options: { withAuthor?: boolean } = {}): void {
  discoverRepo(cwd, options).catch(() => undefined);
}

async function findRepo(cwd: string): Promise<Repo> {
  const result = await runGit(
    ['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--is-bare-repository', '--show-toplevel'],
    { cwd },
  );
  const lines = result.stdout.split('\n').filter(Boolean);
  const [gitDir, commonDir, bare, workTree] = lines;
  if (!gitDir || !commonDir) {
    throw new CortexError('NOT_A_REPO', `not a git repository: ${cwd} (run cortex inside a git project, or \`git init\` first)`);
  }
  return { gitDir, commonDir, workTree: bare === 'false' && workTree ? workTree : null };
}

export const cortexDir = (repo: Repo): string => join(repo.commonDir, 'cortex');

export interface HeadState {
  /** Short branch name, or null when HEAD is detached. */
  branch: string | null;
  /** The commit HEAD points at, or null in a repository with no commits yet. */
  commit: string | null;
}

/** Read HEAD from files (no spawn): hooks call this on every prompt. */
export async function readHead(repo: Repo): Promise<HeadState> {
  const head = (await readFile(join(repo.gitDir, 'HEAD'), 'utf8')).trim();
  const symbolic = /^ref:\s*(\S+)$/.exec(head);
  if (!symbolic) return { branch: null, commit: /^[0-9a-f]{40,64}$/.test(head) ? head : null };
  const refName = symbolic[1] as string;
  const branch = refName.startsWith('refs/heads/') ? refName.slice('refs/heads/'.length) : refName;
  return { branch, commit: await readRef(repo.commonDir, refName) };
}

/** The capturing clone's identity: git's author email, as `git commit` would record it. */
export function readAuthor(repo: Repo): Promise<string> {
  let author = authors.get(repo);
  if (!author) authors.set(repo, (author = readAuthorAt(repo.workTree ?? repo.gitDir)));
  return author;
}
