import type { Journal } from '../journal/journal.js';
import { readMemory } from './memory.js';
import { writeProjections } from './write-projections.js';

/** Bring .cortex/*.md up to date with memory on HEAD; returns the paths rewritten. */
export async function regenerateProjections(journal: Journal): Promise<string[]> {
  if (!journal.repo.workTree) return [];
  return writeProjections(journal, await readMemory(journal));
}
