import { open, stat, unlink } from 'node:fs/promises';

/**
 * A mutex between processes: a file created with O_EXCL, removed on release. A lock older than
 * `staleMs` was left by a killed process and is broken. Returns null if `waitMs` passes first.
 */
export async function acquireLockFile(path: string, options: { staleMs: number; waitMs: number }): Promise<(() => Promise<void>) | null> {
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    try {
      await (await open(path, 'wx')).close();
      return () => unlink(path).catch(() => undefined);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const info = await stat(path).catch(() => null);
      if (info && Date.now() - info.mtimeMs > options.staleMs) await unlink(path).catch(() => undefined);
      else if (Date.now() > deadline) return null;
      else await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
}
