import type { CortexEvent, EventType } from '../events/types.js';
import { isInferred, PERMANENT, supersedesOf } from '../projections/fold.js';
import { analyze } from './analyze.js';

/**
 * What the index holds of an event: what it says (content, the reason and the alternative), its
 * files and its tags. The kind of memory a question wants ("why did we *reject*…") is not matched
 * as text but read from the question as an intent (query-plan.ts) that favours that type: as
 * text, "file" and "read" would sit in most documents and make every query that uses them slow.
 * Edits (retract, amend, supersede) and commit links are not documents: they change what other
 * documents show.
 */
export const FIELDS = ['content', 'files', 'tags'] as const;
export type Field = (typeof FIELDS)[number];

/** How much a match in each field counts. */
export const FIELD_BOOST: Readonly<Record<Field, number>> = { content: 1, files: 0.7, tags: 1.3 };

/** The kinds the issue asks to favour come first; activity (files, commands) is findable but quiet. */
export const TYPE_BOOST: Readonly<Record<string, number>> = {
  decision_made: 1.6,
  approach_rejected: 1.6,
  knowledge_acquired: 1.4,
  error_resolved: 1.35,
  preference_noted: 1.3,
  event_amended: 1.3,
  plan_created: 1.15,
  plan_step_completed: 1,
  task_completed: 1,
  file_modified: 0.55,
  command_run: 0.5,
  file_explored: 0.45,
};

/** Type codes stored per document (one byte each); the order is part of the index format. */
export const INDEXED_TYPES: readonly EventType[] = [
  'decision_made',
  'approach_rejected',
  'knowledge_acquired',
  'error_resolved',
  'preference_noted',
  'plan_created',
  'plan_step_completed',
  'task_completed',
  'event_amended',
  'file_modified',
  'file_explored',
  'command_run',
];
const TYPE_CODE = new Map<string, number>(INDEXED_TYPES.map((t, i) => [t, i]));
export const typeCode = (type: string): number | undefined => TYPE_CODE.get(type);

/**
 * The memory kinds anticipatory recall searches and offers: never file or command activity, nor
 * plans (recall.ts says why). What it searches is also what tells it how rare a word is.
 */
export const RECALLED_TYPES: ReadonlySet<string> = new Set(['decision_made', 'approach_rejected', 'knowledge_acquired', 'error_resolved', 'preference_noted', 'event_amended']);

/** What `cortex embed` computes vectors for: memories, not file and command activity. */
export const EMBEDDED_TYPES: ReadonlySet<string> = new Set([...RECALLED_TYPES, 'plan_created', 'plan_step_completed', 'task_completed']);
export const EMBEDDED_TYPE_CODES: ReadonlySet<number> = new Set([...EMBEDDED_TYPES].map((t) => TYPE_CODE.get(t) as number));

/** The text a memory is embedded by: what it says, why, and what instead. */
export const proseOf = (doc: Pick<StoredDoc, 'content' | 'reason' | 'alternative'>): string => [doc.content, doc.reason, doc.alternative].filter(Boolean).join('\n');

export const isIndexed = (e: CortexEvent): boolean => TYPE_CODE.has(e.type) && e.content.trim() !== '';

const str = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() !== '' ? x : undefined);

/** The stored record a result is shown from. Short keys: a journal of 100K events keeps them all. */
export interface StoredDoc extends Pick<CortexEvent, 'id' | 'type' | 'content' | 'ts' | 'session' | 'author' | 'branch' | 'commit'> {
  reason?: string;
  alternative?: string;
  files?: string[];
  tags?: string[];
  /** For an amendment: the event it rewrites. */
  target?: string;
  /** For a decision: what capture read it was chosen over (reversals.ts reads it). */
  rejected?: string;
  /** Captured by a heuristic (Layer 2), which never overturns a memory stated outright. */
  inferred?: boolean;
  /** This is the memory `id` as the amendment `amendedBy` rewrote it (amendedDoc). */
  amendedBy?: string;
}

