import type { EventType } from '../events/types.js';
import { analyze, wordsOf } from './analyze.js';
import { readFileSync } from 'node:fs';
import type { Vocabulary } from './vocabulary-data.js';

/**
 * A query as the engine runs it. Each word the user typed is a *concept*; a concept matches
 * through its own term, through its equivalents (auth ↔ authentication), and more weakly through
 * the specific things a general word covers (database → postgres, sqlite), its equivalents'
 * included. Words that say what kind of memory is wanted ("why did we *pick*", "what did we
 * *rule out*") also become intents, which favour that kind of memory.
 *
 * Ranking multiplies a document's summed BM25 by how many concepts it matched, so a note that
 * answers two of the question's words beats one that repeats a single word.
 */
export interface QueryTerm {
  term: string;
  boost: number;
  /** Index into the concepts. */
  concept: number;
  prefix: boolean;
  fuzzy: boolean;
  /** The word as typed, for a word of letters that gave this one term: typos are corrected on it (typos.ts). */
  typed?: string;
  /** Skipped in a field where more documents than this hold it (feedback terms: too broad to say anything). */
  maxDocs?: number;
}

export interface QueryPlan {
  terms: QueryTerm[];
  concepts: string[];
  /**
   * Per concept: its words are all intent words ("why did we *pick*", "*which*", "*ruled out*"),
   * which say what kind of memory is wanted more than what it is about.
   */
  intentOnly: boolean[];
  intents: Set<EventType>;
}

const EQUIVALENT_BOOST = 0.9;
const NARROWER_BOOST = 0.6;
const MAX_EQUIVALENTS = 6;
const IDIOM_WORD_BOOST = 0.3;
// Related words (the thesaurus) are weaker evidence than the vocabulary's equivalents: a word's
// neighbours include things it is merely used with ("laptop" → desktop), so each weighs little
// and a memory that uses the word itself still comes first.
const RELATED_BOOST = 0.3;
const MAX_RELATED = 8;
const MAX_NARROWER = 10;

export const INTENT_TYPES: Readonly<Record<string, readonly EventType[]>> = {
  decision: ['decision_made'],
  rejected: ['approach_rejected'],
  learned: ['knowledge_acquired'],
  error: ['error_resolved'],
  preference: ['preference_noted'],
  plan: ['plan_created', 'plan_step_completed'],
  done: ['task_completed', 'plan_step_completed'],
};

/** The vocabulary with every word analysed the way documents are, built once per process. */
export interface Lexicon {
  /** term → the terms equivalent to it (itself excluded). */
  equivalents: Map<string, string[]>;
  /** term → narrower terms. */
  narrower: Map<string, string[]>;
  /** Multi-word entries, as the words a question would contain ("sign in", "rate limit"). */
  phrases: Set<string>;
  /** The same entries by their analysed terms ("worker died" → "worker di"), so "workers had died" finds it too. */
  termPhrases: Map<string, string>;
  /** intent phrase (lowercased words) → intent name. */
  intents: Array<{ words: string[]; intent: string }>;
}

let lexicon: Lexicon | undefined;

/**
 * An entry's key: one word → its term (an identifier's whole form: "node.js" → nodejs); several
 * words → the phrase as typed, lowercased. Only one-word entries expand a query; a phrase's words
 * alone ("back", "end", or "log" of "log out") would match far too much.
 */
function entryKey(entry: string): { term: string } | { phrase: string } | null {
  const words = entry.toLowerCase().trim().split(/\s+/).filter(Boolean);
  if (words.length > 1) return { phrase: words.join(' ') };
  const terms = analyze(words[0] ?? '');
  const term = terms[terms.length - 1];
  return term ? { term } : null;
}

