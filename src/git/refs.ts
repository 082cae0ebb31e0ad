import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CortexError } from '../errors.js';

/**
 * Refs read and moved through git's own files, so we interoperate with git's locking:
 * a loose ref file wins over `packed-refs`, and `<ref>.lock` is the mutex git also honours.
 */
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** A full object id as git prints it: 40 hex digits (SHA-1) or 64 (SHA-256), lower case. */
export const isObjectId = (text: string): boolean => OID.test(text);

// Read synchronously: a ref is a few bytes, and every search and hook reads one, where a hop
// through libuv's thread pool costs more than the read (and waits behind GC on two cores).
function readIfExists(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw err;
  }
}

function findPacked(packed: string, refName: string): string | null {
  for (const line of packed.split('\n')) {
    if (line.endsWith(` ${refName}`)) {
      const oid = line.slice(0, line.indexOf(' '));
      if (OID.test(oid)) return oid;
    }
  }
  return null;
}

/** The object id a ref points at, following one level of symbolic ref, or null if it does not exist. */
export async function readRef(commonDir: string, refName: string): Promise<string | null> {
  const loose = readIfExists(join(commonDir, refName));
  if (loose !== null) {
    const value = loose.trim();
    if (OID.test(value)) return value;
    const symbolic = /^ref:\s*(\S+)$/.exec(value);
    if (symbolic) return readRef(commonDir, symbolic[1] as string);
  }
  const packed = readIfExists(join(commonDir, 'packed-refs'));
  return packed === null ? null : findPacked(packed, refName);
}

/** Every ref under `prefixes` (loose and packed, loose winning) with the object it points at, sorted by name. No git process. */
export function listRefs(commonDir: string, prefixes: readonly string[] = ['refs/heads/', 'refs/remotes/']): Array<[string, string]> {
  const refs = new Map<string, string>();
  const packed = readIfExists(join(commonDir, 'packed-refs')) ?? '';
  for (const line of packed.split('\n')) {
    const [oid = '', name = ''] = line.split(' ');
    if (OID.test(oid) && prefixes.some((p) => name.startsWith(p))) refs.set(name, oid);
  }
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(join(commonDir, dir), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = `${dir}${entry.name}`;
      if (entry.isDirectory()) walk(`${path}/`);
      else if (!entry.name.endsWith('.lock')) refs.set(path, (readIfExists(join(commonDir, path)) ?? '').trim());
    }
  };
  for (const prefix of prefixes) walk(prefix);
  return [...refs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * Every branch's and remote-tracking branch's tip, as one string that changes when any of them
 * moves: what a cache of something branch alignment decided is keyed by, since alignment asks
 * where other branches stand (main committing moves what a feature sees).
 */
export const readBranchTips = (commonDir: string, prefixes?: readonly string[]): string => listRefs(commonDir, prefixes).map(([name, oid]) => `${oid} ${name}`).join('\n');

/** A lock older than this was left by a killed process: a ref update holds it for microseconds. */
const STALE_LOCK_MS = 10_000;

async function takeLock(lockPath: string): Promise<import('node:fs/promises').FileHandle | null> {
  try {
    return await open(lockPath, 'wx');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      const info = await stat(lockPath).catch(() => null);
      if (info && Date.now() - info.mtimeMs > STALE_LOCK_MS) await unlink(lockPath).catch(() => undefined);
      return null;
    }
    if (code === 'ENOTDIR' || code === 'EEXIST') return null;
    throw err;
  }
}

/**
 * Move `refName` from `expected` (null: must not exist yet) to `next`, atomically, or return
 * false when someone else moved it first or holds the lock. A blind write would lose the
 * other writer's events; the caller re-reads and retries instead.
 */
export async function compareAndSwapRef(
  commonDir: string,
  refName: string,
  expected: string | null,
  next: string,
): Promise<boolean> {
  const refPath = join(commonDir, refName);
  const lockPath = `${refPath}.lock`;
  try {
    await mkdir(dirname(refPath), { recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') {
      throw refConflict(refName);
    }
    throw err;
  }
  const lock = await takeLock(lockPath);
  if (!lock) return false;
  let renamed = false;
  try {
    const current = await readRef(commonDir, refName);
    if (current !== expected) return false;
    await lock.writeFile(`${next}\n`);
    await lock.close();
    await rename(lockPath, refPath);
    renamed = true;
    return true;
  } finally {
    if (!renamed) {
      await lock.close().catch(() => undefined);
      await unlink(lockPath).catch(() => undefined);
    }
  }
}

function refConflict(refName: string): CortexError {
  return new CortexError(
    'REF_CONFLICT',
    `cannot create ${refName}: a ref with a conflicting name exists (rename the branch "${refName.split('/').slice(2, -1).join('/')}" or set CORTEX_JOURNAL_REF)`,
  );
}
