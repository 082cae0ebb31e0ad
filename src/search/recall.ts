import { analyze, termOf } from './analyze.js';
import type { SearchHit, SearchOutcome } from './search.js';

/**
 * Anticipatory recall: of what a search for the prompt found, what is worth putting in front of
 * Claude before it answers. Most prompts should get nothing. A memory is offered only when it
 * shares a *specific* word with the prompt (one that few memories have), and, when the prompt
 * says several meaningful things, at least two of them; one is enough when that word is what the
 * memory rules out: what a preference says never to use ("Always use pnpm, never npm") or the
 * approach a rejection turned down ("Ruled out Kafka for the order events: …"), since the prompt
 * is about to go against it, in whatever sentence it names it ("let's bring Kafka back"). Rejected
 * approaches come first: the costliest thing to forget is a road already found to be a dead end. Plans are not offered: a plan_created is the plan as first written, every step
 * open, finished since or not; the plan in progress, with where it stands, is in the briefing, and
 * folding the journal to tell the two apart costs more than a prompt can wait. Nor are they
 * searched (RECALLED_TYPES): a word's rarity is counted over what the search found, and a todo
 * list is written again in every session that works on it, so its topic, the one that matters
 * most, would be "common" and go quiet.
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
  const { plan } = outcome;
  const meaningful = plan.concepts.map((c) => !c.split(' ').every((t) => REQUEST_WORDS.has(t)));
  // What the prompt is about: "why did we pick pg_cron?" is about pg_cron; "pick" says it wants a
  // decision (the search favours decisions for it) and is not a second thing a memory must share.
  // A prompt whose only meaningful words are such words is taken by them.
  const about = meaningful.map((m, k) => m && plan.intentOnly[k] !== true);
  const topic = about.some(Boolean) ? about : meaningful;
  const wanted = Math.min(2, topic.filter(Boolean).length);
  if (wanted === 0) return [];
  const specific = outcome.conceptDocs.map((docs, k) => topic[k] === true && isSpecific(docs, outcome.indexed));
  const termsOf = plan.concepts.map((_, k) => plan.terms.filter((t) => t.concept === k).map((t) => t.term));
  const relevant = outcome.hits.filter((hit) => {
    // A decision since replaced, or a rejection since reconsidered, is not what to remember now.
    if (hit.type === 'plan_created' || hit.superseded === true || (session !== undefined && hit.session === session)) return false;
    // A memory shares a word by the word or what it means (its equivalents, the things it covers),
    // not by a word that starts like it or is a letter off: search ranks those, but "Can we drop
    // Redis?" is not about the OAuth "redirects" a decision handles.
    const matched = hit.concepts.filter((k) => meaningful[k] && termsOf[k]?.some((t) => hit.matched.includes(t)));
    if (!matched.some((k) => specific[k])) return false;
    if (matched.length >= wanted) return true;
    // One specific word is enough when it is what the memory rules out.
    const ruledOut = ruledOutBy(hit);
    return matched.some((k) => specific[k] && termsOf[k]?.some((t) => ruledOut.has(t) && hit.matched.includes(t)));
  });
  const order = (h: SearchHit) => (h.type === 'approach_rejected' ? 0 : h.type === 'decision_made' ? 1 : 2);
  return relevant.sort((a, b) => order(a) - order(b) || b.score - a.score).slice(0, RECALL_MAX_ITEMS);
}

/**
 * What a preference rules out: the few words after "never", "not", "avoid", "rather than",
 * "over", "instead of"…, up to the end of the clause ("Always use pnpm, *never npm*, in this
 * repo"; "prefer pnpm *over npm*"). A decision's "rather than X" is not taken so: it was chosen
 * for one use, and a prompt that names X for another ("cache the user list in Redis") is not
 * going against it.
 */
