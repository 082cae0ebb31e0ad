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

/** Collapse whitespace and cut at a word boundary, so content stays one readable line. */
export function tidy(text: string, max = MAX_CANDIDATE_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max - 40))}…`;
}
