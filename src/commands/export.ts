import { serializeEvent } from '../events/serialize.js';
import { readAll } from '../journal/journal.js';
import { openJournalAt, warnProblems, type CommandIO } from './io.js';

/** The whole journal as JSONL, oldest first, exactly as `cortex import` takes it back. */
export async function runExport(_args: object, io: CommandIO): Promise<number> {
  const journal = await openJournalAt(io);
  const { events, problems } = await readAll(journal);
  warnProblems(io, problems);
  const chunk: string[] = [];
  for (const event of events) {
    chunk.push(serializeEvent(event));
    if (chunk.length === 1000) {
      io.stdout.write(`${chunk.join('\n')}\n`);
      chunk.length = 0;
    }
  }
  if (chunk.length > 0) io.stdout.write(`${chunk.join('\n')}\n`);
  return 0;
}
