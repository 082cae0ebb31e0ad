import { readFileSync } from 'node:fs';

/**
 * General-English related words (dist/thesaurus.txt, written by the build from GloVe neighbours
 * and WordNet) for the words of a question: "handset" → phone, "laptop" → computer. The software
 * vocabulary covers the words developers share; this covers the everyday ones they reach for
 * when they have forgotten those. Read on first use as bytes and binary-searched in place: the
 * build writes its lines sorted by their UTF-8 bytes, and decoding 5 MB into a string, let alone
 * parsing it into a map, would cost a CLI call more than every lookup it makes.
 */
let bytes: Buffer | null | undefined;

function thesaurusBytes(): Buffer | null {
  if (bytes === undefined) {
    // Beside the bundle in dist/; from source (tests, the bench), the build's copy.
    const candidates = [new URL('./thesaurus.txt', import.meta.url), new URL('../../dist/thesaurus.txt', import.meta.url)];
    bytes = null; // never built: no thesaurus
    for (const path of candidates) {
      try {
        bytes = readFileSync(path);
        break;
      } catch {
        // try the next
      }
    }
  }
  return bytes;
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

const NEWLINE = 0x0a;
const TAB = 0x09;

/** The line `word<TAB>terms` of `source` (lines sorted by their bytes), by binary search over line starts. */
export function lineOf(source: Buffer, word: string): string | null {
  const key = Buffer.from(word);
  let lo = 0;
  let hi = source.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = mid === 0 ? 0 : source.lastIndexOf(NEWLINE, mid - 1) + 1; // a negative offset would count from the end
    const newline = source.indexOf(NEWLINE, start);
    const end = newline < 0 ? source.length : newline;
    const tab = source.indexOf(TAB, start);
    const order = source.compare(key, 0, key.length, start, tab < 0 || tab > end ? end : tab);
    if (order === 0) return source.toString('utf8', start, end);
    if (order < 0) lo = end + 1;
    else hi = start;
  }
  return null;
}

/** Analysed related terms of a word, nearest first; [] when none or no thesaurus. */
export function synonymsOf(word: string, source: Buffer | null = thesaurusBytes()): string[] {
  if (source === null) return [];
  const terms: string[] = [];
  for (const form of baseForms(word.toLowerCase())) {
    const line = lineOf(source, form);
    if (line !== null) for (const t of line.slice(form.length + 1).split(' ')) if (t && !terms.includes(t)) terms.push(t);
  }
  return terms;
}

/**
 * The related terms worth trying for a question's word: those the journal uses (`inJournal`),
 * but none that are `common` (in more than 1% of the journal: such a term weighs little, its IDF
 * being low, and costs the most, its capped shard), and none at all for a word that common
 * itself: it is the journal's own word for its thing, and its relatives would mostly find others.
 */
export function relatedTerms(word: string, term: string, inJournal: (t: string) => boolean, common: (t: string) => boolean, source?: Buffer | null): string[] {
  if (common(term)) return [];
  return synonymsOf(word, source).filter((t) => t !== term && inJournal(t) && !common(t));
}
