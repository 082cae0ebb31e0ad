import { readMemory } from '../workspace/memory.js';
import { openJournalAt, paintFor, printJson, warnProblems, type CommandIO } from './io.js';

export interface PlanArgs {
  all?: boolean;
  json?: boolean;
}

/** The active plan: each step's state and where the work stands. */
export async function runPlan(args: PlanArgs, io: CommandIO): Promise<number> {
  const journal = await openJournalAt(io);
  const memory = await readMemory(journal, { all: args.all });
  warnProblems(io, memory.problems);
  const plan = memory.state.activePlan;
  if (args.json) {
    printJson(io, plan && { id: plan.id, title: plan.title, steps: plan.steps, current: plan.current === null ? null : plan.current + 1, complete: plan.complete, ts: plan.origin.ts, updated: plan.updated, session: plan.origin.session, author: plan.origin.author });
    return 0;
  }
  if (!plan) {
    io.stdout.write('No plan in progress on this branch.\n');
    return 0;
  }
  const paint = paintFor(io);
  const done = plan.steps.filter((s) => s.done).length;
  io.stdout.write(`${paint.bold(plan.title)}\n${paint.dim(`${done} of ${plan.steps.length} steps done · started ${plan.origin.ts.slice(0, 10)} · updated ${plan.updated.slice(0, 10)}`)}\n\n`);
  plan.steps.forEach((step, i) => {
    const mark = step.done ? paint.green('✓') : i === plan.current ? paint.yellow('→') : ' ';
    io.stdout.write(`${mark} ${String(i + 1).padStart(2)}. ${step.text}${i === plan.current ? paint.yellow('  ← you are here') : ''}\n`);
  });
  return 0;
}
