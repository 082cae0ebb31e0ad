import { compareEvents } from '../events/serialize.js';
import type { CortexEvent, EventType } from '../events/types.js';
import { createReversals, createStems, readStance, type Statement } from './reversals.js';
import type { ProjectionSettings } from './settings.js';

/**
 * The fold: visible events → the state every projection renders. Pure; `now` comes in.
 *
 * Changes to memory are events too: `event_retracted` (meta.target) removes its target,
 * `event_amended` (meta.target, content = the new text) rewrites it, `decision_superseded`
 * (meta.target, optionally meta.by) retires a decision, and so does a decision whose
 * `meta.supersedes` names it (a `[MEMORY: decision supersedes <id>]` tag). A later decision that
 * reverses an earlier one, or chooses what a rejection turned down, retires it too, by what it
 * says (reversals.ts). A memory said again in a later session is one item used twice, not two
 * items, and in force again if only such a reading had retired it; touching a file a memory
 * names also counts as a use.
 */
export type Tier = 'active' | 'aging' | 'archived';

export interface MemoryItem {
  /** The first event's id: the identity shown in files and accepted by `cortex forget`. */
  id: string;
  type: EventType;
  content: string;
  reason?: string;
  alternative?: string;
  files: string[];
  /** The event that first recorded it (date, session, author). */
  origin: CortexEvent;
  lastUsed: string;
  uses: number;
  confidence: number;
  /** Assistant sessions started after the last use. */
  sessionsSinceUse: number;
  tier: Tier;
  /** Salience after reinforcement and decay (decisions and rejections do not decay). */
  effectiveSalience: number;
  /** The decision that replaced it (an event id; '' when a supersession names none). */
  supersededBy?: string;
  /**
   * Set when no event retired it but a later decision's words did: 'reversed' (a decision that
   * decision undoes) or 'reconsidered' (a rejected approach it chooses after all).
   */
  implied?: 'reversed' | 'reconsidered';
  /** What this decision retired (superseded, reversed or reconsidered), oldest first. */
  replaces?: Array<Pick<MemoryItem, 'id' | 'type' | 'content' | 'implied'>>;
}

/**
 * Captured by a heuristic reading prose (Layer 2), so marked `inferred` wherever it is shown; a
 * tag, `cortex remember`, a tool call or an import states its memory outright.
 */
export const isInferred = (item: Pick<MemoryItem, 'origin'>): boolean => item.origin.provenance.startsWith('layer2:');

export interface PlanStep {
  text: string;
  done: boolean;
}

export interface PlanState {
  id: string;
  title: string;
  steps: PlanStep[];
  origin: CortexEvent;
  updated: string;
  /** Closed by a task_completed, or every step done. */
  complete: boolean;
  /** Index of the first step not done ("you are here"), or null. */
  current: number | null;
  /** Every plan id folded into this one: its own, and those of the lists that continued it. */
  ids: string[];
  /**
   * The step completions that ticked a step not done before, in order: the plan's progress. A
   * todo list written again in a later session ticks its finished steps again; those repeats are
   * not progress, so a range diff does not count old work as new.
   */
  progress: Array<{ event: string; step: string }>;
}

export interface SessionSummary {
  id: string;
  start: string;
  end: string;
  author: string;
  branch: string | null;
}

export interface FileTouch {
  path: string;
  last: string;
  count: number;
}

export interface MemoryState {
  decisions: MemoryItem[];
  rejections: MemoryItem[];
  preferences: MemoryItem[];
  /** Decisions and rejections no longer current: superseded, reversed or reconsidered. */
  superseded: MemoryItem[];
  /** Learnings, fixes and finished tasks, by effective salience. */
  recent: MemoryItem[];
  plans: PlanState[];
  activePlan: PlanState | null;
  /** The id of the newest plan event in view: what `active-plan.md` is as of. */
  planAsOf: string | null;
  /** Forgettings, edits and supersessions in view, oldest first: changes to other memories. */
  corrections: CortexEvent[];
  files: FileTouch[];
  sessions: SessionSummary[];
}

