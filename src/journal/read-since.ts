import { dedupeById } from './dedupe.js';
import type { CortexEvent } from '../events/types.js';
import { idAtLine, parseShard, splitLines, type LineProblem } from './parse-shard.js';
import { sanitizeName } from './layout.js';
import { listShards, readBlobText, type Shard } from './store.js';
import { readTip, type JournalStore } from './tip.js';

/**
 * What changed between two journal tips. Shards only grow, so a changed shard's new events are
 * its lines past the old line count; a shard that was rewritten (a purge) is detected by the id
 * on its old last line, and then we fall back to comparing ids.
 */
export interface ShardState {
  oid: string;
  lines: number;
  lastId: string | null;
}

export interface ShardDelta {
  states: Record<string, ShardState>;
  added: CortexEvent[];
  problems: LineProblem[];
}

/** New events in `shards` relative to `known`, or null when some shard did not simply grow. */
export async function readAdded(store: JournalStore, known: Record<string, ShardState>, shards: readonly Shard[]): Promise<ShardDelta | null> {
  const states: Record<string, ShardState> = {};
  const added: CortexEvent[] = [];
  const problems: LineProblem[] = [];
  const present = new Set(shards.map((s) => s.path));
  if (Object.keys(known).some((path) => !present.has(path))) return null;
  for (const shard of shards) {
    const old = known[shard.path];
    if (old && old.oid === shard.oid) {
      states[shard.path] = old;
      continue;
    }
    const text = await readBlobText(store, shard.oid);
    if (old && (old.lastId === null || idAtLine(text, old.lines) !== old.lastId)) return null;
    const from = old ? old.lines : 0;
    const parsed = parseShard(shard.path, text, from);
    added.push(...parsed.events);
    problems.push(...parsed.problems);
    states[shard.path] = { oid: shard.oid, lines: parsed.lines, lastId: parsed.lines > from ? parsed.lastId : (old?.lastId ?? null) };
  }
  return { states, added: dedupeById(added), problems };
}

async function readShardStates(store: JournalStore, shards: readonly Shard[], only: ReadonlySet<string>): Promise<Record<string, ShardState>> {
  const states: Record<string, ShardState> = {};
  for (const shard of shards) {
    if (!only.has(shard.path)) {
      states[shard.path] = { oid: shard.oid, lines: 0, lastId: null };
      continue;
    }
    const text = await readBlobText(store, shard.oid);
    const lines = splitLines(text).length;
    states[shard.path] = { oid: shard.oid, lines, lastId: idAtLine(text, lines) };
  }
  return states;
}

async function readEverything(store: JournalStore, tip: string): Promise<CortexEvent[]> {
  const { shards } = await listShards(store, tip);
  const events: CortexEvent[] = [];
  for (const shard of shards) events.push(...parseShard(shard.path, await readBlobText(store, shard.oid)).events);
  return events;
}

export async function readAddedSince(store: JournalStore, knownTip: string | null): Promise<{ tip: string | null; events: CortexEvent[]; problems: LineProblem[] }> {
  const tip = await readTip(store);
  if (tip === null || tip === knownTip) return { tip, events: [], problems: [] };
  const current = await listShards(store, tip);
  if (knownTip === null) {
    const delta = await readAdded(store, {}, current.shards);
    return { tip, events: delta?.added ?? [], problems: delta?.problems ?? [] };
  }
  const before = (await listShards(store, knownTip)).shards;
  const currentOids = new Map(current.shards.map((s) => [s.path, s.oid]));
  const changed = new Set(before.filter((s) => currentOids.get(s.path) !== s.oid).map((s) => s.path));
  const delta = await readAdded(store, await readShardStates(store, before, changed), current.shards);
  if (delta) return { tip, events: delta.added, problems: delta.problems };
  const known = new Set((await readEverything(store, knownTip)).map((e) => e.id));
  return { tip, events: dedupeById((await readEverything(store, tip)).filter((e) => !known.has(e.id))), problems: [] };
}

/**
 * What one session stored, from any clone: only its own shards are read (`<session>__<clone>`),
 * so this costs a tree listing, not the journal. For capture that lost its cursor.
 */
export async function readSessionEvents(store: JournalStore, session: string): Promise<CortexEvent[]> {
  const tip = await readTip(store);
  if (!tip) return [];
  const prefix = `${sanitizeName(session)}__`;
  const events: CortexEvent[] = [];
  for (const shard of (await listShards(store, tip)).shards) {
    if (shard.path.slice(shard.path.lastIndexOf('/') + 1).startsWith(prefix)) events.push(...parseShard(shard.path, await readBlobText(store, shard.oid)).events);
  }
  return events;
}
