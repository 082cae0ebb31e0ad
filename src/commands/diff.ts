import { diffMemory, renderDiffMarkdown, renderDiffText } from '../projections/decision-diff.js';
import { foldMemory } from '../projections/fold.js';
import { readAll } from '../journal/journal.js';
import { readSettings } from '../workspace/settings.js';
import { readRange } from '../workspace/revision.js';
import { openJournalAt, printJson, uniteFetchedMemory, warnProblems, type CommandIO } from './io.js';

export interface DiffArgs {
  range: string;
  markdown?: boolean;
  json?: boolean;
}

/** `cortex diff base..head`: the decision diff of a pull request. */
export async function runDiff(args: DiffArgs, io: CommandIO): Promise<number> {
  const journal = await openJournalAt(io);
  await uniteFetchedMemory(journal, io);
  const [read, { settings }] = await Promise.all([readAll(journal), readSettings(journal)]);
  warnProblems(io, read.problems);
  const range = await readRange(journal.repo, read.events, args.range);
  const now = new Date();
  const diff = diffMemory(foldMemory(range.baseVisible, settings, now), foldMemory(range.headVisible, settings, now), range);
  if (args.json) printJson(io, { range: args.range, base: range.base, head: range.head, ...diff });
  else io.stdout.write(args.markdown ? renderDiffMarkdown(diff, args.range) : renderDiffText(diff, args.range));
  return 0;
}