/** Session ids that are not assistant sessions: they never age anything. */
export const NOT_A_SESSION: ReadonlySet<string> = new Set(['cli', 'import', 'git', 'unknown-session']);
/** The kinds of memory that never decay: the ones the tracked decision files list. */
export const PERMANENT = new Set<EventType>(['decision_made', 'approach_rejected', 'preference_noted']);
const RECENT = new Set<EventType>(['knowledge_acquired', 'error_resolved', 'task_completed']);
/** Events that change another memory (`meta.target`) rather than being one. */
export const CORRECTIONS = new Set<EventType>(['event_retracted', 'event_amended', 'decision_superseded']);
const isPlanEvent = (e: CortexEvent): boolean => e.type === 'plan_created' || e.type === 'plan_step_completed' || (e.type === 'task_completed' && str(e.meta.plan_id) !== undefined);
/**
 * The events the tracked files name by id: the memories `decisions.md` and its archive list, the
 * corrections the archive lists, the plan events `active-plan.md` is as of. A squash merge
 * carries what they name across (see branch-view.ts), so search must know where each was recorded.
 */
export const isNamedByTrackedFiles = (e: CortexEvent): boolean => PERMANENT.has(e.type) || CORRECTIONS.has(e.type) || isPlanEvent(e);

export const normalizeText = (s: string): string => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
const str = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() !== '' ? x.trim() : undefined);
/** The memory a correction changes. */
export const targetOf = (e: CortexEvent): string | undefined => str(e.meta.target) ?? str(e.meta.id);
/** The ids a decision's `meta.supersedes` names (one, or a list), as written: full or short. */
export const supersedesOf = (e: CortexEvent): string[] => (Array.isArray(e.meta.supersedes) ? e.meta.supersedes : [e.meta.supersedes]).map(str).filter((x): x is string => x !== undefined);

function filesOf(e: CortexEvent): string[] {
  const files = new Set<string>();
  const path = str(e.meta.path);
  if (path) files.add(path);
  if (Array.isArray(e.meta.files)) for (const f of e.meta.files) if (str(f)) files.add(str(f) as string);
  return [...files].sort();
}

