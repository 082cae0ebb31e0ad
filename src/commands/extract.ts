import { readFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { extractCandidates } from '../capture/extract.js';
import { candidatesToEvents } from '../claude/capture-session.js';
import { createIdGenerator } from '../events/ids.js';
import { CortexError } from '../errors.js';
import { renderLogEntry } from '../format/render-log.js';
import { paintFor, printJson, type CommandIO } from './io.js';
import { randomBytes } from 'node:crypto';

export interface ExtractArgs {
  transcript: string;
  session?: string;
  json?: boolean;
}

async function readTranscript(args: ExtractArgs, io: CommandIO): Promise<string> {
  if (args.transcript === '-') return io.readStdin();
  try {
    return await readFile(resolve(io.cwd, args.transcript), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CortexError('FILE_NOT_FOUND', code === 'ENOENT' ? `${args.transcript}: no such file` : `${args.transcript}: cannot read (${code})`);
  }
}

/**
 * The whole capture pipeline on one transcript, writing nothing: what the hooks would store.
 * Works outside a repository too (file paths are made relative to the transcript's own cwd);
 * `-` reads the transcript from stdin.
 */
export async function runExtract(args: ExtractArgs, io: CommandIO): Promise<number> {
  const text = await readTranscript(args, io);
  const stdin = args.transcript === '-';
  const result = extractCandidates(text, { session: args.session, includeSidechains: !stdin && /^agent-/.test(basename(args.transcript)) });
  const session = args.session ?? result.transcript.sessionId ?? (stdin ? 'stdin' : basename(args.transcript, '.jsonl'));
  const ctx = { now: new Date(), session, author: io.env.GIT_AUTHOR_EMAIL ?? 'unknown', branch: result.transcript.gitBranch, commit: null, provenance: 'extract', newId: createIdGenerator((n) => randomBytes(n)) };
  const events = candidatesToEvents(result.candidates, session, ctx);
  if (result.transcript.corruptLines > 0) io.stderr.write(`cortex: warning: skipped ${result.transcript.corruptLines} unreadable line${result.transcript.corruptLines === 1 ? '' : 's'} in ${stdin ? 'stdin' : args.transcript}\n`);
  if (args.json) {
    printJson(io, events);
    return 0;
  }
  const paint = paintFor(io);
  for (const event of events) io.stdout.write(`${renderLogEntry(event, paint, { oneline: true })}\n`);
  io.stdout.write(`${events.length} event${events.length === 1 ? '' : 's'} (nothing stored)\n`);
  return 0;
}
