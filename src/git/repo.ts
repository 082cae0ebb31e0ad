import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
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

/**
 * `fast`: find the repository by walking up from `cwd` for `.git` (a directory, or a file
 * pointing to a linked worktree's git dir), without spawning git. Hooks use it: they run on
 * every stop and every prompt. Anything unusual (GIT_DIR set, nothing found) asks git.
 */
export async function discoverRepo(cwd: string, options: { withAuthor?: boolean; fast?: boolean } = {}): Promise<Repo> {
  if (options.withAuthor && !authorsByCwd.has(cwd)) authorsByCwd.set(cwd, readAuthorAt(cwd).catch(() => 'unknown'));
  let found = discovered.get(cwd);
  if (!found) discovered.set(cwd, (found = options.fast ? walkToRepo(cwd).then((repo) => repo ?? findRepo(cwd)) : findRepo(cwd)));
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
export function prefetchRepo(cwd: string, options: { withAuthor?: boolean; fast?: boolean } = {}): void {
  discoverRepo(cwd, options).catch(() => undefined);
}

async function walkToRepo(cwd: string): Promise<Repo | null> {
  if (process.env.GIT_DIR || process.env.GIT_WORK_TREE || process.env.GIT_COMMON_DIR) return null;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const dotGit = join(dir, '.git');
    const info = await stat(dotGit).catch(() => null);
    if (info?.isDirectory()) {
      if (await stat(join(dotGit, 'HEAD')).catch(() => null)) return { gitDir: dotGit, commonDir: dotGit, workTree: dir };
    } else if (info?.isFile()) {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, 'utf8'));
      if (!pointer) return null;
      const gitDir = resolve(dir, pointer[1] as string);
      const common = await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => null);
      return { gitDir, commonDir: common ? resolve(gitDir, common.trim()) : gitDir, workTree: dir };
    }
    if (dirname(dir) === dir) return null;
  }
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

/**
 * Whether this worktree's git dir holds any of these files git keeps while an operation is under
 * way (MERGE_HEAD, rebase-merge, CHERRY_PICK_HEAD…): each worktree has its own.
 */
export async function hasGitState(repo: Repo, names: readonly string[]): Promise<boolean> {
  const found = await Promise.all(names.map((name) => stat(join(repo.gitDir, name)).then(() => true, () => false)));
  return found.some(Boolean);
}

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
  if (!author) authors.set(repo, (author = process.env.GIT_AUTHOR_EMAIL ? Promise.resolve(process.env.GIT_AUTHOR_EMAIL) : readGitConfig(repo).then((c) => c['user.email'] ?? 'unknown')));
  return author;
}

const configs = new WeakMap<Repo, Promise<Readonly<Record<string, string>>>>();

/**
 * The git config Cortex reads (`user.email` and every `cortex.*` key, all scopes), keys in lower
 * case. A spawn costs more than a hook can spare on every prompt, so the answer is kept in
 * `.git/cortex/config.json`, valid while none of the config files git reads has changed
 * (files pulled in through `include.path` are not watched: delete the cache after editing one).
 */
export function readGitConfig(repo: Repo): Promise<Readonly<Record<string, string>>> {
  let config = configs.get(repo);
  if (!config) configs.set(repo, (config = readCachedConfig(repo)));
  return config;
}

async function readCachedConfig(repo: Repo): Promise<Record<string, string>> {
  const home = homedir();
  const files = [join(repo.commonDir, 'config'), process.env.GIT_CONFIG_GLOBAL ?? join(home, '.gitconfig'), join(process.env.XDG_CONFIG_HOME ?? join(home, '.config'), 'git', 'config')];
  const stamps = (await Promise.all(files.map((f) => stat(f).then((i) => i.mtimeMs, () => 0)))).join(',');
  const cachePath = join(cortexDir(repo), 'config.json');
  try {
    const cached = JSON.parse(await readFile(cachePath, 'utf8')) as { stamps: string; config: Record<string, string> };
    if (cached.stamps === stamps && typeof cached.config === 'object' && cached.config !== null) return cached.config;
  } catch {
    // no cache yet
  }
  const result = await runGit(['config', '--get-regexp', '^(user\\.email|cortex\\.)'], { cwd: repo.workTree ?? repo.gitDir });
  const config: Record<string, string> = {};
  for (const line of result.stdout.split('\n')) {
    const match = /^(\S+)(?: (.*))?$/.exec(line);
    if (match) config[(match[1] as string).toLowerCase()] = match[2] ?? 'true';
  }
  // A cache that cannot be written (.git/cortex owned by someone else, a read-only .git) costs
  // a spawn next time, nothing more.
  await mkdir(cortexDir(repo), { recursive: true }).then(() => writeFile(cachePath, JSON.stringify({ stamps, config }))).catch(() => undefined);
  return config;
}
