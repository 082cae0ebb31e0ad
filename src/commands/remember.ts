import { redactMemory } from '../capture/redact.js';
import { CortexError } from '../errors.js';
import { append, buildEvents, captureContext, readAll } from '../journal/journal.js';
import { resolveEventType, type Meta } from '../events/types.js';
import { resolveEventId } from './resolve-id.js';
import { openJournalAt, printJson, type CommandIO } from './io.js';

export interface RememberArgs {
  text: string[];
  type: string;
  why?: string;
  instead?: string;
  file?: string[];
  tag?: string[];
  session?: string;
  supersedes?: string;
  json?: boolean;
}

/**
 * Store one memory the user states outright (confidence 1.0). Like captured memories, it is
 * redacted before it exists: the text often comes from the assistant (the MCP tool runs this) or
 * from pasted output, and the journal is pushed with the repository.
 */
export async function runRemember(args: RememberArgs, io: CommandIO): Promise<number> {
  const text = args.text.join(' ').trim();
  if (!text) throw new CortexError('USAGE', 'nothing to remember: give the text, e.g. cortex remember "Use Postgres" --type decision');
  const type = resolveEventType(args.type);
  if (!type) throw new CortexError('USAGE', `unknown type "${args.type}" (try decision, rejected, learned, plan, preference, error, done)`);
  const given: Meta = {};
  if (args.why) given.reason = args.why;
  if (args.instead) given.alternative = args.instead;
  if (args.file && args.file.length > 0) given.files = args.file;
  if (args.tag && args.tag.length > 0) given.tags = args.tag;
  const { content, meta } = redactMemory({ content: text, meta: given });

  const journal = await openJournalAt(io, { forWriting: true });
  const ctx = await captureContext(journal, args.session ?? 'cli', 'cli:remember');
  const [event] = buildEvents([{ type, content, meta }], ctx);
  const events = [event!];
  if (args.supersedes) {
    // The replaced decision stays in the journal, retired by an event naming both.
    const old = resolveEventId((await readAll(journal)).events, args.supersedes);
    events.push(...buildEvents([{ type: 'decision_superseded', content: `Superseded: ${old.content}`, meta: { target: old.id, by: event!.id } }], ctx));
  }
  await append(journal, events);
  if (args.json) printJson(io, event);
  else io.stdout.write(`[${event!.type} ${event!.id}] ${content}\n`);
  return 0;
}
