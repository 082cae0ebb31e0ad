import { normalizeEvent, type EventContext } from './parse-event.js';
import type { CortexEvent } from './types.js';

/**
 * An import file's lines → events, each bad line named by its number. Duplicate ids within the
 * file keep the first (and are counted, as a re-import's are). Blank lines are fine.
 */
export interface ImportLineError {
  line: number;
  message: string;
}

export function parseImportLines(text: string, ctx: EventContext): { events: CortexEvent[]; errors: ImportLineError[]; repeated: number } {
  const events: CortexEvent[] = [];
  const errors: ImportLineError[] = [];
  const seen = new Set<string>();
  let repeated = 0;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === '') return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      errors.push({ line: index + 1, message: 'not valid JSON' });
      return;
    }
    const result = normalizeEvent(raw, ctx);
    if (!result.ok) {
      errors.push({ line: index + 1, message: result.error });
      return;
    }
    if (seen.has(result.event.id)) {
      repeated += 1;
      return;
    }
    seen.add(result.event.id);
    events.push(result.event);
  });
  return { events, errors, repeated };
}
