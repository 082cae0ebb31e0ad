import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { Meta } from '../events/types.js';
import { tidy, type Candidate } from './candidate.js';
import { redactText } from './redact.js';
import type { TranscriptItem } from './transcript.js';

/**
 * Layer 1: what the tool calls say happened, which needs no interpretation. Successful edits
 * are file changes; reads and searches are exploration; shell commands are commands; todo
 * lists are plans whose identity survives updates, so progress lands on the right plan. A tool
 * use whose result is an error, or that the user rejected, changed nothing. Pure.
 */
export interface PlanState {
  id: string;
  steps: string[];
  done: boolean[];
}

/**
 * What must survive between two reads of the same session (kept in its cursor, on disk). Step
 * and task texts are kept redacted, and compared redacted: the candidates carry the raw text to
 * the pipeline's redaction, which counts what it removes, but the state is written as it is.
 */
export interface SessionPlans {
  plans: PlanState[];
  /** Tasks created through TaskCreate, by their id. */
  tasks: Record<string, string>;
}

export const emptyPlans = (): SessionPlans => ({ plans: [], tasks: {} });

/** A step or task text as the state keeps it. */
export const redactedStep = (text: string): string => redactText(text).text;

/** A state with every step and task text redacted (states written before it was kept that way included). */
export function redactPlans(state: SessionPlans): SessionPlans {
  return {
    plans: state.plans.map((plan) => ({ ...plan, steps: plan.steps.map(redactedStep) })),
    tasks: Object.fromEntries(Object.entries(state.tasks).map(([id, subject]) => [id, redactedStep(subject)])),
  };
}

type ToolUse = Extract<TranscriptItem, { kind: 'tool-use' }>;
type ToolResult = Extract<TranscriptItem, { kind: 'tool-result' }>;

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
const READ_TOOLS = new Set(['Read', 'NotebookRead', 'LS']);
const SEARCH_TOOLS = new Set(['Glob', 'Grep']);
const REJECTED_BY_USER = /doesn't want to proceed|user rejected|was rejected|permission (?:to use \w+ )?(?:was )?denied|tool use was rejected/i;

const str = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() !== '' ? x : undefined);

