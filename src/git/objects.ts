import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';

/**
 * Git objects, read and written directly as loose objects: zlib-deflated `<type> <size>\0<body>`
 * at `objects/ab/cdef…`, written to a temporary name and renamed, as git does, so a killed
 * process never leaves a truncated object. Packed objects (after `git gc`) are read through
 * isomorphic-git, loaded only then: importing it costs ~90 ms, more than an append's budget.
 */
export type ObjectType = 'blob' | 'tree' | 'commit';

export interface TreeEntry {
  mode: string;
  path: string;
  oid: string;
}

export interface ObjectStore {
  gitdir: string;
  /** isomorphic-git's cache of parsed packfiles, reused across reads in one process. */
  packCache: object;
}

const objectPath = (gitdir: string, oid: string) => join(gitdir, 'objects', oid.slice(0, 2), oid.slice(2));

export async function writeObject(store: ObjectStore, type: ObjectType, body: Uint8Array): Promise<string> {
  const header = Buffer.from(`${type} ${body.length}\0`);
  const raw = Buffer.concat([header, body]);
  const oid = createHash('sha1').update(raw).digest('hex');
  const path = objectPath(store.gitdir, oid);
  const temp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  // Synchronous on purpose: a handful of small files per append, where a thread-pool round trip
  // per call costs more than the write itself (hooks are measured as whole processes).
  try {
    writeFileSync(temp, deflateSync(raw, { level: 1 }), { flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(join(store.gitdir, 'objects', oid.slice(0, 2)), { recursive: true });
    writeFileSync(temp, deflateSync(raw, { level: 1 }), { flag: 'wx' });
  }
  renameSync(temp, path);
  return oid;
}

async function readPacked(store: ObjectStore, oid: string, type: ObjectType): Promise<Buffer> {
  const git = (await import('isomorphic-git')).default;
  const fs = (await import('./object-fs.js')).objectFs;
  const object = await git.readObject({ fs, gitdir: store.gitdir, oid, format: 'content', cache: store.packCache });
  if (object.type !== type) throw new Error(`object ${oid} is a ${object.type}, expected a ${type}`);
  return Buffer.from(object.object as Uint8Array);
}

export async function readObject(store: ObjectStore, oid: string, type: ObjectType): Promise<Buffer> {
  let deflated: Buffer;
  try {
    deflated = readFileSync(objectPath(store.gitdir, oid));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return readPacked(store, oid, type);
    throw err;
  }
  const raw = inflateSync(deflated);
  const nul = raw.indexOf(0);
  const [actualType] = raw.subarray(0, nul).toString('latin1').split(' ');
  if (actualType !== type) throw new Error(`object ${oid} is a ${actualType}, expected a ${type}`);
  return raw.subarray(nul + 1);
}

/** Tree bodies: `<mode> <name>\0<20-byte oid>` per entry, in git's order. */
export function parseTree(body: Buffer): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let i = 0;
  while (i < body.length) {
    const space = body.indexOf(0x20, i);
    const nul = body.indexOf(0, space);
    const mode = body.subarray(i, space).toString('latin1');
    entries.push({ mode: mode === '40000' ? '040000' : mode, path: body.subarray(space + 1, nul).toString('utf8'), oid: body.subarray(nul + 1, nul + 21).toString('hex') });
    i = nul + 21;
  }
  return entries;
}

const isTree = (e: TreeEntry) => e.mode === '040000' || e.mode === '40000';

/** Git orders entries by name, comparing a subtree's name as if it ended in "/". */
function treeOrder(a: TreeEntry, b: TreeEntry): number {
  const ka = Buffer.from(isTree(a) ? `${a.path}/` : a.path);
  const kb = Buffer.from(isTree(b) ? `${b.path}/` : b.path);
  return Buffer.compare(ka, kb);
}

export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of [...entries].sort(treeOrder)) {
    parts.push(Buffer.from(`${isTree(e) ? '40000' : e.mode} ${e.path}\0`), Buffer.from(e.oid, 'hex'));
  }
  return Buffer.concat(parts);
}

export const readTree = async (store: ObjectStore, oid: string): Promise<TreeEntry[]> => parseTree(await readObject(store, oid, 'tree'));

export const writeTree = (store: ObjectStore, entries: readonly TreeEntry[]): Promise<string> => writeObject(store, 'tree', serializeTree(entries));

export async function readCommitTree(store: ObjectStore, oid: string): Promise<string> {
  const body = (await readObject(store, oid, 'commit')).toString('utf8');
  const match = /^tree ([0-9a-f]{40})/.exec(body);
  if (!match) throw new Error(`commit ${oid} has no tree`);
  return match[1] as string;
}

export interface CommitFields {
  tree: string;
  parents: readonly string[];
  name: string;
  email: string;
  timeSeconds: number;
  message: string;
}

export function serializeCommit(c: CommitFields): Buffer {
  const ident = `${c.name} <${c.email.replace(/[<>\n]/g, '')}> ${c.timeSeconds} +0000`;
  const lines = [`tree ${c.tree}`, ...c.parents.map((p) => `parent ${p}`), `author ${ident}`, `committer ${ident}`, '', c.message];
  return Buffer.from(lines.join('\n'));
}

export const writeCommit = (store: ObjectStore, commit: CommitFields): Promise<string> => writeObject(store, 'commit', serializeCommit(commit));
