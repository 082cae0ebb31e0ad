import { MIN_BUDGET_TOKENS } from '../projections/settings.js';
import { readBriefing } from '../workspace/briefing.js';
import { readSettings } from '../workspace/settings.js';
import { openJournalAt, printJson, type CommandIO } from './io.js';
import { parseCount } from './parse-count.js';

export interface BriefingArgs {
  budget?: number | string;
  all?: boolean;
  json?: boolean;
}

/** The briefing the next session starts from, as the SessionStart hook would give it. */
export async function runBriefing(args: BriefingArgs, io: CommandIO): Promise<number> {
  const budget = parseCount('--budget', args.budget, { min: MIN_BUDGET_TOKENS, unit: 'tokens', why: "the briefing's preamble and its line counting what did not fit" });
  const journal = await openJournalAt(io);
  const { settings, problems } = await readSettings(journal);
  for (const p of problems) io.stderr.write(`cortex: warning: ${p}\n`);
  const budgetTokens = budget ?? settings.budgetTokens;
  const briefing = args.all
    ? await (await import('../workspace/compute-briefing.js')).computeBriefing(journal, { budgetTokens, all: true })
    : (await readBriefing(journal, settings, { budgetTokens })).briefing;
  if (args.json) printJson(io, briefing);
  else io.stdout.write(briefing.markdown);
  return 0;
}
