import { readFile, writeFile } from 'node:fs/promises';
import { mergeDecisionsFiles, mergePlanFiles } from '../projections/merge-files.js';
import { runGit } from '../git/run-git.js';
import type { CommandIO } from './io.js';

export interface MergeDriverArgs {
  base: string;
  ours: string;
  theirs: string;
  path?: string;
}

/**
 * git's merge driver contract: merge %O (base), %A (ours) and %B (theirs) for the file at %P,
 * write the result into %A, exit 0 for a clean merge. This one never leaves conflict markers:
 * entries merge by event id; a file it cannot parse falls back to git's line union, and one git
 * cannot merge either is left as ours, reported as a conflict (exit 1).
 */
export async function runMergeDriver(args: MergeDriverArgs, io: CommandIO): Promise<number> {
  const [base, ours, theirs] = await Promise.all([args.base, args.ours, args.theirs].map((p) => readFile(p, 'utf8').catch(() => '')));
  let merged: string | null = (args.path ?? '').endsWith('active-plan.md') ? mergePlanFiles(base as string, ours as string, theirs as string) : mergeDecisionsFiles(base as string, ours as string, theirs as string);
  if (merged === null) {
    const union = await runGit(['merge-file', '-p', '--union', args.ours, args.base, args.theirs], { cwd: io.cwd });
    if (union.code !== 0) {
      // git could not merge it at all (a binary file): leave ours as it is and let git report a
      // conflict, rather than write its empty output as a clean merge.
      io.stderr.write(`cortex merge-driver: git could not merge ${args.path ?? args.ours} (${union.stderr.trim().split('\n')[0] || `exit ${union.code}`}); resolve it by hand or run cortex projections --write\n`);
      return 1;
    }
    merged = union.stdout;
    io.stderr.write(`cortex merge-driver: ${args.path ?? args.ours} is not in Cortex's layout; merged its lines (run cortex projections --write to regenerate)\n`);
  }
  await writeFile(args.ours, merged);
  return 0;
}