export function buildLexicon(vocabulary: Vocabulary): Lexicon {
  const equivalents = new Map<string, Set<string>>();
  const narrower = new Map<string, Set<string>>();
  const phrases = new Set<string>();
  const add = (table: Map<string, Set<string>>, key: string, terms: readonly string[]) => {
    const set = table.get(key) ?? new Set<string>();
    for (const t of terms) if (t !== key) set.add(t);
    table.set(key, set);
  };
  const termPhrases = new Map<string, string>();
  const keyOf = (entry: string): string | null => {
    const key = entryKey(entry);
    if (key && 'phrase' in key) {
      phrases.add(key.phrase);
      const terms = analyze(key.phrase);
      if (terms.length >= 2 && terms.length <= 3 && !termPhrases.has(terms.join(' '))) termPhrases.set(terms.join(' '), key.phrase);
    }
    return key && ('term' in key ? key.term : key.phrase);
  };
  const termsOf = (entries: readonly string[]): string[] => entries.map(entryKey).flatMap((k) => (k && 'term' in k ? [k.term] : []));
  for (const group of vocabulary.equivalents) {
    const terms = termsOf(group);
    for (const member of group) {
      const key = keyOf(member);
      if (key) add(equivalents, key, terms);
    }
  }
  for (const [general, specifics] of Object.entries(vocabulary.broader)) {
    const key = keyOf(general);
    if (key) add(narrower, key, termsOf(specifics));
  }
  // What one member of a group covers, its phrases cover too: "error reporting" finds Sentry as
  // "error tracking" does. A word gets this at query time through its equivalents, but those are
  // words only, so a phrase gets it here (from the table as the vocabulary wrote it, so the order
  // of groups does not matter).
  const written = new Map([...narrower].map(([k, v]) => [k, [...v]]));
  for (const group of vocabulary.equivalents) {
    const keys = group.map(keyOf).filter((k): k is string => k !== null && phrases.has(k));
    if (keys.length === 0) continue;
    const covered = group.flatMap((member) => written.get(keyOf(member) ?? '') ?? []);
    for (const key of keys) add(narrower, key, covered);
  }
  const intents: Lexicon['intents'] = [];
  for (const [intent, words] of Object.entries(vocabulary.intents)) for (const w of words) intents.push({ words: w.toLowerCase().split(/\s+/), intent });
  intents.sort((a, b) => b.words.length - a.words.length);
  const freeze = (m: Map<string, Set<string>>) => new Map([...m].map(([k, v]) => [k, [...v]]));
  return { equivalents: freeze(equivalents), narrower: freeze(narrower), phrases, termPhrases, intents };
}

/**
 * Analysing the whole vocabulary takes ~60 ms, too much for a hook, so the build does it once and
 * ships the result as dist/lexicon.json (scripts/write-lexicon.ts). Running from source (tests),
 * the lexicon is built here instead.
 */
export async function loadLexicon(): Promise<Lexicon> {
  if (lexicon) return lexicon;
  try {
    lexicon = lexiconFromJson(readFileSync(new URL('./lexicon.json', import.meta.url), 'utf8'));
  } catch {
    lexicon = buildLexicon((await import('./vocabulary-data.js')).VOCABULARY);
  }
  return lexicon;
}

export const lexiconToJson = (lex: Lexicon): string =>
  JSON.stringify({ equivalents: [...lex.equivalents], narrower: [...lex.narrower], phrases: [...lex.phrases], termPhrases: [...lex.termPhrases], intents: lex.intents });

function lexiconFromJson(text: string): Lexicon {
  const raw = JSON.parse(text) as { equivalents: Array<[string, string[]]>; narrower: Array<[string, string[]]>; phrases: string[]; termPhrases: Array<[string, string]>; intents: Lexicon['intents'] };
  return { equivalents: new Map(raw.equivalents), narrower: new Map(raw.narrower), phrases: new Set(raw.phrases), termPhrases: new Map(raw.termPhrases), intents: raw.intents };
}

const lexiconOf = (): Lexicon => {
  if (!lexicon) throw new Error('planQuery before loadLexicon()');
  return lexicon;
};

export interface PlanOptions {
  lexicon?: Lexicon;
  /**
   * For a word the vocabulary does not expand, terms of similar meaning worth trying, best
   * first (search passes the thesaurus words the journal actually uses).
   */
  related?: (word: string, term: string) => readonly string[];
  /** Keep each word as typed, so the engine can correct its typos (default true). */
  typos?: boolean;
}

