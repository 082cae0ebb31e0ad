import { join } from 'node:path';
import { CortexError } from '../errors.js';
import { cortexDir } from '../git/repo.js';
import { acquireLockFile } from '../lock-file.js';
import { writeIfChanged } from '../write-if-changed.js';
import { readMemory } from '../workspace/memory.js';
import { writeProjections } from '../workspace/write-projections.js';
import { openJournalAt, printJson, warnProblems, type CommandIO } from './io.js';

export interface ProjectionsArgs {
  write?: boolean;
  briefing?: boolean;
  quiet?: boolean;
  json?: boolean;
}

/** Regenerate .cortex/decisions.md, decisions-archive.md and active-plan.md for HEAD. */
export async function runProjections(args: ProjectionsArgs, io: CommandIO): Promise<number> {
  if (!args.write) throw new CortexError('USAGE', 'say what to do: cortex projections --write regenerates .cortex/*.md for the current HEAD');
  const journal = await openJournalAt(io);
  if (!journal.repo.workTree) throw new CortexError('NO_WORK_TREE', 'this repository has no work tree (bare?): there is nowhere to write .cortex/');
  // One writer at a time, and the later one reads the newer journal: waiting beats racing.
  const release = await acquireLockFile(join(cortexDir(journal.repo), 'projections.lock'), { staleMs: 60_000, waitMs: 30_000 });
  if (!release) throw new CortexError('APPEND_CONTENDED', 'another `cortex projections --write` has held its lock for 30 s; try again (or delete .git/cortex/projections.lock if no cortex is running)');
  let written: string[];
  try {
    const memory = await readMemory(journal);
    if (!args.quiet) warnProblems(io, memory.problems);
    written = await writeProjections(journal, memory);
    if (args.briefing) {
      // Warm the SessionStart cache for this HEAD, and refresh the inspection copy.
      const { HOOK_MAX_CHARS, readBriefing } = await import('../workspace/briefing.js');
      const { briefing } = await readBriefing(journal, memory.settings, { maxChars: HOOK_MAX_CHARS });
      await writeIfChanged(join(cortexDir(journal.repo), 'briefing.md'), briefing.markdown);
    }
  } finally {
    await release();
  }
  if (args.quiet) return 0;
  if (args.json) printJson(io, { written });
  else io.stdout.write(written.length === 0 ? '.cortex/ is up to date\n' : written.map((p) => `wrote ${p}\n`).join(''));
  return 0;
}
