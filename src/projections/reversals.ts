import { stemmer } from 'stemmer';

/**
 * Reversals the journal implies but no event names: a later decision that undoes an earlier one
 * ("Switched from JWT to server-side sessions" after "Going with JWT access tokens rather than
 * server-side sessions") retires it, and a later decision that chooses what a rejection turned
 * down ("Going with Passport.js after all" after "Ruled out Passport.js: …") lifts that rejection.
 * Derived while folding, from the text alone, so memory captured before this existed is read the
 * same way. Pure and deterministic.
 *
 * Precision comes first: a live decision wrongly retired is worse than a reversal missed. So a
 * decision retires another only when what it replaces is what the other chose, and either the
 * two traded places (each chose what the other turned down) or its wording says it replaces or
 * goes back ("switched from", "replacing", "no longer", "after all", "reverting to") and no other
 * decision in force fits as well. Either way both must be about the same thing: what a decision
 * is for ("Redis for caching", "switched caching from…") has to appear in the other, so "Use
 * Redis for caching rather than Postgres" leaves "Use Postgres rather than MySQL" alone. Within
 * one assistant session only explicit wording counts, a heuristic reading (Layer 2) never
 * overturns a memory stated outright (a tag, `cortex remember`), and whatever is said again later
 * is in force again.
 */

/** What a decision or rejection says, as sets of word stems. */
export interface Stance {
  /** A decision's choice; a rejection's rejected approach. */
  chose: ReadonlySet<string>;
  /** What a decision was chosen over (or replaces). */
  over: ReadonlySet<string>;
  /** Every word of the statement, its reason left out. */
  said: ReadonlySet<string>;
  /** What it is for: "for the job queue", "switched caching from…". */
  scope: ReadonlySet<string>;
  /** Says it replaces what came before: "switched from", "replacing", "no longer", "instead of … now". */
  replaces: boolean;
  /** Says it goes back to something: "after all", "back to", "reverting to". */
  returns: boolean;
  /** Its choice is a negation ("stop using X", "no X"), so it chooses none of its words. */
  negated: boolean;
}

export interface StanceSource {
  type: string;
  content: string;
  reason?: string;
  /** What capture recorded a decision was chosen over (`meta.rejected`). */
  rejected?: string;
}

export interface Statement {
  id: string;
  type: string;
  session: string;
  /** Captured by a heuristic (Layer 2) rather than stated outright. */
  inferred: boolean;
  stance: Stance;
}

export type Retirement = { retired: string; by: string; how: 'reversed' | 'reconsidered' };

const EMPTY: ReadonlySet<string> = new Set();

// Function words, and the words that say a decision or rejection was made rather than what it is about.
const STOP = new Set(
  (
    'a an the this that these those it its is are was were be been being am do does did done of in on at by to for from with as and or but so if then than into onto over under about via per ' +
    'we us our ours i me my you your they them their there here will would can could should shall may might must just also only all any some each every both either neither ' +
    'one very more most less much many such same other another again still yet too now currently today anymore instead rather favour favor place ' +
    'go goes going went gone use uses using used chose choose chosen choosing pick picked opt opted opting decide decided decision settle settled settling ' +
    'switch switched switching swap swapped move moved moving migrate migrated migrating change changed changing convert converted port ported transition transitioned ' +
    'replace replaced replacing replaces supersede supersedes superseded superseding keep kept stick stay stayed adopt adopted adopting prefer preferred ' +
    'rule ruled out reject rejected rejecting consider considered considering look looked looking evaluate evaluated thought think tempted try tried trying ' +
    'against discard discarded dismiss dismissed scrap scrapped ditch ditched drop dropped dropping give gave giving up pass passed skip skipping skipped avoid avoided avoiding ' +
    'won t don doesn didn isn aren wasn weren work works worked help helped option viable overkill revert reverted reverting back backed rolled undo undid ' +
    'no not never longer now anymore after later new old instead both well let s ll ve re d m'
  ).split(' '),
);

