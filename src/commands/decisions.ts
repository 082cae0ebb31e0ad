import { byLastUse, isInferred, type MemoryItem } from '../projections/fold.js';
import { readMemory } from '../workspace/memory.js';
import { openJournalAt, paintFor, printJson, warnProblems, type CommandIO } from './io.js';

export interface DecisionsArgs {
  all?: boolean;
  json?: boolean;
}

const LABEL: Partial<Record<MemoryItem['type'], string>> = { decision_made: 'decision', approach_rejected: 'rejected', preference_noted: 'preference' };

/** Every decision, rejected approach and preference in force on this branch, newest use first. */
export async function runDecisions(args: DecisionsArgs, io: CommandIO): Promise<number> {
  const journal = await openJournalAt(io);
  const memory = await readMemory(journal, { all: args.all });
  warnProblems(io, memory.problems);
  const { state } = memory;
  const items = [...state.decisions, ...state.rejections, ...state.preferences].sort(byLastUse);
  if (args.json) {
    printJson(
      io,
      items.map((i) => ({
        id: i.id,
        type: i.type,
        content: i.content,
        reason: i.reason ?? null,
        alternative: i.alternative ?? null,
        files: i.files,
        tier: i.tier,
        ts: i.origin.ts,
        lastUsed: i.lastUsed,
        uses: i.uses,
        sessionsSinceUse: i.sessionsSinceUse,
        confidence: i.confidence,
        session: i.origin.session,
        author: i.origin.author,
        branch: i.origin.branch,
        commit: i.origin.commit,
      })),
    );
    return 0;
  }
  if (items.length === 0) {
    io.stdout.write(`No decisions on ${memory.head.branch ?? 'this commit'} yet. Record one with: cortex remember "…" --type decision --why "…"\n`);
    return 0;
  }
  const paint = paintFor(io);
  for (const item of items) {
    const marks = [item.tier === 'active' ? '' : item.tier === 'aging' ? 'possibly outdated' : 'archived', isInferred(item) ? 'inferred' : ''].filter(Boolean);
    const label = LABEL[item.type] ?? item.type;
    const colour = item.type === 'approach_rejected' ? paint.red : item.type === 'decision_made' ? paint.green : paint.cyan;
    io.stdout.write(`${paint.yellow(item.id)} ${colour(label.padEnd(10))} ${item.origin.ts.slice(0, 10)} ${item.content}${marks.length ? paint.dim(` [${marks.join(', ')}]`) : ''}\n`);
    if (item.reason && !item.content.includes(item.reason)) io.stdout.write(`    ${paint.dim('why:')} ${item.reason}\n`);
    if (item.alternative && !item.content.includes(item.alternative)) io.stdout.write(`    ${paint.dim('instead:')} ${item.alternative}\n`);
  }
  return 0;
}
