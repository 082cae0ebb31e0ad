import { parseEventLine } from '../events/parse-event.js';
import type { CortexEvent } from '../events/types.js';

/**
 * A shard's text → its events. A bad line is reported with its file and line number and
 * skipped; it never costs the events around it.
 */
export interface LineProblem {
  file: string;
  line?: number;
  message: string;
}

export interface ParsedShard {
  events: CortexEvent[];
  problems: LineProblem[];
  /** Number of lines, good or bad (a trailing newline does not start a line). */
  lines: number;
  /** Id of the event on the last line, when that line is a valid event. */
  lastId: string | null;
}

export function splitLines(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function parseShard(file: string, text: string, fromLine = 0): ParsedShard {
  const lines = splitLines(text);
  const events: CortexEvent[] = [];
  const problems: LineProblem[] = [];
  let lastId: string | null = null;
  for (let i = fromLine; i < lines.length; i++) {
    const line = lines[i] as string;
    lastId = null;
    if (line.trim() === '') continue;
    const result = parseEventLine(line);
    if (result.ok) {
      events.push(result.event);
      lastId = result.event.id;
    } else {
      problems.push({ file, line: i + 1, message: result.error });
    }
  }
  return { events, problems, lines: lines.length, lastId };
}

/** The id on line `n` (1-based) of a shard, if that line is a valid event. */
export function idAtLine(text: string, n: number): string | null {
  const line = splitLines(text)[n - 1];
  if (line === undefined) return null;
  const result = parseEventLine(line);
  return result.ok ? result.event.id : null;
}
