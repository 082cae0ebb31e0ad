import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Journal } from '../journal/journal.js';
import { keepEntriesNotInJournal } from '../projections/merge-files.js';
import { PROJECTION_FILES, renderArchiveFile, renderDecisionsFile, renderPlanFile } from '../projections/render-files.js';
import { writeIfChanged } from '../write-if-changed.js';
import { readMemory, type Memory } from './memory.js';

/**
 * Regenerate the tracked files in the work tree, writing only those whose bytes changed (so
 * git sees no churn and editors no reloads). Returns the repository-relative paths written.
 */
export async function writeProjections(journal: Journal, memory: Memory): Promise<string[]> {
  const root = journal.repo.workTree;
  if (!root) return [];
  const written: string[] = [];
  for (const [path, content] of await renderProjections(journal, memory)) if (await writeIfChanged(join(root, path), content)) written.push(path);
  return written;
}

/**
 * The tracked files this work tree lacks, written as memory on HEAD stands (on a new journal:
 * every section's anchors and no entry), for `cortex init`. Committed with the setup, they are
 * the base the first decisions of parallel branches are inserted into: without it each branch
 * adds the whole file, and git sees an add/add conflict that no anchor and no merge driver can
 * help (a forge's merge button, an octopus merge). Files that exist are left as they are.
 */
export async function writeMissingProjections(journal: Journal): Promise<Array<{ path: string; content: string }>> {
  const root = journal.repo.workTree;
  if (!root) return [];
  const missing: string[] = (await Promise.all(Object.values(PROJECTION_FILES).map((path) => stat(join(root, path)).then(() => null, () => path)))).filter((path) => path !== null);
  if (missing.length === 0) return [];
  const rendered = (await renderProjections(journal, await readMemory(journal))).filter(([path]) => missing.includes(path));
  for (const [path, content] of rendered) await writeIfChanged(join(root, path), content);
  return rendered.map(([path, content]) => ({ path, content }));
}

async function renderProjections(journal: Journal, memory: Memory): Promise<Array<[string, string]>> {
  const root = journal.repo.workTree as string;
  // A decision file keeps the entries the journal has not seen yet (merge-files.ts).
  const keeping = async (path: string, rendered: string) => keepEntriesNotInJournal(rendered, await readFile(join(root, path), 'utf8').catch(() => ''), memory.knows);
  return [
    [PROJECTION_FILES.decisions, await keeping(PROJECTION_FILES.decisions, renderDecisionsFile(memory.state))],
    [PROJECTION_FILES.archive, await keeping(PROJECTION_FILES.archive, renderArchiveFile(memory.state))],
    [PROJECTION_FILES.plan, renderPlanFile(memory.state)],
  ];
}
