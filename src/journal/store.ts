import { CortexError } from '../errors.js';
import { serializeEvents } from '../events/serialize.js';
import type { CortexEvent } from '../events/types.js';
import { readCommitTree, readObject, readTree, writeCommit, writeObject, writeTree as writeTreeObject, type TreeEntry as GitTreeEntry } from '../git/objects.js';
import { compareAndSwapRef } from '../git/refs.js';
import {
  EVENTS_DIR,
  JOURNAL_FILES,
  latestPart,
  MAX_SHARD_BYTES,
  monthDir,
  shardBase,
  shardFileName,
} from './layout.js';
import { readTip, type JournalStore } from './tip.js';
import { readTemplate } from '../templates.js';

/**
 * The journal on its orphan branch, through git plumbing only: objects and one ref. The user's
 * work tree, index, HEAD and stash are never read or written.
 */
type TreeEntry = GitTreeEntry;

export interface Shard {
  path: string;
  oid: string;
}

export interface TreeProblem {
  file: string;
  line?: number;
  message: string;
}


const readTreeEntries = (store: JournalStore, oid: string) => readTree(store, oid);
const rootTreeOid = (store: JournalStore, tip: string) => readCommitTree(store, tip);
const isTree = (e: TreeEntry) => e.mode === '040000';

export async function readBlobText(store: JournalStore, oid: string): Promise<string> {
  return (await readObject(store, oid, 'blob')).toString('utf8');
}

const writeBlob = (store: JournalStore, text: string) => writeObject(store, 'blob', Buffer.from(text, 'utf8'));
const writeTree = (store: JournalStore, tree: TreeEntry[]) => writeTreeObject(store, tree);

function upsert(entries: TreeEntry[], entry: TreeEntry): TreeEntry[] {
  return [...entries.filter((e) => e.path !== entry.path), entry];
}

/** Every shard at `tip`, plus whatever on the branch is not a shard (reported, never read). */
export async function listShards(store: JournalStore, tip: string): Promise<{ shards: Shard[]; problems: TreeProblem[] }> {
  const shards: Shard[] = [];
  const problems: TreeProblem[] = [];
  for (const entry of await readTreeEntries(store, await rootTreeOid(store, tip))) {
    if (!JOURNAL_FILES.has(entry.path)) problems.push({ file: entry.path, message: 'foreign file on the journal branch, ignored' });
    if (entry.path !== EVENTS_DIR || !isTree(entry)) continue;
    for (const month of await readTreeEntries(store, entry.oid)) {
      const monthPath = `${EVENTS_DIR}/${month.path}`;
      if (!isTree(month) || !/^\d{4}-\d{2}$/.test(month.path)) {
        problems.push({ file: monthPath, message: 'foreign file on the journal branch, ignored' });
        continue;
      }
      for (const file of await readTreeEntries(store, month.oid)) {
        const path = `${monthPath}/${file.path}`;
        if (!isTree(file) && file.path.endsWith('.jsonl')) shards.push({ path, oid: file.oid });
        else problems.push({ file: path, message: 'foreign file on the journal branch, ignored' });
      }
    }
  }
  shards.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { shards, problems };
}

