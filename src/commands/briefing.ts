import { CortexError } from '../errors.js';
import { readBriefing } from '../workspace/briefing.js';
import { readSettings } from '../workspace/settings.js';
import { openJournalAt, printJson, type CommandIO } from './io.js';

export interface BriefingArgs {
  budget?: number;
  all?: boolean;
  json?: boolean;
}

/** The briefing the next session starts from, as the SessionStart hook would give it. */
export async function runBriefing(args: BriefingArgs, io: CommandIO): Promise<number> {
  if (args.budget !== undefined && (!Number.isInteger(args.budget) || args.budget < 1)) throw new CortexError('USAGE', '--budget must be a whole number of tokens, e.g. --budget 2000');
  const journal = await openJournalAt(io);
  const { settings, problems } = await readSettings(journal);
  for (const p of problems) io.stderr.write(`cortex: warning: ${p}\n`);
  const budgetTokens = args.budget ?? settings.budgetTokens;
  const briefing = args.all
    ? await (await import('../workspace/compute-briefing.js')).computeBriefing(journal, { budgetTokens, all: true })
    : (await readBriefing(journal, settings, { budgetTokens })).briefing;
  if (args.json) printJson(io, briefing);
  else io.stdout.write(briefing.markdown);
  return 0;
}
