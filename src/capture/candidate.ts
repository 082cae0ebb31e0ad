import type { EventType, Meta } from '../events/types.js';

/** What an extractor proposes, before redaction, dedupe and stamping into an event. */
export interface Candidate {
  type: EventType;
  content: string;
  confidence: number;
  provenance: string;
  meta: Meta;
  ts: string;
}

export const MAX_CANDIDATE_CHARS = 500;

/**
 * Collapse whitespace and cut at a word boundary, so content stays one readable line. Never
 * inside a word: the cut runs before redaction, and the front half of a token cut in two (a
 * key, a password) is no longer a shape any rule knows.
 */
export function tidy(text: string, max = MAX_CANDIDATE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${space > 0 ? cut.slice(0, space) : ''}…`;
}
