import { termOf } from './analyze.js';
import type { SearchHit, SearchOutcome } from './search.js';

/**
 * Anticipatory recall: of what a search for the prompt found, what is worth putting in front of
 * Claude before it answers. Most prompts should get nothing. A memory is offered only when it
 * shares a *specific* word with the prompt (one that few memories have), and, when the prompt
 * says several meaningful things, at least two of them. Rejected approaches come first: the
 * costliest thing to forget is a road already found to be a dead end.
 */
export const RECALL_MAX_ITEMS = 5;

/** Words of requests that say what to do, not what about: never enough to recall a memory on. */
const REQUEST_WORDS = new Set(
  (
    'add ask build call change check clean code continue create do does done edit fix function go help implement improve instead issue ' +
    'just keep let like look make maybe need new next now please refactor remove run see set should show start step still sure take ' +
    'test thing think tidy try update use want way work write file line method class'
  )
    .split(' ')
    .map((w) => termOf(w) ?? w),
);

/** A concept is specific when few of the memories it could recall hold it. */
const isSpecific = (docs: number, indexed: number): boolean => docs > 0 && docs <= Math.max(5, indexed * 0.02);

/** `session`: the prompt's own session, whose memories Claude already has in context. */
export function selectRecall(outcome: Pick<SearchOutcome, 'hits' | 'plan' | 'conceptDocs' | 'indexed'>, session?: string): SearchHit[] {
  const meaningful = outcome.plan.concepts.map((c) => !c.split(' ').every((t) => REQUEST_WORDS.has(t)));
  const wanted = Math.min(2, meaningful.filter(Boolean).length);
  if (wanted === 0) return [];
  const specific = outcome.conceptDocs.map((docs, k) => meaningful[k] === true && isSpecific(docs, outcome.indexed));
  const relevant = outcome.hits.filter((hit) => {
    if (session !== undefined && hit.session === session) return false;
    const matched = hit.concepts.filter((k) => meaningful[k]);
    return matched.some((k) => specific[k]) && matched.length >= wanted;
  });
  const order = (h: SearchHit) => (h.type === 'approach_rejected' ? 0 : h.type === 'decision_made' ? 1 : 2);
  return relevant.sort((a, b) => order(a) - order(b) || b.score - a.score).slice(0, RECALL_MAX_ITEMS);
}

const LEAD: Record<string, string> = {
  approach_rejected: 'Previously rejected',
  decision_made: 'Decided',
  knowledge_acquired: 'Learned',
  error_resolved: 'Fixed before',
  preference_noted: 'Preference',
  plan_created: 'Plan',
  event_amended: 'Noted (amended)',
};

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/** One line per memory, whole lines only, within `budget` characters; '' when nothing fits. */
export function renderRecall(hits: readonly SearchHit[], budget: number): string {
  const header = 'Cortex memory that bears on this prompt (from earlier sessions):\n';
  let out = header;
  for (const hit of hits) {
    const reason = hit.reason && !hit.content.includes(hit.reason) ? ` — because ${clip(hit.reason, 200)}` : '';
    const instead = hit.alternative && !hit.content.includes(hit.alternative) ? ` (chosen instead: ${clip(hit.alternative, 100)})` : '';
    const line = `- ${LEAD[hit.type] ?? 'Noted'}: ${clip(hit.content, 300)}${reason}${instead} [${hit.ts.slice(0, 10)}, ${hit.id.slice(0, 10)}]\n`;
    if (out.length + line.length > budget) break;
    out += line;
  }
  return out === header ? '' : out;
}
