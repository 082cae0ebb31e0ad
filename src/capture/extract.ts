import type { Candidate } from './candidate.js';
import { emptyPlans, extractToolCalls, planId, redactPlans, unansweredCalls, type SessionPlans } from './layer1.js';
import { extractProse, extractUserPreferences } from './layer2.js';
import { extractTags, withoutTags } from './layer3.js';
import { extractProsePlans } from './prose-plan.js';
import { prepareProse } from './prose.js';
import { redactMemory } from './redact.js';
import { parseTranscript, type Transcript, type TranscriptItem } from './transcript.js';

/**
 * The capture pipeline, pure: transcript text → redacted, deduplicated candidates from the
 * three layers. `state` carries what must survive between incremental reads of one session
 * (plan identities, what was already captured); callers persist it.
 */
export interface CaptureState extends SessionPlans {
  /** Dedupe keys of everything already captured in this session. */
  seen: string[];
  /** Tool calls the last read ended before the result of (layer1.ts unansweredCalls). */
  unanswered?: TranscriptItem[];
}

export const emptyCaptureState = (): CaptureState => ({ ...emptyPlans(), seen: [] });

export interface ExtractResult {
  candidates: Candidate[];
  transcript: Omit<Transcript, 'items'>;
  state: CaptureState;
}

const normalize = (s: string) => s.toLowerCase().replace(/\[redacted:[a-z-]+\]/g, '').replace(/[^a-z0-9]+/g, ' ').trim();

/** Two captures are the same memory when they say the same thing (or touch the same file). */
export function dedupeKey(c: Candidate): string {
  switch (c.type) {
    case 'file_modified':
    case 'file_explored':
      return `${c.type}:${String(c.meta.path)}`;
    case 'command_run':
      return `${c.type}:${String(c.meta.command)}`;
    case 'plan_created':
    case 'plan_step_completed':
      return `${c.type}:${String(c.meta.plan_id ?? '')}:${String(c.meta.step ?? '')}:${normalize(c.content)}`;
    case 'preference_noted':
      return `memory:${normalize(preferenceStated(c.content))}`;
    default:
      return `memory:${normalize(c.content)}`;
  }
}

/**
 * A preference as stated, whoever says it: the user's "I prefer tabs over spaces." and the
 * assistant's "Noted, you prefer tabs over spaces." are one preference.
 */
function preferenceStated(text: string): string {
  return text
    .replace(/^\s*(?:understood|got it|noted|will do|sure thing|ok(?:ay)?|sure|of course)\s*[:,;!.—–-]+\s*/i, '')
    .replace(/^(?:i|you|we)(?:'d| would)?\s+(?=(?:prefer|rather|like|want)\b)/i, '');
}

const redactCandidate = (c: Candidate): Candidate => ({ ...c, ...redactMemory(c) });

/** Words that carry no topic: how a preference is said, not what it is about. */
const FILLER = new Set('a an the this that these those in on at for of to with by and or but not no never always use uses using used prefer prefers preferred rather than over instead noted got it you your we our us i me my please repo repository here there is are be from now going forward only ever do does dont don t ok okay sure will would should can let s ll keep stick'.split(' '));

const topicWords = (key: string): Set<string> => new Set(key.split(' ').filter((w) => w.length > 2 && !FILLER.has(w)));

/**
 * A preference said twice in other words, most often the user's ("Please always use pnpm, not
 * npm, in this repo.") and the assistant's acknowledgement ("Noted, you prefer pnpm over npm for
 * this repo."): the same topic words, nearly all of them shared.
 */
function restatesPreference(key: string, earlier: Iterable<string>): boolean {
  const words = topicWords(key.slice(key.indexOf(':') + 1));
  if (words.size < 2) return false;
  for (const other of earlier) {
    if (!other.startsWith('memory:')) continue;
    const theirs = topicWords(other.slice('memory:'.length));
    let shared = 0;
    for (const w of words) if (theirs.has(w)) shared++;
    if (shared >= 2 && shared >= 0.75 * Math.min(words.size, theirs.size)) return true;
  }
  return false;
}

/**
 * `root`: the directory file paths are made relative to (the repository's work tree, for hooks);
 * by default the transcript's own cwd.
 */
export function extractCandidates(text: string, options: { session?: string; state?: CaptureState; includeSidechains?: boolean; root?: string | null } = {}): ExtractResult {
  const transcript = parseTranscript(text);
  // A state kept before its texts were redacted is redacted on the way in, so the one written back is too.
  const state: CaptureState = options.state ? structuredClone(options.state) : emptyCaptureState();
  Object.assign(state, redactPlans(state));
  const session = options.session ?? transcript.sessionId ?? 'unknown';
  const keepSidechains = options.includeSidechains === true || transcript.subagentFile;
  const items = transcript.items.filter((item) => keepSidechains || !item.sidechain);

  const calls = [...(state.unanswered ?? []), ...items];
  const raw: Candidate[] = extractToolCalls(calls, options.root ?? transcript.cwd, session, state);
  state.unanswered = unansweredCalls(calls);
  for (const item of items) {
    if (item.kind !== 'assistant-text' && item.kind !== 'user-text') continue;
    const prose = prepareProse(item.text);
    const tagged = extractTags(prose, item.ts);
    for (const plan of tagged) followTaggedPlan(plan, state, session);
    raw.push(...tagged);
    // A compaction's summary tells the session again: its "switched to X", "prefer A over B" were
    // captured when they happened, or were never decisions (a log of edits, errors and fixes).
    if (item.recap) continue;
    const untagged = withoutTags(item.text);
    if (item.kind === 'assistant-text') raw.push(...extractProse(untagged, item.ts), ...extractProsePlans(untagged, state, session, item.ts));
    else raw.push(...extractUserPreferences(untagged, item.ts));
  }

  const seen = new Set(state.seen);
  const candidates: Candidate[] = [];
  const byKey = new Map<string, Candidate>();
  for (const candidate of raw.map(redactCandidate)) {
    const key = dedupeKey(candidate);
    if (seen.has(key)) continue;
    if (candidate.type === 'preference_noted' && restatesPreference(key, [...seen, ...byKey.keys()])) continue;
    const earlier = byKey.get(key);
    if (earlier) {
      // The same memory said twice: keep one, as confident as the most confident saying.
      if (candidate.confidence > earlier.confidence) Object.assign(earlier, { confidence: candidate.confidence, provenance: candidate.provenance, type: candidate.type });
      continue;
    }
    byKey.set(key, candidate);
    candidates.push(candidate);
  }
  state.seen = [...seen, ...byKey.keys()];
  const { items: _items, ...summary } = transcript;
  return { candidates, transcript: summary, state };
}

/**
 * A plan a `[MEMORY: plan]` tag states is the session's plan from then on, as a written or todo
 * list one is: a later "Step 2 done: …" ticks its second step (prose-plan.ts).
 */
function followTaggedPlan(candidate: Candidate, state: SessionPlans, session: string): void {
  const steps = Array.isArray(candidate.meta.steps) ? candidate.meta.steps.filter((s): s is string => typeof s === 'string') : [];
  if (candidate.type !== 'plan_created' || candidate.meta.tag === 'todo' || steps.length < 2) return;
  const known = state.plans.find((p) => p.steps.length === steps.length && p.steps.every((s, i) => s === steps[i]));
  const plan = known ?? { id: planId(`${session}\u0000tag\u0000${state.plans.length}\u0000${steps.join('\n')}`), steps, done: steps.map(() => false) };
  if (!known) state.plans.push(plan);
  candidate.meta.plan_id = plan.id;
}