// Phrases that read like a purpose ("for …") or a choice but say nothing about the subject.
const FILLER = /\b(?:after all|from now on|going forward|for now|for good|for the time being|for (?:us|this (?:project|repo|repository|codebase|case|one))|in (?:this|the) (?:project|repo|repository|codebase)|at least|as well)\b/gi;
const LABEL = /^\s*(?:final |our |the )?(?:decision|decided|choice|chosen|conclusion|verdict|resolution|rejected|rejection|approach|outcome|update|change)s?\s*:\s*/i;
// Where a statement's reason, caveat or aside begins.
const REASON_CUT = /\s(?:because|since|given that|so that|due to|as (?:it|we|the|this|that|there))\s|\sso\s(?!far\b|much\b|many\b)|[;:—–]|\s-\s|,\s*(?:but|so|as|since|because|though|although|while|and (?:it|this|that|we|i))\b|,\s*which\b(?!\s+(?:now\s+)?(?:replace|supersede))|\s(?:but|however|though|although)\s|\.\s/i;

// "Background sync moved from A to B": what comes before the verb and between it and "from" is what changed.
const FROM_TO = /^(.*?)\b(?:switch|swap|mov|migrat|chang|convert|port|transition|went|go(?:ing)? back)\w*\b(.{0,60}?)\b(?:from|out of|off(?: of)?)\s+(.+?)\s+(?:to|over to|onto|into)\s+(.+)$/i;
const REPLACED_WITH = /\b(?:replac(?:e|ed|ing)|swapp?(?:ed|ing)?(?: out)?)\s+(.+?)\s+(?:with|by|for)\s+(.+)$/i;
const X_REPLACING = /^(.+?),?\s+(?:replacing|(?:which |that )?(?:now )?(?:replaces?|supersedes?)|superseding|in place of|taking over from)\s+(.+)$/i;
const DROPPED_FOR = /\b(?:dropp(?:ed|ing)|ditch(?:ed|ing)|abandon(?:ed|ing)|retir(?:ed|ing))\s+(.+?)\s+(?:for|in favou?r of)\s+(.+)$/i;
const NO_LONGER = /\bno longer\s+(?:use|uses|using|on|with|need|needs|rel(?:y|ies) on)?\s*(.+)$/i;
const CHOSE_OVER = /\b(?:chose|choose|picked|prefer(?:red)?|went with|going with|opted for)\s+(.+?)\s+over\s+(.+)$/i;
const RATHER = /^(.+?),?\s+(?:rather than|instead of)\s+(.+)$/i;
const NOT_Y = /^(.+?),\s+not\s+(.+)$/i;
/** Whether any of the patterns above can match: one of the words each needs. */
const SHIFT = /\b(?:switch|swap|mov|migrat|chang|convert|port|transition|went|go(?:ing)? back|replac|dropp|ditch|abandon|retir|no longer|rather than|instead of|over|not|supersed|in place of|taking over)/i;
/** "… Replaces the nightly cron." said after the statement. */
const REPLACES_SENTENCE = /[.;!]\s+(?:this |it )?(?:replaces|supersedes)\s+([^.;!]+)/i;
const NOW = /\b(?:now|anymore|any more|no longer|from now on|going forward)\b/i;
const RETURNS = /\b(?:after all|back to|revert(?:ed|ing)? to|return(?:ed|ing)? to|reinstat(?:e|ed|ing)|restor(?:e|ed|ing)|switch(?:ed|ing)? back|go(?:ing)? back|went back)\b/i;
const NEGATED = /\b(?:not|no|never|without|don't|doesn't|won't|stop(?:ped|ping)?|avoid\w*|drop(?:ped|ping)?|remov\w*|disabl\w*|against|away from|get rid of|got rid of)\b/i;
/**
 * Where a purpose or a context begins: "for the job queue", and "in YAML files", "on Windows",
 * "in tests" (but not "stored in Redis": a place names what was chosen, not what it is for).
 */
const SCOPE = /\bfor\s+(.+)$|\b(?:in|on|within|inside|across)\s+((?:(?:the|our|all|every|each|any)\s+)?(?:[\w.-]+\s+){0,3}?(?:files?|tests?|specs?|ci|production|prod|staging|development|makefiles?|scripts?|docs|modules?|packages?|services?|frontend|backend|ui|cli|components?|templates?|configs?|examples?|migrations?|windows|macos|linux|ios|android|mobile|web|browsers?|desktop|monorepo|handlers?|controllers?|views?|models?|routes?|jobs?|workers?|librar(?:y|ies)|crates?|apps?|dockerfiles?|pipelines?|notebooks?)\b.*)$/i;

/** A word-stem reader with its own memory: the journal repeats its vocabulary. */
export function createStems(): (word: string) => string {
  const memo = new Map<string, string>();
  return (word) => {
    let stem = memo.get(word);
    if (stem === undefined) memo.set(word, (stem = stemmer(word)));
    return stem;
  };
}

function words(text: string, stem: (w: string) => string): Set<string> {
  const out = new Set<string>();
  // "Passport.js" and "Passport" name one thing.
  for (const w of text.toLowerCase().replace(/\.(?:js|ts)\b/g, '').split(/[^\p{L}\p{N}]+/u)) if (w !== '' && !STOP.has(w)) out.add(stem(w));
  return out;
}

/** The statement itself: no label, no reason, no caveat, only its first sentence. */
function statementOf(source: StanceSource): string {
  // An aside in parentheses is left out, not where the statement ends.
  let text = source.content.replace(/[*_`]+/g, '').replace(LABEL, '').replace(/\s*\([^()]*\)/g, '');
  const reason = source.reason?.trim();
  if (reason && reason.length >= 3) {
    const at = text.toLowerCase().indexOf(reason.toLowerCase());
    if (at > 0) text = text.slice(0, at);
  }
  const cut = REASON_CUT.exec(text);
  if (cut && cut.index > 0) text = text.slice(0, cut.index);
  return text.replace(/[\s,.!]+$/, '').trim();
}

export function readStance(source: StanceSource, stem: (w: string) => string): Stance {
  const statement = statementOf(source);
  const bare = statement.replace(FILLER, ' ');
  const said = words(bare, stem);
  if (source.type !== 'decision_made') {
    // A rejection: what was turned down, without what was chosen instead.
    const subject = bare.split(/\b(?:in favou?r of|rather than|instead of|instead)\b/i)[0] as string;
    return { chose: subject === bare ? said : words(subject, stem), over: EMPTY, said, scope: scopeOf(subject, stem), replaces: false, returns: false, negated: false };
  }
  let chose = bare;
  let over = '';
  let topic = '';
  let replaces = false;
  let m: RegExpExecArray | null;
  // Most decisions name nothing they replace: one look says so, before the patterns below.
  if (!SHIFT.test(source.content)) {
    const overWords = source.rejected ? words(source.rejected, stem) : EMPTY;
    const choseWords = new Set(said);
    for (const w of overWords) choseWords.delete(w);
    return { chose: choseWords, over: overWords, said, scope: scopeOf(bare, stem), replaces: false, returns: RETURNS.test(statement), negated: NEGATED.test(bare) };
  }
  if ((m = FROM_TO.exec(bare))) [topic, over, chose, replaces] = [`${m[1]} ${m[2]}`, m[3] as string, m[4] as string, true];
  else if ((m = REPLACED_WITH.exec(bare))) [over, chose, replaces] = [m[1] as string, m[2] as string, true];
  else if ((m = DROPPED_FOR.exec(bare))) [over, chose, replaces] = [m[1] as string, m[2] as string, true];
  else if ((m = X_REPLACING.exec(bare))) [chose, over, replaces] = [m[1] as string, m[2] as string, true];
  else if ((m = NO_LONGER.exec(bare))) [chose, over, replaces] = [bare.slice(0, m.index), m[1] as string, true];
  else if ((m = CHOSE_OVER.exec(bare)) || (m = RATHER.exec(bare)) || (m = NOT_Y.exec(bare))) [chose, over, replaces] = [m[1] as string, m[2] as string, NOW.test(statement)];
  else if ((m = REPLACES_SENTENCE.exec(source.content))) [over, replaces] = [m[1] as string, true];
  // "X rather than Y, so …": what follows a comma is another clause; "…than Y for Z" (or "in Z
  // files"): Z is what both are for.
  over = (over.split(',')[0] as string).trim();
  const overFor = SCOPE.exec(over);
  if (overFor) over = over.slice(0, overFor.index);
  const overWords = over ? words(over, stem) : source.rejected ? words(source.rejected, stem) : EMPTY;
  const choseWords = chose === bare ? new Set(said) : words(chose, stem);
  // A choice capture read with `meta.rejected` but none of the patterns above: the rejected words are not chosen.
  if (!over) for (const w of overWords) choseWords.delete(w);
  const scope = scopeOf(chose, stem);
  for (const w of words(topic, stem)) scope.add(w);
  if (overFor) for (const w of words((overFor[1] ?? overFor[2]) as string, stem)) scope.add(w);
  return { chose: choseWords, over: overWords, said, scope, replaces, returns: RETURNS.test(statement), negated: NEGATED.test(chose) };
}

function scopeOf(phrase: string, stem: (w: string) => string): Set<string> {
  const m = SCOPE.exec(phrase);
  return m ? words((m[1] ?? m[2]) as string, stem) : new Set();
}

const within = (xs: ReadonlySet<string>, ys: ReadonlySet<string>): boolean => {
  for (const x of xs) if (!ys.has(x)) return false;
  return true;
};
const meets = (xs: ReadonlySet<string>, ys: ReadonlySet<string>): boolean => {
  for (const x of xs) if (ys.has(x)) return true;
  return false;
};

/** `ref` names what `to` chose: every word of it is in `to`, and one at least in its choice. */
const refersTo = (ref: ReadonlySet<string>, to: Stance): boolean => ref.size > 0 && within(ref, to.said) && meets(ref, to.chose);

/**
 * About the same thing: what the later one is for appears in the earlier one. ("Switched from
 * Redis to Memcached" does retire "Use Redis for caching": it names less, not something else.)
 */
const sameTopic = (later: Stance, earlier: Stance): boolean => within(later.scope, earlier.said);

const ASSISTANT_LESS = new Set(['cli', 'import', 'mcp', 'git', 'unknown-session']);
const sameSession = (a: Statement, b: Statement): boolean => a.session === b.session && !ASSISTANT_LESS.has(a.session);

/** Whether the later decision may overturn the earlier memory at all. */
const mayOverturn = (later: Statement, earlier: Statement): boolean => !(later.inferred && !earlier.inferred) && (!sameSession(later, earlier) || later.stance.replaces || later.stance.returns);

/**
 * How `later` bears on the decision `earlier`: 'swap' (each chose what the other turned down),
 * 'explicit' (it says it replaces or goes back to, and fits), or null.
 */
export function reversal(later: Statement, earlier: Statement): 'swap' | 'explicit' | null {
  const [l, e] = [later.stance, earlier.stance];
  if (!mayOverturn(later, earlier) || !sameTopic(l, e)) return null;
  const replacesIt = refersTo(l.over, e);
  const returnsTo = !l.negated && refersTo(e.over, l) && !meets(e.over, l.over);
  if (replacesIt && returnsTo) return 'swap';
  if ((replacesIt && l.replaces) || (returnsTo && l.returns)) return 'explicit';
  return null;
}

/** Whether the decision `later` chooses what the rejection `earlier` turned down. */
export function reconsiders(later: Statement, earlier: Statement): boolean {
  const [l, r] = [later.stance, earlier.stance];
  return !l.negated && r.chose.size > 0 && within(r.chose, l.chose) && !meets(r.chose, l.over) && sameTopic(l, r) && mayOverturn(later, earlier);
}

/**
 * The book the fold keeps: the decisions and rejections in force, indexed by their words so a
 * new decision meets only those it could bear on (a journal of 5,000 decisions on one small
 * vocabulary would otherwise compare every pair).
 */
export interface Reversals {
  /**
   * A decision or rejection stated (for the first time, or again). Returns what it retires: the
   * decisions it reverses and the rejections it reconsiders.
   */
  stated(statement: Statement): Retirement[];
  /** A memory no longer in force for another reason (superseded by an event, or retired here). */
  retire(id: string): void;
}

export function createReversals(): Reversals {
  const inForce = new Map<string, Statement>();
  /** Decisions by each word of their choice; by each word of what they turned down; rejections by one word. */
  const byChoice = new Map<string, Statement[]>();
  const byOver = new Map<string, Statement[]>();
  const rejections = new Map<string, Statement[]>();
  const seen = new Map<string, number>();
  const indexed = new Set<string>();
  const add = (index: Map<string, Statement[]>, key: string, s: Statement) => {
    const list = index.get(key);
    if (list) list.push(s);
    else index.set(key, [s]);
  };
  const live = (s: Statement | undefined, id: string): s is Statement => s !== undefined && inForce.get(id) === s;
  const gather = (index: Map<string, Statement[]>, keys: Iterable<string>): Statement[] => {
    const out = new Set<Statement>();
    for (const k of keys) for (const s of index.get(k) ?? []) if (live(s, s.id)) out.add(s);
    // Deterministic: in the order they were stated.
    return [...out];
  };

  return {
    stated(s) {
      const out: Retirement[] = [];
      if (s.type === 'decision_made') {
        const swaps: Statement[] = [];
        const explicit: Statement[] = [];
        const candidates = new Set([...gather(byChoice, s.stance.over), ...(s.stance.returns ? gather(byOver, s.stance.chose) : [])]);
        for (const d of candidates) {
          if (d.id === s.id) continue;
          const how = reversal(s, d);
          if (how === 'swap') swaps.push(d);
          else if (how === 'explicit') explicit.push(d);
        }
        // Explicit wording without a swap retires only when it fits one decision in force.
        const reversed = swaps.length > 0 ? swaps : explicit.length === 1 ? explicit : [];
        for (const d of reversed) out.push({ retired: d.id, by: s.id, how: 'reversed' });
        for (const r of gather(rejections, s.stance.chose)) if (reconsiders(s, r)) out.push({ retired: r.id, by: s.id, how: 'reconsidered' });
      }
      for (const r of out) inForce.delete(r.retired);
      inForce.set(s.id, s);
      if (!indexed.has(s.id)) {
        indexed.add(s.id);
        if (s.type === 'decision_made') {
          for (const w of s.stance.chose) add(byChoice, w, s);
          for (const w of s.stance.over) add(byOver, w, s);
        } else if (s.stance.chose.size > 0) {
          // Under the word fewest decisions so far chose: a decision that chooses all of its words
          // has that one too, and few others look it up.
          let key = '';
          for (const w of s.stance.chose) if (key === '' || (seen.get(w) ?? 0) < (seen.get(key) ?? 0) || ((seen.get(w) ?? 0) === (seen.get(key) ?? 0) && w < key)) key = w;
          add(rejections, key, s);
        }
      }
      if (s.type === 'decision_made') for (const w of s.stance.chose) seen.set(w, (seen.get(w) ?? 0) + 1);
      return out;
    },
    retire(id) {
      inForce.delete(id);
    },
  };
}
