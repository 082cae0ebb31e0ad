import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Journal } from '../journal/journal.js';
import { keepEntriesNotInJournal } from '../projections/merge-files.js';
import { PROJECTION_FILES, renderArchiveFile, renderDecisionsFile, renderPlanFile } from '../projections/render-files.js';
import { writeIfChanged } from '../write-if-changed.js';
import type { Memory } from './memory.js';

/**
 * Regenerate the tracked files in the work tree, writing only those whose bytes changed (so
 * git sees no churn and editors no reloads). Returns the repository-relative paths written.
 */
export async function writeProjections(journal: Journal, memory: Memory): Promise<string[]> {
  const root = journal.repo.workTree;
  if (!root) return [];
  // A decision file keeps the entries the journal has not seen yet (merge-files.ts).
  const keeping = async (path: string, rendered: string) => keepEntriesNotInJournal(rendered, await readFile(join(root, path), 'utf8').catch(() => ''), memory.knows);
  const files: Array<[string, string]> = [
    [PROJECTION_FILES.decisions, await keeping(PROJECTION_FILES.decisions, renderDecisionsFile(memory.state))],
    [PROJECTION_FILES.archive, await keeping(PROJECTION_FILES.archive, renderArchiveFile(memory.state))],
    [PROJECTION_FILES.plan, renderPlanFile(memory.state)],
  ];
  const written: string[] = [];
  for (const [path, content] of files) if (await writeIfChanged(join(root, path), content)) written.push(path);
  return written;
}
