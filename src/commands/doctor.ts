import { isCortexError } from '../errors.js';
import { discoverRepo } from '../git/repo.js';
import { diagnose, diagnoseWithoutRepo, type Diagnosis, type Status } from '../install/diagnose.js';
import { paintFor, printJson, type CommandIO } from './io.js';

/**
 * `cortex doctor`: one line per check, with what to do; exit 1 when something is broken. A check
 * that throws is reported as a failing line like any other; outside a repository (or without git)
 * that is the line saying so, so `--json` still prints a diagnosis.
 */
export async function runDoctor(args: { json?: boolean }, io: CommandIO): Promise<number> {
  const onError = io.env.CORTEX_DEBUG ? (check: string, err: unknown) => void io.stderr.write(`cortex doctor: ${check}: ${(err as Error)?.stack ?? String(err)}\n`) : undefined;
  const diagnosis = await diagnoseAt(io.cwd, io.env, onError);
  const { findings } = diagnosis;
  const failed = !diagnosis.healthy;
  if (args.json) {
    printJson(io, diagnosis);
    return failed ? 1 : 0;
  }
  const paint = paintFor(io);
  const mark: Record<Status, string> = { ok: paint.green('✓'), info: paint.dim('·'), warn: paint.yellow('!'), fail: paint.red('✗') };
  const width = Math.max(...findings.map((f) => f.check.length));
  const lines = findings.map((f) => `${mark[f.status]} ${f.check.padEnd(width)}  ${f.detail}${f.fix && f.status !== 'ok' ? paint.dim(` → ${f.fix}`) : ''}`);
  const worst = failed ? paint.red('something is broken: fix the ✗ lines')
    : !diagnosis.setUp ? paint.yellow('Cortex is not set up in this repository: run cortex init')
    : findings.some((f) => f.status === 'warn') ? paint.yellow('works, with warnings')
    : paint.green('all good');
  io.stdout.write(`${lines.join('\n')}\n${worst}\n`);
  return failed ? 1 : 0;
}

async function diagnoseAt(cwd: string, env: NodeJS.ProcessEnv, onError?: (check: string, err: unknown) => void): Promise<Diagnosis> {
  const repo = await discoverRepo(cwd).catch((err: unknown) => {
    if (isCortexError(err) && (err.code === 'NOT_A_REPO' || err.code === 'GIT_MISSING')) return err.code;
    throw err;
  });
  return typeof repo === 'string' ? diagnoseWithoutRepo(cwd, repo) : diagnose(repo, env, { onError });
}
