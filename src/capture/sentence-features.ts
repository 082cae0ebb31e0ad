import { stemmer } from 'stemmer';

/**
 * The features the sentence model (sentence-model.ts) reads a sentence by, shared by its
 * training script so both read a sentence the same way: word stems and pairs of them, how it
 * opens, its length, and a few marks of shape (a clause break, code, a question). Code spans and
 * numbers are one token each: `ets:select/2` or 140M say nothing about what kind of memory a
 * sentence is. Pure.
 */
const stems = new Map<string, string>();
/** Stemming is most of a sentence's cost, and prose repeats its words. */
function stemOf(word: string): string {
  let stem = stems.get(word);
  if (stem === undefined) {
    if (stems.size > 50_000) stems.clear(); // bounded, whatever a transcript holds
    stems.set(word, (stem = stemmer(word)));
  }
  return stem;
}

export function sentenceFeatures(text: string): string[] {
  const lower = text.toLowerCase().replace(/[‘’]/g, "'").replace(/`[^`]*`/g, ' xcodex ').replace(/\d+/g, '0');
  const words = lower
    .split(/[^a-z0-9']+/)
    .filter(Boolean)
    .map(stemOf);
  const out = new Set<string>(['bias']);
  for (const s of words) out.add(`w:${s}`);
  for (let i = 0; i + 1 < words.length; i++) out.add(`b:${words[i]}_${words[i + 1]}`);
  if (words[0]) out.add(`first:${words[0]}`);
  if (words[1]) out.add(`first2:${words[0]}_${words[1]}`);
  out.add(`len:${Math.min(6, Math.floor(words.length / 6))}`);
  if (/[:;—–]/.test(text)) out.add('clause');
  if (text.includes('`')) out.add('code');
  if (/\?\s*$/.test(text)) out.add('question');
  return [...out];
}
