import type { Journal } from '../journal/journal.js';
import { RECALLED_TYPES } from '../search/documents.js';
import { renderRecall, selectRecall } from '../search/recall.js';
import { catchUpInBackground, searchMemory } from '../search/search.js';
import { updateIndex } from '../search/update.js';
import { readSettings } from '../workspace/settings.js';

/**
 * UserPromptSubmit's recall: search memory for the prompt and hand Claude the few memories it
 * bears on. Within a hook's budget: the index catches up inline only on a small append; a
 * missing index or a big catch-up is started in the background and this prompt goes without.
 */
const MAX_QUERY_CHARS = 600;
const INLINE_EVENTS = 500;

export async function recallForPrompt(journal: Journal, prompt: string, session: string): Promise<{ context?: string; summary: string }> {
  const { settings } = await readSettings(journal);
  if (settings.recallBudget === 0) return { summary: 'recall is off (cortex.recallBudget 0)' };
  const within = [...RECALLED_TYPES] as Parameters<typeof searchMemory>[1]['within'];
  const update = { maxInline: INLINE_EVENTS, waitMs: 100 };
  let index = await updateIndex(journal, update);
  if (index.stale && !catchUpInBackground(journal)) {
    index = await updateIndex(journal, { compact: true }); // foreground mode (tests): catch up here
  }
  const outcome = await searchMemory(journal, { query: prompt.slice(0, MAX_QUERY_CHARS), within, limit: 12 }, { index, inHook: true, vectors: false, thesaurus: false, typos: false, feedback: false, neighbours: false });
  const picked = selectRecall(outcome, session);
  const context = renderRecall(picked, settings.recallBudget);
  const note = outcome.stale ? ' (index catching up in the background)' : '';
  return context ? { context, summary: `recalled ${picked.length} memor${picked.length === 1 ? 'y' : 'ies'}${note}` } : { summary: `nothing to recall${note}` };
}
