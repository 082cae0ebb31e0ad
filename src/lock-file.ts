import { hostname } from 'node:os';
import { open, readFile, stat, unlink } from 'node:fs/promises';

/**
 * A mutex between processes: a file created with O_EXCL, removed on release. It names its
 * holder (`pid@host`), so a lock whose holder is gone (killed, interrupted, crashed) is broken
 * at once by the next process on that host; one held elsewhere (a shared disk), or whose holder
 * cannot be told, is broken once older than `staleMs`. Returns null if `waitMs` passes first.
 */
export async function acquireLockFile(path: string, options: { staleMs: number; waitMs: number }): Promise<(() => Promise<void>) | null> {
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    let file;
    try {
      file = await open(path, 'wx');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const info = await stat(path).catch(() => null);
      const holder = await readFile(path, 'utf8').catch(() => '');
      if (info && (Date.now() - info.mtimeMs > options.staleMs || holderIsGone(holder))) await breakLock(path, info.ino, holder);
      else if (Date.now() > deadline) return null;
      else await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
      continue;
    }
    try {
      await file.writeFile(HOLDER);
    } catch (err) {
      await unlink(path).catch(() => undefined); // no nameless lock left behind (a full disk)
      throw err;
    } finally {
      await file.close();
    }
    return () => unlink(path).catch(() => undefined);
  }
}

const HOST = hostname();
const HOLDER = `${process.pid}@${HOST}\n`;

/** Whether the lock's holder (`pid@host`) is a process of this host that no longer runs. */
function holderIsGone(holder: string): boolean {
  const named = /^(\d+)@(.*)$/.exec(holder.trim());
  if (!named || named[2] !== HOST) return false; // being written, an older Cortex's, or another host's
  const pid = Number(named[1]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH'; // EPERM: it runs, as another user
  }
}

/**
 * Remove the lock judged broken, unless it changed since: two waiters may judge the same dead
 * lock, and the slower must not remove the one the faster has just taken in its place.
 */
async function breakLock(path: string, ino: number, holder: string): Promise<void> {
  const now = await stat(path).catch(() => null);
  if (!now || now.ino !== ino || (await readFile(path, 'utf8').catch(() => null)) !== holder) return;
  await unlink(path).catch(() => undefined);
}
