import type { ListItem, PhrasingContent, RootContent } from 'mdast';
import { byLastUse, isInferred, NOT_A_SESSION, PERMANENT, type MemoryItem, type MemoryState, type PlanState } from './fold.js';
import { becauseOf, code, day, emphasis, fillTemplate, heading, list, listItem, paragraph, parseMarkdown, renderMarkdown, shortId, shortSession, strong, text, truncate } from './markdown.js';
import type { Warning } from './reality.js';

/**
 * The briefing: what the next session needs, under a hard budget. Sections fill in priority
 * order (reality checks, the active plan, decisions, recent work), each within its share;
 * an entry is kept whole or left out, and what was left out is counted in one line.
 */
export interface BriefingInput {
  state: MemoryState;
  warnings: readonly Warning[];
  /** This clone's author: provenance names other people only. */
  me: string;
  /** templates/briefing.md */
  template: string;
  budgetTokens: number;
  /** A hard ceiling in characters on top of the token budget (hook output). */
  maxChars?: number;
}

export interface BriefingSection {
  name: 'warnings' | 'plan' | 'decisions' | 'recent';
  shown: number;
  omitted: number;
}

export interface Briefing {
  markdown: string;
  tokens: number;
  chars: number;
  budget: number;
  sections: BriefingSection[];
}

export const CHARS_PER_TOKEN = 4;
export const estimateTokens = (s: string): number => Math.ceil(s.length / CHARS_PER_TOKEN);

/** Shares of the character budget; decisions are capped hard, recent work takes what is left. */
/** How many entries too long for the room left are passed over before a section stops. */
const MAX_PASSED_OVER = 8;
const SHARE = { warnings: 0.2, plan: 0.25, decisions: 0.4 } as const;
const MAX_ENTRY_CHARS = 320;

interface Entry {
  item: ListItem;
  size: number;
}

export function renderBriefing(input: BriefingInput): Briefing {
  // A cap below the budget (the hook's 9,500 characters) bounds the briefing the budget gives; it
  // does not shrink the budget's shares. So the hook prints what `cortex briefing` prints whenever
  // that fits under the cap, and a briefing shared out over the cap only when it does not.
  const budgetChars = Math.max(0, input.budgetTokens * CHARS_PER_TOKEN);
  if (input.maxChars !== undefined && input.maxChars < budgetChars) {
    const asBudgeted = renderWithin(input, budgetChars);
    if (asBudgeted.markdown.length <= input.maxChars) return asBudgeted;
  }
  return renderWithin(input, Math.max(0, Math.min(budgetChars, input.maxChars ?? Infinity)));
}

