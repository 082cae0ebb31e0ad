import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * Real git repositories in temp dirs, built from an inline file tree, each with its own
 * identity and `gc.auto 0`, removed after each test.
 */
const created: string[] = [];

afterEach(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix = 'cortex-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}

export function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

export interface TempRepoOptions {
  /** Files committed as the first commit; omit for a repository with no commits. */
  files?: Record<string, string>;
  email?: string;
}

export function tempRepo(options: TempRepoOptions = {}): string {
  const dir = tempDir();
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', options.email ?? 'dev@example.com');
  git(dir, 'config', 'user.name', 'Dev');
  git(dir, 'config', 'gc.auto', '0');
  git(dir, 'config', 'commit.gpgsign', 'false');
  if (options.files) {
    writeTree(dir, options.files);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'initial');
  }
  return dir;
}

/** `git fsck` exit status and output: 0 means the object graph is sound. */
export function fsck(cwd: string): { code: number; output: string } {
  const result = spawnSync('git', ['fsck', '--full', '--strict'], { cwd, encoding: 'utf8' });
  return { code: result.status ?? -1, output: `${result.stdout}${result.stderr}` };
}

/**
 * A team: a bare remote in a temp dir, and clones of it each with its own identity
 * (`<name>@example.com`). `run` is the git to clone with (one with cortex on PATH, say).
 */
export function sharedRemote(run: (cwd: string, ...args: string[]) => string = git): { root: string; bare: string; clone(name: string): string } {
  const root = tempDir();
  const bare = join(root, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', '-b', 'main', bare]);
  const clone = (name: string): string => {
    const dir = join(root, name);
    run(root, 'clone', '-q', bare, dir);
    run(dir, 'config', 'user.email', `${name}@example.com`);
    run(dir, 'config', 'user.name', name);
    return dir;
  };
  return { root, bare, clone };
}
