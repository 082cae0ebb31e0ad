/**
 * How Claude says a memory when it uses no cue phrase at all: the shapes of plain explanatory
 * prose. A fix is a failure and then what the code does now ("The build broke on X; the loop now
 * uses Y"); a rejection is an approach and what it would cost ("Wrapping it in a mutex wouldn't
 * help: …", "A `deque` would keep the pointers stable, but the renderer walks …"); a decision is a
 * change and its reason ("Decoding moves into a job, because …", "So the join now only sees …");
 * a finding is code's behaviour and its consequence ("`foldl` builds the whole chain …, so …").
 * Each is a predicate over one sentence's masked, lower-cased text (code and quotes blanked to
 * `·`), used as a cue by layer 2. Pure.
 */

const FAILURE = /\b(?:caught an? [a-z -]{0,24}(?:mismatch|bug|typo|race|leak|regression)|broke|failed|failures|refusing|(?<!\b(?:i|we|you|user|they|been|was|were|is|are|be|get|got) )rejected|(?<=\bthe )[45]\d\d (?:was|is|came)|(?:saw|got|returned|found) (?:no|zero|0)(?= [a-z])|caught an? [\w -]{0,30}?(?:rule|violation)|fails|failing|failure|stopped|skipped (?:the|every|all|its|their)|refused|refuses|crashed|crashes|panicked|segfault(?:ed|s)?|errored|threw|blew up|choked|died|ran out of memory|oom(?:ed)?|timed out|hung|(?:was|were|is) undefined|(?:wouldn't|didn't|won't|doesn't|couldn't) (?:build|compile|start|link|import|load|boot|parse|resolve)|(?:could not|couldn't) (?:find|resolve|connect|open|read|load|reach|see)|(?:error|exception|warning|panic|failure|crash|hang|[45]\d\d|blank [\w ]{0,20}?(?:page|panel|screen|view))s?\b[^.;]{0,60}?\b(?:came|comes|come) from|(?:error|exception|warning|panic)s? (?:is|was|are|were) (?:because|caused by|due to|coming from))\b/;
/** What follows a failure when it is fixed: the code as it is now, back, again, instead. */
const REMEDY = /\b(?:which (?:fixed|fixes|resolved)\b|(?:is|are) now|now (?!(?:fails?|failing|breaks?|crash(?:es)?|throws?|errors?|hangs?|times?|shows?|reports?|that|on|i|we|you|it|is|are|the|a|an|there|when|if)\b)[a-z]{3,}|(?:is|are) back\b|(?:goes|went|is|are) back (?:to|in|into)\b|again\b|as before\b|instead\b|now\W*$|(?:fits|passes|compiles|builds|works|succeeds|loads|boots|is clean|are clean)\b|(?:removed|cleared) (?:the|it)\b|made it (?:deterministic|pass|work|green|compile|build|stable|reliable)\b|cleanly\b|went through\b|then (?:generated|built|ran|passed|compiled|worked|applied|loaded|started|succeeded)\b|applied (?:the|it)\b|^\s*(?:and\s+)?[a-z]{3,}ing\b[^;]{0,120}?\b(?:applied|cleared|sorted|fixed|resolved|solved|lets|let|made|makes)\b|lets? it (?:through|compile|build|pass|run|load|start|boot|work)\b|(?:is|was) what (?:the test|the tests|it|the build) needed\b)/;
const SEPARATOR = /;|:\s|,? so\b|\s[—–]\s|, and\b/g;
const NOT_DONE_YET = /\b(?:i'll|i will|let me|let's|we'll|i need to|we need to|i'm going to|next|should|could|would|might|try)\b/;

/** "The build broke on X …; the recovery loop now uses Y": a failure, then (after a clause break) what fixed it. */
export function failedThenFixed(m: string): boolean {
  const failure = FAILURE.exec(m);
  if (!failure) return false;
  SEPARATOR.lastIndex = failure.index;
  for (let sep = SEPARATOR.exec(m); sep; sep = SEPARATOR.exec(m)) {
    const clause = (m.slice(sep.index + sep[0].length).split(/;/)[0] as string).trim();
    if (REMEDY.test(clause) && !NOT_DONE_YET.test(clause) && !FAILURE.test(clause.slice(0, REMEDY.exec(clause)?.index ?? 0))) return true;
  }
  return false;
}