export function planQuery(text: string, options: PlanOptions = {}): QueryPlan {
  const lex = options.lexicon ?? lexiconOf();
  const words = wordsOf(text.toLowerCase());
  // Longest phrase first, each word used once: "why did we *rule out*" is a rejection question
  // even though "why did" alone could start anything.
  const asked = new Set<string>();
  const intentWords = new Set<number>();
  for (let i = 0; i < words.length; ) {
    const found = lex.intents.find(({ words: phrase }) => phrase.every((w, k) => words[i + k] === w));
    if (found) asked.add(found.intent);
    for (let k = 0; k < (found?.words.length ?? 0); k++) intentWords.add(i + k);
    i += found ? found.words.length : 1;
  }
  // A question that seems to want every kind of memory says nothing about which one it wants.
  const intents = new Set<EventType>(asked.size <= 2 ? [...asked].flatMap((intent) => INTENT_TYPES[intent] ?? []) : []);

  const byTerm = new Map<string, QueryTerm>();
  const concepts: string[] = [];
  const intentOnly: boolean[] = [];
  const addConcept = (key: string, at: readonly number[]): number => {
    intentOnly.push(at.every((k) => intentWords.has(k)));
    return concepts.push(key) - 1;
  };
  const put = (term: string, boost: number, concept: number, original: boolean) => {
    const existing = byTerm.get(term);
    if (existing && existing.boost >= boost) return;
    byTerm.set(term, { term, boost, concept, prefix: original && term.length >= 4 && /^\p{L}+$/u.test(term), fuzzy: original && term.length >= 6 && /^\p{L}+$/u.test(term) });
  };
  // Each expansion is one more term to look up (and at scale one more shard to load): a word
  // brings at most a handful of each kind, in the vocabulary's order (most common first).
  const expand = (key: string, concept: number): number => {
    const equivalents = (lex.equivalents.get(key) ?? []).slice(0, MAX_EQUIVALENTS);
    for (const t of equivalents) put(t, EQUIVALENT_BOOST, concept, false);
    const narrower = [...new Set([key, ...equivalents].flatMap((k) => lex.narrower.get(k) ?? []))].slice(0, MAX_NARROWER);
    for (const t of narrower) put(t, NARROWER_BOOST, concept, false);
    return equivalents.length + narrower.length;
  };

  // Phrases first ("rate limit", "sign in"), then the words they did not cover.
  const terms = words.map((w, i) => ({ i, terms: analyze(w) }));
  const covered = new Set<number>();
  const takePhrase = (key: string, at: readonly number[]) => {
    const concept = addConcept(key, at);
    const own = at.flatMap((k) => terms[k]?.terms ?? []);
    // An idiom whose other words are stopwords ("log in", "up to date", "by hand") does not
    // mean its one remaining word: it is searched by what it expands to, its word only weakly.
    const idiom = expand(key, concept) > 0 && own.length === 1;
    for (const t of own) put(t, idiom ? IDIOM_WORD_BOOST : 1, concept, !idiom);
    for (const k of at) covered.add(k);
  };
  // A hyphenated compound may be a phrase ("golden-file", "line-ending"): one word, one concept.
  words.forEach((word, i) => {
    if (!word.includes('-')) return;
    const spaced = word.split('-').filter(Boolean).join(' ');
    const key = lex.phrases.has(spaced) ? spaced : lex.termPhrases.get(analyze(spaced).join(' '));
    if (key !== undefined) takePhrase(key, [i]);
  });
  // Phrases as typed first; then by their terms, over the words that carry one ("the workers
  // had died" holds "worker died").
  for (let i = 0; i < words.length; i++) {
    const len = [3, 2].find((n) => i + n <= words.length && !words.slice(i, i + n).some((_, k) => covered.has(i + k)) && lex.phrases.has(words.slice(i, i + n).join(' ')));
    if (len === undefined) continue;
    takePhrase(words.slice(i, i + len).join(' '), Array.from({ length: len }, (_, k) => i + k));
    i += len - 1;
  }
  const content = terms.filter((w) => w.terms.length === 1 && !covered.has(w.i));
  for (let j = 0; j < content.length; j++) {
    for (const len of [3, 2]) {
      const run = content.slice(j, j + len);
      const key = run.length === len ? lex.termPhrases.get(run.map((w) => w.terms[0]).join(' ')) : undefined;
      if (key === undefined || run.some((w) => covered.has(w.i))) continue;
      takePhrase(key, run.map((w) => w.i));
      j += len - 1;
      break;
    }
  }
  // A word is one concept, even when it is an identifier of several parts ("consumption-based",
  // "getUserName"): matching two of its parts is not matching two things the question asks.
  for (const { i, terms: ts } of terms) {
    if (covered.has(i)) continue;
    const fresh = ts.filter((term) => byTerm.get(term)?.boost !== 1);
    if (fresh.length === 0) continue;
    const concept = addConcept(fresh[fresh.length - 1] as string, [i]);
    for (const term of fresh) {
      put(term, 1, concept, true);
      const typed = words[i] as string;
      const own = byTerm.get(term);
      if (own && options.typos !== false && ts.length === 1 && /^\p{L}+$/u.test(typed)) own.typed = typed;
      if (expand(term, concept) > 0 || fresh.length > 1 || !options.related) continue;
      for (const t of options.related(words[i] as string, term).slice(0, MAX_RELATED)) put(t, RELATED_BOOST, concept, false);
    }
  }
  return { terms: [...byTerm.values()], concepts, intentOnly, intents };
}
