import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { CortexError } from '../errors.js';
import { cortexDir } from '../git/repo.js';
import { acquireLockFile } from '../lock-file.js';
import { writingMemory, type Journal } from './journal.js';

const LOCK_FILE = 'journal.lock';
// An import of a large file holds it for seconds; a holder older than this was killed.
const STALE_MS = 120_000;
const WAIT_MS = 60_000;

/**
 * For writers that look before they append (import's "already present?", forget's "already
 * forgotten?"): one at a time, so each looks at the journal as the previous one left it. Without
 * it, eight imports of one file each saw none of it stored and all eight appended it. Plain
 * appends need no lock: the ref's compare-and-swap already keeps every one of them.
 */
export async function withJournalWriteLock<T>(journal: Journal, write: () => Promise<T>): Promise<T> {
  const dir = cortexDir(journal.repo);
  const release = await writingMemory(journal.repo, async () => {
    await mkdir(dir, { recursive: true });
    return acquireLockFile(join(dir, LOCK_FILE), { staleMs: STALE_MS, waitMs: WAIT_MS });
  });
  if (!release) throw new CortexError('APPEND_CONTENDED', `another cortex import or forget has held the journal for ${WAIT_MS / 1000} s; try again (or delete ${join(dir, LOCK_FILE)} if no cortex is running)`);
  try {
    return await write();
  } finally {
    await release();
  }
}