export function relativePath(path: string, cwd: string | null): string {
  // Normalised first, so `/repo/./src/../src/a.ts` and `src/a.ts` are one file.
  let p = posix.normalize(path.replace(/\\/g, '/'));
  if (cwd) {
    const root = posix.normalize(cwd.replace(/\\/g, '/')).replace(/\/+$/, '');
    if (p.replace(/\/+$/, '') === root) return '.';
    if (p.startsWith(`${root}/`)) p = p.slice(root.length + 1);
  }
  return p.replace(/^\.\//, '');
}

const normalize = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

export function planId(seed: string): string {
  return `plan-${createHash('sha1').update(seed).digest('hex').slice(0, 10)}`;
}

/** The plan a todo list continues: the latest one sharing at least half of its items. */
function findPlan(plans: PlanState[], texts: string[]): PlanState | undefined {
  const keys = new Set(texts.map(normalize));
  for (let i = plans.length - 1; i >= 0; i--) {
    const plan = plans[i] as PlanState;
    const shared = plan.steps.filter((s) => keys.has(normalize(s))).length;
    if (shared > 0 && shared >= Math.min(plan.steps.length, texts.length) / 2) return plan;
  }
  return undefined;
}

/** Whether two step lists hold the same steps, in any order. */
function sameItems(a: readonly string[], b: readonly string[]): boolean {
  const keys = new Set(a.map(normalize));
  return a.length === b.length && b.every((t) => keys.has(normalize(t)));
}

interface Todo {
  content: string;
  status: string;
}

function todosOf(input: Record<string, unknown>): Todo[] {
  const todos = Array.isArray(input.todos) ? input.todos : [];
  return todos.flatMap((t) => {
    if (typeof t !== 'object' || t === null) return [];
    const content = str((t as Record<string, unknown>).content) ?? str((t as Record<string, unknown>).subject);
    return content ? [{ content: content.trim(), status: String((t as Record<string, unknown>).status ?? 'pending') }] : [];
  });
}

function planFromTodos(state: SessionPlans, todos: Todo[], session: string, ts: string): Candidate[] {
  if (todos.length === 0) return [];
  const out: Candidate[] = [];
  const texts = todos.map((t) => t.content);
  const kept = texts.map(redactedStep);
  let plan = findPlan(state.plans, kept);
  if (!plan) {
    // The id is seeded by the raw texts, as it always was: a replayed session finds the same plan.
    plan = { id: planId(`${session}\u0000${state.plans.length}\u0000${texts.join('\n')}`), steps: kept, done: texts.map(() => false) };
    state.plans.push(plan);
    out.push({ type: 'plan_created', content: tidy(`Plan: ${texts.join('; ')}`), confidence: 1, provenance: 'layer1:TodoWrite', meta: { plan_id: plan.id, steps: [...texts] }, ts });
  } else if (!sameItems(plan.steps, kept)) {
    // The list gained, lost or renamed steps: the plan written again under its id, which the
    // projection reads as a revision (what was done is kept, what is new is added).
    const done = new Set(plan.steps.filter((_, i) => plan?.done[i]).map(normalize));
    plan.steps = kept;
    plan.done = kept.map((t) => done.has(normalize(t)));
    out.push({ type: 'plan_created', content: tidy(`Plan: ${texts.join('; ')}`), confidence: 1, provenance: 'layer1:TodoWrite', meta: { plan_id: plan.id, steps: [...texts] }, ts });
  }
  for (const [i, todo] of todos.entries()) {
    const index = plan.steps.findIndex((s) => normalize(s) === normalize(kept[i] as string));
    if (todo.status === 'completed' && !plan.done[index]) {
      plan.done[index] = true;
      out.push({ type: 'plan_step_completed', content: tidy(todo.content), confidence: 1, provenance: 'layer1:TodoWrite', meta: { plan_id: plan.id, step: index + 1 }, ts });
    }
  }
  return out;
}

/** The items of a markdown list ("- x", "* [ ] x", "1. x"), one per line. */
export function listItems(markdown: string): string[] {
  return markdown
    .split('\n')
    .map((line) => /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ x]\]\s+)?(.+)$/.exec(line)?.[1]?.trim())
    .filter((s): s is string => Boolean(s));
}

/**
 * A plan's steps, as `cortex remember` and a `[MEMORY: plan]` tag state them: those given with --step, else the text's list items (one per line,
 * "- x" or "1. x"), else its parts between semicolons (how capture writes a plan), else the text
 * as one step. A plan without steps has no progress to show or to finish. They are redacted with
 * the rest of the memory.
 */
export function planSteps(text: string, given: readonly string[]): string[] {
  const steps = given.map((s) => s.trim()).filter(Boolean);
  if (steps.length > 0) return steps;
  const items = listItems(text);
  if (items.length > 0) return items;
  return text.replace(/^plan\s*:\s*/i, '').split(/;\s+/).map((s) => s.trim()).filter(Boolean);
}

/**
 * The steps of a plan written as a document (ExitPlanMode): its numbered headings ("### 2. Add
 * the index", "**2. Add the index**") where it has them, else its top-level numbered items, else
 * its top-level items, else every item. A plan's context, notes and file lists sit in nested or
 * unnumbered lists under those: they are not steps.
 */
export function documentSteps(markdown: string): string[] {
  const lines = markdown.split('\n');
  const pick = (pattern: RegExp) => lines.map((l) => pattern.exec(l)?.[1]?.trim()).filter((s): s is string => Boolean(s));
  for (const pattern of [NUMBERED_HEADING, TOP_NUMBERED_ITEM, TOP_ITEM]) {
    const steps = pick(pattern);
    if (steps.length >= 2) return steps;
  }
  return listItems(markdown);
}