export function foldMemory(allEvents: readonly CortexEvent[], settings: ProjectionSettings, now: Date): MemoryState {
  // Journal reads come sorted already; sorting 100K events again costs more than checking.
  const sorted = allEvents.every((e, i) => i === 0 || compareEvents(allEvents[i - 1] as CortexEvent, e) <= 0);
  const events = sorted ? allEvents : [...allEvents].sort(compareEvents);
  const retracted = new Set<string>();
  const amended = new Map<string, { content: string; ts: string }>();
  const superseded = new Map<string, string>();
  const named: CortexEvent[] = [];
  const corrections: CortexEvent[] = [];
  // An amendment of an amendment amends the memory the first one did: amendment id → that memory's id.
  const amendsMemory = new Map<string, string>();
  for (const e of events) {
    if (PERMANENT.has(e.type) && e.meta.supersedes !== undefined) named.push(e);
    const id = targetOf(e);
    if (!id) continue;
    if (CORRECTIONS.has(e.type)) corrections.push(e);
    if (e.type === 'event_retracted') retracted.add(id);
    else if (e.type === 'event_amended') {
      const memory = amendsMemory.get(id) ?? id;
      amendsMemory.set(e.id, memory);
      amended.set(memory, { content: e.content, ts: e.ts });
    }
    else if (e.type === 'decision_superseded') superseded.set(id, str(e.meta.by) ?? '');
  }
  if (named.length > 0) supersedeNamed(events, named, retracted, superseded);

  const items = new Map<string, MemoryItem>();
  const byText = new Map<string, MemoryItem>();
  const byFile = new Map<string, MemoryItem[]>();
  const planBook = newPlanBook();
  let planAsOf: string | null = null;
  const files = new Map<string, FileTouch>();
  const sessions = new Map<string, SessionSummary>();
  const use = (item: MemoryItem, ts: string) => {
    item.uses += 1;
    if (ts > item.lastUsed) item.lastUsed = ts;
  };
  /** Each decision or rejection event's item (a memory said again is the item it repeats). */
  const itemOf = new Map<string, MemoryItem>();
  const reversals = createReversals();
  const statements = new Map<string, Statement>();
  const stems = createStems();
  // A decision or rejection said: it may retire others (reversals.ts), and is in force again itself
  // if only such a reading had retired it. One retired by an event stays retired.
  const stated = (item: MemoryItem) => {
    if (item.type !== 'decision_made' && item.type !== 'approach_rejected') return;
    if (item.supersededBy !== undefined && item.implied === undefined) return;
    item.supersededBy = undefined;
    item.implied = undefined;
    let statement = statements.get(item.id);
    if (!statement) {
      const stance = readStance({ type: item.type, content: item.content, reason: item.reason, rejected: str(item.origin.meta.rejected) }, stems);
      statements.set(item.id, (statement = { id: item.id, type: item.type, session: item.origin.session, inferred: isInferred(item), stance }));
    }
    for (const r of reversals.stated(statement)) {
      const old = items.get(r.retired);
      if (old) Object.assign(old, { supersededBy: r.by, implied: r.how });
    }
  };

  for (const e of events) {
    if (!NOT_A_SESSION.has(e.session)) {
      const s = sessions.get(e.session);
      if (!s) sessions.set(e.session, { id: e.session, start: e.ts, end: e.ts, author: e.author, branch: e.branch });
      else s.end = e.ts;
    }
    if (retracted.has(e.id) || e.confidence < settings.minConfidence) continue;
    if (e.type === 'file_modified') {
      for (const path of filesOf(e)) {
        const touch = files.get(path);
        if (touch) {
          touch.count += 1;
          touch.last = e.ts;
        } else files.set(path, { path, last: e.ts, count: 1 });
        for (const item of byFile.get(path) ?? []) use(item, e.ts);
      }
      continue;
    }
    if (e.type === 'event_amended') {
      const item = items.get(targetOf(e) ?? '');
      if (item) use(item, e.ts);
      continue;
    }
    if (isPlanEvent(e)) {
      foldPlan(planBook, e);
      planAsOf = e.id;
      if (e.type !== 'task_completed') continue;
    }
    if (!PERMANENT.has(e.type) && !RECENT.has(e.type)) continue;

    const key = `${e.type}\u0000${normalizeText(amended.get(e.id)?.content ?? e.content)}`;
    const same = byText.get(key);
    if (same) {
      use(same, e.ts);
      itemOf.set(e.id, same);
      const by = superseded.get(e.id);
      if (by !== undefined && (same.supersededBy === undefined || same.implied !== undefined)) {
        Object.assign(same, { supersededBy: by, implied: undefined });
        reversals.retire(same.id);
      } else stated(same);
      continue;
    }
    const item: MemoryItem = {
      id: e.id,
      type: e.type,
      content: amended.get(e.id)?.content ?? e.content,
      reason: str(e.meta.reason) ?? str(e.meta.why),
      alternative: str(e.meta.alternative) ?? str(e.meta.instead),
      files: filesOf(e),
      origin: e,
      lastUsed: amended.get(e.id)?.ts ?? e.ts,
      uses: 1,
      confidence: e.confidence,
      sessionsSinceUse: 0,
      tier: 'active',
      effectiveSalience: e.salience,
      supersededBy: superseded.get(e.id),
    };
    items.set(e.id, item);
    byText.set(key, item);
    itemOf.set(e.id, item);
    for (const path of item.files) byFile.set(path, [...(byFile.get(path) ?? []), item]);
    stated(item);
  }

  const sessionStarts = [...sessions.values()].map((s) => s.start).sort();
  const startedAfter = (ts: string) => sessionStarts.length - upperBound(sessionStarts, ts);
  for (const item of items.values()) {
    item.sessionsSinceUse = startedAfter(item.lastUsed);
    item.tier = item.sessionsSinceUse >= settings.archiveAfterSessions ? 'archived' : item.sessionsSinceUse >= settings.outdatedAfterSessions ? 'aging' : 'active';
    const reinforced = Math.min(1, item.origin.salience + settings.reinforcement * (item.uses - 1));
    const hours = Math.max(0, (now.getTime() - Date.parse(item.lastUsed)) / 3_600_000);
    item.effectiveSalience = item.origin.immortal ? reinforced : reinforced * settings.decayPerHour ** hours;
  }

  const all = [...items.values()];
  for (const item of all) {
    const by = item.supersededBy ? itemOf.get(item.supersededBy) : undefined;
    if (by && by !== item) (by.replaces ??= []).push({ id: item.id, type: item.type, content: item.content, implied: item.implied });
  }
  const current = (type: EventType) => all.filter((i) => i.type === type && i.supersededBy === undefined).sort(byLastUse);
  const planList = [...planBook.plans.values()].map(finishPlan).sort((a, b) => (a.updated === b.updated ? (a.id < b.id ? -1 : 1) : a.updated > b.updated ? -1 : 1));
  return {
    decisions: current('decision_made'),
    rejections: current('approach_rejected'),
    preferences: current('preference_noted'),
    superseded: all.filter((i) => i.supersededBy !== undefined).sort(byLastUse),
    recent: all.filter((i) => RECENT.has(i.type)).sort((a, b) => b.effectiveSalience - a.effectiveSalience || byLastUse(a, b)),
    plans: planList,
    activePlan: planList.find((p) => !p.complete && !retracted.has(p.origin.id)) ?? null,
    planAsOf,
    corrections,
    files: [...files.values()].sort((a, b) => (a.last === b.last ? (a.path < b.path ? -1 : 1) : a.last > b.last ? -1 : 1)),
    sessions: [...sessions.values()].sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0)),
  };
}

