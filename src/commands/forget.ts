import { redactText } from '../capture/redact.js';
import { CortexError } from '../errors.js';
import { TYPE_ALIASES, type CortexEvent } from '../events/types.js';
import { append, buildEvents, captureContext, readAll } from '../journal/journal.js';
import { withJournalWriteLock } from '../journal/write-lock.js';
import { eventsInView } from '../workspace/branch-view.js';
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
    refuseChangeEvent(target, events);
    // Forgotten on HEAD's history, not on a branch HEAD has not merged: there it is still shown.
    if ((await eventsInView(journal.repo, events)).some((e) => e.type === 'event_retracted' && e.meta.target === target.id)) return { target, event: null };
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

/**
 * A retraction, an edit or a supersession is a change to another memory, and projections apply
 * every one of them whether or not it was itself retracted: forgetting one would say "forgot"
 * and change nothing. Refused, with what does what the user is after.
 */
function refuseChangeEvent(event: CortexEvent, events: readonly CortexEvent[]): void {
  const targetId = typeof event.meta.target === 'string' ? event.meta.target : '';
  const target = events.find((e) => e.id === targetId);
  const again = (e: CortexEvent | undefined) => (e ? `remember it again: cortex remember ${JSON.stringify(clip(e.content))} --type ${shortType(e.type)}` : 'remember it again with cortex remember');
  const undoing = 'undoing one is not supported';
  switch (event.type) {
    case 'event_retracted':
      throw new CortexError('INVALID_INPUT', `${event.id} is the retraction of ${targetId}, not a memory, and ${undoing}; to have that memory back, ${again(target)}`);
    case 'event_amended':
      throw new CortexError('INVALID_INPUT', `${event.id} is an edit of ${targetId}, not a memory, and ${undoing}; to drop the memory, cortex forget ${targetId}`);
    case 'decision_superseded':
      throw new CortexError('INVALID_INPUT', `${event.id} records that ${typeof event.meta.by === 'string' ? event.meta.by : 'a later decision'} superseded ${targetId}, and ${undoing}; to have ${targetId} in force again, ${again(target)}`);
    default:
  }
}

const CLIP_CHARS = 80;
const clip = (text: string): string => (text.length > CLIP_CHARS ? `${text.slice(0, CLIP_CHARS - 1)}…` : text).replace(/\s+/g, ' ');
/** The name `remember --type` is usually given: `decision` for decision_made. */
const shortType = (type: string): string => Object.entries(TYPE_ALIASES).find(([, full]) => full === type)?.[0] ?? type;
