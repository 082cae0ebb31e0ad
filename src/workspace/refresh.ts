import { startInBackground } from '../background.js';
import { cortexDir } from '../git/repo.js';
import type { Journal } from '../journal/journal.js';
import type { RegenerateOptions } from './regenerate.js';

/*
 * Kept apart from regenerate.ts: hooks load this on every stop that captured a decision, and
 * the regeneration itself (remark, gray-matter, the fold) loads only when it runs in process.
 */
/** What a hook does after memory or HEAD changed: regenerate in the background, or here. */
export async function refreshProjections(journal: Journal, options: RegenerateOptions): Promise<string> {
  const root = journal.repo.workTree;
  if (!root) return 'no work tree';
  const what = [options.files ? '.cortex/' : '', options.briefing ? 'the briefing' : ''].filter(Boolean).join(' and ');
  if (startInBackground(['projections', ...(options.files ? ['--write'] : []), ...(options.briefing ? ['--briefing'] : []), '--quiet'], { cwd: root, cortexDir: cortexDir(journal.repo) })) {
    return `regenerating ${what} in the background`;
  }
  const { regenerateProjections } = await import('./regenerate.js');
  const { written } = await regenerateProjections(journal, options);
  return written.length > 0 ? `rewrote ${written.join(', ')}` : `${what} up to date`;
}
