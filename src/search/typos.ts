import { termOf } from './analyze.js';
import { oneEditApart } from '../one-edit.js';

/**
 * One-letter typos that stemming hides. Fuzzy matching compares terms, and a term is a stem:
 * "validaton" (as typed, and its own stem) is one edit from "validation" but four from its term
 * "valid", so it found nothing. Here the *word* is corrected: the terms of every word one edit
 * from what was typed, after its third letter (a typo in the first three would be a term in
 * another shard, and is rarer), minus those the term-level fuzzy and prefix matches already try.
 * The caller keeps the ones the journal has. Pure; memoised, as a resident searcher sees the same
 * words again.
 */
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const KEPT = 3;
const memo = new Map<string, readonly string[]>();

export function typoTerms(typed: string, term: string): readonly string[] {
  const key = `${typed}\u0000${term}`;
  const known = memo.get(key);
  if (known) return known;
  const words = new Set<string>();
  for (let i = KEPT; i <= typed.length; i++) {
    const head = typed.slice(0, i);
    const tail = typed.slice(i);
    if (tail) words.add(head + tail.slice(1)); // deletion
    if (tail.length > 1) words.add(head + tail[1] + tail[0] + tail.slice(2)); // transposition
    for (const c of LETTERS) {
      words.add(head + c + tail); // insertion
      if (tail) words.add(head + c + tail.slice(1)); // substitution
    }
  }
  const terms = new Set<string>();
  for (const word of words) {
    const t = termOf(word);
    if (t && t !== term && !t.startsWith(term) && !oneEditApart(t, term)) terms.add(t);
  }
  const out = [...terms];
  if (memo.size > 500) memo.clear();
  memo.set(key, out);
  return out;
}