/** Build the new root tree for `tip` with the given events appended to their writers' shards. */
async function buildAppendTree(store: JournalStore, tip: string | null, events: readonly CortexEvent[]): Promise<string> {
  const root = tip ? await readTreeEntries(store, await rootTreeOid(store, tip)) : [];
  const eventsEntry = root.find((e) => e.path === EVENTS_DIR && isTree(e));
  let months = eventsEntry ? await readTreeEntries(store, eventsEntry.oid) : [];

  const byMonth = new Map<string, Map<string, CortexEvent[]>>();
  for (const event of events) {
    const month = monthDir(event.ts);
    const base = shardBase(event.session, store.cloneId);
    let shardsOfMonth = byMonth.get(month);
    if (!shardsOfMonth) byMonth.set(month, (shardsOfMonth = new Map()));
    let shardEvents = shardsOfMonth.get(base);
    if (!shardEvents) shardsOfMonth.set(base, (shardEvents = []));
    shardEvents.push(event);
  }

  for (const [month, bases] of byMonth) {
    const monthEntry = months.find((e) => e.path === month && isTree(e));
    let files = monthEntry ? await readTreeEntries(store, monthEntry.oid) : [];
    for (const [base, shardEvents] of bases) {
      const lines = serializeEvents(shardEvents);
      let part = Math.max(1, latestPart(files.map((f) => f.path), base));
      const existing = files.find((f) => f.path === shardFileName(base, part));
      let text = existing ? await readBlobText(store, existing.oid) : '';
      if (text.length > 0 && text.length + lines.length > MAX_SHARD_BYTES) {
        part += 1;
        text = '';
      }
      // A shard whose last line was cut short by hand must not swallow our first line.
      if (text.length > 0 && !text.endsWith('\n')) text += '\n';
      const oid = await writeBlob(store, text + lines);
      files = upsert(files, { mode: '100644', path: shardFileName(base, part), oid });
    }
    months = upsert(months, { mode: '040000', path: month, oid: await writeTree(store, files) });
  }

  let nextRoot = upsert(root, { mode: '040000', path: EVENTS_DIR, oid: await writeTree(store, months) });
  if (!root.some((e) => e.path === 'README.md')) {
    nextRoot = upsert(nextRoot, { mode: '100644', path: 'README.md', oid: await writeBlob(store, await readTemplate('journal-readme.md')) });
  }
  return writeTree(store, nextRoot);
}

function writeJournalCommit(store: JournalStore, tree: string, parent: string | null, message: string, author: string): Promise<string> {
  return writeCommit(store, { tree, parents: parent ? [parent] : [], name: 'cortex', email: author, timeSeconds: Math.floor(Date.now() / 1000), message });
}

export interface AppendResult {
  tip: string;
  attempts: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const APPEND_DEADLINE_MS = 30_000;

/**
 * Append events in one commit. The ref moves by compare-and-swap: if another writer moved it
 * between our read and our write, rebuild on top of theirs and try again, with jittered backoff.
 */
export async function appendEvents(store: JournalStore, events: readonly CortexEvent[], author: string): Promise<AppendResult> {
  const started = Date.now();
  const sessions = [...new Set(events.map((e) => e.session))];
  const message = `cortex: ${events.length} event${events.length === 1 ? '' : 's'} from ${sessions.slice(0, 3).join(', ')}${sessions.length > 3 ? ', …' : ''}\n`;
  for (let attempt = 1; ; attempt++) {
    const tip = await readTip(store);
    const tree = await buildAppendTree(store, tip, events);
    const commit = await writeJournalCommit(store, tree, tip, message, author);
    if (await compareAndSwapRef(store.gitdir, store.ref, tip, commit)) return { tip: commit, attempts: attempt };
    if (Date.now() - started > APPEND_DEADLINE_MS) {
      throw new CortexError('APPEND_CONTENDED', `could not update ${store.ref} after ${attempt} attempts: another process keeps it locked (remove ${store.ref}.lock under .git if no git command is running)`);
    }
    await sleep(Math.random() * Math.min(50, 2 * attempt));
  }
}

/** Create the journal branch with its README if it does not exist yet. Returns whether it was created. */
export async function initJournal(store: JournalStore, author: string): Promise<boolean> {
  for (;;) {
    if ((await readTip(store)) !== null) return false;
    const readme = await writeBlob(store, await readTemplate('journal-readme.md'));
    const tree = await writeTree(store, [{ mode: '100644', path: 'README.md', oid: readme }]);
    const commit = await writeJournalCommit(store, tree, null, 'cortex: start the journal\n', author);
    if (await compareAndSwapRef(store.gitdir, store.ref, null, commit)) return true;
  }
}
