import { readAuthor } from '../git/repo.js';
import { readSince } from '../journal/journal.js';
import { readTip } from '../journal/tip.js';
import { syncJournal } from '../journal/sync.js';
import { openJournalAt, printJson, type CommandIO } from './io.js';

export interface SyncArgs {
  remote?: string;
  /** false: fetch and unite only. */
  push?: boolean;
  quiet?: boolean;
  json?: boolean;
}

/** `cortex sync [<remote>]`: fetch, unite and push the journal through an existing remote. */
export async function runSync(args: SyncArgs, io: CommandIO): Promise<number> {
  const journal = await openJournalAt(io, { forWriting: true });
  const remote = args.remote ?? 'origin';
  const result = await syncJournal(journal.repo, journal.store, remote, await readAuthor(journal.repo), { push: args.push !== false });
  if (args.quiet) return 0;
  // Counted from the journal itself: what the sync added to ours, and what ours had that theirs lacked.
  const added = async (since: string | null) => (await readSince(journal, since)).events.length;
  const received = result.after && result.after !== result.before ? await added(result.before) : 0;
  const sent = result.pushed ? await added(result.remoteBefore) : 0;
  if (args.json) printJson(io, { ...result, received, sent, tip: await readTip(journal.store) });
  else io.stdout.write(`${remote}: received ${received} event${received === 1 ? '' : 's'}, sent ${sent}${result.merged ? ' (merged both histories)' : ''}${result.pushed ? '' : args.push === false ? '' : '; nothing to push'}\n`);
  return 0;
}
