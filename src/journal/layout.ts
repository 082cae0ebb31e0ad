/**
 * Where events live on the journal branch. One writer (one session on one clone) appends to its
 * own shard, `events/<YYYY-MM>/<session>__<clone>.jsonl`, so an append rewrites one small blob
 * whatever the journal's size, and two clones never edit the same file (their journals merge
 * without conflicts). A shard that grows past MAX_SHARD_BYTES rolls over to `…__2.jsonl`.
 */
export const DEFAULT_JOURNAL_REF = 'refs/heads/cortex/journal';
export const EVENTS_DIR = 'events';
export const MAX_SHARD_BYTES = 512 * 1024;

/** Files the journal branch may hold besides shards; anything else is reported as foreign. */
export const JOURNAL_FILES = new Set(['README.md', '.gitattributes', EVENTS_DIR]);

export function monthDir(ts: string): string {
  return ts.slice(0, 7);
}

export function sanitizeName(name: string): string {
  const clean = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+/, '').slice(0, 80);
  return clean || 'session';
}

export function shardBase(session: string, cloneId: string): string {
  return `${sanitizeName(session)}__${cloneId}`;
}

export function shardFileName(base: string, part: number): string {
  return part <= 1 ? `${base}.jsonl` : `${base}__${part}.jsonl`;
}

/** The highest part of `base` among a month folder's file names (0 when none exists). */
export function latestPart(names: Iterable<string>, base: string): number {
  let latest = 0;
  for (const name of names) {
    if (name === `${base}.jsonl`) latest = Math.max(latest, 1);
    else if (name.startsWith(`${base}__`) && name.endsWith('.jsonl')) {
      const part = Number(name.slice(base.length + 2, -'.jsonl'.length));
      if (Number.isInteger(part)) latest = Math.max(latest, part);
    }
  }
  return latest;
}

export const isShardPath = (path: string): boolean => /^events\/\d{4}-\d{2}\/[^/]+\.jsonl$/.test(path);
