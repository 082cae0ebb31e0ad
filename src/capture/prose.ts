/**
 * Assistant and user text → sentences of prose, with what must never trigger a heuristic
 * masked out: fenced and indented code and blockquotes are removed; inline code and quoted
 * text are masked in the matching copy (`masked`) but kept in the content (`text`), so
 * "use `pg` rather than `mongodb`" still reads well while a trigger word inside backticks
 * never fires. Pure.
 */
export interface Sentence {
  /** What the event's content is made of. */
  text: string;
  /** Same length as `text`; code and quotations replaced by `·`. Match against this. */
  masked: string;
}

const MASK = '·';
const blank = (s: string) => s.replace(/[^\n]/g, ' ');
const mask = (s: string) => s.replace(/[^\n]/g, MASK);

function removeBlocks(text: string): string {
  return text
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm, blank)
    .replace(/^(?: {4}|\t)[^\n]*$/gm, (line) => (/^\s*(?:[-*+]|\d+\.)\s/.test(line) ? line : blank(line)))
    .replace(/^\s*>[^\n]*$/gm, blank)
    .replace(/<(thinking|antml:[a-z_]+|system-reminder)>[\s\S]*?<\/\1>/g, blank);
}

function maskInline(text: string): string {
  return text
    .replace(/`[^`\n]*`/g, mask)
    .replace(/"[^"\n]{2,}?"/g, mask)
    .replace(/“[^”\n]{2,}?”/g, mask)
    .replace(/(^|[\s(])'[^'\n]{6,}?'(?=[\s).,;:!?]|$)/g, (m, lead: string) => lead + mask(m.slice(lead.length)));
}

/** Sentence ends: terminal punctuation followed by space and a capital, a line break, or the end. */
const BOUNDARY = /(?<=[.!?])\s+(?=[A-Z0-9*_(["'`·])|\n+/g;
const ABBREVIATION = /\b(?:e\.g|i\.e|etc|vs|approx|cf|incl|Mr|Dr|No)\.$/i;

/** The whole text with code blocks and quotes blanked, and its masked twin (same offsets). */
export function prepareProse(raw: string): Sentence {
  const text = removeBlocks(raw);
  return { text, masked: maskInline(text) };
}

export function splitProse(raw: string): Sentence[] {
  const { text, masked } = prepareProse(raw);
  const sentences: Sentence[] = [];
  let start = 0;
  const push = (end: number) => {
    let s = start;
    let e = end;
    while (s < e && /\s/.test(text[s] as string)) s++;
    while (e > s && /\s/.test(text[e - 1] as string)) e--;
    if (e - s < 8) return;
    const piece = { text: text.slice(s, e), masked: masked.slice(s, e) };
    // List markers, headings, emphasis: presentation, not content.
    const lead = /^(?:#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|\*\*|__)+/.exec(piece.masked)?.[0].length ?? 0;
    sentences.push({ text: cleanMarkup(piece.text.slice(lead)), masked: cleanMarkup(piece.masked.slice(lead)) });
  };
  for (const match of masked.matchAll(BOUNDARY)) {
    const end = match.index;
    if (match[0].includes('\n') === false && ABBREVIATION.test(masked.slice(Math.max(0, end - 8), end))) continue;
    push(end);
    start = end + match[0].length;
  }
  push(text.length);
  return sentences.filter((s) => /[a-z]{2,}/i.test(s.masked));
}

/** Bold markers become spaces (not removed) so both copies keep the same length and offsets. */
function cleanMarkup(s: string): string {
  return s.replace(/\*\*|__/g, '  ');
}