const NUMBERED_HEADING = /^(?:#{1,6}\s+(?:\*\*|__)?|\*\*|__)\s*(?:step\s+)?\d+[.):]\s+(.+?)\s*(?:\*\*|__)?\s*$/i;
const TOP_NUMBERED_ITEM = /^\d+[.)]\s+(?:\[[ x]\]\s+)?(.+)$/;
const TOP_ITEM = /^[-*+]\s+(?:\[[ x]\]\s+)?(.+)$/;

/** A plan written out in ExitPlanMode: documentSteps are its steps. */
function planFromMarkdown(state: SessionPlans, markdown: string, session: string, ts: string): Candidate[] {
  const steps = documentSteps(markdown);
  const title = markdown.split('\n').map((l) => l.replace(/^#+\s*/, '').replace(/^plan\s*:\s*/i, '').trim()).find(Boolean) ?? 'Plan';
  const plan: PlanState = { id: planId(`${session}\u0000${markdown}`), steps: steps.map(redactedStep), done: steps.map(() => false) };
  state.plans.push(plan);
  return [{ type: 'plan_created', content: tidy(`Plan: ${title}${steps.length ? ` (${steps.length} steps)` : ''}`), confidence: 1, provenance: 'layer1:ExitPlanMode', meta: { plan_id: plan.id, steps }, ts }];
}

function taskTools(state: SessionPlans, use: ToolUse, result: ToolResult | undefined, session: string): Candidate[] {
  const input = use.input;
  if (use.name === 'TaskCreate') {
    const subject = str(input.subject) ?? str(input.description) ?? str(input.content);
    if (!subject) return [];
    const resultId = result && typeof result.result === 'object' && result.result !== null ? str((result.result as Record<string, unknown>).id) ?? str(((result.result as Record<string, unknown>).task as Record<string, unknown> | undefined)?.id) : undefined;
    const taskId = str(input.id) ?? str(input.taskId) ?? resultId ?? String(Object.keys(state.tasks).length + 1);
    state.tasks[taskId] = redactedStep(subject);
    let plan = state.plans.find((p) => p.id === planId(`${session}\u0000tasks`));
    const out: Candidate[] = [];
    if (!plan) {
      plan = { id: planId(`${session}\u0000tasks`), steps: [], done: [] };
      state.plans.push(plan);
      out.push({ type: 'plan_created', content: tidy(`Plan: ${subject}`), confidence: 1, provenance: 'layer1:TaskCreate', meta: { plan_id: plan.id, steps: [subject] }, ts: use.ts });
    }
    plan.steps.push(redactedStep(subject));
    plan.done.push(false);
    return out;
  }
  // TaskUpdate
  const taskId = str(input.taskId) ?? str(input.id) ?? str(input.task_id);
  if (!taskId || input.status !== 'completed') return [];
  const given = str(input.subject);
  const subject = state.tasks[taskId] ?? (given && redactedStep(given));
  const plan = state.plans.find((p) => p.id === planId(`${session}\u0000tasks`));
  if (!subject || !plan) return [];
  const index = plan.steps.indexOf(subject);
  if (index === -1 || plan.done[index]) return [];
  plan.done[index] = true;
  return [{ type: 'plan_step_completed', content: tidy(subject), confidence: 1, provenance: 'layer1:TaskUpdate', meta: { plan_id: plan.id, step: index + 1 }, ts: use.ts }];
}

/**
 * Calls whose effect is kept only once their result says they ran: an edit the user rejected,
 * or one still waiting at a permission prompt when the session ended, changed nothing.
 */
const awaitsResult = (name: string): boolean => EDIT_TOOLS.has(name) || READ_TOOLS.has(name) || SEARCH_TOOLS.has(name) || name === 'Bash';

/** At most this many unanswered calls are carried to the next read: a few at a turn's end, never a backlog. */
const KEPT_CHARS = 1000;
const MAX_UNANSWERED = 20;

/**
 * The calls among `items` that still await their result, as the next read needs them (so a read
 * that ends between a call and its result pairs them then): only the fields layer 1 reads, the
 * command redacted, since the state is kept on disk.
 */
export function unansweredCalls(items: readonly TranscriptItem[]): ToolUse[] {
  const answered = new Set(items.flatMap((item) => (item.kind === 'tool-result' ? [item.toolUseId] : [])));
  const waiting = new Map<string, ToolUse>(); // by id: a replayed read meets a carried call again
  for (const item of items) {
    if (item.kind !== 'tool-use' || !awaitsResult(item.name) || answered.has(item.id)) continue;
    const input: Record<string, unknown> = {};
    // Every string kept is redacted (a Grep pattern can be a key), and only as much as layer 1
    // keeps (1,000 characters): a heredoc of megabytes is neither stored nor redacted on each
    // read. The window redacted is wider than the one kept, so no secret is cut in two unread.
    for (const field of ['file_path', 'notebook_path', 'path', 'pattern', 'command']) {
      const value = item.input[field];
      if (typeof value === 'string') input[field] = redactText(value.slice(0, 4 * KEPT_CHARS)).text.slice(0, KEPT_CHARS);
    }
    waiting.set(item.id, { ...item, input });
  }
  return [...waiting.values()].slice(-MAX_UNANSWERED);
}

function failed(result: ToolResult | undefined): boolean {
  if (!result) return false;
  return result.isError || /^<tool_use_error>/.test(result.text) || REJECTED_BY_USER.test(result.text.slice(0, 300));
}

export function extractToolCalls(items: readonly TranscriptItem[], cwd: string | null, session: string, state: SessionPlans): Candidate[] {
  const results = new Map<string, ToolResult>();
  for (const item of items) if (item.kind === 'tool-result') results.set(item.toolUseId, item);
  const out: Candidate[] = [];
  for (const item of items) {
    if (item.kind !== 'tool-use') continue;
    const result = results.get(item.id);
    if (!result && awaitsResult(item.name)) continue; // not yet answered: see unansweredCalls
    const input = item.input;
    const provenance = `layer1:${item.name}`;
    if (EDIT_TOOLS.has(item.name)) {
      const path = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
      if (!path || failed(result)) continue;
      const rel = relativePath(path, cwd);
      if (rel === '.' || rel.endsWith('/')) continue; // a folder is not an edit
      out.push({ type: 'file_modified', content: `Modified ${rel}`, confidence: 1, provenance, meta: { path: rel, tool: item.name }, ts: item.ts });
    } else if (READ_TOOLS.has(item.name) || SEARCH_TOOLS.has(item.name)) {
      const path = str(input.file_path) ?? str(input.notebook_path) ?? str(input.path);
      if (!path || failed(result)) continue;
      const rel = relativePath(path, cwd);
      const meta: Meta = { path: rel, tool: item.name };
      if (str(input.pattern)) meta.pattern = input.pattern;
      out.push({ type: 'file_explored', content: SEARCH_TOOLS.has(item.name) ? `Searched ${rel}` : `Read ${rel}`, confidence: 1, provenance, meta, ts: item.ts });
    } else if (item.name === 'Bash') {
      const command = str(input.command);
      if (!command || (result && REJECTED_BY_USER.test(result.text.slice(0, 300)))) continue;
      const meta: Meta = { command: tidy(command, 1000) };
      if (result?.isError) meta.failed = true;
      out.push({ type: 'command_run', content: tidy(`Ran ${command.split('\n')[0]}`, 200), confidence: 1, provenance, meta, ts: item.ts });
    } else if (item.name === 'TodoWrite') {
      if (failed(result)) continue;
      out.push(...planFromTodos(state, todosOf(input), session, item.ts));
    } else if (item.name === 'ExitPlanMode') {
      const plan = str(input.plan);
      if (plan && !failed(result)) out.push(...planFromMarkdown(state, plan, session, item.ts));
    } else if (item.name === 'TaskCreate' || item.name === 'TaskUpdate') {
      if (!failed(result)) out.push(...taskTools(state, item, result, session));
    }
  }
  return out;
}
