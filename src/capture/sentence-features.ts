import { stemmer } from 'stemmer';

/**
 * The features the sentence model (sentence-model.ts) reads a sentence by, shared by its
 * training script so both read a sentence the same way: word stems and pairs of them, how it
 * opens, its length, and a few marks of shape (a clause break, code, a question). Code spans and
 * numbers are one token each: `ets:select/2` or 140M say nothing about what kind of memory a
 * sentence is. Pure.
 */
export function sentenceFeatures(text: string): string[] {
  const lower = text.toLowerCase().replace(/[‘’]/g, "'").replace(/`[^`]*`/g, ' xcodex ').replace(/\d+/g, '0');
  const stems = lower
    .split(/[^a-z0-9']+/)
    .filter(Boolean)
    .map((w) => stemmer(w));
  const out = new Set<string>(['bias']);
  for (const s of stems) out.add(`w:${s}`);
  for (let i = 0; i + 1 < stems.length; i++) out.add(`b:${stems[i]}_${stems[i + 1]}`);
  if (stems[0]) out.add(`first:${stems[0]}`);
  if (stems[1]) out.add(`first2:${stems[0]}_${stems[1]}`);
  out.add(`len:${Math.min(6, Math.floor(stems.length / 6))}`);
  if (/[:;—–]/.test(text)) out.add('clause');
  if (text.includes('`')) out.add('code');
  if (/\?\s*$/.test(text)) out.add('question');
  return [...out];
}