/**
 * What decisions' `meta.supersedes` name, as superseded by them: a full id (an imported one may
 * be as short as one character), or a unique prefix or suffix of 6+ characters (the 8 `cortex log
 * --oneline` and the briefing show) of a decision, rejection or preference. A name that fits none,
 * or several, retires nothing; so does a superseding decision that was forgotten. A supersession
 * an event records comes first. Two decisions that each name the other (an import can say
 * anything) leave the later one standing, as a reversal would.
 */
function supersedeNamed(events: readonly CortexEvent[], named: readonly CortexEvent[], retracted: ReadonlySet<string>, superseded: Map<string, string>): void {
  const wanted = new Map<string, { exact?: string; partial: Set<string> }>();
  for (const e of named) if (!retracted.has(e.id)) for (const ref of supersedesOf(e)) wanted.set(ref.toUpperCase(), { partial: new Set() });
  if (wanted.size === 0) return;
  for (const e of events) {
    if (!PERMANENT.has(e.type)) continue;
    const id = e.id.toUpperCase();
    for (const [ref, found] of wanted) {
      if (id === ref) found.exact = e.id;
      else if (ref.length >= 6 && (id.startsWith(ref) || id.endsWith(ref))) found.partial.add(e.id);
    }
  }
  for (const e of named) {
    if (retracted.has(e.id)) continue;
    for (const ref of supersedesOf(e)) {
      const found = wanted.get(ref.toUpperCase());
      const old = found?.exact ?? (found?.partial.size === 1 ? [...found.partial][0] : undefined);
      if (!old || old === e.id || retracted.has(old)) continue;
      if (superseded.get(e.id) === old && !superseded.has(old)) superseded.delete(e.id);
      if (!superseded.has(old)) superseded.set(old, e.id);
    }
  }
}

/** Most recently used first; ties by id, so every ordering is deterministic. */
export const byLastUse = (a: MemoryItem, b: MemoryItem): number => (a.lastUsed === b.lastUsed ? (a.id < b.id ? -1 : 1) : a.lastUsed > b.lastUsed ? -1 : 1);

