import { stemmer } from 'stemmer';

/**
 * Text → search terms, the same way for documents and queries, so an exact word always finds
 * itself. Words are lowercased, English stopwords dropped, and Porter-stemmed ("caching" and
 * "cached" meet at "cach"). Identifiers are split into their parts and also kept whole:
 * `getUserName` gives get, user, name and getusername; `package.json` gives package, json and
 * packagejson. The whole form keeps a distinctive identifier distinctive even when its parts are
 * common words.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by can could ' +
    'did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into ' +
    'is it its itself just me more most my myself no nor not now of off on once only or other our ours ourselves out over own same she should ' +
    'so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were ' +
    'what when where which while who whom why will with would you your yours yourself yourselves s t d ll m o re ve y isn aren wasn weren ' +
    'hasn haven hadn doesn don didn won wouldn shan shouldn mustn can couldn mightn needn let us also any anything something thing things ' +
    'get got go going gone ever still yet via per etc ok okay yes please thanks thank hey hi hello'
  ).split(' '),
);

/**
 * A word runs across identifier joiners (snake_case, package.json, kebab-case) and combining
 * marks (हिन्दी is one word, not three) but not across apostrophes: "what's", "isn't" and "customer's" are contractions and possessives, not
 * identifiers, and their joined forms ("whats", "isnt") would be words no one searches for.
 */
const WORD = /(?<![\p{L}\p{N}])[cfj](?:\+\+|#)(?![\p{L}\p{N}+#])|[\p{L}\p{N}][\p{L}\p{M}\p{N}_.-]*/giu;
/** Languages named with symbols, which would otherwise all be the letter "c". */
const SYMBOL_NAMES: Readonly<Record<string, string>> = { 'c++': 'cpp', 'c#': 'csharp', 'f#': 'fsharp', 'j#': 'jsharp' };

/** The words of a text as search sees them (queries split by the same rule as documents). */
export const wordsOf = (text: string): string[] => [...text.matchAll(WORD)].map((m) => m[0]);
const SEPARATORS = /[_.-]+/;
/** Lower-to-upper and letter-to-digit boundaries inside an identifier: useAuthToken, HTTPServer, oauth2Client. */
const CAMEL = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
/**
 * "APIs", "URLs", "PRs": the plural of an acronym, not an identifier "AP" + "Is". Taken as the
 * lowercase word a query gives ("apis" → api; "ids" stays ids, unstemmed like every short word).
 */
const PLURAL_ACRONYM = /^\p{Lu}{2,}s$/u;
const MAX_TERM = 64;

/** Latin accents, which people type or leave out at will: "café" and "cafe" are one word. */
const ACCENTS = /[\u0300-\u036f]/g;
const unaccented = (word: string): string => (/[^\x00-\x7f]/.test(word) ? word.normalize('NFD').replace(ACCENTS, '').normalize('NFC') : word);

/** A word as typed → its term, or null for a stopword. Digits and short words are not stemmed. */
export function termOf(word: string): string | null {
  const w = unaccented(word.toLowerCase());
  if (w.length === 0 || w.length > MAX_TERM || STOPWORDS.has(w)) return null;
  if (w.length <= 3 || !/^\p{L}+$/u.test(w)) return w;
  const stem = stemOf(w);
  return STOPWORDS.has(stem) ? null : stem; // "getting" is as empty as "get"
}

/**
 * Porter's stem, with its two kinds of error that matter in software notes put right:
 *
 * - It conflates some words the notes keep apart: "customer" and "custom", "authorization" and
 *   "author", "production" and "product", "internal" and "international", "experiment" and
 *   "experience", "generic" and "generate", "contention" and "content". Those families get stems
 *   of their own.
 * - It turns a final y into i ("deploy" → deploi) but not when a suffix follows ("deployment" →
 *   deploy), so the two never met. An i that came from a y is put back ("retries" → retry, the
 *   term of "retry"); one the word itself ends in is kept (wiki, emoji, "APIs" → api).
 */
const OWN_STEMS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    customer: 'customer customers',
    authoriz: 'authorization authorizations authorisation authorisations authorize authorized authorizes authorizing authorise authorised authorises authorising authorizer authorizers',
    unauthoriz: 'unauthorized unauthorised',
    production: 'production productions',
    internal: 'internal internally internals internalize internalized internalise internalised',
    internation: 'international internationally internationalization internationalisation',
    experiment: 'experiment experiments experimental experimentation experimented experimenting',
    generic: 'generic generics generically',
    generat: 'generate generated generates generating generation generations generator generators generative generational',
    integrity: 'integrity',
    business: 'business businesses',
    news: 'news',
    community: 'community communities',
    contention: 'contention contentions contend contended contending',
    queue: 'queue queues queued queuing queueing',
    enqueue: 'enqueue enqueues enqueued enqueuing enqueueing',
    dequeue: 'dequeue dequeues dequeued dequeuing dequeueing',
    requeue: 'requeue requeues requeued requeuing requeueing',
  }).flatMap(([stem, words]) => words.split(' ').map((w) => [w, stem] as const)),
);