/** An approach named and found wanting: "X wouldn't help: …", "X isn't enough on its own, because …". */
const FALLS_SHORT = /\b(?:wouldn't|won't|doesn't|don't|didn't|isn't|aren't|would not|will not|does not|do not|is not|are not) (?:help|hold|scale|suffice|be enough|enough|reach|cut it|save us|change anything|make a difference|matter|catch (?:this|it|that)|cover (?:this|it|that)|prevent (?:this|it|that)|buy (?:us )?(?:anything|much))\b(?: [a-z·]+){0,4}?\s*(?:,\s*)?(?::|;|\s[—–]\s|\sbecause\s|\ssince\s|\sas\s|\sgiven\s)/;
/** "X was my first thought, but …", "Salting the key is the usual cure for a hot key, but …". */
const FIRST_THOUGHT = /\b(?:was my first (?:thought|instinct|idea|guess)|the (?:usual|obvious|standard|textbook|classic|common) (?:cure|fix|answer|approach|move|remedy|way|alternative)|the quick(?:est)? (?:way out|fix|patch|hack)|is tempting|the (?:other |usual |obvious )?(?:thing|option|fix) (?:people|everyone|you'd|one would) reach for)\b[^.]*?(?:\bbut\b|[;:—–]\s*(?:it|that|this|they)\s+(?:doesn't|won't|wouldn't|isn't|can't|don't|only)\b)/;
/** "Halving the learning rate only moved the blow-up by 200 steps": a step taken that did not do it. */
const DID_LITTLE = /^[a-z]{3,}ing\b[^.;]{2,100}?\b(?:only (?:moved|shifted|delayed|postponed|hid|masked)|barely (?:moved|changed|helped)|made no (?:difference|dent)|had no effect|changed nothing)\b/;
/** "A hostname denylist would …, but the renderer walks …": what it would do, and why not. Subject first, not a pronoun. */
const WOULD_BUT = /^(?!(?:i|we|you|it|this|that|there|which|if|when|once|maybe|perhaps)\b)[^,;:]{3,90}?\b(?:would|could)\b[^;]{3,160}?,?\s+(?:but|whereas)\s+(?!(?:i'll|i will|let me|first|i need|we need|i'm not sure|not\b))\S/;
/** "`terraform state mv` … would mean pulling both states …", "… would cost us the positioned errors". */
const WOULD_COST = /\b(?:would|'d) (?:mean|cost(?: us)?|paper over|defeat|wipe|throw away|drag in|bloat|grow without bound)\b|\b(?:much |far |a lot )?(?:bigger|larger|heavier|more invasive) (?:change|hammer|dependency|rewrite) than (?:this|the|we|it)\b/;

/** "Counter caches came up too, but I'm leaving them out: …". */
const BUT_LEFT_OUT = /\bbut (?:i'm|we're|i am|we are|i've|we've) (?:leaving|keeping|left|kept) (?:it|them|that|those|this|these) out\b|\b(?:i'm|we're|i am|we are) (?:also )?leaving\b[^.;:]{1,60}?\bout of (?:it|this|that)\b/;

/** The strongest shapes: a step or approach that does not do it, said outright. */
export function fallsShort(m: string): boolean {
  return FALLS_SHORT.test(m) || DID_LITTLE.test(m);
}

/** The weaker shapes (the strong ones are `fallsShort`, its own cue at a higher confidence). */
export function turnedDown(m: string): boolean {
  return BUT_LEFT_OUT.test(m) || FIRST_THOUGHT.test(m) || WOULD_BUT.test(m) || (WOULD_COST.test(m) && !/^(?:i|we|you|it|this|that|if|when|once)\b/.test(m));
}

/** "The fix is `foldl'` plus …", "Instead the recovery goes in X: …", "So the fix goes where …". */
const THE_FIX = /^(?:so,? |instead,? )?the (?:fix|solution|remedy|recovery|cure) (?:is|was|goes|went)\b(?! to\b)/;
/** A piece moved or kept somewhere, with why: "Decoding moves into a job …, because …". */
const MOVES = /\b(?:moves|moved) (?:into|to|out of|behind|under|onto)\b|\b(?:goes|went) (?:in|into|behind) (?:·|the|a|its|their)|\bgoes (?:first|last)\b|\bstays? (?:on|in|at|behind|with) (?:·|the|a|its|their)|\bnow lives? in\b|\bgets? (?:its|their) own\b|\bgets?\b[^.;]{2,100}\b(?:rather than|instead of)\b/;
/** What the code does now, with why: "So the join now only sees …", "`Load()` now binds …, so …". */
const NOW_DOES = /\bnow (?:only |just |also )?(?!(?:fails?|breaks?|crash(?:es)?|throws?|errors?|hangs?|times?|shows?|reports?|that|on|is|are|has|have|looks|seems|appears)\b)[a-z]{3,}s\b/;
/** "I'm also taking the hint out: …", "so I've kept it out of the change". */
const KEPT_OUT = /\b(?:i'm|i am|i've|i have|we're|we've) (?:also )?(?:taking|took|kept|keeping|pulling|dropping|dropped)\b[^.;:]{1,80}?\b(?:out|alone|in place|as is)\b/;
/** "I'm setting `grad_clip: 1.0` …, because …", "I'm giving `jwt.decode` a leeway instead": a change under way, said as one. */
const DOING = /\b(?:i'm|we're|i am|we are) (?:now |also )?(?:setting|giving|adding|using|pinning|raising|lowering|capping|routing|splitting|wrapping|making|putting|limiting|bounding|gating|turning|converting|changing|replacing|moving|rewriting|renaming)\b/;
/** "`packageManager` is pinned to `pnpm@9.15.4` …, so …": a setting stated as made. */
const SET_AS = /^(?:·+[^.;]{0,60}?\b(?:is|are)|[a-z]+(?: [a-z]+)? (?:is|are)) (?:now )?(?:pinned|capped|bundled|routed|scoped|registered|wired|batched|detected|guarded|gated|debounced|throttled|memoized|split|set|limited|bounded) (?:to|at|in|into|through|with|by|on|behind|as|once|inside|per)\b/;
/** A sentence that opens on "Instead": what was done in place of what was just turned down. */
const INSTEAD_START = /^instead,?\s+(?!of\b)(?![^.]*\b(?:should|could|would|might|may|can)\b)/;
/** "The new script reads it from the environment instead.": what was done in place of something, said last. */
const INSTEAD_END = /^(?!(?:i|we|you|let|if|maybe|perhaps)\b)(?![^.]*\b(?:should|could|would|might|may|can)\b)[^.]{8,}\binstead\W*$/;
/** A reason. Not "instead of" / "rather than": "the endpoint now issues 1 query instead of 619" compares, it gives no why. */
const WHY = /\b(?:because|since|so that|which keeps|which means|which is)\b|, so\b|^so\b|\sso (?:it|we|they|the|that) (?:can|can't|cannot|doesn't|won't|stays?|keeps?)\b|[;:]\s|\s[—–]\s/;

const CONDITION_START = /^(?:if|when|once|after|before|until)\b/;

/** "Hoisting it back into a `static final Pattern` restores the old cost": a change told by what it does. */
const CHANGE_DOES = /^[a-z]{3,}ing\b[^.;]{2,100}?\b(?:restores|avoids|removes|halves|prevents|eliminates|brings back|cuts (?:the|it|that|our))\b/;

/** The fix named, or a piece moved or kept somewhere, with why. */
export function changePlaced(m: string): boolean {
  return THE_FIX.test(m) || CHANGE_DOES.test(m) || (MOVES.test(m) && WHY.test(m) && !CONDITION_START.test(m));
}

/** What the code does now, or what was left out, with why: weaker, as a summary of the change tells it too. */
export const doesNow = (m: string): boolean => NOW_DOES.test(m);

export function changeMade(m: string): boolean {
  if (INSTEAD_START.test(m) || INSTEAD_END.test(m) || (DOING.test(m) && /\binstead\b/.test(m))) return true;
  return (NOW_DOES.test(m) || KEPT_OUT.test(m) || DOING.test(m) || SET_AS.test(m)) && WHY.test(m) && !CONDITION_START.test(m);
}

/** Code, or the absence of any, as the subject: "`foldl` builds …", "Nothing in `pyproject.toml` declares …", "With `--snapshot` goreleaser never …". */
const CODE_SUBJECT = /^(?:(?:the\s+)?·+(?:\s+and\s+(?:the\s+)?·+)?|(?:on|in|with|since|from) [a-z·][\w.·-]* v?\d+(?:\.\d+)*,|without (?:an? )?·+|v?\d+(?:\.\d+)*\s+[a-z]+s\b|nothing (?:else )?in\b|with ·+,?\s+[a-z]|the (?:hal|api|sdk|driver|compiler|runtime|kernel|orm|framework|library|server|client|cache|scheduler|planner|linter|bundler|loader|browser) [a-z]+s\b)/;
/** What follows from how it behaves: "…, so once the peripheral is stuck …", "…, which stops at …", "…, and nothing … ever resets it". */
const CONSEQUENCE = /,\s+so\s+(?!(?:i|we|let's|let me|the question|the next step)\b)[a-z·]|\s[—–]\s[^.]*\s(?:fails|breaks|throws|crashes)\b|\bis what (?:makes|causes|breaks|triggers|keeps)\b|\b(?:which|that) is where\b|,\s+which\s+(?:stops|leaks|means|dangles|is why|breaks|blocks|skips|drops|runs|fires|happens)\b|\band nothing (?:in|else|here|outside)\b|\band nothing\b[^.]{0,80}\bever\b|\b(?:on|at) every (?:call|request|tick|frame|render|run|update|query)\b|\bevery time\b|\bbecause\b/;

const GUESS = /\b(?:must be|might|may be|probably|likely|presumably|i think|i guess|perhaps|maybe)\b/;

export function explainsCode(m: string): boolean {
  return CODE_SUBJECT.test(m) && CONSEQUENCE.test(m) && !/\bnow\b/.test(m) && !GUESS.test(m);
}

/**
 * What a tool or platform lacks or never does, said of it: "Hermes doesn't implement
 * `Intl.RelativeTimeFormat` at all, so …", "`onclose` never fires", "There's already a `Field`
 * primitive that …". Not of the assistant or the team ("I don't handle …").
 */
const LACKS = /\b(?:doesn't|does not|don't|do not) (?:implement|support|expose|ship|provide|include|honou?r|respect)\b[^.;]{1,80}?(?:\bat all\b|,\s+so\b)|\bnever (?:fires|runs|gets (?:called|sent|fired)|reaches|resolves|closes|triggers|arrives|returns)\b/;
export function lacksOrNever(m: string): boolean {
  return (LACKS.test(m) || EXPOSED.test(m) || /^there(?:'s| is| are) already\b|^there(?:'s| is) (?:also )?an? [^.,]{2,40}(?:,\s*·+,)? that [a-z]+s\b/.test(m)) && !/^(?:i|we|you|if|when you)\b/.test(m) && !GUESS.test(m);
}

/** A secret found where it should not be: "The webhook URL is hardcoded in the committed script". */
const EXPOSED = /\b(?:is|are) (?:hardcoded|hard-coded|in plain ?text|checked in|committed in)\b/;

/**
 * "The ticker no longer freezes after sleep", "`Custom/Water` compiles under URP now", "the depth
 * error is gone", "the `-Werror` compile passes again": a symptom gone.
 */
export const SYMPTOM_GONE = /^(?=.*\bno longer\b)(?!.*\bso (?:that )?[^.;]*\bno longer\b).*?\bno longer (?!(?:needs?|requires?|uses?|has|have|is|are|supports?|exists?|works?|applies|matters?|returns?|calls?|writes?|sets?|stores?|sends?|creates?|touches?|imports?|exposes?|persists?|keeps?|reads?|loads?|owns?|handles?|includes?|depends?)\b)[a-z]+s\b|\b(?:compiles|builds|boots|links)\b[^.;]{0,40}\bnow\W*$|\b(?:errors?|warnings?|failures?|crash(?:es)?|exceptions?|timeouts?|[45]\d\d|[45]xx|symbols?|flakes?|races?|leaks?|mismatch(?:es|ed)?)\b[^.;:]{0,40}?\b(?:is|are) (?:gone|fixed|resolved)\b|\b(?:passes|compiles|builds|links|is green|are green|is clean|are clean) again\b/;

/** "The hang is `updateUIView` tearing down …", "The skew isn't a big tenant: …": what a symptom comes down to. */
export const DIAGNOSIS = /^(?:the|this|that) (?:hang|leak|slowdown|bottleneck|stall|spike|skew|hitch|jank|stutter|lag|regression|culprit|root cause|race|deadlock|latency|growth|drift)\b[^.:;]{0,40}? (?:is|was|isn't|wasn't|comes from|came from|is coming from)\b/;

/**
 * A user's standing instruction, as users give them: "Please don't add any new Swift packages",
 * "Never edit CHANGELOG.md by hand", "Keep the tests table-driven like the rest of the repo",
 * "no emoji in the docs", "Only ever run it with --snapshot locally". Not one for this task only
 * ("don't push yet", "don't worry about the tests", "keep going").
 */
const DONT = /(?:^|[:;—–]\s*|,?\s(?:so|but)\s+)(?:(?:and|also|oh|plus),?\s+)?(?:please,?\s+)?(?:don't|do not|never|always)\s+(?!(?:worry|bother|mind|forget|hesitate|stop|wait)\b)[a-z·]/;
/** A request for now, not a rule: "don't push yet", "leave it for now", "in this PR". */
export const FOR_NOW = /\b(?:yet|for now|this time|today|right now|in this (?:pr|pass|change|session)|until|anymore|any more)\b/;
const KEEP_ALWAYS = /(?:^|[:;—–]\s*)(?:and |also )?(?:please,? )?keep\s+(?!going|at it|it up|up|in mind|looking|trying)[^.]{3,100}?\b(?:in this repo|like the rest|anywhere|everywhere|always|each|every|all|consistent|on purpose|deliberately|intentionally|that way)\b|(?:^|[:;—–]\s*)(?:please,? )?keep (?:all |any )?new (?:code|files|modules|components|tests|endpoints|screens|services|classes|scripts)\b/;
const NOWHERE = /\b(?:no|never any)\s[^.;]{2,50}?\s(?:in (?:the|this|our|any) (?:docs|repo|codebase|code|tests?|driver|project|commits?|prs?|api)|anywhere|outside (?:of )?(?:tests|the tests|test code))\b/;
const STANDING = /\bonly ever\b|^(?:(?:also|and)[:,]?\s+)?(?:please\s+)?(?:keep|use|put|write|run|target|pin|log|format|name|show|report|build|deploy|test)\b(?:[^.;]{3,80},\s*|[^.;,]{3,60}\s)(?:not|never)\b|\bthis (?:repo|project|codebase) (?:uses|runs|targets|is on)\b|\bno new ones\b|\bacross the (?:project|repo|codebase)\b|^anything that\b|^for [^,]{3,60},\s*(?:always\s+)?(?:use|keep|put|prefer|avoid|write)\b|^for (?!(?:this|that|the|now|today)\b)[^,]{3,60}?,?\s(?:i want|i'd like|i need|we want)\b|\bunless (?:i|we) (?:say|tell you|ask for) otherwise\b|^[a-z][\w.-]*(?: [\w.-]+){0,3}s (?:go|live|belong) (?:in|into|under)\b[^;]{2,60}?,\s*(?:not|never)\b|\b(?:in|for) this (?:repo|codebase|project)\b[^.]*\b(?:always|never|don't|do not)\b|\b(?:team rule|house rule|ground rule|standing rule|(?:one|a) rule for|as a rule|for anything that|for everything)\b|\bin general,|^all our [a-z]+\b|^(?:when|whenever) you\b[^,]{3,80},\s*(?:please\s+)?(?:put|use|add|run|write|keep|include|mention|show|tag|link|ask)\b|\buse (?:our|the existing)\b[^.]{2,60}\b(?:rather than|instead of|not)\b|\bi (?:don't|do not) want\b[^.]{2,60}\b(?:anywhere|ever|in (?:the|this|our|any))\b|\bwe (?:don't|do not|never) (?:use|spin up|add|write|run|commit|push|touch|edit|call|import|pull in|ship|deploy|allow|hand-edit|vendor|mock)\b|\b(?:has|have) to keep (?:working|supporting|running)\b|\bwe(?:'re| are) (?:moving|migrating) (?:off|away from)\b/;
/**
 * A rule for every case of something ("Every alert needs a `runbook_url` annotation", "All schema
 * changes go through a Flyway migration"), a convention against what it rules out ("We log
 * through the macros here, never `io:format`"), a standing constraint ("Results must stay
 * bit-for-bit identical …", "no new dependencies without asking me first", "no exceptions").
 */
const RULE = /^(?:(?:and|also),?\s+)?(?:every|all|each|any|anything|everything)\s[^.;?]{2,60}?\b(?:needs?|must|has to|have to|goes through|go through|gets?(?! \/)|requires?)\b|,\s*never\s+(?!mind\b)[a-z·]|\bwe (?:use|log|write|deploy|test|format|build|ship|run|pin|name)\b[^.;?]{2,60}?\b(?:here|everywhere|throughout|across the)\b|\bno exceptions\b|\bwithout (?:asking|checking with|flagging|telling|running it by|clearing it with)\b|\b(?:must|should) (?:never|always)\b|\b(?:is|that's|that is|it's) our (?:standard|default|convention|norm)\b|\b(?:is|that's|that is|it's) the (?:standard|default|convention|norm) (?:across|everywhere|here|for (?:us|our|the team|this team))\b|(?:^|,\s*|\bso\s+)no new\s+[a-z·]|\b(?:must|has to|have to) (?:stay|remain|keep|exist)\b|^anything you\b|^(?:and|also),?\s+no (?!(?:rush|worries|worry|problem|need|hurry|idea|way|luck|change|thanks)\b)[a-z][^.;,?]{1,40},|^(?:please,?\s+)?keep it\b[^.?]{2,60}?,\s*no\s/;
const LEAVE_ALONE = /^(?:please,?\s+)?leave\b(?:[^.;]|\.(?=\S)){2,60}\balone\b/;

/** People type "dont", "doesnt", "isnt": the contraction the patterns know. */
export const withApostrophes = (text: string): string =>
  text.replace(/\b(do|does|did|is|are|was|were|should|would|could|have|has|ca|wo)nt\b/gi, "$1n't").replace(/\b(that|it|there)s\b(?= (?:a|an|the|not|our|how|why|what|fine|ok|okay|all|just|why)\b)/gi, "$1's");

export function standingInstruction(text: string): boolean {
  const m = withApostrophes(text.replace(/[‘’]/g, "'")).toLowerCase();
  if (/\?\s*$/.test(m) || /^(?:if|should|could|would|can|do|does|why|what|how)\b/.test(m)) return false;
  if ((DONT.test(m) || KEEP_ALWAYS.test(m) || LEAVE_ALONE.test(m)) && !FOR_NOW.test(m)) return true;
  return NOWHERE.test(m) || STANDING.test(m) || (RULE.test(m) && !FOR_NOW.test(m));
}
