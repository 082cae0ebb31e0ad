import { readCommitTree, readObject, readTree, writeCommit, writeObject, writeTree, type TreeEntry } from '../git/objects.js';
import { isShardPath } from './layout.js';
import type { JournalStore } from './tip.js';

/**
 * Merging two journals (a clone's and its remote's): the union of their trees. Shards are
 * per-clone files, so they rarely meet; when the same shard differs on both sides its lines are
 * united by event id. Commutative and idempotent in the events it yields: no event lost or doubled.
 */
const ID_AT_START = /^\{"id":"([^"]+)"/;

export function uniteShardLines(ours: string, theirs: string): string {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const line of [...ours.split('\n'), ...theirs.split('\n')]) {
    if (line.trim() === '') continue;
    const key = ID_AT_START.exec(line)?.[1] ?? line;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(line);
  }
  return out.length > 0 ? `${out.join('\n')}\n` : '';
}

async function mergeTrees(store: JournalStore, ours: string, theirs: string, prefix: string): Promise<string> {
  if (ours === theirs) return ours;
  const [a, b] = await Promise.all([readTree(store, ours), readTree(store, theirs)]);
  const byName = new Map<string, TreeEntry>(a.map((e) => [e.path, e]));
  const merged: TreeEntry[] = [];
  for (const entry of b) {
    const mine = byName.get(entry.path);
    byName.delete(entry.path);
    if (!mine || mine.oid === entry.oid) {
      merged.push(mine ?? entry);
      continue;
    }
    const path = `${prefix}${entry.path}`;
    if (mine.mode === '040000' && entry.mode === '040000') merged.push({ ...mine, oid: await mergeTrees(store, mine.oid, entry.oid, `${path}/`) });
    else if (isShardPath(path) && mine.mode !== '040000' && entry.mode !== '040000') {
      const [x, y] = await Promise.all([readObject(store, mine.oid, 'blob'), readObject(store, entry.oid, 'blob')]);
      merged.push({ ...mine, oid: await writeObject(store, 'blob', Buffer.from(uniteShardLines(x.toString('utf8'), y.toString('utf8')), 'utf8')) });
    } else merged.push(mine); // README and the like: ours
  }
  merged.push(...byName.values());
  return writeTree(store, merged);
}

/** A merge commit of two journal tips (parents: ours, theirs). */
export async function mergeJournals(store: JournalStore, ours: string, theirs: string, author: string): Promise<string> {
  const [treeA, treeB] = await Promise.all([readCommitTree(store, ours), readCommitTree(store, theirs)]);
  const tree = await mergeTrees(store, treeA, treeB, '');
  return writeCommit(store, { tree, parents: [ours, theirs], name: 'cortex', email: author, timeSeconds: Math.floor(Date.now() / 1000), message: 'cortex: merge journals\n' });
}
