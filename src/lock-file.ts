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
    try {
      const file = await open(path, 'wx');
      await file.writeFile(HOLDER).finally(() => file.close());
      return () => unlink(path).catch(() => undefined);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const info = await stat(path).catch(() => null);
      if (info && (Date.now() - info.mtimeMs > options.staleMs || (await holderIsGone(path)))) await unlink(path).catch(() => undefined);
      else if (Date.now() > deadline) return null;
      else await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
}

const HOST = hostname();
const HOLDER = `${process.pid}@${HOST}\n`;

/** Whether the lock names a process of this host that no longer runs. */
async function holderIsGone(path: string): Promise<boolean> {
  const holder = /^(\d+)@(.*)$/.exec((await readFile(path, 'utf8').catch(() => '')).trim());
  if (!holder || holder[2] !== HOST) return false; // being written, an older Cortex's, or another host's
  const pid = Number(holder[1]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH'; // EPERM: it runs, as another user
  }
}
