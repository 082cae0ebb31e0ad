import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { emptyCaptureState, type CaptureState } from '../capture/extract.js';
import { acquireLockFile } from '../lock-file.js';

/**
 * Where each session's capture stands, under `.git/cortex/sessions/`: the byte offset reached in
 * its transcript (so each Stop reads only what is new), a fingerprint of the file's head (so a
 * truncated or rotated transcript is noticed and reread from the start, deduped), and the
 * capture state (plan identities, what was already stored). Derived data: safe to delete.
 */
export interface SessionCursor {
  transcript: string | null;
  offset: number;
  head: string | null;
  state: CaptureState;
  /** There was no cursor (a new session, or .git/cortex/ was deleted): never written. */
  fresh?: boolean;
}

const HEAD_BYTES = 4096;

/**
 * A session's file: its id where that is a safe file name (Claude Code's UUIDs), else the id made
 * safe plus a hash of it, so ids that differ only in unsafe characters (`x:1`, `x/1`) never share
 * a cursor (the second would read from where the first stopped and store nothing).
 */
function cursorPath(cortexDir: string, session: string): string {
  const name = /^[A-Za-z0-9._-]{1,100}$/.test(session) && !/^\.+$/.test(session) ? session : `${session.slice(0, 60).replace(/[^A-Za-z0-9._-]/g, '_')}~${createHash('sha1').update(session).digest('hex').slice(0, 12)}`;
  return join(cortexDir, 'sessions', `${name}.json`);
}

export async function readCursor(cortexDir: string, session: string): Promise<SessionCursor> {
  try {
    const cursor = JSON.parse(await readFile(cursorPath(cortexDir, session), 'utf8')) as SessionCursor;
    if (typeof cursor.offset === 'number' && cursor.state && Array.isArray(cursor.state.seen)) return cursor;
  } catch {
    // absent or damaged: start over; dedupe against the journal keeps this safe
  }
  return { transcript: null, offset: 0, head: null, state: emptyCaptureState(), fresh: true };
}

export async function writeCursor(cortexDir: string, session: string, cursor: SessionCursor): Promise<void> {
  const path = cursorPath(cortexDir, session);
  await mkdir(join(cortexDir, 'sessions'), { recursive: true });
  const temp = `${path}.tmp-${process.pid}`;
  await writeFile(temp, JSON.stringify(cursor));
  await rename(temp, path);
}

/** A hash of the file's first `bytes` (at most HEAD_BYTES): a transcript only grows, so it never changes. */
async function fingerprint(path: string, bytes: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(bytes, HEAD_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return createHash('sha1').update(buffer.subarray(0, bytesRead)).digest('hex');
  } finally {
    await handle.close();
  }
}

function isWholeRecord(line: Buffer): boolean {
  const text = line.toString('utf8').trim();
  if (!text.startsWith('{')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false; // still being written
  }
}

export interface TranscriptTail {
  text: string;
  /** The offset to store once the tail's events are safely in the journal. */
  nextOffset: number;
  head: string;
  restarted: boolean;
  /** Complete records left after `nextOffset` because the read stopped at `maxBytes`: read them next. */
  more: boolean;
  /** Bytes of one record too long to hold (over MAX_RECORD_BYTES) that were passed over unread. */
  skipped: number;
}

/** A record longer than a chunk is still read whole up to this size (a pasted screenshot is a few MB); a longer one is skipped. */
export const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/** Where the line holding `from` ends (the offset of its newline), or -1 when the file ends first. */
async function findLineEnd(handle: FileHandle, from: number, size: number): Promise<number> {
  const buffer = Buffer.alloc(1024 * 1024);
  for (let at = from; at < size; at += buffer.length) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - at), at);
    const newline = buffer.subarray(0, bytesRead).indexOf(0x0a);
    if (newline !== -1) return at + newline;
    if (bytesRead === 0) break;
  }
  return -1;
}

/**
 * The complete lines of `path` after the cursor, at most `maxBytes` of them (`more` says that
 * others follow). A file shorter than the offset, or whose head changed, is read from the start.
 * A record longer than `maxBytes` is read whole, or passed over when it exceeds `maxRecordBytes`,
 * so one huge line never stops the reading of what follows it.
 */
export async function readTail(path: string, cursor: SessionCursor, maxBytes: number, maxRecordBytes = MAX_RECORD_BYTES): Promise<TranscriptTail> {
  const info = await stat(path);
  // Opening a FIFO (or a device) blocks a thread-pool thread until a writer comes, and a process
  // exits only once its thread pool has: the hook would outlive its budget however it gave up.
  if (!info.isFile()) throw new Error(`not a regular file: ${path}`);
  const sameFile = cursor.transcript === path && info.size >= cursor.offset && cursor.head === (await fingerprint(path, cursor.offset));
  const restarted = !sameFile;
  const start = restarted ? 0 : cursor.offset;
  const length = Math.min(info.size - start, maxBytes);
  let text = '';
  let nextOffset = start;
  let skipped = 0;
  if (length > 0) {
    const handle = await open(path, 'r');
    try {
      let buffer = Buffer.alloc(length);
      let { bytesRead } = await handle.read(buffer, 0, length, start);
      let end = buffer.lastIndexOf(0x0a, bytesRead - 1);
      if (end === -1 && start + bytesRead < info.size) {
        // One record longer than a chunk: read it whole, or pass over it when it is huge.
        const lineEnd = await findLineEnd(handle, start + bytesRead, info.size);
        const recordEnd = lineEnd === -1 ? info.size : lineEnd + 1;
        if (recordEnd - start <= maxRecordBytes) {
          buffer = Buffer.alloc(recordEnd - start);
          ({ bytesRead } = await handle.read(buffer, 0, buffer.length, start));
          end = buffer.lastIndexOf(0x0a, bytesRead - 1);
        } else if (lineEnd !== -1) {
          skipped = recordEnd - start;
          nextOffset = recordEnd;
        }
      }
      // A last line without its newline is read when it is a whole record: a file written
      // without a final newline would otherwise keep its last record from every hook.
      if (start + bytesRead === info.size && end !== bytesRead - 1 && isWholeRecord(buffer.subarray(end + 1, bytesRead))) end = bytesRead - 1;
      if (end !== -1) {
        text = buffer.subarray(0, end + 1).toString('utf8');
        if (buffer[end] !== 0x0a) text += '\n';
        nextOffset = start + end + 1;
      }
    } finally {
      await handle.close();
    }
  }
  // What is left is more to read when the read stopped short of the file's end; otherwise it is
  // at most a record still being written, which waits for the next hook.
  const more = nextOffset > start && nextOffset < info.size && start + length < info.size;
  return { text, nextOffset, head: await fingerprint(path, nextOffset), restarted, more, skipped };
}

/** One capture per session at a time (Stop and an async PostToolUse can overlap). */
export async function lockSession(cortexDir: string, session: string, waitMs: number): Promise<(() => Promise<void>) | null> {
  await mkdir(join(cortexDir, 'sessions'), { recursive: true });
  return acquireLockFile(`${cursorPath(cortexDir, session)}.lock`, { staleMs: 30_000, waitMs });
}
