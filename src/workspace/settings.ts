import { readGitConfig } from '../git/repo.js';
import type { Journal } from '../journal/journal.js';
import { parseSettings, type ProjectionSettings } from '../projections/settings.js';

/** `git config cortex.*` as settings (cached with the rest of the config Cortex reads). */
export async function readSettings(journal: Pick<Journal, 'repo'>): Promise<{ settings: ProjectionSettings; problems: string[] }> {
  return parseSettings(await readGitConfig(journal.repo));
}