/**
 * An amendment is found as the memory it amends: that memory's id, type, reason and files, with
 * the new text (as `cortex decisions` shows it). `amendedBy` tells it from the original, which
 * the amendment hides. Without its target (not in the journal), the amendment stands alone.
 */
export function amendedDoc(amendment: CortexEvent, target: CortexEvent | undefined): StoredDoc {
  if (!target || !isIndexed(target) || target.type === 'event_amended') return storedDoc(amendment);
  return { ...storedDoc(target), content: amendment.content, ts: amendment.ts, amendedBy: amendment.id };
}

export function storedDoc(e: CortexEvent): StoredDoc {
  const doc: StoredDoc = { id: e.id, type: e.type, content: e.content, ts: e.ts, session: e.session, author: e.author, branch: e.branch, commit: e.commit };
  const reason = str(e.meta.reason) ?? str(e.meta.why);
  const alternative = str(e.meta.alternative) ?? str(e.meta.instead);
  const files = filesOf(e);
  const tags = Array.isArray(e.meta.tags) ? e.meta.tags.filter((t): t is string => typeof t === 'string') : [];
  if (reason) doc.reason = reason;
  if (alternative) doc.alternative = alternative;
  if (files.length > 0) doc.files = files;
  if (tags.length > 0) doc.tags = tags;
  if (e.type === 'event_amended' && str(e.meta.target)) doc.target = str(e.meta.target);
  if (e.type === 'decision_made' && str(e.meta.rejected)) doc.rejected = str(e.meta.rejected);
  if ((e.type === 'decision_made' || e.type === 'approach_rejected') && isInferred({ origin: e })) doc.inferred = true;
  return doc;
}

function filesOf(e: CortexEvent): string[] {
  const files = new Set<string>();
  const path = str(e.meta.path);
  if (path) files.add(path);
  if (Array.isArray(e.meta.files)) for (const f of e.meta.files) if (str(f)) files.add(f as string);
  return [...files];
}

/** The analysed fields of a document: terms per field, in order. */
export type AnalysedDoc = Record<Field, string[]>;

export function analyseDoc(doc: StoredDoc): AnalysedDoc {
  return {
    content: analyze(proseOf(doc)),
    files: analyze((doc.files ?? []).join(' ')),
    tags: analyze((doc.tags ?? []).join(' ')),
  };
}

/**
 * An edit another event makes to what search shows: a retraction hides its target, an
 * amendment hides the text it replaces (the amendment is found instead), a supersession marks a
 * decision as replaced. Each applies only where the editing event is visible. A supersession a
 * decision names itself (`meta.supersedes`: `remember --supersedes`, a tag) may name its target
 * by its id or by a prefix or suffix of 6+ characters, as the briefing and `log --oneline` show
 * it (`named`).
 */
export interface SearchEdit {
  kind: 'retract' | 'amend' | 'supersede';
  target: string;
  by?: string;
  named?: boolean;
  /** For a named supersession, the superseding decision's time: of two that name each other, the later stands. */
  at?: string;
  place: number;
}

export function editsOf(e: CortexEvent): Array<Omit<SearchEdit, 'place'>> {
  if (e.meta.supersedes !== undefined && PERMANENT.has(e.type)) {
    return supersedesOf(e).map((ref) => ({ kind: 'supersede', target: ref.toUpperCase(), by: e.id, named: true, at: e.ts }));
  }
  const target = str(e.meta.target) ?? str(e.meta.id);
  if (!target) return [];
  if (e.type === 'event_retracted') return [{ kind: 'retract', target }];
  if (e.type === 'event_amended') return [{ kind: 'amend', target, by: e.id }];
  if (e.type === 'decision_superseded') return [{ kind: 'supersede', target, ...(str(e.meta.by) ? { by: str(e.meta.by) } : {}) }];
  return [];
}
