import { tidy, type Candidate } from './candidate.js';
import { listItems, planId, redactedStep, type PlanState, type SessionPlans } from './layer1.js';
import { prepareProse, splitProse } from './prose.js';

/**
 * Plans Claude writes out in prose rather than through a todo tool: a line that says it is the
 * plan ("Plan:", "Here's the plan:", "## Migration plan") over a list of two or more items is a
 * plan, and a later "Step 2 done: …" completes its second step. Like layer 1's todo lists, the
 * plan lives in the session's state, so a step reported in a later turn (a later read of the
 * transcript) lands on it. Pure.
 */

/** The whole line names a plan; "If you agree, the plan would be:" is no such line. */
const PLAN_HEADER = /^(?:#{1,6}\s*)?(?:\*\*|__)?(?:(?:here(?:'s| is)\s+)?(?:the|my|our)\s+)?(?:[a-z-]+\s+)?plan(?:\s+of\s+(?:action|attack))?(?:\s+is)?\s*:?\s*(?:\*\*|__)?\s*:?$/i;
const LIST_LINE = /^\s*(?:[-*+]|\d{1,2}[.)])\s+\S/;

const NUMBER_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const NUMBER = `(?:\\d{1,2}|${NUMBER_WORDS.join('|')})`;
/** "Step 2 done: …", "Steps 1 and 2 are complete.", "✅ Step 3 finished — …"; not a question. */
const STEP_DONE = new RegExp(`^(?:✅\\s*)?steps?\\s+(${NUMBER}(?:\\s*(?:,|and|&|-|–|to)\\s*${NUMBER})*)(?:\\s*/\\s*\\d+)?\\s+(?:is\\s+|are\\s+)?(?:now\\s+|all\\s+)?(?:done|complete|completed|finished)\\b\\s*(?:✅\\s*)?[:.,;—–-]*\\s*`, 'i');

const toNumber = (word: string): number => (/^\d+$/.test(word) ? Number(word) : NUMBER_WORDS.indexOf(word.toLowerCase()) + 1);

/** The step numbers a report names: "1 and 2" → [1, 2]; "1-3" → [1, 2, 3]. */
function stepNumbers(spec: string): number[] {
  const numbers: number[] = [];
  for (const part of spec.split(/\s*(?:,|and|&)\s*/i)) {
    const range = new RegExp(`^(${NUMBER})\\s*(?:-|–|to)\\s*(${NUMBER})$`, 'i').exec(part.trim());
    if (range) {
      for (let n = toNumber(range[1] as string); n <= toNumber(range[2] as string) && n - toNumber(range[1] as string) < 20; n++) numbers.push(n);
    } else if (part.trim()) numbers.push(toNumber(part.trim()));
  }
  return numbers.filter((n) => n > 0);
}

/** The list under each plan line of a text (code blocks and quotes ignored). */
function writtenPlans(raw: string): string[][] {
  const lines = prepareProse(raw).text.split('\n');
  const plans: string[][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!PLAN_HEADER.test((lines[i] as string).trim())) continue;
    let k = i + 1;
    while (k < lines.length && (lines[k] as string).trim() === '') k++;
    const block: string[] = [];
    for (; k < lines.length && (LIST_LINE.test(lines[k] as string) || /^\s{2,}\S/.test(lines[k] as string)); k++) block.push(lines[k] as string);
    const steps = listItems(block.join('\n'));
    if (steps.length >= 2) plans.push(steps);
    i = k - 1;
  }
  return plans;
}

export function extractProsePlans(raw: string, state: SessionPlans, session: string, ts: string): Candidate[] {
  const out: Candidate[] = [];
  // Most assistant text names no plan and reports no step: no second pass over it for those.
  for (const steps of /\bplan\b/i.test(raw) ? writtenPlans(raw) : []) {
    // The same list again is the same plan: the transcript and Stop's last message both carry
    // it, and a replayed read meets it a second time.
    const redacted = steps.map(redactedStep);
    if (state.plans.some((p) => p.steps.length === redacted.length && p.steps.every((s, i) => s === redacted[i]))) continue;
    const plan: PlanState = { id: planId(`${session}\u0000prose\u0000${state.plans.length}\u0000${steps.join('\n')}`), steps: redacted, done: steps.map(() => false) };
    state.plans.push(plan);
    out.push({ type: 'plan_created', content: tidy(`Plan: ${steps.join('; ')}`), confidence: 0.9, provenance: 'layer2:prose-plan', meta: { plan_id: plan.id, steps }, ts });
  }
  if (state.plans.length === 0 || !/\bsteps?\b/i.test(raw)) return out;
  for (const sentence of splitProse(raw)) {
    const report = STEP_DONE.exec(sentence.masked);
    if (!report || /\?\s*$/.test(sentence.text)) continue;
    const said = sentence.text.slice(report[0].length).trim();
    for (const step of stepNumbers(report[1] as string)) {
      const plan = [...state.plans].reverse().find((p) => p.steps.length >= step);
      if (!plan || plan.done[step - 1]) continue;
      plan.done[step - 1] = true;
      const planned = plan.steps[step - 1] as string;
      out.push({ type: 'plan_step_completed', content: tidy(said ? `${planned} — ${said}` : planned), confidence: 0.9, provenance: 'layer2:prose-plan', meta: { plan_id: plan.id, step }, ts });
    }
  }
  return out;
}