/** Number of items in sorted `xs` that are ≤ `x`. */
function upperBound(xs: readonly string[], x: string): number {
  let lo = 0;
  let hi = xs.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((xs[mid] as string) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Plans across events and sessions. A plan is known by its `plan_id`; a todo list written again
 * in a later session gets a new id from capture, so a new plan whose steps mostly match an open
 * plan's is that plan, continued. Steps that arrive before their plan (same timestamp, or a
 * clone's clock) wait for it.
 */
interface PlanBook {
  plans: Map<string, PlanState>;
  aliases: Map<string, string>;
  waiting: Map<string, CortexEvent[]>;
}

const newPlanBook = (): PlanBook => ({ plans: new Map(), aliases: new Map(), waiting: new Map() });

function sameSteps(a: readonly string[], b: readonly PlanStep[]): boolean {
  const keys = new Set(b.map((s) => normalizeText(s.text)));
  const shared = a.filter((t) => keys.has(normalizeText(t))).length;
  return shared > 0 && shared >= Math.min(a.length, b.length) / 2;
}

function foldPlan(book: PlanBook, e: CortexEvent): void {
  const rawId = str(e.meta.plan_id) ?? (e.type === 'plan_created' ? e.id : undefined);
  const planId = rawId ? book.aliases.get(rawId) ?? rawId : undefined;
  // A step or a close without a plan id belongs to the plan most recently worked on.
  const plan = planId ? book.plans.get(planId) : latestOpenPlan(book);
  if (e.type === 'plan_created') {
    const steps = Array.isArray(e.meta.steps) ? e.meta.steps.map((s) => str(s)).filter((s): s is string => s !== undefined) : [];
    // A `[MEMORY: todo]` is one more step of the plan in progress, not a plan that replaces it.
    const open = e.meta.tag === 'todo' && !plan ? latestOpenPlan(book) : undefined;
    if (open) {
      book.aliases.set(planId as string, open.id);
      open.ids.push(planId as string);
      const text = steps[0] ?? e.content;
      if (!open.steps.some((s) => normalizeText(s.text) === normalizeText(text))) open.steps.push({ text, done: false });
      if (e.ts > open.updated) open.updated = e.ts;
      return;
    }
    const continued = plan ?? [...book.plans.values()].find((p) => !p.complete && sameSteps(steps, p.steps));
    if (!continued) {
      book.plans.set(planId as string, { id: planId as string, title: planTitle(e.content), steps: steps.map((text) => ({ text, done: false })), origin: e, updated: e.ts, complete: false, current: null, ids: [planId as string], progress: [] });
    } else {
      if (!continued.ids.includes(planId as string)) {
        book.aliases.set(planId as string, continued.id);
        continued.ids.push(planId as string);
      }
      // The same plan written again (a todo list updated): keep what was done, add what is new.
      const done = new Set(continued.steps.filter((s) => s.done).map((s) => normalizeText(s.text)));
      const kept = steps.map((text) => ({ text, done: done.has(normalizeText(text)) }));
      const dropped = continued.steps.filter((s) => !steps.some((t) => normalizeText(t) === normalizeText(s.text)));
      if (steps.length > 0) continued.steps = [...kept, ...dropped.filter((s) => s.done)];
      continued.updated = e.ts > continued.updated ? e.ts : continued.updated;
      continued.complete = false;
    }
    for (const step of book.waiting.get(planId as string) ?? []) foldPlan(book, step);
    book.waiting.delete(planId as string);
    return;
  }
  if (!plan) {
    if (planId) book.waiting.set(planId, [...(book.waiting.get(planId) ?? []), e]);
    return;
  }
  if (e.ts > plan.updated) plan.updated = e.ts;
  if (e.type === 'task_completed') {
    plan.complete = true;
    return;
  }
  const step = e.meta.step;
  const position = typeof step === 'number' ? step : typeof step === 'string' && /^\d+$/.test(step.trim()) ? Number(step) : NaN;
  const stepText = typeof step === 'string' && Number.isNaN(position) ? step : e.content;
  // By text first: positions shift when a continued list was reordered; the number is the fallback.
  let index = plan.steps.findIndex((s) => normalizeText(s.text) === normalizeText(stepText));
  if (index === -1 && Number.isInteger(position) && position >= 1 && position <= plan.steps.length) index = position - 1;
  if (index === -1) {
    plan.steps.push({ text: stepText, done: false });
    index = plan.steps.length - 1;
  }
  const ticked = plan.steps[index] as PlanStep;
  if (ticked.done) return;
  ticked.done = true;
  plan.progress.push({ event: e.id, step: ticked.text });
}

/** The open plan most recently worked on. */
function latestOpenPlan(book: PlanBook): PlanState | undefined {
  return [...book.plans.values()].filter((p) => !p.complete).sort((a, b) => (a.updated < b.updated ? 1 : -1))[0];
}

function finishPlan(plan: PlanState): PlanState {
  const current = plan.steps.findIndex((s) => !s.done);
  const allDone = plan.steps.length > 0 && current === -1;
  return { ...plan, complete: plan.complete || allDone, current: current === -1 ? null : current };
}

/** "Plan: a; b; c" (what capture writes) → a readable title. */
export function planTitle(content: string): string {
  const text = content.replace(/^plan:\s*/i, '').trim();
  const steps = text.split(/;\s+/);
  const title = steps.length > 2 ? `${steps.slice(0, 2).join('; ')}; …` : text;
  return title.length > 100 ? `${title.slice(0, 99)}…` : title;
}
