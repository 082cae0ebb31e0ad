import type { EventType, Meta } from '../events/types.js';
import { readPreferenceWithModel, readWithModel } from './sentence-model.js';
import { tidy, type Candidate } from './candidate.js';
import { changeMade, changePlaced, DIAGNOSIS, doesNow, explainsCode, failedThenFixed, fallsShort, FOR_NOW, lacksOrNever, standingInstruction, SYMPTOM_GONE, turnedDown, withApostrophes } from './plain-prose.js';
import { splitProse, type Sentence } from './prose.js';

/**
 * Layer 2: keyword heuristics over prose. Each sentence that survives the filters (questions,
 * hypotheticals, option lists, the assistant narrating its own process) is matched against cue
 * families; the strongest match decides its type and confidence. Cues are about how people
 * phrase a choice, a rejection, a finding, a fix — not about any one project's words. Pure.
 */
interface Cue {
  type: EventType;
  name: string;
  confidence: number;
  test: RegExp | ((m: string) => boolean);
  /** Where a function test's cue phrase starts, for the hedge check; a RegExp test is its own. */
  anchor?: RegExp;
}

const matches = (cue: Cue, m: string): boolean => (cue.test instanceof RegExp ? cue.test.test(m) : cue.test(m));

const any = (...tests: Array<RegExp | ((m: string) => boolean)>) => (m: string) => tests.some((t) => (t instanceof RegExp ? t.test(m) : t(m)));
const all = (...tests: Array<RegExp | ((m: string) => boolean)>) => (m: string) => tests.every((t) => (t instanceof RegExp ? t.test(m) : t(m)));

/** Verbs of looking around: "I'll check the config" narrates work, it decides nothing. */
const PROCESS_VERBS =
  'check|look|read|run|open|search|grep|inspect|investigate|verify|see|start|explore|examine|review|test|try|confirm|debug|dig|trace|take|find|figure|scan|glance|peek|double-check|re-run|rerun|print|dump|list|view|reproduce|narrow|walk|go ahead|go through|continue|proceed|fetch|pull|query|ask|wait|watch|compare|benchmark|profile|measure|write up|summari[sz]e|explain|show|outline|sketch|draft|create a todo|update the todo|mark|note|enter|exit|file|close|commit|push|stage|open a pr|kick off|hand off|clean up';

