import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isWriteRefused } from '../errors.js';

/**
 * A short random id for this clone, so two clones writing the same session name still write
 * different shard files. Losing it only means new shards; nothing is keyed on it, so where it
 * cannot be kept (a read-only .git) this process uses one of its own.
 */
export async function readCloneId(cortexDir: string): Promise<string> {
  const path = join(cortexDir, 'clone-id');
  try {
    const id = (await readFile(path, 'utf8')).trim();
    if (/^[0-9a-f]{8}$/.test(id)) return id;
  } catch {
    // absent: make one below
  }
  const id = randomBytes(4).toString('hex');
  try {
    await mkdir(cortexDir, { recursive: true });
    await writeFile(path, `${id}\n`, { flag: 'wx' });
    return id;
  } catch (err) {
    if (isWriteRefused(err)) return id;
    // another process won the race: use theirs
    return (await readFile(path, 'utf8')).trim();
  }
}
