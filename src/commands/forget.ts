import { redactText } from '../capture/redact.js';
import { append, buildEvents, captureContext, readAll } from '../journal/journal.js';
import { withJournalWriteLock } from '../journal/write-lock.js';
import { resolveEventId } from './resolve-id.js';
import { openJournalAt, printJson, type CommandIO } from './io.js';

export interface ForgetArgs {
  id: string;
  why?: string;
  json?: boolean;
}

/**
 * Retract a memory: a new `event_retracted` event, so the journal stays append-only and the
 * retraction travels to every clone. The id may be shortened to any unique prefix or suffix of 6+
 * characters.
 */
export async function runForget(args: ForgetArgs, io: CommandIO): Promise<number> {
  const journal = await openJournalAt(io, { forWriting: true });
  const why = args.why ? redactText(args.why) : null; // typed or pasted: redacted like every memory
  // Under the lock, so two forgets of one memory at once record one retraction, not two.
  const { target, event } = await withJournalWriteLock(journal, async () => {
    const { events } = await readAll(journal);
    const target = resolveEventId(events, args.id);
    if (events.some((e) => e.type === 'event_retracted' && e.meta.target === target.id)) return { target, event: null };
    const ctx = await captureContext(journal, 'cli', 'cli:forget');
    const meta = { target: target.id, ...(why ? { reason: why.text } : {}), ...(why?.count ? { redactions: why.count } : {}) };
    const [event] = buildEvents([{ type: 'event_retracted', content: `Forgot: ${target.content}${why ? ` (${why.text})` : ''}`, meta }], ctx);
    await append(journal, [event!]);
    return { target, event: event! };
  });
  if (!event) {
    io.stdout.write(`already forgotten: ${target.id}\n`);
    return 0;
  }
  if (args.json) printJson(io, event);
  else io.stdout.write(`forgot ${target.type} ${target.id}: ${target.content}\n`);
  return 0;
}
