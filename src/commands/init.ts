import { initJournal } from '../journal/store.js';
import { readAuthor } from '../git/repo.js';
import { openJournalAt, printJson, type CommandIO } from './io.js';

export interface InitArgs {
  json?: boolean;
}

/** Create the journal branch. Safe to run again: it never rewrites what exists. */
export async function runInit(args: InitArgs, io: CommandIO): Promise<number> {
  const journal = await openJournalAt(io, { forWriting: true });
  const created = await initJournal(journal.store, await readAuthor(journal.repo));
  if (args.json) printJson(io, { ref: journal.store.ref, created });
  else io.stdout.write(created ? `Initialized the Cortex journal on ${journal.store.ref}\n` : `Cortex journal already exists on ${journal.store.ref}\n`);
  return 0;
}
