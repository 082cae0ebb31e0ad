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
  /** An item of a list of options put to the user to choose from: proposed, not done. */
  offered?: boolean;
  /** It was a list item ("- x", "1. x"). */
  listItem?: boolean;
  /** A line of a markdown table: its header's cells and, for a body row, its own. */
  table?: { header: string[]; cells?: string[] };
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

/**
 * Sentence ends: terminal punctuation followed by space, a line break, or the end. Whatever
 * follows: people type their prompts in lower case ("looks good. we use a 10s deadline on all
 * unary calls. don't touch gen/"), and Claude starts sentences with lower-case names
 * ("… in one short transaction. pg_partman isn't allowed here, so …").
 */
const BOUNDARY = /(?<=[.!?](?:\*\*|__)?)\s+(?=\S)|\n+/gu;
const ABBREVIATION = /\b(?:e\.g|i\.e|etc|vs|approx|cf|incl|Mr|Dr|No|a\.m|p\.m)\.$/i;

/** The whole text with code blocks and quotes blanked, and its masked twin (same offsets). */
export function prepareProse(raw: string): Sentence {
  const text = removeBlocks(raw);
  return { text, masked: maskInline(text) };
}

/** A markdown table's line, and the rule of dashes under its header. */
const TABLE_LINE = /^\s*\|.*\|\s*$/;
const TABLE_RULE = /^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$/;

