import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a user who cannot write Cortex's files sees (after a `sudo git pull` ran the hooks as
 * root). Root can write anything, so as root the tests run cortex as `nobody`, in a repository
 * `nobody` owns; as anyone else, as themselves, with the write bits taken away.
 */
export const isRoot = process.getuid?.() === 0;

const idOf = (flag: '-u' | '-g') => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }));

/** Whom to run cortex as (`cortex(…, { as })`): nobody as root, undefined (yourself) otherwise. */
export const testUser: { uid: number; gid: number } | undefined = isRoot ? { uid: idOf('-u'), gid: idOf('-g') } : undefined;

export function walk(path: string, each: (path: string) => void): void {
  each(path);
  if (statSync(path).isDirectory()) for (const name of readdirSync(path)) walk(join(path, name), each);
}

/** chown -R (root only). */
export function giveTo(owner: { uid: number; gid: number }, ...paths: string[]): void {
  for (const path of paths) walk(path, (p) => chownSync(p, owner.uid, owner.gid));
}

/** Hand the test user what root set up: a no-op when the tests already run as that user. */
export function giveToTestUser(...paths: string[]): void {
  if (testUser) giveTo(testUser, ...paths);
}

/**
 * Make `path` (a folder, with everything in it) unwritable for the test user: root's, as a
 * root-run hook leaves it, where the tests can chown; else without its write bits. Returns the
 * undo, so the temp dir can be removed.
 */
export function makeUnwritable(path: string): () => void {
  if (isRoot) {
    giveTo({ uid: 0, gid: 0 }, path);
    return () => giveToTestUser(path);
  }
  walk(path, (p) => chmodSync(p, statSync(p).mode & ~0o222));
  return () => walk(path, (p) => chmodSync(p, statSync(p).mode | 0o200));
}