function renderWithin(input: BriefingInput, limit: number): Briefing {
  const template = parseMarkdown(input.template);
  const { state } = input;
  const provenance = provenanceFor(input.me);

  const warnings = input.warnings.map((w) => measure(listItem(text(w.text))));
  const decisionItems = [...state.decisions, ...state.rejections, ...state.preferences].filter((i) => i.tier !== 'archived');
  const permanent = [...decisionItems.filter((i) => i.tier === 'active').sort(byLastUse), ...decisionItems.filter((i) => i.tier === 'aging').sort(byLastUse)];
  const archived = state.decisions.length + state.rejections.length + state.preferences.length - decisionItems.length;
  const recentItems = state.recent.filter((i) => i.tier !== 'archived');

  const chosen = { warnings: 0, decisions: [] as MemoryItem[], recent: [] as MemoryItem[], planWindow: null as PlanWindow | null };
  const build = (): RootContent[] => {
    const sections: Record<string, RootContent[]> = {};
    if (chosen.warnings > 0) sections.warnings = [heading(2, text('Check first')), list(warnings.slice(0, chosen.warnings).map((w) => w.item))];
    if (state.activePlan && chosen.planWindow) sections.plan = renderPlan(state.activePlan, chosen.planWindow, provenance);
    sections.decisions = renderDecisions(chosen.decisions, provenance);
    if (chosen.recent.length > 0) sections.recent = [heading(2, text('Recent work')), list(chosen.recent.map((i) => recentEntry(i, provenance)))];
    sections.omitted = omittedSection({ warnings: warnings.length - chosen.warnings, plan: Boolean(state.activePlan) && !chosen.planWindow, decisions: permanent.length - chosen.decisions.length, archived, recent: recentItems.length - chosen.recent.length });
    return fillTemplate(template, sections);
  };

  // What the template costs on its own, plus room for the "not shown" line.
  const fixed = renderMarkdown(build()).length + 160;
  let room = limit - fixed;
  // An entry too long for what is left is passed over for the shorter ones after it (one long
  // decision must not leave the section empty), but only a few: each is measured by rendering.
  const take = <T>(entries: readonly T[], size: (t: T) => number, cap: number): T[] => {
    const out: T[] = [];
    let used = 0;
    let passed = 0;
    for (const e of entries) {
      const s = size(e);
      if (used + s > cap || used + s > room) {
        if (++passed > MAX_PASSED_OVER) break;
        continue;
      }
      out.push(e);
      used += s;
    }
    room -= used;
    return out;
  };
  chosen.warnings = take(warnings, (w) => w.size, limit * SHARE.warnings).length;
  if (state.activePlan) chosen.planWindow = fitPlan(state.activePlan, Math.min(limit * SHARE.plan, room), provenance, (used) => (room -= used));
  const headings = 3 * 30;
  chosen.decisions = take(permanent, (i) => measure(decisionEntry(i, provenance)).size, limit * SHARE.decisions - headings);
  chosen.recent = take(recentItems, (i) => measure(recentEntry(i, provenance)).size, Infinity);

  // The sizes above are estimates of a whole document's rendering: check the real one, and drop
  // the least important entries until it fits.
  let markdown = renderMarkdown(build());
  while (markdown.length > limit) {
    if (chosen.recent.length > 0) chosen.recent.pop();
    else if (chosen.decisions.length > 0) chosen.decisions.pop();
    else if (chosen.warnings > 0) chosen.warnings -= 1;
    else if (chosen.planWindow) chosen.planWindow = null;
    else {
      markdown = bareMinimum(template, limit, { warnings: warnings.length, plan: Boolean(state.activePlan), decisions: permanent.length, archived, recent: recentItems.length });
      break;
    }
    markdown = renderMarkdown(build());
  }
  return {
    markdown,
    tokens: estimateTokens(markdown),
    chars: markdown.length,
    budget: input.budgetTokens,
    sections: [
      { name: 'warnings', shown: chosen.warnings, omitted: warnings.length - chosen.warnings },
      { name: 'plan', shown: chosen.planWindow ? chosen.planWindow.end - chosen.planWindow.start : 0, omitted: state.activePlan ? state.activePlan.steps.length - (chosen.planWindow ? chosen.planWindow.end - chosen.planWindow.start : 0) : 0 },
      { name: 'decisions', shown: chosen.decisions.length, omitted: permanent.length - chosen.decisions.length + archived },
      { name: 'recent', shown: chosen.recent.length, omitted: recentItems.length - chosen.recent.length },
    ],
  };
}

/**
 * When not even the template's fixed text fits: as many of its leading blocks as do, never ending
 * on a heading without its text, with the line counting every entry (it follows the preamble,
 * the other sections being empty).
 */
function bareMinimum(template: ReturnType<typeof parseMarkdown>, limit: number, omitted: Omitted): string {
  // The whole count if it fits, else one number: what is left out is never left out unsaid.
  // Trailing blocks (the note on keeping memory) go first, never the count.
  const all = omitted.warnings + (omitted.plan ? 1 : 0) + omitted.decisions + omitted.archived + omitted.recent;
  const lines = [omittedSection(omitted), all > 0 ? [paragraph(text(`Not shown, to stay within the budget: ${all} more (`), code('cortex decisions'), text(', '), code('cortex search <query>'), text(').'))] : []];
  for (const line of lines) {
    const blocks = fillTemplate(template, { omitted: line });
    const keep = line[0] ? blocks.indexOf(line[0]) + 1 : 1;
    for (let n = blocks.length; n >= keep; n--) {
      if (blocks[n - 1]?.type === 'heading') continue;
      const markdown = renderMarkdown(blocks.slice(0, n));
      if (markdown.length <= limit) return markdown;
    }
  }
  return '';
}

