import type { Journal } from '../journal/journal.js';
import { byLastUse } from '../projections/fold.js';
import { realityChecks } from '../projections/reality.js';
import { renderBriefing, type Briefing } from '../projections/render-briefing.js';
import { readTemplate } from '../templates.js';
import { readMemory, type Memory } from './memory.js';
import { readRepoFacts } from './repo-facts.js';

/** How many of the likeliest-shown items have their files checked against the work tree. */
const CHECKED_ITEMS = 100;

export async function computeBriefing(journal: Journal, options: { budgetTokens: number; maxChars?: number; all?: boolean }, memory?: Memory): Promise<Briefing> {
  const m = memory ?? (await readMemory(journal, { all: options.all }));
  const { state } = m;
  const candidates = [...state.decisions, ...state.rejections, ...state.preferences]
    .filter((i) => i.tier === 'active')
    .sort(byLastUse)
    .slice(0, CHECKED_ITEMS)
    .concat(state.recent.slice(0, CHECKED_ITEMS / 2));
  const [facts, template] = await Promise.all([readRepoFacts(journal.repo, m.head, state, candidates, m.me), readTemplate('briefing.md')]);
  const warnings = realityChecks(state, facts, candidates);
  return renderBriefing({ state, warnings, me: m.me, template, budgetTokens: options.budgetTokens, maxChars: options.maxChars });
}
