import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { cortexDir, readAuthor, readGitConfig, readHead, type Repo } from '../git/repo.js';
import { createIdGenerator } from '../events/ids.js';
import { normalizeEvent, type EventContext } from '../events/parse-event.js';
import type { CortexEvent } from '../events/types.js';
import { CortexError, isWriteRefused } from '../errors.js';
import { isValidRefName } from '../git/ref-name.js';
import { randomBytes } from 'node:crypto';
import { readCachedEvents, readCachedNewestFirst, refreshCache, restoreDeletedJournal, type CacheDir, type CacheMeta } from './cache.js';
import { readCloneId } from './clone-id.js';
import { DEFAULT_JOURNAL_REF } from './layout.js';
import type { LineProblem } from './parse-shard.js';
import type { JournalStore } from './tip.js';

/**
 * The journal as commands use it: open it for a repository, append events, read them back
 * (all, newest first, or since a known tip). The I/O shell around the pure event model.
 */
export interface Journal {
  repo: Repo;
  store: JournalStore;
  cacheDir: CacheDir;
}

/**
 * The journal's ref: CORTEX_JOURNAL_REF, else `cortex.journalRef` from git config (where `cortex
 * init` keeps the name it was run with, so hooks, which run without the variable, find it), else
 * the default.
 */
export function journalRef(config: Readonly<Record<string, string>> = {}): string {
  const fromEnv = process.env.CORTEX_JOURNAL_REF?.trim();
  const given = fromEnv || config['cortex.journalref']?.trim();
  if (!given) return DEFAULT_JOURNAL_REF;
  const ref = given.startsWith('refs/') ? given : `refs/heads/${given}`;
  // Written unchecked, a name like `bad..ref` becomes a file git skips with a warning.
  const source = fromEnv ? `CORTEX_JOURNAL_REF="${given}"` : `git config cortex.journalRef "${given}"`;
  if (!isValidRefName(ref)) throw new CortexError('USAGE', `${source} is not a valid ref name (see git check-ref-format); ${fromEnv ? 'unset it' : 'unset it (git config --unset cortex.journalRef)'} or use a name like cortex/journal`);
  return ref;
}

export async function openJournal(repo: Repo): Promise<Journal> {
  await refuseSha256(repo);
  const dir = cortexDir(repo);
  return {
    repo,
    store: { gitdir: repo.commonDir, ref: journalRef(await readGitConfig(repo)), cloneId: await readCloneId(dir), packCache: {} },
    cacheDir: { path: join(dir, 'cache') },
  };
}

/**
 * isomorphic-git, which writes the journal, knows SHA-1 object names only: in a SHA-256
 * repository it would write objects and a ref git cannot read (fsck, gc and clone then fail).
 * Refused before anything is written.
 */
async function refuseSha256(repo: Repo): Promise<void> {
  const config = await readFile(join(repo.commonDir, 'config'), 'utf8').catch(() => '');
  if (/^\s*objectformat\s*=\s*sha256\s*$/im.test(config)) {
    throw new CortexError('UNSUPPORTED_REPO', 'this repository uses SHA-256 object names, which Cortex does not support yet (its git library writes SHA-1); nothing was written');
  }
}

const nextId = createIdGenerator((n) => randomBytes(n));

/** The context new events are stamped with: who, where, when, and fresh ids. */
export async function captureContext(journal: Journal, session: string, provenance: string): Promise<EventContext> {
  const [head, author] = await Promise.all([readHead(journal.repo), readAuthor(journal.repo)]);
  return { now: new Date(), session, author, branch: head.branch, commit: head.commit, provenance, newId: nextId };
}

/** Validate raw inputs into events, or throw INVALID_EVENT naming the first bad one. */
export function buildEvents(raws: readonly unknown[], ctx: EventContext): CortexEvent[] {
  return raws.map((raw, i) => {
    const result = normalizeEvent(raw, ctx);
    if (!result.ok) throw new CortexError('INVALID_EVENT', `event ${i + 1}: ${result.error}`);
    return result.event;
  });
}

export async function append(journal: Journal, events: readonly CortexEvent[]): Promise<string | null> {
  if (events.length === 0) return null;
  await restoreDeletedJournal(journal.store, journal.cacheDir);
  const { appendEvents } = await import('./store.js');
  const author = events[0]?.author ?? 'unknown';
  const result = await writingMemory(journal.repo, () => appendEvents(journal.store, events, author));
  return result.tip;
}

/**
 * Memory cannot skip a write the way a cache does: one the file system refuses (a read-only
 * .git, a .git/cortex left to root) fails in one line naming the folder, not as an unexpected error.
 */
export async function writingMemory<T>(repo: Repo, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isWriteRefused(err)) throw err;
    const where = err.path ? ` on ${relative(repo.commonDir, err.path).startsWith('..') ? err.path : relative(repo.commonDir, err.path) || '.'}` : '';
    throw new CortexError('NOT_WRITABLE', `${repo.commonDir} is not writable (${err.code}${where}): nothing stored; cortex doctor says how to fix it`);
  }
}

export interface JournalRead {
  tip: string | null;
  events: CortexEvent[];
  problems: LineProblem[];
}

export async function readAll(journal: Journal): Promise<JournalRead> {
  const meta = await refreshCache(journal.store, journal.cacheDir);
  return { tip: meta.tip, events: await readCachedEvents(journal.cacheDir, meta), problems: meta.problems };
}

export async function readNewestFirst(journal: Journal): Promise<{ meta: CacheMeta; events: AsyncGenerator<CortexEvent> }> {
  const meta = await refreshCache(journal.store, journal.cacheDir);
  return { meta, events: readCachedNewestFirst(journal.cacheDir, meta) };
}

/** The events one session stored (read from its own shards only). */
export async function readSessionEvents(journal: Journal, session: string): Promise<CortexEvent[]> {
  const { readSessionEvents: read } = await import('./read-since.js');
  return read(journal.store, session);
}

/** Events added to the journal after `knownTip` (everything when it is null). */
export async function readSince(journal: Journal, knownTip: string | null): Promise<JournalRead> {
  const { readAddedSince } = await import('./read-since.js');
  return readAddedSince(journal.store, knownTip);
}
