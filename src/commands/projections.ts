import { CortexError } from '../errors.js';
import { mayWriteFiles } from '../workspace/refresh.js';
import { regenerateProjections } from '../workspace/regenerate.js';
import { openJournalAt, printJson, warnProblems, type CommandIO } from './io.js';

export interface ProjectionsArgs {
  write?: boolean;
  briefing?: boolean;
  quiet?: boolean;
  json?: boolean;
  /** From a hook's background job: write only if a hook still may (refresh.ts), asked now. */
  guard?: boolean;
  keepCleanTree?: boolean;
  afterMerge?: boolean;
}

/** Regenerate .cortex/decisions.md, decisions-archive.md and active-plan.md for HEAD (and/or the cached briefing). */
export async function runProjections(args: ProjectionsArgs, io: CommandIO): Promise<number> {
  if (!args.write && !args.briefing) throw new CortexError('USAGE', 'say what to do: --write regenerates .cortex/*.md for the current HEAD, --briefing refreshes the cached briefing');
  const journal = await openJournalAt(io);
  if (!journal.repo.workTree) throw new CortexError('NO_WORK_TREE', 'this repository has no work tree (bare?): there is nowhere to write .cortex/');
  const files = args.write === true && (!args.guard || (await mayWriteFiles(journal.repo, { keepCleanTree: args.keepCleanTree, afterMerge: args.afterMerge })).ok);
  const { written, problems } = await regenerateProjections(journal, { files, briefing: args.briefing });
  if (args.quiet) return 0;
  warnProblems(io, problems);
  if (args.json) printJson(io, { written });
  else if (args.write) io.stdout.write(written.length === 0 ? '.cortex/ is up to date\n' : written.map((p) => `wrote ${p}\n`).join(''));
  return 0;
}
