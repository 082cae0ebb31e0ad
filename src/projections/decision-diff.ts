import type { RootContent } from 'mdast';
import type { CortexEvent } from '../events/types.js';
import { normalizeText, type MemoryItem, type MemoryState, type PlanState } from './fold.js';
import { becauseOf, code, day, heading, list, listItem, paragraph, renderMarkdown, shortId, strong, text } from './markdown.js';

/**
 * The decision diff of a range (a pull request): memory head has that base does not, folded so
 * that a retraction or supersession on head shows as a decision retired, not as noise.
 */
export interface DiffEntry {
  id: string;
  type: string;
  content: string;
  reason: string | null;
  ts: string;
  author: string;
  session: string;
}

export interface DecisionDiff {
  decisions: DiffEntry[];
  rejections: DiffEntry[];
  preferences: DiffEntry[];
  /**
   * Decisions current on base that head retracted, superseded or reversed. A decision head never saw
   * (base made it after they parted) is base's news, not a retirement, so it is not listed.
   */
  retired: DiffEntry[];
  /** Steps head ticked that were not done before, each with the title of the plan it belongs to. */
  planProgress: Array<{ plan: string; step: string; ts: string }>;
  learnings: DiffEntry[];
}

const entry = (i: MemoryItem): DiffEntry => ({ id: i.id, type: i.type, content: i.content, reason: i.reason ?? null, ts: i.origin.ts, author: i.origin.author, session: i.origin.session });

export interface DiffRange {
  /** Events head sees and base does not. */
  added: readonly CortexEvent[];
  /** Every event head sees. */
  headVisible: readonly CortexEvent[];
}

export function diffMemory(base: MemoryState, head: MemoryState, { added, headVisible }: DiffRange): DecisionDiff {
  const addedIds = new Set(added.map((e) => e.id));
  const headSees = new Set(headVisible.map((e) => e.id));
  const fresh = (items: readonly MemoryItem[]) => items.filter((i) => addedIds.has(i.id)).map(entry);
  const current = new Set([...head.decisions, ...head.rejections, ...head.preferences].map((i) => i.id));
  // A todo list written again in a later session continues its plan under another plan id and
  // ticks its finished steps again. Progress is a step head ticked for the first time (foldPlan)
  // that base had not ticked on the same plan: with clocks tied or skewed, the repeat may fold
  // first on head, but base, which lacks it, has the step done already.
  const doneInBase = new Map<string, Set<string>>();
  for (const plan of base.plans) {
    const done = new Set(plan.steps.filter((s) => s.done).map((s) => normalizeText(s.text)));
    for (const id of plan.ids) doneInBase.set(id, done);
  }
  const progressOn = new Map<string, { plan: PlanState; step: string }>();
  for (const plan of head.plans) {
    for (const { event, step } of plan.progress) if (!plan.ids.some((id) => doneInBase.get(id)?.has(normalizeText(step)))) progressOn.set(event, { plan, step });
  }
  return {
    decisions: fresh(head.decisions),
    rejections: fresh(head.rejections),
    preferences: fresh(head.preferences),
    retired: [...base.decisions, ...base.rejections, ...base.preferences].filter((i) => headSees.has(i.id) && !current.has(i.id)).map(entry),
    planProgress: added.flatMap((e) => {
      const progress = e.type === 'plan_step_completed' ? progressOn.get(e.id) : undefined;
      return progress ? [{ plan: progress.plan.title, step: progress.step, ts: e.ts }] : [];
    }),
    learnings: fresh(head.recent.filter((i) => i.type === 'knowledge_acquired' || i.type === 'error_resolved')),
  };
}

export const isEmptyDiff = (d: DecisionDiff): boolean => Object.values(d).every((v) => v.length === 0);

const SECTIONS: ReadonlyArray<[keyof DecisionDiff, string, string]> = [
  ['decisions', 'Decisions', '+'],
  ['rejections', 'Rejected approaches', '+'],
  ['preferences', 'Preferences', '+'],
  ['retired', 'Retired (retracted, superseded or reversed)', '-'],
  ['learnings', 'Learned and fixed', '+'],
];

export function renderDiffText(diff: DecisionDiff, range: string): string {
  if (isEmptyDiff(diff)) return `No new decisions, rejections, plan progress or learnings in ${range}.\n`;
  const out: string[] = [];
  for (const [key, title, sign] of SECTIONS) {
    const items = diff[key] as DiffEntry[];
    if (items.length === 0) continue;
    out.push(`${title} (${items.length})`);
    for (const i of items) out.push(`  ${sign} ${i.content}${i.reason && !i.content.includes(i.reason) ? ` — ${becauseOf(i.reason)}` : ''}  (${day(i.ts)}, ${i.author}, ${i.id})`);
    out.push('');
  }
  if (diff.planProgress.length > 0) {
    out.push(`Plan progress (${diff.planProgress.length})`);
    for (const p of diff.planProgress) out.push(`  ✓ ${p.step}  (${p.plan})`);
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

/** A pull request body section, rendered with remark (a memory's text never becomes markup). */
export function renderDiffMarkdown(diff: DecisionDiff, range: string): string {
  const nodes: RootContent[] = [heading(2, text('Decisions in this change (Cortex)'))];
  if (isEmptyDiff(diff)) {
    nodes.push(paragraph(text('No new decisions, rejections, plan progress or learnings in '), code(range), text('.')));
    return renderMarkdown(nodes);
  }
  for (const [key, title] of SECTIONS) {
    const items = diff[key] as DiffEntry[];
    if (items.length === 0) continue;
    nodes.push(heading(3, text(`${title} (${items.length})`)));
    nodes.push(list(items.map((i) => listItem(strong(i.content), ...(i.reason && !i.content.includes(i.reason) ? [text(` — ${becauseOf(i.reason)}`)] : []), text(` (${day(i.ts)}, ${i.author}, `), code(shortId(i.id)), text(')')))));
  }
  if (diff.planProgress.length > 0) {
    nodes.push(heading(3, text(`Plan progress (${diff.planProgress.length})`)));
    nodes.push(list(diff.planProgress.map((p) => listItem(text(`✓ ${p.step} (${p.plan})`)))));
  }
  nodes.push(paragraph(text('Generated by '), code(`cortex diff ${range}`), text(' from the journal branch.')));
  return renderMarkdown(nodes);
}
