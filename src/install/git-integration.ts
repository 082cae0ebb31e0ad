import { chmod, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Repo } from '../git/repo.js';
import { gitOutput, runGit } from '../git/run-git.js';
import { acceptsBlock, addBlock, chainScript, hasBlock, hookBlock, removeBlock } from './hook-block.js';
import { programOf } from './shell-words.js';

/**
 * What `cortex init` adds to a repository for git, and `cortex uninstall` takes away, exactly:
 * - a marked block in each git hook it uses, next to whatever is there (plain hooks, a
 *   `core.hooksPath`, husky's `.husky/` scripts, shebang or none); a hook in another language is
 *   chained (moved aside to `<hook>.cortex-chained` and run after ours), never clobbered;
 * - the merge driver in `.git/config` and its line in `.gitattributes`.
 */
export const GIT_HOOKS = ['post-merge', 'post-checkout', 'post-rewrite', 'prepare-commit-msg', 'pre-push'] as const;

const CREATED = '#!/bin/sh\n';
const CHAINED = '.cortex-chained';
const ATTRIBUTES_COMMENT = '# Cortex regenerates its tracked projections when branches merge (cortex init)';
export const ATTRIBUTES_LINE = '.cortex/*.md merge=cortex';

/** Where this repository's hooks run from; husky's generated `.husky/_` hands over to `.husky/<hook>`. */
export async function hooksDir(repo: Repo): Promise<string> {
  const cwd = repo.workTree ?? repo.gitDir;
  const dir = (await gitOutput(['rev-parse', '--path-format=absolute', '--git-path', 'hooks'], { cwd })).trim();
  const hooksPath = (await runGit(['config', 'core.hooksPath'], { cwd })).stdout.trim();
  if (hooksPath && /(^|\/)\.husky\/_\/?$/.test(hooksPath)) return dirname(isAbsolute(hooksPath) ? hooksPath : resolve(repo.workTree ?? cwd, hooksPath));
  return dir;
}

const exists = (path: string) => stat(path).then(() => true, () => false);

interface HookFile {
  text: string;
  mode: number;
}

async function readHook(path: string): Promise<HookFile | null> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    return { text, mode: info.mode & 0o7777 };
  } catch {
    return null;
  }
}

/** A path as the user knows it: from the work tree's root when it is inside. */
const shown = (repo: Repo, path: string) => (repo.workTree && !relative(repo.workTree, path).startsWith('..') ? relative(repo.workTree, path) : path);

export async function installGitIntegration(repo: Repo, command: string): Promise<string[]> {
  const changed: string[] = [];
  const dir = await hooksDir(repo);
  for (const hook of GIT_HOOKS) {
    const path = join(dir, hook);
    const chainedPath = `${path}${CHAINED}`;
    const block = hookBlock(hook, command);
    const current = await readHook(path);
    // The user's own hook as it was before Cortex: moved aside by an earlier init, or without our block.
    const chained = current && hasBlock(current.text) ? await readHook(chainedPath) : null;
    const users = chained ?? (current && { text: removeBlock(current.text), mode: current.mode });
    const chain = users !== null && !acceptsBlock(users.text);
    // Whatever takes the hook's place keeps its mode: git skips a hook that is not executable.
    const next: HookFile =
      users === null ? { text: `${CREATED}${block}`, mode: 0o755 }
      : chain ? { text: chainScript(block, `${hook}${CHAINED}`, (users.mode & 0o111) !== 0), mode: users.mode }
      : { text: addBlock(users.text, block), mode: users.mode };
    if (current && next.text === current.text && next.mode === current.mode && chain === (chained !== null)) continue;
    // An earlier init chained a hook that takes a block now (a shebang-less one): it comes back first.
    if (chained && !chain) await rename(chainedPath, path);
    if (chain && !chained) await rename(path, chainedPath);
    await writeFile(path, next.text);
    await chmod(path, next.mode);
    changed.push(shown(repo, path));
  }
  const cwd = repo.workTree ?? repo.gitDir;
  // Where cortex is not on git's PATH (a GUI client, another shell), a union merge still keeps
  // both sides' entries (the files are laid out for it) instead of failing the merge with none.
  const driver = `if command -v ${programOf(command)} >/dev/null 2>&1; then ${command} merge-driver %O %A %B %P; else git merge-file --union -q %A %O %B; fi`;
  if ((await runGit(['config', 'merge.cortex.driver'], { cwd })).stdout.trim() !== driver) {
    await gitOutput(['config', 'merge.cortex.name', 'Cortex: regenerate .cortex/ projections'], { cwd });
    await gitOutput(['config', 'merge.cortex.driver', driver], { cwd });
    changed.push('.git/config (merge.cortex)');
  }
  if (repo.workTree) {
    const path = join(repo.workTree, '.gitattributes');
    const current = await readFile(path, 'utf8').catch(() => null);
    if (!(current ?? '').split('\n').includes(ATTRIBUTES_LINE)) {
      const sep = current === null || current === '' || current.endsWith('\n') ? '' : '\n';
      await writeFile(path, `${current ?? ''}${sep}${ATTRIBUTES_COMMENT}\n${ATTRIBUTES_LINE}\n`);
      changed.push('.gitattributes');
    }
  }
  return changed;
}

/** Takes out what `installGitIntegration` put in; says what went, as `removed <what>` reads. */
export async function uninstallGitIntegration(repo: Repo): Promise<string[]> {
  const changed: string[] = [];
  const dir = await hooksDir(repo);
  for (const hook of GIT_HOOKS) {
    const path = join(dir, hook);
    const current = await readFile(path, 'utf8').catch(() => null);
    if (current === null || !hasBlock(current)) continue;
    const rest = removeBlock(current);
    if (await exists(`${path}${CHAINED}`)) {
      await rename(`${path}${CHAINED}`, path);
      changed.push(`Cortex's wrapper from ${shown(repo, path)} (your hook is back in its place)`);
    } else if (rest === CREATED) {
      await rm(path);
      changed.push(shown(repo, path));
    } else {
      await writeFile(path, rest);
      changed.push(`Cortex's block from ${shown(repo, path)}`);
    }
  }
  const cwd = repo.workTree ?? repo.gitDir;
  if ((await runGit(['config', '--get-regexp', '^merge\\.cortex\\.'], { cwd })).stdout.trim() !== '') {
    await runGit(['config', '--remove-section', 'merge.cortex'], { cwd });
    changed.push('.git/config (merge.cortex)');
  }
  if (repo.workTree) {
    const path = join(repo.workTree, '.gitattributes');
    const current = await readFile(path, 'utf8').catch(() => null);
    if (current !== null && current.includes(ATTRIBUTES_LINE)) {
      const rest = current.replace(`${ATTRIBUTES_COMMENT}\n${ATTRIBUTES_LINE}\n`, '').replace(`${ATTRIBUTES_LINE}\n`, '');
      if (rest === '') await rm(path);
      else await writeFile(path, rest);
      changed.push(rest === '' ? '.gitattributes' : `the ${ATTRIBUTES_LINE} line from .gitattributes`);
    }
  }
  return changed;
}
