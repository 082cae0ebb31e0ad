import { join } from 'node:path';
import { CortexError } from '../errors.js';
import { cortexDir } from '../git/repo.js';
import type { Journal } from '../journal/journal.js';
import type { LineProblem } from '../journal/parse-shard.js';
import { acquireLockFile } from '../lock-file.js';
import { writeIfChanged } from '../write-if-changed.js';
import { readMemory } from './memory.js';
import { writeProjections } from './write-projections.js';

export interface RegenerateOptions {
  files?: boolean;
  briefing?: boolean;
}

/**
 * Bring .cortex/*.md up to date with memory on HEAD (`files`), and/or the cached briefing and its
 * inspection copy (`briefing`). One writer at a time: the later one waits, then reads the newer
 * journal, which beats racing. Returns the paths rewritten.
 */
export async function regenerateProjections(journal: Journal, options: RegenerateOptions = { files: true }): Promise<{ written: string[]; problems: LineProblem[] }> {
  if (!journal.repo.workTree) return { written: [], problems: [] };
  const release = await acquireLockFile(join(cortexDir(journal.repo), 'projections.lock'), { staleMs: 60_000, waitMs: 30_000 });
  if (!release) throw new CortexError('APPEND_CONTENDED', 'another `cortex projections --write` has held its lock for 30 s; try again (or delete .git/cortex/projections.lock if no cortex is running)');
  try {
    const memory = await readMemory(journal);
    const written = options.files ? await writeProjections(journal, memory) : [];
    if (options.briefing) {
      const { HOOK_MAX_CHARS, readBriefing } = await import('./briefing.js');
      const { briefing } = await readBriefing(journal, memory.settings, { maxChars: HOOK_MAX_CHARS });
      await writeIfChanged(join(cortexDir(journal.repo), 'briefing.md'), briefing.markdown);
    }
    return { written, problems: memory.problems };
  } finally {
    await release();
  }
}