const RULED_OUT = /\b(?:never|not|no|don['’]?t|do not|avoid|avoiding|instead of|rather than|over|without|stop using)\s+([^.,;:!?()[\]—–]+)/giu;
const CLAUSE_END = /\s(?:in|for|on|at|when|since|because|as|so|but|while|unless|if|which|where|and then)\s.*$/iu;
const MAX_RULED_OUT_WORDS = 4;

/**
 * What a rejection turned down: the first words of what it says before its reason, without those
 * that say it was turned down and what is said of it ("Ruled out *Kafka* for the order events: the
 * ops burden…", "*Terraform Cloud* won't work here because…", "I considered *Redis* for the
 * session store, but…", "We could *cache the whole catalog* in memory, but…"). Its reason and
 * what was chosen instead are not what it rules out: a prompt about "the ops burden" or "a team
 * of three" is not about to try Kafka again.
 */
const REASON_START = /[:;!?()[\]{}—–,]|\.(?=\s|$)|\s-\s|\s(?:because|since|as|but|though|although|however|so|given|due to|which|until|unless|when|while|if|and then)\s/iu;
const SAID_OF_IT =
  /\s(?:is|are|was|were|isn't|aren't|wasn't|weren't|won't|will|would|wouldn't|can't|cannot|could|couldn't|does|doesn't|did|didn't|has|hasn't|had|hadn't|might|may|must|should|shouldn't|adds|added|needs|needed|caused|broke|failed|turned out)\s.*$/iu;
const TURNED_DOWN_WORDS = new Set(
  (
    "i we i've we've i'd we'd i'm we're am are have had already also first initially briefly could would might should do don't " +
    'never not no ruled rule out rejected reject decided decide against discarded dismissed scrapped ditched dropped dropping ' +
    'gave giving up on passed steer steered steering clear of opted chose to use using moving moved away from backed reverted ' +
    'rolled back undid considered consider looked at into evaluated thought about experimented with tried trying was tempted ' +
    'skipping skip avoiding avoid going go adding add switching migrating introducing a an the'
  ).split(' '),
);

export function turnedDown(content: string): string {
  const said = content.replace(/’/g, "'").split(REASON_START)[0] ?? '';
  const words = said.trim().split(/\s+/);
  let start = 0;
  while (start < words.length && TURNED_DOWN_WORDS.has((words[start] as string).toLowerCase())) start++;
  return ` ${words.slice(start).join(' ')} `.replace(SAID_OF_IT, ' ').replace(CLAUSE_END, ' ').trim();
}

/** The terms a memory rules out: what a preference says not to use, the approach a rejection turned down. */
function ruledOutBy(hit: SearchHit): ReadonlySet<string> {
  const clauses =
    hit.type === 'preference_noted'
      ? [...hit.content.matchAll(RULED_OUT)].map((m) => ` ${m[1] ?? ''}`.replace(CLAUSE_END, '').trim())
      : hit.type === 'approach_rejected'
        ? [turnedDown(hit.content)]
        : [];
  return new Set(clauses.flatMap((clause) => analyze(clause.split(/\s+/).slice(0, MAX_RULED_OUT_WORDS).join(' '))));
}

const LEAD: Record<string, string> = {
  approach_rejected: 'Previously rejected',
  decision_made: 'Decided',
  knowledge_acquired: 'Learned',
  error_resolved: 'Fixed before',
  preference_noted: 'Preference',
  event_amended: 'Noted (amended)',
};

const clip = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

/**
 * An id as `cortex log --oneline` prints it: its last 8 characters, the random part. Its front is
 * the time it was captured, shared by every memory of one message, so it names none of them;
 * forget and --supersedes take either end.
 */
const SHOWN_ID_CHARS = 8;

/** One line per memory, whole lines only, within `budget` characters; '' when nothing fits. */
export function renderRecall(hits: readonly SearchHit[], budget: number): string {
  const header = 'Cortex memory that bears on this prompt (from earlier sessions):\n';
  let out = header;
  for (const hit of hits) {
    const reason = hit.reason && !hit.content.includes(hit.reason) ? ` — because ${clip(hit.reason, 200)}` : '';
    const instead = hit.alternative && !hit.content.includes(hit.alternative) ? ` (chosen instead: ${clip(hit.alternative, 100)})` : '';
    const line = `- ${LEAD[hit.type] ?? 'Noted'}: ${clip(hit.content, 300)}${reason}${instead} [${hit.ts.slice(0, 10)}, ${hit.id.slice(-SHOWN_ID_CHARS)}]\n`;
    if (out.length + line.length > budget) break;
    out += line;
  }
  return out === header ? '' : out;
}