const measure = (item: ListItem): Entry => ({ item, size: renderMarkdown([list([item])]).length });

type Provenance = (item: MemoryItem) => PhrasingContent;

/**
 * "(2026-11-03, session 1a2b3c4d, bob@example.com)": the author only when it is not you. A
 * decision, rejection or preference ends with its short id (the 8 characters `cortex log
 * --oneline` prints), which a `[MEMORY: decision supersedes <id>]` tag or `remember --supersedes`
 * takes: a few characters, and the next session can retire what it replaces without looking it up.
 */
function provenanceFor(me: string): Provenance {
  return (item) => {
    const parts = [day(item.origin.ts)];
    if (!NOT_A_SESSION.has(item.origin.session)) parts.push(`session ${shortSession(item.origin.session)}`);
    if (item.origin.author && item.origin.author !== me) parts.push(item.origin.author);
    if (isInferred(item)) parts.push('inferred');
    if (item.tier !== 'active') parts.push(`possibly outdated: unused for ${item.sessionsSinceUse} sessions`);
    if (PERMANENT.has(item.type)) parts.push(`id ${shortId(item.id)}`);
    return emphasis(`(${parts.join(', ')})`);
  };
}

/**
 * What a decision superseded by naming it (an id), in a few words: the next session should not
 * propose it again either. What it reversed or reconsidered by its words needs no note: those
 * words already say what it replaces.
 */
function replacedNote(item: MemoryItem): PhrasingContent[] {
  const replaced = (item.replaces ?? []).filter((i) => i.implied === undefined);
  if (replaced.length === 0) return [];
  const said = (i: Pick<MemoryItem, 'type' | 'content'>) => `${i.type === 'approach_rejected' ? 'reconsiders the rejected' : 'replaces'} “${truncate(i.content, 80)}”`;
  const more = replaced.length > 2 ? `; and ${replaced.length - 2} more` : '';
  return [text(` (${replaced.slice(0, 2).map(said).join('; ')}${more})`)];
}

const mentions = (content: string, part: string) => content.toLowerCase().includes(part.toLowerCase().slice(0, 40));

function decisionEntry(item: MemoryItem, provenance: Provenance): ListItem {
  const content = truncate(item.content, item.tier === 'aging' ? 120 : MAX_ENTRY_CHARS);
  const children: PhrasingContent[] = [item.tier === 'aging' ? text(content) : strong(content)];
  if (item.tier === 'active') {
    if (item.reason && !mentions(item.content, item.reason)) children.push(text(` — ${becauseOf(truncate(item.reason, 200))}`));
    if (item.alternative && !mentions(item.content, item.alternative)) children.push(text(` (chosen instead: ${truncate(item.alternative, 80)})`));
    children.push(...replacedNote(item));
  }
  children.push(text(' '), provenance(item));
  return listItem(...children);
}

function renderDecisions(items: readonly MemoryItem[], provenance: Provenance): RootContent[] {
  const out: RootContent[] = [];
  const group = (title: string, type: MemoryItem['type']) => {
    const entries = items.filter((i) => i.type === type);
    if (entries.length > 0) out.push(heading(2, text(title)), list(entries.map((i) => decisionEntry(i, provenance))));
  };
  group('Decisions', 'decision_made');
  group('Rejected approaches (do not propose again without a new reason)', 'approach_rejected');
  group('Preferences', 'preference_noted');
  return out;
}

const RECENT_LABEL: Partial<Record<MemoryItem['type'], string>> = { knowledge_acquired: 'Learned', error_resolved: 'Fixed', task_completed: 'Done' };

function recentEntry(item: MemoryItem, provenance: Provenance): ListItem {
  const label = RECENT_LABEL[item.type] ?? 'Noted';
  // "Done: added the loader." already says its label; once is enough.
  const content = item.content.replace(new RegExp(`^${label}\\s*(?::|!|—|–| - )\\s*(?=\\S)`, 'i'), '');
  return listItem(strong(`${label}:`), text(` ${truncate(content, MAX_ENTRY_CHARS)} `), provenance(item));
}

/** Which steps of the plan are shown: [start, end) around "you are here". */
interface PlanWindow {
  start: number;
  end: number;
}

