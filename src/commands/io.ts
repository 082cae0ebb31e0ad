import { discoverRepo, readAuthor } from '../git/repo.js';
import { decodeText } from './decode-text.js';
import { openJournal, type Journal } from '../journal/journal.js';
import type { LineProblem } from '../journal/parse-shard.js';
import { colourEnabled, createPaint, type Paint } from '../format/paint.js';

/**
 * What a command may touch of the outside world, passed in so tests can run commands in
 * process with their own streams and working directory.
 */
export interface CommandIO {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
  readStdin: () => Promise<string>;
  /** Standard input as bytes, where the caller checks the encoding itself (import). */
  readStdinBytes?: () => Promise<Buffer>;
}

export function processIO(): CommandIO {
  let stdin: Promise<Buffer> | undefined;
  const readStdinBytes = (): Promise<Buffer> =>
    (stdin ??= (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    })());
  return {
    cwd: process.cwd(),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    readStdin: async () => decodeText(await readStdinBytes()),
    readStdinBytes,
  };
}

export const paintFor = (io: CommandIO): Paint => createPaint(colourEnabled(io.stdout, io.env));

/** The journal of the repository around `cwd`; `forWriting` also looks up the author early. */
export async function openJournalAt(io: CommandIO, options: { forWriting?: boolean } = {}): Promise<Journal> {
  return openJournal(await discoverRepo(io.cwd, { withAuthor: options.forWriting }));
}

/**
 * A revision range names work fetched with git (`main...origin/feature`, under review), and the
 * memories recorded with that work came in the remote journals git fetched beside it. They are
 * united into this journal first, locally, as a pull's post-merge unites them: without this a
 * reviewer who only fetched was told the branch decided nothing. A failure (a read-only `.git`)
 * leaves this clone's memory to answer, and says so.
 */
export async function uniteFetchedMemory(journal: Journal, io: CommandIO): Promise<void> {
  try {
    const { uniteFetchedJournals } = await import('../journal/sync.js');
    await uniteFetchedJournals(journal.repo, journal.store, await readAuthor(journal.repo));
  } catch (err) {
    io.stderr.write(`cortex: warning: could not unite the remote journals git fetched (${(err as Error).message}); showing this clone's memory only\n`);
  }
}

const SHOWN_PROBLEMS = 3;

/** Problems found while reading go to stderr, a line each, so stdout stays clean for --json. */
export function warnProblems(io: CommandIO, problems: readonly LineProblem[]): void {
  for (const p of problems.slice(0, SHOWN_PROBLEMS)) {
    io.stderr.write(`cortex: warning: ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}; skipped\n`);
  }
  if (problems.length > SHOWN_PROBLEMS) {
    io.stderr.write(`cortex: warning: ${problems.length - SHOWN_PROBLEMS} more problems on the journal branch (see \`cortex status\`)\n`);
  }
}

export const printJson = (io: CommandIO, value: unknown): void => {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};
