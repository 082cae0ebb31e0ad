import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Write a file the user can see (settings, rules, projections) only when its bytes change, so
 * git sees no churn and editors no reloads; through a temporary file and a rename, so a reader
 * never sees half of it.
 */
export async function writeIfChanged(path: string, content: string): Promise<boolean> {
  const before = await readFile(path, 'utf8').catch(() => null);
  if (before === content) return false;
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, content);
  await rename(temp, path);
  return true;
}
