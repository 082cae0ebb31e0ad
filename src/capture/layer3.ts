import { MEMORY_TYPES, resolveEventType, type EventType, type Meta } from '../events/types.js';
import { oneEditApart, swappedNeighbours } from '../one-edit.js';
import { tidy, type Candidate } from './candidate.js';
import { planSteps } from './layer1.js';
import type { Sentence } from './prose.js';

/**
 * Layer 3: explicit `[MEMORY: <type>] text` tags (and untyped `[MEMORY: text]`, a learning), from
 * the assistant or the user, in any case and spacing, several per message; a misspelt type counts
 * as the type, and a word of the writer's own as a learning tagged with it. Certain by construction (confidence 1.0). A tag inside a
 * code block is an example of a tag, not a tag: callers pass text with code removed. A decision,
 * rejection or preference may name what it replaces, `[MEMORY: decision supersedes 6TM5GE6H]`
 * (the short id the briefing shows), kept as meta.supersedes for the projections to retire. Pure.
 */
const TAG_TYPES: Readonly<Record<string, EventType>> = {
  decision: 'decision_made',
  decided: 'decision_made',
  rejected: 'approach_rejected',
  rejection: 'approach_rejected',
  reject: 'approach_rejected',
  learned: 'knowledge_acquired',
  learning: 'knowledge_acquired',
  learnt: 'knowledge_acquired',
  plan: 'plan_created',
  todo: 'plan_created',
  preference: 'preference_noted',
  prefer: 'preference_noted',
  error: 'error_resolved',
  fixed: 'error_resolved',
  fix: 'error_resolved',
  done: 'task_completed',
};

// `[MEMORY: decision] text`, or with no type `[MEMORY: free text]`, the form other memory tools
// use: that text, inside the brackets, is a learning.
const TAG = /\[\s*memory\s*:\s*([^\]\n]*?)\s*\]/gi;
const TYPE_NAME = /^[a-z_-]+$/i;
/**
 * `decision supersedes 6TM5GE6H` (also `, replaces`, a colon, several ids): the type, then what it
 * names. Only words shaped like an id (6 to 26 characters of the ULID alphabet, which has no I, L,
 * O or U) are ids; the type stands without them.
 */
const SUPERSEDES = /^([a-z_-]+)\s*[,;]?\s+(?:supersedes?|replaces?)\b\s*:?\s*(.*)$/i;
const ID = /^[0-9a-hjkmnp-tv-z]{6,26}$/i;
/** The memories that replace one another (`cortex remember --supersedes` takes the same). */
const STANDING: ReadonlySet<EventType> = new Set(['decision_made', 'approach_rejected', 'preference_noted']);
/** Free text, not a type misspelt or a list of types (`[MEMORY: decision|learned]`): words with spaces between. */
const FREE_TEXT = /^\S+(?:\s+\S+)+$/;

/** Words that stand for a type in a description of the tag (`[MEMORY: type] text`), not a type. */
const PLACEHOLDERS: ReadonlySet<string> = new Set(['type', 'kind', 'tag', 'category', 'label', 'x', 'foo', 'name', 'event_type']);

/** The type a misspelt type name was meant to be ("decison", "prefrence"); short names are left alone. */
function misspeltType(name: string): EventType | undefined {
  if (name.length < 5) return undefined;
  const near = Object.keys(TAG_TYPES).find((known) => known.length >= 5 && (oneEditApart(name, known) || swappedNeighbours(name, known)));
  return near ? TAG_TYPES[near] : undefined;
}

function metaFor(type: EventType, content: string, tag: string): Meta {
  if (type === 'approach_rejected') {
    const split = /\s(?:because|since|as)\s|\s*(?:—|–|:| - )\s*/i.exec(content);
    if (split) return { reason: content.slice(split.index + split[0].length).trim() };
  }
  if (type === 'decision_made') {
    // "[MEMORY: decision] Use pino because it writes JSON": the reason, as a rejection's is kept.
    const split = /\s(?:because|since|so that)\s|\s(?:—|–| - )\s/i.exec(content);
    if (split) return { reason: content.slice(split.index + split[0].length).trim() };
  }
  // "[MEMORY: plan] migrate auth; add tests; deploy": the steps, as `cortex remember --type plan` reads them.
  if (type === 'plan_created') return { steps: planSteps(content, []), tag };
  return {};
}

