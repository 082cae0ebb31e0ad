import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { Candidate } from '../capture/candidate.js';
import { dedupeKey, extractCandidates, type CaptureState } from '../capture/extract.js';
import { ulid } from '../events/ids.js';
import type { EventContext } from '../events/parse-event.js';
import type { CortexEvent, EventType } from '../events/types.js';
import { cortexDir } from '../git/repo.js';
import { append, buildEvents, captureContext, readSessionEvents, type Journal } from '../journal/journal.js';
import { normalizeText } from '../projections/fold.js';
import { lockSession, readCursor, readTail, writeCursor, type SessionCursor, type TranscriptTail } from './cursor.js';

/**
 * One hook's capture for one session: read what is new in the transcript (plus any text the
 * hook payload carries that the transcript may not hold yet), extract, and write the new events
 * in one journal commit per chunk read. Event ids derive from the session and what the event
 * says, so a replay (a crash between the append and the cursor write, a deleted cursor) yields
 * the same ids and readers, which union by id, never see a memory twice.
 *
 * The transcript is read in chunks of at most `chunkBytes`, so memory stays bounded whatever the
 * backlog (a session whose hooks were installed halfway, a transcript fed once): each chunk is
 * extracted, stored and its cursor written before the next is read, until the backlog is read
 * or `readUntil` passes. What is left is reported in `backlog`, for the caller to read later.
 */
export const CHUNK_BYTES = 4 * 1024 * 1024;

export interface CaptureInput {
  session: string;
  transcriptPath?: string;
  includeSidechains?: boolean;
  /** JSONL lines to consider after the transcript tail (e.g. Stop's last_assistant_message). */
  extraLines?: string[];
  /** Bytes of transcript held and extracted at once (default CHUNK_BYTES). */
  chunkBytes?: number;
  /** No chunk is started after this time (ms since the epoch); the first is always read. Default: one chunk. */
  readUntil?: number;
}

/** Event types that only record activity: they never change what the projections show. */
const TRAIL = new Set<EventType>(['file_modified', 'file_explored', 'command_run']);

export interface CaptureOutcome {
  stored: number;
  /** Of those, how many can change a projection (anything but the file and command trail). */
  projected: number;
  skippedLines: number;
  transcriptError?: string;
  busy?: boolean;
  /** Bytes of complete transcript records left unread after the cursor (0: caught up). */
  backlog: number;
  /** Bytes of records too long to read that were passed over. */
  skippedBytes: number;
}

const sameness = (e: CortexEvent): string => `${e.type}\u0000${normalizeText(e.content)}`;

export function eventId(session: string, candidate: Candidate): string {
  const seed = createHash('sha256').update(`${session}\u0000${dedupeKey(candidate)}`).digest();
  const time = Date.parse(candidate.ts);
  return ulid(Number.isFinite(time) && time > 0 ? time : 0, seed.subarray(0, 10));
}

/** Stamp candidates into events; ids derive from the session and what each one says. */
export function candidatesToEvents(candidates: readonly Candidate[], session: string, ctx: EventContext): CortexEvent[] {
  return buildEvents(
    candidates.map((c) => ({ ...c, ts: c.ts || undefined, id: eventId(session, c) })),
    ctx,
  );
}

/** Synthetic transcript lines for text that arrives in a hook payload rather than the transcript. */
export function assistantLine(text: string, session: string): string {
  return JSON.stringify({ type: 'assistant', sessionId: session, timestamp: new Date().toISOString(), message: { id: `hook-${createHash('sha1').update(text).digest('hex').slice(0, 12)}`, role: 'assistant', content: [{ type: 'text', text }] } });
}

export function userLine(text: string, session: string): string {
  return JSON.stringify({ type: 'user', sessionId: session, timestamp: new Date().toISOString(), message: { role: 'user', content: text } });
}

export async function captureSession(journal: Journal, input: CaptureInput): Promise<CaptureOutcome> {
  const dir = cortexDir(journal.repo);
  const release = await lockSession(dir, input.session, 3_000);
  if (!release) return { stored: 0, projected: 0, skippedLines: 0, busy: true, backlog: 0, skippedBytes: 0 };
  const outcome: CaptureOutcome = { stored: 0, projected: 0, skippedLines: 0, backlog: 0, skippedBytes: 0 };
  try {
    for (;;) {
      const cursor = await readCursor(dir, input.session);
      let text = '';
      let tail: TranscriptTail | undefined;
      if (input.transcriptPath) {
        try {
          tail = await readTail(input.transcriptPath, cursor, input.chunkBytes ?? CHUNK_BYTES);
          text = tail.text;
        } catch (err) {
          outcome.transcriptError = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'transcript not found' : 'transcript unreadable';
        }
      }
      const more = tail?.more === true && Date.now() < (input.readUntil ?? 0);
      // The payload's lines come after the transcript: they go with the last chunk this call reads.
      if (!more && input.extraLines?.length) text += `${input.extraLines.join('\n')}\n`;
      const events = await captureText(journal, input, cursor, text, tail?.restarted === true && cursor.offset > 0);
      await writeCursor(dir, input.session, {
        transcript: tail ? (input.transcriptPath ?? null) : cursor.transcript,
        offset: tail ? tail.nextOffset : cursor.offset,
        head: tail ? tail.head : cursor.head,
        state: events.state,
      });
      outcome.stored += events.stored.length;
      outcome.projected += events.stored.filter((e) => !TRAIL.has(e.type)).length;
      outcome.skippedLines += events.corruptLines;
      outcome.skippedBytes += tail?.skipped ?? 0;
      if (!more) {
        outcome.backlog = tail?.more ? await backlogAfter(input.transcriptPath!, tail.nextOffset) : 0;
        return outcome;
      }
    }
  } finally {
    await release();
  }
}

async function backlogAfter(path: string, offset: number): Promise<number> {
  const info = await stat(path).catch(() => null);
  return info ? Math.max(0, info.size - offset) : 0;
}

/** Extract `text` and store what the session has not stored yet. */
async function captureText(journal: Journal, input: CaptureInput, cursor: SessionCursor, text: string, reread: boolean): Promise<{ stored: CortexEvent[]; state: CaptureState; corruptLines: number }> {
  const result = extractCandidates(text, { session: input.session, state: cursor.state, includeSidechains: input.includeSidechains, root: journal.repo.workTree });
  let events: CortexEvent[] = [];
  if (result.candidates.length > 0) {
    const ctx = await captureContext(journal, input.session, 'hook');
    events = candidatesToEvents(result.candidates, input.session, ctx);
    // Without a cursor (lost with .git/cortex/, or a new session), or reading a rotated transcript
    // from the start, skip what this session already stored. By id, and by type and text: the
    // same file edit seen first by PostToolUse (stamped then) and now in the transcript (stamped
    // there) has two ids; within a session one key is stored once anyway.
    if (cursor.fresh || reread) {
      const stored = await readSessionEvents(journal, input.session);
      const ids = new Set(stored.map((e) => e.id));
      const said = new Set(stored.map(sameness));
      events = events.filter((e) => !ids.has(e.id) && !said.has(sameness(e)));
    }
    await append(journal, events);
  }
  return { stored: events, state: result.state, corruptLines: result.transcript.corruptLines };
}