function stemOf(word: string): string {
  const own = OWN_STEMS.get(word);
  if (own) return own;
  const stem = stemmer(word);
  return stem.length >= 3 && stem.endsWith('i') && !/is?$/.test(word) ? `${stem.slice(0, -1)}y` : stem;
}

/** The words of a text, as written (for highlighting) with the terms each gives. */
export function analyzeWords(text: string): Array<{ word: string; index: number; terms: string[] }> {
  const out: Array<{ word: string; index: number; terms: string[] }> = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0].replace(/[_.-]+$/, '');
    out.push({ word, index: match.index, terms: termsOfWord(word) });
  }
  return out;
}

/**
 * Chinese and Japanese write without spaces, so a "word" here is a whole clause: it is indexed as
 * its overlapping pairs of characters (データベース → デー ータ タベ ベー ース), as Lucene's CJK
 * analyser does, and a query's word the same way, so any run of two or more characters finds the
 * text it is part of. By script extension, so the letters both kana share (ー, ゝ) and 々 stay in
 * the run. Korean, spaced by words, keeps its words whole.
 */
const CJK = /(?=\p{L})[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}]/u;
const CJK_RUNS = /(?:(?=\p{L})[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}])+|(?:(?!\p{L})[^]|[^\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}])+/gu;
/** Below U+2E80 no character is Chinese or Japanese: most words are decided by this alone. */
const MAYBE_CJK = /[^\u0000-\u2e7f]/;

function cjkTerms(word: string): string[] {
  const terms: string[] = [];
  for (const [run] of word.matchAll(CJK_RUNS)) {
    if (!CJK.test(run)) {
      terms.push(...termsOfWord(run.replace(/^[_.-]+|[_.-]+$/g, '')));
      continue;
    }
    const chars = [...run];
    if (chars.length === 1) terms.push(run);
    for (let i = 0; i + 1 < chars.length; i++) terms.push(`${chars[i]}${chars[i + 1]}`);
  }
  return terms;
}

function termsOfWord(word: string): string[] {
  if (word.length === 0) return [];
  // Letters only (a combining mark some kana share is no kana), composed and full-width as NFKC
  // makes them, so ｶﾞｽ and a decomposed ガス index as ガス does.
  if (MAYBE_CJK.test(word) && CJK.test(word)) return cjkTerms(word.normalize('NFKC'));
  const named = SYMBOL_NAMES[word.toLowerCase()];
  if (named) return [named];
  const parts = word
    .split(SEPARATORS)
    .flatMap((p) => (PLURAL_ACRONYM.test(p) ? [p.toLowerCase()] : p.split(CAMEL)))
    .filter((p) => p.length > 0);
  const terms: string[] = [];
  for (const part of parts) {
    const term = termOf(part);
    if (term !== null) terms.push(term);
  }
  if (parts.length > 1) {
    const whole = parts.join('').toLowerCase();
    if (whole.length <= MAX_TERM) terms.push(whole);
  }
  return terms;
}

/** Every term of a text, in order, repeats kept (term frequency matters to BM25). */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.matchAll(WORD)) terms.push(...termsOfWord(match[0].replace(/[_.-]+$/, '')));
  return terms;
}