function unbold(text: string): string {
  let out = text.replace(/^(\*\*|__)(?=\s)/, '').trimStart();
  if (/(\*\*|__)$/.test(out.trimEnd()) && (out.match(/\*\*|__/g) ?? []).length % 2 === 1) out = out.trimEnd().slice(0, -2);
  return out;
}

/**
 * Tags found in `prose.masked` (so a tag inside inline code is an example, not a tag), with
 * their content read from `prose.text`. The content runs to the next tag or the end of the line.
 */
export function extractTags(prose: Sentence, ts: string): Candidate[] {
  const out: Candidate[] = [];
  const text = prose.text;
  const matches = [...prose.masked.matchAll(TAG)];
  matches.forEach((match, i) => {
    const named = SUPERSEDES.exec(match[1] as string);
    const inner = named ? (named[1] as string) : (match[1] as string);
    if (!TYPE_NAME.test(inner)) {
      if (!FREE_TEXT.test(inner)) return;
      // Read from the text, not the masked copy, at the same place: inline code in it stays.
      const at = (match.index ?? 0) + match[0].indexOf(inner, match[0].indexOf(':'));
      const content = tidy(unbold(text.slice(at, at + inner.length)));
      if (content.length >= 3) out.push({ type: 'knowledge_acquired', content, confidence: 1, provenance: 'layer3:memory-tag', meta: {}, ts });
      return;
    }
    const name = inner.toLowerCase();
    const known = TAG_TYPES[name.replace(/s$/, '')] ?? TAG_TYPES[name] ?? (MEMORY_TYPES.has(name as EventType) ? (name as EventType) : undefined);
    // A tag someone meant to leave is kept: a misspelt type as that type, any other word (a
    // label of their own, "[MEMORY: architecture] …") as a learning that keeps the word as a tag.
    // A type that is not a memory (file_modified, event_retracted) is refused, as before.
    const type = known ?? misspeltType(name) ?? (PLACEHOLDERS.has(name) || resolveEventType(name) ? undefined : 'knowledge_acquired');
    if (!type) return;
    const label = known || misspeltType(name) ? undefined : name;
    const start = (match.index ?? 0) + match[0].length;
    const next = matches[i + 1]?.index ?? text.length;
    let body = text.slice(start, next);
    // The content is the rest of the line; a tag alone on its line labels the next line.
    const firstLine = body.split('\n').find((line, n) => n > 0 || line.trim() !== '') ?? '';
    body = body.trimStart().startsWith('\n') || body.split('\n')[0]?.trim() === '' ? firstLine : (body.split('\n')[0] as string);
    // A tag in bold (`**[MEMORY: decision]** …`, `**[MEMORY: decision] …**`) leaves its markers behind.
    const content = tidy(unbold(body.replace(/^[\s:—–-]+/, '')));
    if (content.length < 3) return;
    const meta = metaFor(type, content, name);
    const ids = named && STANDING.has(type) ? (named[2] as string).split(/[\s,]+/).filter((w) => ID.test(w)) : [];
    if (ids.length > 0) meta.supersedes = ids;
    out.push({ type, content, confidence: 1, provenance: 'layer3:memory-tag', meta: label ? { ...meta, tags: [label] } : meta, ts });
  });
  return out;
}

/** The text with its tags (and what they label) removed, so Layer 2 does not count them twice. */
export function withoutTags(text: string): string {
  return text.replace(/\[\s*memory\s*:\s*[a-z_-]+(?:\s*[,;]?\s+(?:supersedes?|replaces?)\b[^\]\n]*)?\s*\][^\n]*/gi, '').replace(/\[\s*memory\s*:[^\]\n]*\]/gi, '');
}