function fitPlan(plan: PlanState, cap: number, provenance: Provenance, spend: (used: number) => void): PlanWindow | null {
  const here = plan.current ?? plan.steps.length;
  const n = plan.steps.length;
  const windows: PlanWindow[] = [
    { start: 0, end: n },
    { start: Math.max(0, here - 2), end: Math.min(n, here + 8) },
    { start: Math.max(0, here - 1), end: Math.min(n, here + 4) },
    { start: here, end: Math.min(n, here + 2) },
    { start: here, end: here },
  ];
  for (const window of windows) {
    const size = renderMarkdown(renderPlan(plan, window, provenance)).length;
    if (size <= cap) {
      spend(size);
      return window;
    }
  }
  return null;
}

function renderPlan(plan: PlanState, window: PlanWindow, provenance: Provenance): RootContent[] {
  const done = plan.steps.filter((s) => s.done).length;
  const here = plan.current;
  const steps = plan.steps.slice(window.start, window.end).map((step, k) => {
    const i = window.start + k;
    if (step.done) return listItem(text(`✓ ${truncate(step.text, 200)}`));
    if (i === here) return listItem(strong(`→ ${truncate(step.text, 200)}`), text(' ← you are here'));
    return listItem(text(truncate(step.text, 200)));
  });
  const where = here === null ? `all ${plan.steps.length} steps done` : `step ${here + 1} of ${plan.steps.length}, ${done} done`;
  const out: RootContent[] = [heading(2, text(`Active plan: ${truncate(plan.title, 120)}`)), paragraph(text(`Where the work stands: ${where}. `), provenance(planItem(plan)))];
  const hidden: string[] = [];
  if (window.start > 0) hidden.push(`${window.start} earlier steps`);
  if (window.end < plan.steps.length) hidden.push(`${plan.steps.length - window.end} later steps`);
  if (steps.length > 0) out.push(list(steps, true, window.start + 1));
  if (hidden.length > 0) out.push(paragraph(text(`Not shown: ${hidden.join(' and ')} (`), code('cortex plan'), text(').')));
  return out;
}

/** A plan's provenance, through the same formatter as memories. */
function planItem(plan: PlanState): MemoryItem {
  return { id: plan.id, type: 'plan_created', content: plan.title, files: [], origin: plan.origin, lastUsed: plan.updated, uses: 1, confidence: plan.origin.confidence, sessionsSinceUse: 0, tier: 'active', effectiveSalience: plan.origin.salience };
}

/** What the budget left out, counted: every section the briefing has, so nothing goes missing unsaid. */
interface Omitted {
  warnings: number;
  plan: boolean;
  /** Decisions, rejections and preferences the budget left out. */
  decisions: number;
  /** Those archived (unused for many sessions): never in a briefing, whatever its budget. */
  archived: number;
  recent: number;
}

const omittedSection = (omitted: Omitted): RootContent[] => (omitted.warnings + omitted.decisions + omitted.archived + omitted.recent > 0 || omitted.plan ? [paragraph(...omittedLine(omitted))] : []);

function omittedLine(omitted: Omitted): PhrasingContent[] {
  const cut = budgetLine(omitted);
  if (omitted.archived === 0) return cut;
  const archived = [text(`${omitted.archived} archived (`), code('cortex decisions'), text(').')];
  return cut.length > 0 ? [...cut, text(' '), ...archived] : [text('Not shown: '), ...archived];
}

function budgetLine({ warnings, plan, decisions, recent }: Omitted): PhrasingContent[] {
  const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  const parts: PhrasingContent[][] = [];
  if (warnings > 0) parts.push([text(`${plural(warnings, 'warning', 'warnings')} to check first`)]);
  if (plan) parts.push([text('the active plan ('), code('cortex plan'), text(')')]);
  if (decisions > 0) parts.push([text(`${plural(decisions, 'more decision', 'more decisions')} (`), code('cortex decisions'), text(')')]);
  if (recent > 0) parts.push([text(`${plural(recent, 'older item', 'older items')} (`), code('cortex search <query>'), text(')')]);
  if (parts.length === 0) return [];
  return [text('Not shown, to stay within the budget: '), ...parts.flatMap((part, i) => (i === 0 ? part : [text('; '), ...part])), text('.')];
}
