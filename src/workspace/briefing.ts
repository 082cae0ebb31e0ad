import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isWriteRefused } from '../errors.js';
import { readBranchTips } from '../git/refs.js';
import { readHead } from '../git/repo.js';
import { readTip } from '../journal/tip.js';
import type { Journal } from '../journal/journal.js';
import { MANIFEST_FILES } from '../projections/manifests.js';
import type { Briefing } from '../projections/render-briefing.js';
import type { ProjectionSettings } from '../projections/settings.js';
import { VERSION } from '../version.js';
import { uniteNewlyFetchedJournals } from './fetched-journals.js';

/**
 * The briefing as delivered: computed from memory, or read from a small cache keyed by
 * everything it depends on (journal tip, HEAD, every branch's tip, budget, settings, the dependency manifests), so a
 * SessionStart with nothing new costs a few file reads and never loads the projection code.
 */
export interface BriefingRequest {
  budgetTokens?: number;
  maxChars?: number;
}

/** Claude Code caps hook output at 10,000 characters; a briefing delivered by a hook stays clear of it. */
export const HOOK_MAX_CHARS = 9_500;

const KEPT = 4;

async function cacheKey(journal: Journal, settings: ProjectionSettings, request: BriefingRequest): Promise<string> {
  const root = journal.repo.workTree;
  const [tip, head, manifestStamps] = await Promise.all([
    readTip(journal.store),
    readHead(journal.repo),
    root ? Promise.all(MANIFEST_FILES.map((m) => stat(join(root, m)).then((s) => s.mtimeMs, () => 0))) : Promise.resolve([]),
  ]);
  // What is in view on HEAD also depends on where the other branches stand and on what the
  // reflogs say of them (branch alignment): expired, or rewritten by filter-branch, they say otherwise.
  const branches = createHash('sha1').update(readBranchTips(journal.repo.commonDir, ['refs/heads/', 'refs/remotes/', 'refs/original/'])).update(reflogStamp(journal.repo)).digest('hex');
  const parts = [VERSION, tip, head.branch, head.commit, branches, request.budgetTokens ?? settings.budgetTokens, request.maxChars ?? '', JSON.stringify(settings), manifestStamps.join(',')];
  return createHash('sha1').update(JSON.stringify(parts)).digest('hex');
}

type CacheFile = Record<string, { briefing: Briefing; used: number }>;
const cachePath = (journal: Journal) => join(journal.cacheDir.path, 'briefings.json');

export async function readBriefing(journal: Journal, settings: ProjectionSettings, request: BriefingRequest = {}): Promise<{ briefing: Briefing; cached: boolean }> {
  // Before the key: memory a fetch brought moves the journal's tip.
  await uniteNewlyFetchedJournals(journal);
  const key = await cacheKey(journal, settings, request);
  let cache: CacheFile = {};
  try {
    cache = JSON.parse(await readFile(cachePath(journal), 'utf8')) as CacheFile;
  } catch {
    // no cache, or an unreadable one: rebuild
  }
  const hit = cache[key];
  if (hit) return { briefing: hit.briefing, cached: true };

  const { computeBriefing } = await import('./compute-briefing.js');
  const briefing = await computeBriefing(journal, { budgetTokens: request.budgetTokens ?? settings.budgetTokens, maxChars: request.maxChars });
  const entries = Object.entries({ ...cache, [key]: { briefing, used: Date.now() } })
    .sort((a, b) => b[1].used - a[1].used)
    .slice(0, KEPT);
  const temp = `${cachePath(journal)}.${process.pid}.tmp`;
  try {
    await mkdir(journal.cacheDir.path, { recursive: true });
    await writeFile(temp, JSON.stringify(Object.fromEntries(entries)));
    await rename(temp, cachePath(journal));
  } catch (err) {
    // A cache that cannot be written (a read-only .git) costs a computation next time, nothing more.
    if (!isWriteRefused(err)) throw err;
  }
  return { briefing, cached: false };
}

/** Each reflog alignment reads (HEAD's, every branch's), by size and time of change. */
function reflogStamp(repo: Journal['repo']): string {
  const stamps: string[] = [];
  const add = (path: string) => {
    try {
      const info = statSync(path);
      if (info.isDirectory()) for (const name of readdirSync(path)) add(join(path, name));
      else stamps.push(`${path} ${info.size} ${info.mtimeMs}`);
    } catch {
      // none: nothing to stamp
    }
  };
  add(join(repo.gitDir, 'logs', 'HEAD'));
  if (repo.commonDir !== repo.gitDir) add(join(repo.commonDir, 'logs', 'HEAD'));
  add(join(repo.commonDir, 'logs', 'refs', 'heads'));
  return stamps.join('\n');
}