/** A list item line ("- ", "1. ", "2) ", "b) ", "(c) ") or a labelled option ("**Option A:**"). */
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,2}[.)]|[a-z][.)]|\([a-z0-9]\))\s+/i;
const OPTION_LABEL = /^\s*(?:[-*+]\s+|#{1,6}\s+)?(?:\*\*|__)?(?:option|alternative|approach|choice)\s+(?:[a-z]|\d{1,2}|one|two|three|four)(?:\*\*|__)?\s*(?:[:.)—–-]|\()/i;
/** What introduces options ("Here are the options:", "We could:"), unless it reports a past weighing. */
const OFFER_INTRO = /\b(?:options|alternatives|choices|possibilities|approaches|ways (?:to|we|you)|(?:we|you|i) (?:could|might)|either)\b/i;
const REPORT_INTRO = /\b(?:considered|evaluated|compared|looked at|tried|weighed|went through|ruled out|rejected|chose|picked|decided|settled|went with|used|implemented|added|changed|fixed|did|made)\b/i;
/** A question asking the user to pick ("Which do you prefer?", "Let me know which works"). */
const CHOICE_QUESTION = /\b(?:which|prefer|rather|pick|choose|option|approach|go with)\b[^?]*\?\s*$|\b(?:let me know which|your call|up to you)\b/i;

const lastSentence = (line: string) => line.trim().split(/(?<=[.!?])\s+/).pop() ?? '';

/**
 * Offsets covered by lists of options put to the user: a list introduced as options or closed by
 * a question asking which, or two or more labelled options. Their items propose; they decide nothing.
 */
function offeredRanges(masked: string): Array<[number, number]> {
  const lines: Array<{ start: number; end: number; text: string }> = [];
  let at = 0;
  for (const text of masked.split('\n')) {
    lines.push({ start: at, end: at + text.length, text });
    at += text.length + 1;
  }
  const blank = (i: number) => (lines[i]?.text.trim() ?? '') === '';
  const isItem = (i: number) => LIST_ITEM.test(lines[i]?.text ?? '') || OPTION_LABEL.test(lines[i]?.text ?? '') || TABLE_LINE.test(lines[i]?.text ?? '');
  const ranges: Array<[number, number]> = [];
  for (let i = 0; i < lines.length; i++) {
    if (!isItem(i)) continue;
    // The block: items, their indented continuation lines, and blank lines between them.
    let last = i;
    for (let k = i + 1; k < lines.length; k++) {
      if (blank(k)) continue;
      if (isItem(k) || /^\s{2,}\S/.test(lines[k]?.text ?? '')) last = k;
      else break;
    }
    let before = i - 1;
    while (before >= 0 && blank(before)) before--;
    let after = last + 1;
    while (after < lines.length && blank(after)) after++;
    const introLine = before >= 0 ? (lines[before]?.text ?? '').trim() : '';
    const intro = lastSentence(introLine).replace(/[*_]+$/, '');
    const heading = /^(?:#{1,6}\s|(?:\*\*|__)[^*_]+(?:\*\*|__)$)/.test(introLine);
    const outro = (lines[after]?.text ?? '').trim().split(/(?<=[.!?])\s+/);
    let labels = 0;
    for (let k = i; k <= last; k++) if (OPTION_LABEL.test(lines[k]?.text ?? '')) labels++;
    const introduced = (heading || /[:?]$/.test(intro)) && ((OFFER_INTRO.test(intro) && !REPORT_INTRO.test(intro)) || CHOICE_QUESTION.test(intro));
    if (introduced || labels >= 2 || outro.some((s) => CHOICE_QUESTION.test(s))) ranges.push([lines[i]?.start ?? 0, lines[last]?.end ?? 0]);
    i = last;
  }
  return ranges;
}


/** The cells of a table line, cut where the masked copy has a pipe (one inside inline code is no border). */
function cellsOf(text: string, masked: string): string[] {
  const cells: string[] = [];
  let from = masked.indexOf('|') + 1;
  for (let at = masked.indexOf('|', from); at !== -1; at = masked.indexOf('|', from)) {
    cells.push(text.slice(from, at).trim());
    from = at + 1;
  }
  return cells;
}

interface TableLine {
  start: number;
  end: number;
  header: string[];
  cells?: string[];
}

/** Markdown tables (a header line, a rule line of dashes, rows), line by line, with their offsets. */
function tableLines(text: string, masked: string): TableLine[] {
  const lines: Array<{ start: number; end: number }> = [];
  let at = 0;
  for (const line of masked.split('\n')) {
    lines.push({ start: at, end: at + line.length });
    at += line.length + 1;
  }
  const line = (i: number) => masked.slice(lines[i]?.start ?? 0, lines[i]?.end ?? 0);
  const cells = (i: number) => cellsOf(text.slice(lines[i]?.start ?? 0, lines[i]?.end ?? 0), line(i));
  const out: TableLine[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!TABLE_LINE.test(line(i)) || !TABLE_RULE.test(line(i + 1))) continue;
    const header = cells(i);
    out.push({ ...(lines[i] as { start: number; end: number }), header });
    let k = i + 2;
    for (; k < lines.length && TABLE_LINE.test(line(k)); k++) out.push({ ...(lines[k] as { start: number; end: number }), header, cells: cells(k) });
    i = k - 1;
  }
  return out;
}

/** Sentences of prose. */
export function splitProse(raw: string): Sentence[] {
  const { text, masked } = prepareProse(raw);
  const offered = offeredRanges(masked);
  const tables = tableLines(text, masked);
  const tableAt = (offset: number) => tables.find((t) => offset >= t.start && offset <= t.end);
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
    const sentence: Sentence = { text: cleanMarkup(piece.text.slice(lead)), masked: cleanMarkup(piece.masked.slice(lead)) };
    if (offered.some(([from, to]) => s >= from && s < to)) sentence.offered = true;
    if (/^\s*(?:[-*+]|\d+[.)])\s/.test(piece.masked)) sentence.listItem = true;
    const table = tableAt(s);
    if (table) sentence.table = table.cells ? { header: table.header, cells: table.cells } : { header: table.header };
    sentences.push(sentence);
  };
  for (const match of masked.matchAll(BOUNDARY)) {
    const end = match.index;
    if (match[0].includes('\n') === false && ABBREVIATION.test(masked.slice(Math.max(0, end - 8), end))) continue;
    // "not df = df... on every line": an ellipsis before a lower-case word trails off mid-sentence.
    if (match[0].includes('\n') === false && /(?:\.\.\.|…)$/.test(masked.slice(0, end)) && /^\p{Ll}/u.test(masked.slice(end + match[0].length))) continue;
    // A table line is one unit: a full stop inside a cell ends no sentence.
    if (match[0].includes('\n') === false && tableAt(end)) continue;
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
