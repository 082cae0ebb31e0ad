import { join } from 'node:path';
import type { Repo } from '../git/repo.js';
import { writeIfChanged } from '../write-if-changed.js';
import { readTextOrNull } from './install-record.js';

/**
 * Files git should ignore in this clone only (`.git/info/exclude`): the personal and regenerated
 * ones Cortex writes into a work tree. A line is `/<path>`, under `comment` when one is given,
 * so it can be found and taken out again.
 */

const excludePath = (repo: Repo): string => join(repo.commonDir, 'info', 'exclude');

/** Adds `/<path>` (under `comment`) unless the file has that line. Whether it changed. */
export async function excludeInThisClone(repo: Repo, path: string, comment?: string): Promise<boolean> {
  const line = `/${path.split('\\').join('/')}`;
  const current = (await readTextOrNull(excludePath(repo))) ?? '';
  if (current.split('\n').includes(line)) return false;
  const sep = current === '' || current.endsWith('\n') ? '' : '\n';
  return writeIfChanged(excludePath(repo), `${current}${sep}${comment ? `${comment}\n` : ''}${line}\n`);
}

/** Takes out `comment` and the line under it, when that line is `/<path>`. Whether it was there. */
export async function unexcludeInThisClone(repo: Repo, path: string, comment: string): Promise<boolean> {
  const lines = (await readTextOrNull(excludePath(repo)))?.split('\n') ?? [];
  const at = lines.indexOf(comment);
  if (at === -1) return false;
  lines.splice(at, lines[at + 1] === `/${path}` ? 2 : 1);
  return writeIfChanged(excludePath(repo), lines.join('\n'));
}
