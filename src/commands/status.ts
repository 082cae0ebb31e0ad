import { inspectCache, isInMemory, refreshCache } from '../journal/cache.js';
import { openJournalAt, paintFor, printJson, type CommandIO } from './io.js';

export interface StatusArgs {
  json?: boolean;
}

/** Where the journal is, how big, and whether the read cache is current. */
export async function runStatus(args: StatusArgs, io: CommandIO): Promise<number> {
  const journal = await openJournalAt(io);
  const before = await inspectCache(journal.store, journal.cacheDir);
  const meta = await refreshCache(journal.store, journal.cacheDir);
  const status = {
    repository: journal.repo.workTree ?? journal.repo.commonDir,
    ref: journal.store.ref,
    tip: meta.tip,
    initialized: meta.tip !== null,
    events: meta.total,
    byType: Object.fromEntries(Object.entries(meta.counts).sort(([, a], [, b]) => b - a)),
    shards: Object.keys(meta.shards).length,
    clone: journal.store.cloneId,
    cache: { state: before.state, path: journal.cacheDir.path, inMemory: isInMemory(meta) },
    problems: meta.problems,
  };
  if (args.json) {
    printJson(io, status);
    return 0;
  }
  const paint = paintFor(io);
  const lines = [
    `${paint.bold('journal')}  ${status.ref} ${status.tip ? paint.yellow(status.tip.slice(0, 12)) : paint.dim('(not created yet: run cortex init)')}`,
    `${paint.bold('events')}   ${status.events} in ${status.shards} shard${status.shards === 1 ? '' : 's'}`,
    ...Object.entries(status.byType).map(([type, n]) => `  ${String(n).padStart(7)}  ${type}`),
    `${paint.bold('cache')}    ${status.cache.state === 'fresh' ? 'fresh' : `${status.cache.state}, ${status.cache.inMemory ? 'read into memory (it cannot be written)' : 'rebuilt now'}`} (${status.cache.path})`,
  ];
  if (status.problems.length > 0) {
    lines.push(paint.red(`${status.problems.length} problem${status.problems.length === 1 ? '' : 's'} on the journal branch (skipped when reading):`));
    for (const p of status.problems.slice(0, 20)) lines.push(`  ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`);
  }
  io.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}
