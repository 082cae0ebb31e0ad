import { analyzeWords } from './analyze.js';

/**
 * The part of a memory worth showing in a result line: a window around the first match, with
 * every word whose term matched marked by `mark` (bold on a terminal, nothing elsewhere).
 */
export function snippet(text: string, matched: ReadonlySet<string>, mark: (word: string) => string, width = 160): string {
  const words = analyzeWords(text);
  const hits = words.filter((w) => w.terms.some((t) => matched.has(t)));
  let start = 0;
  let end = text.length;
  if (text.length > width) {
    const first = hits[0]?.index ?? 0;
    start = Math.max(0, Math.min(first - Math.floor(width / 3), text.length - width));
    end = Math.min(text.length, start + width);
  }
  let out = '';
  let at = start;
  for (const w of hits) {
    if (w.index < start || w.index + w.word.length > end) continue;
    out += text.slice(at, w.index) + mark(w.word);
    at = w.index + w.word.length;
  }
  out += text.slice(at, end);
  return `${start > 0 ? '…' : ''}${out.replace(/\s+/g, ' ').trim()}${end < text.length ? '…' : ''}`;
}