const QUESTION = /\?\s*["')\]]*\s*$/;
const HYPOTHETICAL_START = /^(?:if|should|shall|could|would|can|do|does|did|is|are|was|were|what|which|how|why|whether|maybe|perhaps|want me|would you|let me know|unless|assuming|suppose|in case|once you|when you|before we|do we|any (?:thoughts|preference|objection))\b/;
const OPTION_LIST = /\b(?:could|might|may|can)\b[^.]*\b(?:or|either)\b|\b(?:options? (?:are|is|would be|include)|alternatives? (?:are|include|would be)|one option|another option|two options|a few options|pros and cons)\b|^(?:the |some |possible |a few |two |three |main |our |your )?(?:options?|alternatives?|choices)\s*:|\bhere are (?:\w+ ){0,2}(?:options|alternatives|choices)\b|^(?:option|alternative|approach|choice) (?:[a-z]|\d{1,2}|one|two|three|four)\s*(?:[:.)—–-]|\()|(?:^|\s)\(?(?:1|a)\)\s.*\bor\s+\(?(?:2|b)\)\s/;

/**
 * A choice only supposed, offered or recommended: "we could go with…", "I'd use…", "maybe we
 * switch…". A hedge counts when it governs the choice: within the three words before the first
 * cue phrase, in the same clause. "We'll use X, since that would let us…" still decides, and so
 * does "because it may be null we switched to…".
 */
const HEDGED_START = /^(?:alternatively|optionally|hypothetically|ideally)\b/;
const HEDGE = /\b(?:could|might|may|would(?! (?:rather|prefer))|maybe|perhaps|possibly|potentially|probably|likely|tentatively|alternatively|hypothetically|if|unless|whether)\b|'d\b(?! (?:rather|prefer))/;
/** The order work will be done in, not a choice: "I'll do the dashboard next: …", "so I'll track them as todos and start by reading …". */
const NEXT_IN_LINE = /\b(?:i'll|i will|we'll|let me|let's)\b[^.;]*?\b(?:next\b(?!\s+(?:to|time|release|version|sprint|major|minor|week|month|quarter)\b)|start (?:by|with) (?:reading|looking|checking|running|writing|adding|going)\b|have a subagent\b)/;
/**
 * A choice left to the user to confirm, wherever it is said: "…, unless you object", "if that's
 * OK with you", "if you agree". It is proposed, not made.
 */
const PENDING_APPROVAL = /\b(?:unless (?:you|anyone|somebody|someone) (?:object|objects|disagree|disagrees|mind|minds|prefer|prefers|'d (?:rather|prefer)|would (?:rather|prefer)|want|have|see|think|say)|if (?:that's|that is|this is|it's|it is) (?:ok|okay|fine|alright|all right)\b|if you (?:agree|approve|don't mind|do not mind|are ok|'re ok|are okay|'re okay|are fine|'re fine|are happy|'re happy|have no objection)|pending your (?:ok|okay|approval|go-ahead))/;

function hedgedBefore(m: string, at: number): boolean {
  const clause = m.slice(0, at).split(/[,;:—–()]/).pop() ?? '';
  return HEDGE.test(clause.trim().split(/\s+/).slice(-3).join(' '));
}

function cueAt(cue: Cue, m: string): number {
  const pattern = cue.test instanceof RegExp ? cue.test : cue.anchor;
  return pattern ? (pattern.exec(m)?.index ?? 0) : 0;
}

/**
 * Not a finding about the project: the assistant about to act ("I'll create…", "Right, I need
 * to…"), finding something out about itself ("it turns out I need to…"), or the mechanics of
 * its own editing tools (an edit that missed, a file to read before editing).
 */
const INTENT_START = /^(?:(?:ok(?:ay)?|right|so|now|next|then|alright|great|good|sure|yes|yeah|ah|oh|hmm|first|also|finally)[,!.]?\s+)*(?:i'll|i will|i'm going to|i am going to|i'm gonna|we'll|we will|we're going to|let me|let's|i need to|i have to|i must|i should|we need to|i want to|i'd like to|i still need to|i also need to|time to)\b/;
const SELF_FINDING = /\b(?:turns out|turned out|realized|realised|found out|discovered|learned|noticed)\s+(?:that\s+)?i(?:'m|'d|'ve|'ll)?\s/;
const TOOL_HICCUP = /\b(?:(?:my|the|that|this|an?) (?:edit|replacement|patch|str_replace)s? (?:missed|failed|didn't (?:apply|match|land)|did not (?:apply|match|land))|old_string|string to replace|(?:read|view) (?:the|this|that) file (?:first|before)|read it (?:first|before)|(?:hasn't|has not|haven't|have not|wasn't|was not) (?:been )?read|modified since (?:it was )?(?:last )?read)\b/;

/** What follows a reason or a colon: "I'll paginate, since the API only returns 100 rows". */
const FINDING_TAIL = /\s(?:since|because|given that)\s|\s*[:—–]\s/;

function selfTalk(m: string): boolean {
  if (TOOL_HICCUP.test(m)) return true;
  if (!INTENT_START.test(m) && !SELF_FINDING.test(m)) return false;
  // The assistant's own step can still carry a finding about the project in its reason.
  const tail = FINDING_TAIL.exec(m);
  if (!tail) return true;
  const rest = m.slice(tail.index + tail[0].length);
  return /^i\b/.test(rest) || !CUES.some((cue) => cue.type === 'knowledge_acquired' && matches(cue, rest));
}
/**
 * Verb lists are looked up in a Set after a small structural regex: one regex alternating ~80
 * verbs costs V8 ~13 ms to compile, paid by every hook process.
 */
const PROCESS_VERB_SET = new Set(PROCESS_VERBS.replace('summari[sz]e', 'summarise|summarize').split('|'));

/** Does the text at `index` start with a verb of looking around ("check", "go ahead", …)? */
function processVerbAt(text: string, index: number): boolean {
  const words = text.slice(index, index + 40).trimStart().split(/\s+/, 3).map((w) => w.replace(/[^a-z'-]/g, ''));
  const [one = '', two = '', three = ''] = words;
  return PROCESS_VERB_SET.has(one) || PROCESS_VERB_SET.has(`${one} ${two}`) || PROCESS_VERB_SET.has(`${one} ${two} ${three}`);
}

const NARRATION_START = /^(?:(?:ok(?:ay)?|now|next|first|great|good|alright),?\s+)?(?:(let me)\b|let's\s+(?:first\s+|now\s+)?|(?:i'll|i will|i'm going to|i am going to|we'll|i need to|i want to)\s+(?:first\s+|now\s+|also\s+|then\s+|quickly\s+|start by\s+|begin by\s+)?)/;
const DECIDED_TO = /\bdecided to\s+(?:first\s+|now\s+|quickly\s+)?/g;
const DECIDED_FIRST = /\bdecided to .{0,30}\bfirst\b/;
const WILL_START = /^(?:so,?\s+|instead,?\s+|then,?\s+)?(?:i'll|we'll|i will|we will|i'm going to|we're going to|let's|the plan is to|the approach is to|the fix is to)\s+/;
const SO_WILL = /\bso (?:i'll|we'll|i will|we will|i'm going to|we're going to)\s+/g;
const NOT_A_CHOICE = /^(?:first|now|also|just|quickly|go ahead|need)\b/;

/** The assistant narrating its own process: "let me check…", "I'll read the file first". */
function narration(m: string): boolean {
  const start = NARRATION_START.exec(m);
  if (start && (start[1] || processVerbAt(m, start[0].length))) return true;
  if (DECIDED_FIRST.test(m)) return true;
  for (const match of m.matchAll(DECIDED_TO)) if (processVerbAt(m, (match.index ?? 0) + match[0].length)) return true;
  return false;
}

/** "I'll <do something>" where the something is a choice, not a look around. */
function willChoose(m: string): boolean {
  const start = WILL_START.exec(m);
  if (!start) return false;
  const rest = m.slice(start[0].length);
  return !NOT_A_CHOICE.test(rest) && !processVerbAt(rest, 0);
}

function soWillChoose(m: string): boolean {
  for (const match of m.matchAll(SO_WILL)) {
    const rest = m.slice((match.index ?? 0) + match[0].length);
    if (!NOT_A_CHOICE.test(rest) && !processVerbAt(rest, 0)) return true;
  }
  return false;
}

/**
 * Something weighed and turned down: in "I considered switching to X, which avoids …, but …, so I
 * kept the pipe" the choice words name what was considered, not what was chosen.
 */
const CONSIDERED = /\b(?:considered|thought about|was tempted (?:to|by)|toyed with|weighed|looked into|evaluated)\b/;

function insideConsidered(m: string, at: number): boolean {
  const considered = CONSIDERED.exec(m);
  if (!considered || considered.index > at) return false;
  const but = /\b(?:but|however|though)\b/g;
  but.lastIndex = considered.index;
  const end = but.exec(m);
  return end !== null && at < end.index;
}

const COUNTERFACTUAL = /\b(?:would|could)\b.*\b(?:but|however)\b/;
const NEGATED_DECISION = /\b(?:haven't|have not|hasn't|not yet|didn't|did not|no) (?:decided|chosen|settled|agreed)\b|\bundecided\b|\bnot sure (?:whether|if|which)\b|\bno decision\b/;

const ERROR_NOUN = /\b(?:error|errors|bug|bugs|crash|crashes|crashed|failure|failures|failing|failed|fails|exception|5\d\d|4\d\d|5\d\ds|timeouts?|timed out|leak|regression|panic|segfault|deadlock|race|oom|out of memory|flaky|broken|breaks|traceback|undefined|null|nil|overflow|mismatch|denied|invalid\w*|rejected|silent|hang|hangs|hung|stale|duplicate[ds]?|double|wrong|missing|warning|not found)\b/;
const NEGATED_FIX = /\b(?:wouldn't|won't|doesn't|didn't|would not|will not|does not|did not|can't|cannot|not) (?:fix|solve|help|resolve)\b/;
const FIX_PHRASE = /(?:;\s*|\band )(?:added|removed|changed|moved|replaced|reverted|bumped|pinned|set|wrapped|switched|renamed|restored|updated|regenerated)\b|\b(?:tests?|build|ci|suite|it) (?:now )?pass(?:es)?\b|\bnow succeeds\b|\b(?:builds?|works|links?) again\b|\bis green\b|\b(?:fix(?:ed|es)?|resolv(?:ed|es)|solved|the fix|fixed it|works now|now works|now passes|passes now|by (?:adding|removing|changing|setting|switching|using|passing|moving|bumping|pinning|upgrading|downgrading|mounting|serving|putting|wrapping|calling|making|replacing|scoping|renaming|reordering|increasing|lowering|disabling|enabling|raising|clearing|deleting|restarting|regenerating|reinstalling|awaiting|escaping|quoting|registering))\b/;

/**
 * A fix told as what did it: "…; switching the counter to `atomic.Int64` fixed the data race",
 * "moving the index into its own script fixed the failed migration". A change named by a gerund
 * opens a clause and is the subject of "fixed"; not "nothing fixed it", "hasn't fixed", "might
 * have fixed".
 */
const GERUND_FIXED = /(?:^|[;:—–]\s*|,\s*(?:and\s+)?|\band\s+)(?!(?:nothing|something|anything|everything|during|string)\b)[a-z]{3,}ing\b[^;:.?]{0,160}?\b(?<!(?:\bnot|\bnever|n't|\bhave|\bhas|\bhad) )(?:fixed|fixes|resolved|solved|cured|cleared|eliminated|got rid of)\s+(?:the|both|all|it|this|that|these|those|our|each|every)\b/;
/**
 * A fix told as a consequence of a cause: "`SecItemAdd` refuses to overwrite, so `save` now calls
 * `SecItemUpdate` first". The cause is a refusal or failure; what follows "so … now" is what the
 * code does now, not a new failure ("so the build now fails").
 */
const SO_NOW_FIX = all(
  /\b(?:refuses?|refused|rejects?|rejected|fails?|failed|throws?|threw|errors?|errored|crash(?:es|ed)?|can't|cannot|won't|isn't allowed|is not allowed|doesn't (?:accept|allow|support)|does not (?:accept|allow|support))\b[^.]{0,120}?,?\s+so\s+[^.;]{1,60}?\bnow\s+(?!(?:fails?|breaks?|crash(?:es)?|throws?|errors?|hangs?|times? out|returns? (?:an? )?error)\b)[a-z]+(?:s|ed)\b/,
  (m) => !/\bso\s+(?:i|we|let's|let me)\b/.test(m),
);

const PREFERENCE_ACK = /^(?:understood|got it|noted|will do|sure thing)\s*[:,;!—–-]\s+(?!here (?:is|are)\b).*\b(?:always|never|every|all|from now on|going forward|no more|each)\b/;

const CHECKED_WORK = /\s(?:(?:is|are|now) )?(?:complete|completed|done|finished|fixed|resolved|shipped|merged|deployed|released|passing|passes|pass|green)\W*$|^(?:✅|✔️?)\s*(?:[*_]{2})?\s*(?:done|completed|finished|added|fixed|implemented|created|built|wrote|written|updated|removed|deleted|migrated|refactored|renamed|moved|replaced|installed|configured|converted|extracted|wired|enabled|disabled|upgraded|bumped|cleaned|rewrote|ported|split|merged|deployed|released|set up)\b/;

/** "No X exists / was found / is available": a statement of what there is, not something turned down. */
const NO_SUCH = /^no\b[^:;—–]{0,90}?\b(?:exists?|existed|found|available|present|defined|supported|provided|installed|registered|configured|matched|matches|match|shows? up|showed up|turned up|came up)\b/;

/**
 * A finding introduced as one: "Note: Hammer 7 dropped `check_rate/3`", "It appears (that) the API
 * returns…". Not the assistant's own next step ("Note: I'll re-run…"), nor an impression it
 * hedges ("it appears the cache might be stale") or a state ("it appears to have worked").
 */
const FINDING_INTRO = /^(?:(?:note|nb|n\.b\.|heads[- ]up)\s*:\s+|(?:keep|bear) in mind(?: that)?,?\s+|be aware that\s+|it appears,?\s+(?:that\s+)?(?!to\b))/;
const OWN_STEP = /^(?:i|i'll|i'm|i've|i'd|let me|let's|we'll|we need to|we should|we still)\b/;

function introducedFinding(m: string): boolean {
  const intro = FINDING_INTRO.exec(m);
  if (!intro) return false;
  const rest = m.slice(intro[0].length);
  if (rest.length < 12 || OWN_STEP.test(rest)) return false;
  return !intro[0].startsWith('it appears') || !HEDGE.test(rest);
}

/**
 * What code does or did, told of the code: "The spec uses `travel_to` instead of Timecop", "The
 * endpoint now issues 1 query instead of 619". A bare "instead of" there describes; it chooses
 * nothing ("The plan is to cache instead of …" still does: "is" is no verb of what code does).
 */
const DESCRIBES_CODE = /^(?:the|this|that|these|those|its|each|every|our|their)\s+(?:[\w·.@/-]+\s+){0,3}?(?:(?:now|still|already|currently|also|actually|just|then)\s+)?(?:uses|used|calls|called|takes|took|gets|got|returns|returned|issues|issued|reads|writes|wrote|sends|sent|stores|stored|keeps|kept|runs|ran|does|did|relies on|expects|accepts|produces|emits|loads|passes|renders|checks|creates|handles|generates|fetches|queries|imports|mocks|stubs|hits|points to|lives|goes|finishes|finished|completes|completed|resolves to|falls back to)\b/;

/**
 * "rather than" in what is, not what was chosen: "…, since `broadcast/2` uses X rather than Y",
 * "The key is in plain text in the ConfigMap rather than a Secret".
 */
const STATE_RATHER = /\b(?:since|because|as)\b[^.]*\b(?:uses|calls|returns|sends|reads|has)\b[^.]*\b(?:rather than|instead of)\b|^(?!.*\b(?:i|we)\b)[^.]*\b(?:is|are|was|were) (?!(?:now|better|faster|simpler|safer)\b)[^.;]{0,60}\brather than\b/;

const OVER_VERB = /\b(?:i'll|we'll|i will|we will|i'm|we're|let's|use|using|keep|prefer|store|go|put|move|make)\b/;

/** A reason or contrast that makes a described change a choice. */
const CHOICE_REASON = /\b(?:because|since|so that|so|to avoid|to keep|instead|rather than|which means)\b|[:—–]/;

const CUES: Cue[] = [
  // error_resolved: a cause, and (usually) the fix
  { type: 'error_resolved', name: 'caused-by-fixed', confidence: 0.85, test: all(/\b(?:was an? [\w-]+ (?:issue|problem|bug)|broke (?:on|because|when)|fail(?:ed|s)? (?:on|because|when)|caused by|due to|because|came from|comes from|coming from|triggered by|root cause|the culprit|(?:problem|issue|bug|error|failure|crash) (?:was|is)|stemm?(?:ed|s) from|traced (?:it )?to)\b/, FIX_PHRASE) },
  { type: 'error_resolved', name: 'fixed-by', confidence: 0.8, test: any(/^(?:fixed|resolved|solved)\b.{3,}\b(?:by|with|:|—|–)/, /\b(?:fixed|resolved|solved) (?:it|this|that|the [\w-]+(?: [\w-]+){0,3}) (?:by|with)\b/, /\bthe fix (?:was|is) to\b/) },
  { type: 'error_resolved', name: 'root-cause', confidence: 0.7, test: all(/\b(?:root cause|the culprit|was caused by|were caused by|is caused by|are caused by|turned out to be caused)\b/, ERROR_NOUN) },
  { type: 'error_resolved', name: 'gerund-fixed', confidence: 0.8, test: GERUND_FIXED },
  { type: 'error_resolved', name: 'so-now', confidence: 0.7, test: SO_NOW_FIX },
  { type: 'error_resolved', name: 'failed-then-fixed', confidence: 0.86, test: failedThenFixed },
  { type: 'error_resolved', name: 'symptom-gone', confidence: 0.75, test: SYMPTOM_GONE },
  { type: 'error_resolved', name: 'that-fixed-it', confidence: 0.7, test: /\b(?:that|this|which) (?:fixed|fixes|resolved|solved) (?:it|the (?:failing [\w-]+|issue|problem|bug|error|crash|failure|test|build|race|leak))\b/ },

  // approach_rejected: something considered and turned down
  { type: 'approach_rejected', name: 'ruled-out', confidence: 0.85, test: /\b(?:dropped (?:it|that|this|them)|ruled out|rule out|(?<!\b(?:been|being|was|were|is|are|get|gets|got) )rejected|decided against|decide against|discarded|dismissed|scrapped|ditched|gave up on|giving up on|passed on|steer(?:ing)? clear of|won't be using|not going with|not going to (?:use|go with|add|adopt)|chose not to|opted against|(?:i'm|we're|i am|we are) against|against (?:it|that|this) because|moving away from|moved away from|backed out)\b/ },
  // "Terraform Cloud won't work here because …": a definite "won't", with its reason. "might not work" is a doubt.
  { type: 'approach_rejected', name: 'wont-work', confidence: 0.8, test: /\b(?:won't|will not|wouldn't|would not|can't|cannot|doesn't|does not) work (?:here|for us|for this(?: project| repo| codebase| case)?|in this (?:project|repo|codebase|case|setup))\s*(?:,\s*)?(?:because|since|as|given that|:|—|–| - )/ },
  { type: 'approach_rejected', name: 'not-an-option', confidence: 0.8, test: any(/\b(?:is|are) out\s*(?::|;|—|–| - )|\b(?:that|this|the|which) (?:option|approach|strategy|route|idea|path|one) is out\W*$|\bthat's out\W*$/, /\b(?:a (?:bad|poor) fit|the wrong tool|not an option|isn't an option|aren't an option|isn't viable|a non-starter|off the table|out of the question|not viable|a dead end|not worth (?:it|the)|not a good fit|not the right (?:choice|fit|tool|call|approach)|is overkill|would be overkill|no-go)\b/) },
  // "No Redis: …" turns something down; "No `X` field exists - use `Y`" says what there is.
  { type: 'approach_rejected', name: 'skipping', confidence: 0.75, test: all(/^(?:skipping|skip|dropping|avoiding|not using|no)\b[^:;—–]{2,90}(?::|;|—|–| - )/, (m) => !NO_SUCH.test(m)) },
  { type: 'approach_rejected', name: 'not-doing', confidence: 0.75, test: /\b(?:(?:i|we)(?:'m| am|'re| are) not (?:adding|using|doing|going to|relying on|introducing|pulling in|taking|switching|touching|bumping)|(?:i|we) (?:didn't|did not|won't|will not|shouldn't|should not|mustn't|must not|would not|wouldn't) (?:add|use|go with|introduce|pull in|switch|adopt|take|rely on|do)\b|so i (?:didn't|won't|did not|will not|am not|'m not)|so we (?:didn't|won't|aren't|are not|shouldn't))/ },
  { type: 'approach_rejected', name: 'considered-but', confidence: 0.75, test: /\b(?:considered|looked at|evaluated|thought about|experimented with|tried|was tempted|looked into)\b.*\b(?:but|however|though)\b/ },
  // "Reverted `collectionCheck: false` — the double-release it would hide …": undone, with why.
  { type: 'approach_rejected', name: 'reverted', confidence: 0.75, test: /^(?:i |we )?(?:reverted|backed out|rolled back|undid)\b[^.;]{2,120}?(?:\s[—–]\s|: | - |\s(?:because|since|as|given that)\s)/ },
  // "Raising the NVIC priority to 0 didn't help — …": a step taken and dropped.
  { type: 'approach_rejected', name: 'didnt-help', confidence: 0.7, test: /^(?:[\w`.-]+ing|tried)\b[^.;]{2,120}\b(?:didn't|did not|doesn't|does not) help\b/ },
  { type: 'approach_rejected', name: 'tried-failed', confidence: 0.7, test: /\btried\b.*\b(?:didn't|did not|doesn't|failed|broke|was too|caused|made things|no luck|no effect)\b/ },
  { type: 'approach_rejected', name: 'would-but', confidence: 0.65, test: all((m) => !/\b(?:not sure|unsure|not certain)\b/.test(m), /\b(?:would|could|might)\b/, /\b(?:but|however|though|, so)\b/, /\b(?:but (?:it|that|this|we|i|then)|so i|so we|which (?:i|we) (?:don't|do not)|not worth|too (?:slow|heavy|complex|expensive|risky|brittle|much))\b/) },

  { type: 'approach_rejected', name: 'falls-short', confidence: 0.82, test: fallsShort },
  { type: 'approach_rejected', name: 'would-cost', confidence: 0.66, test: turnedDown },

  // decision_made: a choice, stated as made
  { type: 'decision_made', name: 'decided', confidence: 0.85, test: /\b(?:i|we)(?:'ve| have)? (?:decided|agreed|settled|chosen|opted)\b|\b(?:decision|verdict)(?: here)? (?:is|was|:)|^decision\b/ },
  { type: 'decision_made', name: 'chose', confidence: 0.8, test: /\b(?:going with|go with|went with|opted for|opting for|chose|choosing|settled on|settling on|sticking with|stick with|picked|landed on|standardi[sz]e on|standardi[sz]ing on|switch(?:ed|ing)? (?:over )?to|moving to|migrat(?:e|ed|ing) to|(?:i|we)(?:'ve| have)? (?:switched|migrated|ported) (?:[\w.·@/-]+ ){1,4}(?:over )?to|i'm using|we're using|i'm keeping|we're keeping|we'll keep|i'll keep|we'll use|i'll use|we use|let's use|let's go with|let's keep)\b/ },
  { type: 'decision_made', name: 'switching', confidence: 0.75, test: any(all(/^(?:switching|moving|changing|converting|migrating|replacing|swapping|rewriting|porting|splitting)\b.{2,80}\b(?:to|with|by|for)\b/, CHOICE_REASON), /\b(?:i'm|we're|i am|we are) (?:now )?(?:switching|moving|changing|replacing|swapping|converting|migrating)\b/) },
  // "Raised the CPU request to 750m so a warming pod doesn't count as overloaded": a value chosen, and why.
  { type: 'decision_made', name: 'set-to-so', confidence: 0.7, test: /^(?:switched|raised|lowered|increased|reduced|decreased|bumped|pinned|capped|limited|set|changed|moved|replaced)\b[^.;]{2,100}?\b(?:to|with|at)\b[^.;]{1,80}?\b(?:so that|so|to avoid|to keep|to prevent|to stop|since|because)\b/ },
  // "Adding a startupProbe with failureThreshold 30 instead, so liveness …": this rather than that.
  { type: 'decision_made', name: 'doing-instead', confidence: 0.7, test: /^(?:adding|using|switching to|moving to|raising|lowering|setting|keeping|putting|splitting|caching|pinning|running)\b[^.;]{2,120}\binstead\b(?! of)/ },
  { type: 'decision_made', name: 'so-will', confidence: 0.7, test: soWillChoose, anchor: /\bso (?:i'll|we'll|i will|we will|i'm going to|we're going to)\s/ },
  // "X is the better fit"; a bare "this is the right call because…" names no choice, so it is not one.
  { type: 'decision_made', name: 'better-fit', confidence: 0.7, test: /(?<!\b(?:this|that|it|which|these|those|there|here|what) )(?:\b(?:is|are) (?:the )?(?:better|best|right) (?:fit|choice|call|option|tool)\b|\bis the way to go\b)/ },
  { type: 'decision_made', name: 'rather-than', confidence: 0.65, anchor: /\b(?:rather than|instead of)\b/, test: all(/\b(?:rather than|instead of)\b/, (m) => !DESCRIBES_CODE.test(m) && !STATE_RATHER.test(m)) },
  { type: 'decision_made', name: 'it-is', confidence: 0.8, test: /^[\w.·@/+-]+(?: [\w.·@/+-]+){0,3} it is\b/ },
  { type: 'decision_made', name: 'over-instead', confidence: 0.7, anchor: OVER_VERB, test: all(/\b(?:rather than|instead of|over|in favou?r of)\b/, OVER_VERB) },
  {
    type: 'decision_made',
    name: 'will-because',
    confidence: 0.65,
    test: all(willChoose, /\b(?:since|because|so that|so the|so we|so it|so a|so any|as it|as the|to avoid|to keep|to make sure|instead|which means|which keeps|that way)\b|, so\b|[:—–]/),
  },
  { type: 'decision_made', name: 'change-placed', confidence: 0.66, test: changePlaced },
  { type: 'decision_made', name: 'change-with-reason', confidence: 0.64, test: changeMade },
  { type: 'decision_made', name: 'convention', confidence: 0.7, test: /^(?:the )?(?:convention|rule|policy|approach|design)(?: here| going forward)? (?:is|will be|:)/ },

  // preference_noted: how the user wants things done, as the assistant acknowledges it
  { type: 'preference_noted', name: 'acknowledged-rule', confidence: 0.75, test: PREFERENCE_ACK },
  { type: 'preference_noted', name: 'you-prefer', confidence: 0.8, test: /\b(?:you prefer|you'd prefer|you'd rather|you like|you want (?:me to )?(?:always|never)|your preference|per your preference|as you prefer|you asked (?:me )?to (?:always|never)|i'll remember (?:that )?you|noted[,:—-]+ you|you don't want|you do not want|you never want|you always want)\b/ },

  // knowledge_acquired: a finding about how things are
  { type: 'knowledge_acquired', name: 'turns-out', confidence: 0.75, test: /\b(?:turns out|it turned out|turned out|til\b|today i learned|i learned|we learned|learned that|found out|(?:i|we) discovered (?:that|:)|discovered that|realized|realised|apparently|interestingly|good to know|worth noting|note that|gotcha|lesson learned|key (?:insight|takeaway|finding)|^for future reference|for future reference(?=\s*[:,;—–])|the docs say|the documentation says|according to the docs|worth knowing|which is why|that's why|this is why|that is why|(?:that|this) happens (?:when|because|if))\b/ },
  { type: 'knowledge_acquired', name: 'finding-intro', confidence: 0.7, test: introducedFinding },
  // "`@TransactionalEventListener` defaults to AFTER_COMMIT, so …", "Horizon only works the queues listed in …".
  { type: 'knowledge_acquired', name: 'defaults-to', confidence: 0.65, test: /\b(?:defaults? (?:its [\w-]+(?: [\w-]+)? )?to|only (?:works?|runs?|reads?|sees?|applies|fires?|links|resolves|loads|installs|exports|finds|includes|matches|renders|triggers|resets|counts|enables|exposes|listens|accepts|allows|evicts|exists) (?:on|the|for|when|if|in|a|an|its|their|once)|(?:destroys?|deletes?|removes?|drops?|copies|clones?) (?:all of )?(?:its|their) [\w-]+ too)\b/ },
  {
    type: 'knowledge_acquired',
    name: 'so-consequence',
    confidence: 0.6,
    test: /, (?:so|which means) (?:the|a|an|any|every|each|it|on|after|our|its|we|nothing|anything)\b[^.]{0,100}\b(?:fails?|overruns?|breaks?|is lost|are lost|restarts?|returns?|hangs?|times? out|crashes|drops?|blocks?|leaks?|reconciles?|need no|don't need|no longer need|gets? (?:re)?\w+ed|hands?|double|twice|skips?)\b/,
  },
  {
    type: 'knowledge_acquired',
    name: 'behaves',
    confidence: 0.65,
    // "X now reads …" tells a change, not how X behaves.
    test: all(
      (m) => !doesNow(m),
      /\b(?:only|by default|silently|actually|no longer|since v?\d[\w.]*|as of v?\d[\w.]*|under the hood|internally)\b/,
      /\b(?:contains?|includes?|stores?|holds?|keeps?|lets?|allows?|supports?|requires?|returns?|expects?|paginates?|caps?|limits?|treats?|ignores?|defaults? to|accepts?|strips?|drops?|caches?|retries|times out|lives?|resets?|is released|releases?|is lost|are lost|looks (?:for|in)|reads?|loads?|writes?|sends?|runs?|applies|fires?|emits?|swallows?|truncates?|rounds?|coerces?|converts?|serializes?|blocks?|waits?|needs?)\b/,
    ),
  },

  { type: 'knowledge_acquired', name: 'explains-code', confidence: 0.6, test: explainsCode },
  { type: 'knowledge_acquired', name: 'lacks-or-never', confidence: 0.6, test: lacksOrNever },
  { type: 'knowledge_acquired', name: 'diagnosis', confidence: 0.7, test: DIAGNOSIS },

  // task_completed: an explicit statement that something is finished
  // "Done — PlayMode: 17/17 passed." reports a test run, not a task.
  { type: 'task_completed', name: 'done', confidence: 0.9, test: all(/^(?:done|completed|finished|all done|shipped)\s*(?::|!|—|–| - )/, (m) => !/^\W*\w+\W+(?:[\w -]+:\s*)?\d+\s*\/\s*\d+ (?:passed|passing|tests?)\b|^\W*\w+\W+(?:all )?\d+ tests? pass/.test(m)) },
  // A check mark before a finished piece of work ("✅ Migration complete", "✅ Added the loader"),
  // not before each feature in a summary's list ("✅ Full TypeScript support").
  { type: 'task_completed', name: 'check-mark', confidence: 0.7, test: all(/^(?:✅|✔️?)/, CHECKED_WORK) },
  { type: 'task_completed', name: 'is-complete', confidence: 0.6, test: /\b(?:is|are) now (?:complete|completed|done|finished|in place|live)\b|\b(?:migration|refactor|port|upgrade|rollout|implementation) is (?:complete|done|finished)\b/ },
];

const PRIORITY: EventType[] = ['error_resolved', 'approach_rejected', 'decision_made', 'preference_noted', 'knowledge_acquired', 'task_completed'];

function skipped(m: string): boolean {
  return QUESTION.test(m) || HYPOTHETICAL_START.test(m) || narration(m) || NEGATED_DECISION.test(m);
}

// A colon ends a clause when a space follows it: `std::vector`, `a:b` and times go on.
const REASON = /\s(?:because|since|as|given that|due to|so that)\s|\s*(?::(?=\s|$)|—|–|;| - )\s*/i;
/** A rejection's reason can follow a "but": "I considered Yup, but its inference is weaker". */
const REJECTION_REASON = new RegExp(`${REASON.source}|,?\\s+but\\s+`, 'i');
/** "Decision: Use SQLite": the colon after a label introduces the decision, not its reason. */
const LABEL = /^\s*(?:final |our |the )?(?:decision|decided|choice|chosen|conclusion|verdict|recommendation|resolution|rejected|rejection|approach|outcome)s?\s*:\s*/i;

/**
 * The words of `sentence` from `from` to `to`, a phrase of its own: its bounds were found in the
 * masked copy, so punctuation inside inline code or a quotation never cut it
 * (`Sandbox.mode(Repo, {:shared, self()})` stays whole), and it ends at a bracket closing one
 * opened before it ("(prefer id over uuid)" gives "uuid", not "uuid)").
 */
function phrase(sentence: Sentence, from: number, to: number): string {
  let depth = 0;
  for (let i = from; i < to; i++) {
    const ch = sentence.masked[i];
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      if (depth === 0) return sentence.text.slice(from, i).trim();
      depth--;
    }
  }
  return sentence.text.slice(from, to).trim();
}

function reasonOf(sentence: Sentence, type: EventType): string | undefined {
  const start = LABEL.exec(sentence.masked)?.[0].length ?? 0;
  const match = (type === 'approach_rejected' ? REJECTION_REASON : REASON).exec(sentence.masked.slice(start));
  if (!match) return undefined;
  const reason = phrase(sentence, start + match.index + match[0].length, sentence.masked.length).replace(/[.!]+$/, '');
  return reason.length >= 6 ? tidy(reason, 240) : undefined;
}

/**
 * The list right under a decision that introduces it ("**Decision: Use SQLite**" or "I'll go with
 * Zod:", then "- zero configuration"): its reasons. A list after a full stop may as well be steps.
 */
function listedReasons(sentences: readonly Sentence[], at: number): string | undefined {
  const sentence = sentences[at] as Sentence;
  if (sentence.listItem || /[.!?]\s*$/.test(sentence.text)) return undefined;
  const items: string[] = [];
  for (let k = at + 1; k < sentences.length && sentences[k]?.listItem && items.length < 3; k++) items.push((sentences[k] as Sentence).text.trim().replace(/[.!;]+$/, ''));
  return items.length > 0 ? tidy(items.join('; '), 240) : undefined;
}

/**
 * What a choice was made over: "X rather than / instead of / over / in favour of Y", "X beats Y",
 * "X is better than Y", "switched from Y to X". A full stop, comma or colon inside a name (Node.js,
 * 1,000) does not end it; "switched over to X" names no alternative.
 */
const ALTERNATIVE = /\b(?:rather than|instead of|over(?!\s+to\b)|in favou?r of|beats|beat|outperforms|outperformed|(?:is|are|was|were) (?:better|faster|simpler|lighter|smaller|safer|cheaper|more \w+) than)\s+((?:[^,.;:—–]|[.,:](?=\S)){2,80})/di;
const SWITCHED_FROM = /\b(?:switch(?:ed|ing)?|migrat(?:ed|ing)|mov(?:ed|ing)|port(?:ed|ing)) (?:[\w.·@/-]+ ){0,3}?from\s+((?:[^,.;:—–]|[.,:](?=\S)){2,80}?)\s+to\b/di;
/** Where the alternative stops: a reason, a word about the setting ("here"), or the next item of an inline enumeration ("… over X 2) use Y"). */
const ALTERNATIVE_END = /\s(?:since|because|as|so|which|for|to avoid)\s|\s(?:here|there|now|today|too|anyway|in this case|in practice)\b|\s\(?(?:\d{1,2}|[a-z])\)(?=\s|$)/i;

function alternativeOf(sentence: Sentence): string | undefined {
  const match = ALTERNATIVE.exec(sentence.masked) ?? SWITCHED_FROM.exec(sentence.masked);
  if (!match) return undefined;
  const words = match[1] as string;
  const from = match.indices?.[1]?.[0] ?? match.index;
  const stop = ALTERNATIVE_END.exec(words);
  let length = stop ? stop.index : words.length;
  // The length limit ended it inside a word: back to the last whole one.
  if (!stop && /\w/.test(sentence.masked[from + length] ?? '') && words.lastIndexOf(' ') > 0) length = words.lastIndexOf(' ');
  const alternative = phrase(sentence, from, from + length);
  return alternative.length >= 2 ? tidy(alternative, 120) : undefined;
}

function metaFor(type: EventType, sentence: Sentence): Meta {
  const meta: Meta = {};
  if (type === 'approach_rejected' || type === 'decision_made') {
    const reason = reasonOf(sentence, type);
    if (reason) meta.reason = reason;
    const alternative = alternativeOf(sentence);
    if (alternative) meta[type === 'decision_made' ? 'rejected' : 'alternative'] = alternative;
  }
  return meta;
}

/** The best cue for one sentence of assistant prose, or null. */
export function classifySentence(sentence: Sentence): { type: EventType; name: string; confidence: number } | null {
  const m = sentence.masked.replace(/[‘’]/g, "'").toLowerCase();
  if (skipped(m)) return null;
  const found = CUES.filter((cue) => matches(cue, m));
  const decisionAt = Math.min(...found.filter((cue) => cue.type === 'decision_made').map((cue) => cueAt(cue, m)));
  const notDecided = OPTION_LIST.test(m) || COUNTERFACTUAL.test(m) || HEDGED_START.test(m) || PENDING_APPROVAL.test(m) || NEXT_IN_LINE.test(m) || (Number.isFinite(decisionAt) && (hedgedBefore(m, decisionAt) || insideConsidered(m, decisionAt)));
  let best: Cue | null = null;
  for (const cue of found) {
    if (sentence.offered && cue.type !== 'knowledge_acquired') continue;
    if (cue.type === 'decision_made' && notDecided) continue;
    if (cue.type === 'knowledge_acquired' && selfTalk(m)) continue;
    if (cue.type === 'error_resolved' && NEGATED_FIX.test(m)) continue;
    if (!best || cue.confidence > best.confidence || (cue.confidence === best.confidence && PRIORITY.indexOf(cue.type) < PRIORITY.indexOf(best.type))) best = cue;
  }
  if (best || found.length > 0) return best;
  // No cue spoke (and none was held back): what the sentence says as a whole, read by the model,
  // through the same gates.
  if (NOT_YET.test(m) || NEXT_STEP_START.test(m) || STATUS.test(m)) return null;
  const read = readWithModel(sentence.text);
  if (!read) return null;
  if ((sentence.offered && read.type !== 'knowledge_acquired') || (read.type === 'knowledge_acquired' && selfTalk(m))) return null;
  if (read.type === 'decision_made' && (notDecided || ADVICE.test(m))) return null;
  if (read.type === 'error_resolved' && (NEGATED_FIX.test(m) || !RESOLVED.test(m))) return null;
  if (read.type === 'approach_rejected' && (DOUBT.test(m) || FAILING_NOW.test(m))) return null;
  return { type: read.type, name: 'model', confidence: MODEL_CONFIDENCE };
}

/** A failure being diagnosed ("The test is failing because …, but …") turns no approach down. */
const FAILING_NOW = /\b(?:is|are|keeps?|kept) failing\b|\bfails? because\b/;

/**
 * A doubt about an approach ("X might not work here because …") turns nothing down yet; nor
 * does a suggestion with nothing against it ("Moving the cache into Redis would be the quickest patch").
 */
const DOUBT = /^(?:maybe|perhaps|possibly)\b|^[^,;]*\b(?:might|may)(?: not)? (?:work|help|scale|be|fit|matter|fix)\b|\b(?:not sure|unsure)\b|^[^,;—–:]*\bwould be (?:the|a|an) (?:[a-z]+est|obvious|easy|simple|quick|clean|good)\b[^,;—–:]*$/;

/** Advice to a reader ("you can skip JSON entirely") is no choice made. */
const ADVICE = /\byou(?:'d| can| could| may| might| need| should| want)\b/;
/** A failure explained ("the test fails because …") is a fix only once something resolved it. */
const RESOLVED = /\b(?:fix|fixe[sd]|fixing|resolv\w*|solv\w*|clear\w*|pass(?:es|ed|ing)?|green|works?|worked|no longer|now|gone|went away|stopped|added|adding|changed|switched|replaced|removed|guard\w*)\b/;
/** A sentence that opens on what to do now ("Now fix the failing test — …") narrates the next step. */
const NEXT_STEP_START = /^(?:now|then|next|first|finally)\b(?!,? (?:it|the|this|that|they|there|we|each|every|all)\b)/;
/** Where the work stands ("The app is now ready for use with …", "All renderer tests pass, but …"), which a status line says and no memory keeps. */
const STATUS = /\b(?:is|are) now (?:ready|complete|completed|done|finished|live|in place|working|fully (?:functional|working))\b|^(?:all|the)(?: [\w-]+){0,2} tests? (?:pass|passed|are passing|are green)\b/;
/**
 * What is still to happen, said as such: the next step ("I'll add the include next"), a
 * prediction ("once tonight's run finishes, stage 14 should…"). A cue may still read a choice in
 * "I'll go with X"; the model, reading words rather than shapes, would read the step as done.
 */
const NOT_YET = /\b(?:i'll|i will|i'm going to|we'll|we will|let me|let's|should|i'd expect|i would expect|i expect)\b|\bnext(?:\s*[.,;!]|$)/;

/** Below what a cue earns: a reading of the whole sentence, right about four times in five on unseen sessions. */
const MODEL_CONFIDENCE = 0.66;

/**
 * A table that records choices says so in its header: a column of what was chosen ("Choice",
 * "Decision", "Approach") and one of why ("Why", "Reason", "Rationale"). Each row is a decision:
 * "<aspect>: <choice> — <why>". A table of options ("Pros", "Cons", "Option") decides nothing.
 */
const CHOICE_COLUMN = /\b(?:choice|chosen|choose|decision|decided|approach|picked|selected|solution|went with|we use)\b/;
const WHY_COLUMN = /\b(?:why|reasons?|rationale|reasoning|because|justification)\b/;
const REJECTED_COLUMN = /\b(?:rejected|instead of|over|alternatives?(?: considered)?|not chosen|ruled out)\b/;
const OPTIONS_TABLE = /\b(?:pros?|cons?|options?|trade-?offs?|candidates?)\b/;
const UNDECIDED_CELL = /^(?:[-—–?]*|tbd|todo|open|pending|undecided|n\/a)$|\?\s*$/;

function tableDecision(sentence: Sentence, ts: string): Candidate | null {
  const { header, cells } = sentence.table ?? { header: [] };
  if (!cells || sentence.offered) return null;
  const names = header.map((h) => h.toLowerCase().replace(/[*_`]/g, ''));
  if (names.some((h) => OPTIONS_TABLE.test(h))) return null;
  const choiceAt = names.findIndex((h) => CHOICE_COLUMN.test(h));
  const whyAt = names.findIndex((h, i) => i !== choiceAt && WHY_COLUMN.test(h));
  if (choiceAt < 0 || whyAt < 0) return null;
  const rejectedAt = names.findIndex((h, i) => i !== choiceAt && i !== whyAt && REJECTED_COLUMN.test(h));
  const aspectAt = names.findIndex((_h, i) => i !== choiceAt && i !== whyAt && i !== rejectedAt);
  const cell = (i: number) => tidy(cells[i] ?? '');
  const choice = cell(choiceAt);
  const why = cell(whyAt);
  if (UNDECIDED_CELL.test(choice.toLowerCase()) || HEDGE.test(choice.toLowerCase())) return null;
  const aspect = aspectAt >= 0 ? cell(aspectAt) : '';
  const meta: Meta = {};
  if (why.length >= 3) meta.reason = tidy(why, 240);
  const rejected = rejectedAt >= 0 ? cell(rejectedAt) : '';
  if (rejected.length >= 2 && !UNDECIDED_CELL.test(rejected)) meta.rejected = tidy(rejected, 120);
  const content = `${aspect ? `${aspect}: ` : ''}${choice}${meta.reason ? ` — ${why}` : ''}`;
  return { type: 'decision_made', content: tidy(content), confidence: 0.75, provenance: 'layer2:decision-table', meta, ts };
}

export function extractProse(text: string, ts: string): Candidate[] {
  const out: Candidate[] = [];
  const sentences = splitProse(text);
  sentences.forEach((sentence, at) => {
    // A table's cells are no sentences: a row is read only as a row of a table of choices.
    if (sentence.table) {
      const decision = tableDecision(sentence, ts);
      if (decision) out.push(decision);
      return;
    }
    const match = classifySentence(sentence);
    if (!match) return;
    const meta = metaFor(match.type, sentence);
    if ((match.type === 'decision_made' || match.type === 'approach_rejected') && !meta.reason) {
      const listed = listedReasons(sentences, at);
      if (listed) meta.reason = listed;
    }
    out.push({ type: match.type, content: tidy(sentence.text), confidence: match.confidence, provenance: `layer2:${match.name}`, meta, ts });
  });
  return out;
}

const USER_PREFERENCE = /^i like\b[^.;?]{2,60},\s*not\b|\b(?:i prefer|i'd prefer|i would prefer|i'd rather|i would rather|i like it when|please (?:always|never)|always use|never use|don't ever|do not ever|from now on|going forward,|^going forward\b|stick (?:to|with)|we're phasing out|we are phasing out|i want you to (?:always|never)|make sure (?:to )?always|stop using|we always|we never)\b/i;

/**
 * A convention stated against what it replaces ("we use pnpm, not npm", "we write specs with
 * RSpec, never Minitest"), or any statement closed by an emphatic "— always" / "— never".
 */
const USER_CONVENTION = /\bwe (?:use|prefer|write|run|deploy|build|test|format|stick (?:to|with)|go with)\b[^.;?]{1,60}?,\s*(?:not|never|no)\b|[—–]\s*(?:always|never|everywhere|no exceptions)\W*$/i;

/** A user reporting what breaks ("cover uploads die for anything over ~8mb") states no rule. */
const FAILURE_REPORTED = /\b(?:die|dies|died|crash(?:es|ed)?|breaks|broke|hangs|hung|times out|timed out|errors? out|blows? up|(?:is|are) broken|stopped working|(?:doesn't|don't|isn't|aren't) working|(?:doesn't|don't) work)\b/;
const RULE_WORDS = /\b(?:always|never|don't|do not|please|should|must|want|prefer|make sure|has to|have to|need to|keep|stick (?:to|with)|avoid|only|we (?:use|run|go with|stay))\b/;
const reportsFailure = (m: string): boolean => FAILURE_REPORTED.test(m) && !RULE_WORDS.test(m);

/**
 * Users state preferences in their own prompts ("always use pnpm, never npm"). A sentence no
 * pattern reads is offered to the preference model, unless it asks for something for now only.
 */
export function extractUserPreferences(text: string, ts: string): Candidate[] {
  const out: Candidate[] = [];
  for (const sentence of splitProse(text)) {
    const m = withApostrophes(sentence.masked.replace(/[‘’]/g, "'"));
    if (QUESTION.test(m) || /^(?:if|should|could|would|can|do|does)\b/i.test(m)) continue;
    const ruled = USER_PREFERENCE.test(m) || USER_CONVENTION.test(m) || standingInstruction(m);
    if (!ruled && (FOR_NOW.test(m.toLowerCase()) || reportsFailure(m.toLowerCase()) || readPreferenceWithModel(sentence.text) === null)) continue;
    out.push({ type: 'preference_noted', content: tidy(sentence.text), confidence: ruled ? 0.8 : 0.7, provenance: ruled ? 'layer2:user-preference' : 'layer2:user-model', meta: {}, ts });
  }
  return out;
}
