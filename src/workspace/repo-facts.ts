import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { HeadState, Repo } from '../git/repo.js';
import { runGit } from '../git/run-git.js';
import type { MemoryItem, MemoryState } from '../projections/fold.js';
import { MANIFEST_FILES, referencedFiles, type Manifest, type RepoFacts } from '../projections/reality.js';

/** What the reality checks compare memory against, read from the work tree and git. */
export async function readRepoFacts(repo: Repo, head: HeadState, state: MemoryState, candidates: readonly MemoryItem[], me: string): Promise<RepoFacts> {
  const root = repo.workTree;
  const [missingFiles, manifests, commitsByOthers] = await Promise.all([
    root ? findMissing(root, [...referencedFiles(candidates).keys()]) : Promise.resolve(new Set<string>()),
    root ? readManifests(root) : Promise.resolve([]),
    readCommitsByOthers(repo, head, state, me),
  ]);
  return { branch: head.branch, detached: head.branch === null && head.commit !== null, missingFiles, manifests, commitsByOthers };
}

async function findMissing(root: string, paths: readonly string[]): Promise<Set<string>> {
  const missing = new Set<string>();
  await Promise.all(
    paths.map(async (p) => {
      if (p.startsWith('/') || p.includes('..')) return;
      if (!(await stat(join(root, p)).catch(() => null))) missing.add(p);
    }),
  );
  return missing;
}

export async function readManifests(root: string): Promise<Manifest[]> {
  const found = await Promise.all(MANIFEST_FILES.map(async (path) => ({ path, text: await readFile(join(root, path), 'utf8').catch(() => null) })));
  return found.filter((m): m is Manifest => m.text !== null);
}

/** Commits on HEAD by someone else since the last assistant session ended (at most 50). */
async function readCommitsByOthers(repo: Repo, head: HeadState, state: MemoryState, me: string): Promise<Array<{ author: string; subject: string }>> {
  const last = state.sessions[state.sessions.length - 1];
  if (!head.commit || !last) return [];
  const result = await runGit(['log', '-n', '200', `--since=${last.end}`, '--format=%ae%x00%s', head.commit], { cwd: repo.workTree ?? repo.gitDir });
  if (result.code !== 0) return [];
  return result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [author = '', subject = ''] = line.split('\0');
      return { author, subject };
    })
    .filter((c) => c.author !== me)
    .slice(0, 50);
}
