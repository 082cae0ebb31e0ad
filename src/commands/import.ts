import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { redactMemory } from '../capture/redact.js';
import { CortexError } from '../errors.js';
import { decodeText, isReadableText } from './decode-text.js';
import { parseImportLines } from '../events/parse-import.js';
import { append, captureContext, readAll } from '../journal/journal.js';
import { withJournalWriteLock } from '../journal/write-lock.js';
import { openJournalAt, printJson, type CommandIO } from './io.js';

export interface ImportArgs {
  file: string;
  skipInvalid?: boolean;
  json?: boolean;
}

async function readInput(args: ImportArgs, io: CommandIO): Promise<string> {
  const name = args.file === '-' ? 'standard input' : args.file;
  let bytes: Buffer;
  if (args.file === '-') {
    if (!io.readStdinBytes) return io.readStdin();
    bytes = await io.readStdinBytes();
  } else {
    try {
      bytes = await readFile(resolve(io.cwd, args.file));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new CortexError('FILE_NOT_FOUND', code === 'ENOENT' ? `${args.file}: no such file` : `${args.file}: cannot read (${code})`);
    }
  }
  // Latin-1 or another legacy encoding would be stored with its accents turned into U+FFFD.
  if (!isReadableText(bytes)) throw new CortexError('INVALID_INPUT', `${name}: not UTF-8 text; save it as UTF-8 and import again (nothing imported)`);
  return decodeText(bytes);
}

/**
 * JSONL → journal, in one commit. All or nothing by default: a bad line stops the import before
 * anything is written, so a half-imported file never needs cleaning up. Ids already in the
 * journal are skipped, so importing twice is harmless.
 */
export async function runImport(args: ImportArgs, io: CommandIO): Promise<number> {
  const text = await readInput(args, io);
  const journal = await openJournalAt(io, { forWriting: true });
  const ctx = await captureContext(journal, 'import', 'import');
  const { events, errors, repeated } = parseImportLines(text, ctx);
  if (errors.length > 0 && !args.skipInvalid) {
    const first = errors[0]!;
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more bad lines)` : '';
    throw new CortexError('INVALID_INPUT', `${args.file}:${first.line}: ${first.message}${more}; nothing imported (fix the line or pass --skip-invalid)`);
  }
  for (const e of errors) io.stderr.write(`cortex: warning: ${args.file}:${e.line}: ${e.message}; skipped\n`);
  // Memories from another tool arrive as written, secrets and all; an export of a journal is
  // already redacted and its placeholders are left alone, so export → import → export keeps
  // its bytes.
  const redacted = events.map((e) => {
    const { content, meta } = redactMemory({ content: e.content, meta: e.meta });
    return content === e.content && meta === e.meta ? e : { ...e, content, meta };
  });

  // Looked up under the lock, against the journal as it is then: a parallel import of the same
  // file has either stored its events already or not started.
  const fresh = await withJournalWriteLock(journal, async () => {
    const existing = new Set((await readAll(journal)).events.map((e) => e.id));
    const unseen = redacted.filter((e) => !existing.has(e.id));
    await append(journal, unseen);
    return unseen;
  });
  const summary = { imported: fresh.length, skipped: redacted.length - fresh.length + repeated, invalid: errors.length };
  if (args.json) printJson(io, summary);
  else io.stdout.write(`Imported ${summary.imported} event${summary.imported === 1 ? '' : 's'} (${summary.skipped} already present${summary.invalid ? `, ${summary.invalid} invalid lines skipped` : ''})\n`);
  return 0;
}
