import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireLockFile } from '../../src/lock-file.js';
import { tempDir } from '../helpers/repo.js';

const LONG = { staleMs: 120_000, waitMs: 300 };

/** A pid that ran on this host and has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the lock file', () => {
  it('names its holder, and is gone on release', async () => {
    const path = join(tempDir(), 'a.lock');
    const release = await acquireLockFile(path, LONG);
    expect(readFileSync(path, 'utf8')).toBe(`${process.pid}@${hostname()}\n`);
    await release?.();
    expect(existsSync(path)).toBe(false);
  });

  it('is taken at once from a holder of this host that no longer runs (an interrupted import), long before it would be stale', async () => {
    const path = join(tempDir(), 'a.lock');
    writeFileSync(path, `${deadPid()}@${hostname()}\n`);
    expect(await acquireLockFile(path, LONG)).not.toBeNull();
  });

  it('waits for a holder that still runs, for one on another host, and for a lock that names no holder', async () => {
    const dir = tempDir();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30_000)']);
    try {
      const held = [`${sleeper.pid}@${hostname()}\n`, `${deadPid()}@another-host\n`, ''];
      for (const [i, holder] of held.entries()) {
        writeFileSync(join(dir, `${i}.lock`), holder);
        expect(await acquireLockFile(join(dir, `${i}.lock`), LONG)).toBeNull();
      }
    } finally {
      sleeper.kill();
    }
  });
});
