import { CortexError } from '../errors.js';
import { buildEventFilter } from '../events/filter.js';
import type { CortexEvent } from '../events/types.js';
import { renderLogEntry } from '../format/render-log.js';
import { readNewestFirst } from '../journal/journal.js';
import { openJournalAt, paintFor, printJson, uniteFetchedMemory, warnProblems, type CommandIO } from './io.js';
import { parseCount } from './parse-count.js';

export interface LogArgs {
  /** `base..head` / `base...head`: only memory head has and base does not. */
  range?: string;
  type?: string[];
  since?: string;
  until?: string;
  author?: string;
  session?: string;
  grep?: string;
  n?: number | string;
  oneline?: boolean;
  json?: boolean;
  /** Memories as they stand (the MCP `recent` tool): no forgotten ones, nor the forgetting itself. */
  current?: boolean;
}

/** The journal newest first, like `git log`. */
export async function runLog(args: LogArgs, io: CommandIO): Promise<number> {
  const filter = buildEventFilter({ types: args.type, since: args.since, until: args.until, author: args.author, session: args.session, grep: args.grep }, new Date());
  if (!filter.ok) throw new CortexError('USAGE', filter.error);
  const limit = parseCount('-n', args.n, { min: 0 }) ?? Infinity;

  const journal = await openJournalAt(io);
  let inRange: Set<string> | null = null;
  if (args.range) {
    if (args.range !== 'HEAD') await uniteFetchedMemory(journal, io);
    const { readAll } = await import('../journal/journal.js');
    const { readRange, readVisibleAt } = await import('../workspace/revision.js');
    const all = (await readAll(journal)).events;
    // A range lists what it adds, as `git log main..feature`; one revision, what is in view there, as `git log main`.
    const listed = args.range.includes('..') ? (await readRange(journal.repo, all, args.range)).added : await readVisibleAt(journal.repo, all, args.range);
    inRange = new Set(listed.map((e) => e.id));
    if (args.current) {
      const forgotten = new Set(listed.filter((e) => e.type === 'event_retracted').map((e) => String(e.meta.target ?? '')));
      for (const e of listed) if (e.type === 'event_retracted' || forgotten.has(e.id)) inRange.delete(e.id);
    }
  }
  const { meta, events } = await readNewestFirst(journal);
  warnProblems(io, meta.problems);
  const picked: CortexEvent[] = [];
  const paint = paintFor(io);
  for await (const event of events) {
    if (picked.length >= limit) break;
    if (!filter.test(event) || (inRange && !inRange.has(event.id))) continue;
    picked.push(event);
    if (!args.json) io.stdout.write(`${renderLogEntry(event, paint, { oneline: args.oneline })}\n`);
  }
  if (args.json) printJson(io, picked);
  return 0;
}
