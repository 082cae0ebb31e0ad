import { beforeAll, describe, expect, it } from 'vitest';
import type { EventType } from '../../src/events/types.js';
import { analyze, analyzeWords } from '../../src/search/analyze.js';
import { reciprocalRankFusion } from '../../src/search/embeddings/fuse.js';
import { nearest, quantize } from '../../src/search/embeddings/vectors.js';
import { buildLexicon, loadLexicon, planQuery } from '../../src/search/query-plan.js';
import { VOCABULARY } from '../../src/search/vocabulary-data.js';
import { typoTerms } from '../../src/search/typos.js';
import { addFeedback, bestOf, FEEDBACK_BOOST, FEEDBACK_TERMS, feedbackMaxDocs, feedbackTerms } from '../../src/search/feedback.js';
import type { StoredDoc } from '../../src/search/documents.js';
import fc from 'fast-check';
import { renderRecall, selectRecall, turnedDown } from '../../src/search/recall.js';
import type { SearchHit } from '../../src/search/search.js';
import { runQuery, type Segments } from '../../src/search/engine.js';
import { oneEditApart } from '../../src/one-edit.js';
import { DamagedSegment, readSegment, scoreSegment, type Candidate } from '../../src/search/score-segment.js';
import { FIELD_BOOST, FIELDS } from '../../src/search/documents.js';
import { buildShards, cappedTermFactor, frequentKey, FREQUENT_CAP, newDelta, planShards, shardCountFor, shardOf, type IndexedDoc } from '../../src/search/segments.js';
import { snippet } from '../../src/search/snippet.js';
import { TermFilter } from '../../src/search/term-filter.js';
import { lineOf, relatedTerms, synonymsOf } from '../../src/search/thesaurus.js';

beforeAll(async () => {
  await loadLexicon();
});

describe('analysis', () => {
  it('stems, lowercases and drops stopwords, so "caching" finds "cached"', () => {
    expect(analyze('Caching the results')).toEqual(analyze('cached result'));
    expect(analyze('what is the')).toEqual([]);
  });

  it('brings together what Porter keeps apart: "deploy" meets "deployment", "queue" meets "queued"', () => {
    for (const form of ['deploys', 'deployed', 'deploying', 'deployment']) expect(analyze(form)).toEqual(analyze('deploy'));
    expect(analyze('queued')).toEqual(analyze('queue'));
    expect(analyze('policies')).toEqual(analyze('policy'));
    expect(analyze('apis')).toEqual(analyze('api')); // three-letter words are not stemmed: a plural's stem must stay as it is
    expect(analyze('APIs')).toEqual(analyze('api')); // a plural acronym is one word, not "AP" and "Is"
    expect(analyze('URLs and IDs')).toEqual(analyze('urls and ids')); // what the query, lowercased, gives
    expect(analyze('user_IDs')).toEqual(analyze('user_ids'));
    expect(analyze('retries tried')).toEqual(analyze('retry try'));
    expect(analyze('wiki emojis')).toEqual(['wiki', 'emoji']); // an i of the word's own stays
  });

  it('keeps apart what Porter conflates: a customer is not custom, authorization is not an author, lock contention is not content', () => {
    expect(analyze('customer')).not.toEqual(analyze('custom'));
    expect(analyze('customers')).toEqual(analyze('customer'));
    expect(analyze('authorized')).toEqual(analyze('authorization'));
    expect(analyze('authorization')).not.toEqual(analyze('author'));
    expect(analyze('production')).not.toEqual(analyze('product'));
    expect(analyze('internal')).not.toEqual(analyze('international'));
    expect(analyze('contention')).not.toEqual(analyze('content'));
    expect(analyze('contended')).toEqual(analyze('contention'));
  });

  it('folds Latin accents, typed or left out (café is cafe), and keeps a word with combining marks whole', () => {
    expect(analyze('café')).toEqual(analyze('cafe'));
    expect(analyze('cafe\u0301')).toEqual(analyze('cafe'));
    expect(analyze('Ünïcödé naïve')).toEqual(analyze('unicode naive'));
    expect(analyze('हिन्दी')).toEqual(['हिन्दी']);
    expect(analyze('한국어')).toEqual(['한국어']);
  });

  it('splits identifiers into parts and also keeps them whole', () => {
    expect(analyze('getUserName')).toEqual(['user', 'name', 'getusername']);
    expect(analyze('package.json')).toEqual(['packag', 'json', 'packagejson']);
    expect(analyze('idempotency-key')).toContain('idempotencykey');
  });

  it('reads Chinese and Japanese, written without spaces, as pairs of characters, so a word inside a clause finds it', () => {
    const clause = analyze('日本語のデータベースを使う');
    for (const word of ['日本語', 'データベース']) expect(clause).toEqual(expect.arrayContaining(analyze(word)));
    expect(analyze('データベース')).toEqual(['デー', 'ータ', 'タベ', 'ベー', 'ース']);
    expect(analyze('使用PostgreSQL数据库')).toEqual(['使用', ...analyze('PostgreSQL'), '数据', '据库']);
    expect(analyze('決')).toEqual(['決']);
    expect(analyze('한국어')).toEqual(['한국어']); // Korean is spaced by words
    // Half-width and decomposed kana read as their usual form; a Latin word's combining dot below is no kana.
    expect(analyze('ｶﾞｽ')).toEqual(analyze('ガス'));
    expect(analyze('ガス'.normalize('NFD'))).toEqual(analyze('ガス'));
    expect(analyze('dạy học'.normalize('NFD'))).toEqual(['day', 'hoc']);
  });

  it('keeps C++, C# and F# apart from each other and from the letter c', () => {
    expect(analyze('Rewrite the engine in C++')).toEqual(['rewrit', 'engin', 'cpp']);
    expect(analyze('a client in C#, scripts in f#')).toEqual(['client', 'csharp', 'script', 'fsharp']);
    expect(planQuery('c++').terms.map((t) => t.term)).toContain('cpp');
    expect(planQuery('c#').terms.map((t) => t.term)).toContain('csharp');
    expect(analyze('issue#12 and abc++')).toEqual(['issu', '12', 'abc']); // only the languages' names
  });

  it('ends a word at an apostrophe: contractions and possessives are not identifiers', () => {
    expect(analyze("what's wrong? it isn't the customer's fault")).toEqual(analyze('wrong customer fault'));
    expect(analyze('don’t')).toEqual([]);
  });

  it('gives a query the same terms as the document it was copied from', () => {
    const text = 'The 500 on /api/upload came from a missing S3_BUCKET env var (fixed in uploadHandler.ts)';
    for (const { word } of analyzeWords(text)) for (const term of analyze(word)) expect(analyze(text)).toContain(term);
  });
});

describe('query plans', () => {
  it('expands a word to its equivalents and a general word to the specific things it covers', () => {
    const terms = new Map(planQuery('which database').terms.map((t) => [t.term, t]));
    expect(terms.get('databas')?.boost).toBe(1);
    expect(terms.get('db')?.boost).toBeLessThan(1);
    expect(terms.get('postgr')?.boost).toBeLessThan(terms.get('db')?.boost ?? 0);
  });

  it('keeps a plain word as typed, for typo correction, unless asked not to; an identifier is not corrected', () => {
    const typed = (query: string, options = {}) => planQuery(query, options).terms.filter((t) => t.boost === 1).map((t) => [t.term, t.typed]);
    expect(typed('validaton')).toEqual([['validaton', 'validaton']]);
    expect(typed('validaton', { typos: false })).toEqual([['validaton', undefined]]);
    expect(typed('user_name package.json').every(([, word]) => word === undefined)).toBe(true);
  });

  it('corrects a typo only where the journal lacks the word, at the weight of a fuzzy match', () => {
    expect(typoTerms('validaton', 'validaton')).toContain('valid');
    expect(typoTerms('validaton', 'validaton')).not.toContain('validaton');
    expect(typoTerms('postgres', 'postgr').every((t) => !t.startsWith('postgr'))).toBe(true); // prefix matches already cover these
  });

  it('reads what kind of memory a question wants', () => {
    expect([...planQuery('why did we rule out redis').intents]).toContain('approach_rejected');
    expect([...planQuery('which queue did we pick').intents]).toContain('decision_made');
    expect(planQuery('redis queue').intents.size).toBe(0);
  });

  it('recognises multi-word phrases as one concept', () => {
    const plan = planQuery('rate limit on sign in');
    expect(plan.concepts).toContain('rate limit');
  });

  const tiny = buildLexicon({ equivalents: [], broader: { 'worker died': ['sigkill', 'oom'], 'by hand': ['manual', 'clickops'] }, intents: {} });
  const boosts = (query: string) => new Map(planQuery(query, { lexicon: tiny }).terms.map((t) => [t.term, t.boost]));

  it('finds a phrase by its terms across inflections and stopwords', () => {
    const plan = planQuery('the workers had died again', { lexicon: tiny });
    expect(plan.concepts).toContain('worker died');
    expect(boosts('the workers had died again').has('sigkil')).toBe(true);
  });

  it('searches an idiom by what it means, not by its one content word', () => {
    const terms = boosts('who edited the config by hand');
    expect(terms.get('manual')).toBeGreaterThan(terms.get('hand') ?? 1);
    expect(terms.get('config')).toBe(1);
  });

  it('reaches the technical word from the everyday one a user forgets it by: right-click, usage stats, clobbered, German', () => {
    const lexicon = buildLexicon(VOCABULARY);
    const terms = (query: string) => planQuery(query, { lexicon }).terms.map((t) => t.term);
    expect(terms('the right-click option does nothing')).toContain('contextmenu');
    expect(terms('do we collect usage stats')).toContain('telemetry');
    expect(terms('two phones clobbered each other')).toContain('overwrit');
    expect(terms('menus in german')).toContain('i18n');
  });

  it('gives a phrase what its group covers when the group has no one-word member: "error reports" finds Sentry as "error tracking" does', () => {
    const lexicon = buildLexicon({ equivalents: [['error tracking', 'error reporting']], broader: { 'error tracking': ['sentry', 'crash dumps'] }, intents: {} });
    const terms = planQuery('error reports from mac users', { lexicon }).terms.map((t) => t.term);
    expect(terms).toContain('sentry');
    expect(terms).not.toContain('crash'); // a specific of several words is no term to look up
  });

  it('reads a hyphenated compound as the phrase it spells: "golden-file" is a golden file, one concept', () => {
    const lexicon = buildLexicon({ equivalents: [['golden file', 'golden files']], broader: { 'golden file': ['snapshot'] }, intents: {} });
    const plan = planQuery('the golden-file comparisons broke', { lexicon });
    expect(plan.concepts).toContain('golden file');
    expect(plan.terms.find((t) => t.term === 'snapshot')).toMatchObject({ boost: 0.6, concept: plan.concepts.indexOf('golden file') });
  });

  it('tries related terms only for a word the vocabulary does not know', () => {
    const asked: string[] = [];
    const related = (word: string) => (asked.push(word), ['phone']);
    const plan = planQuery('handset config', { lexicon: tiny, related });
    expect(asked).toEqual(['handset', 'config']);
    expect(plan.terms.find((t) => t.term === 'phone')).toMatchObject({ boost: 0.3, concept: 0 });
    planQuery('done by hand', { lexicon: tiny, related });
    expect(asked).not.toContain('hand'); // an idiom the vocabulary knows
  });

  it('keeps the parts of one identifier in one concept', () => {
    expect(planQuery('consumption-based fees', { lexicon: tiny }).concepts).toHaveLength(2);
  });
});

describe('thesaurus and term filter', () => {
  it('looks a word up by its base forms and returns its analysed synonyms', () => {
    const source = Buffer.from('# header\nhandset\ttelephon phone\nhousehold\tfamili home\n');
    expect(synonymsOf('Handset', source)).toEqual(['telephon', 'phone']);
    expect(synonymsOf('households', source)).toEqual(['famili', 'home']);
    expect(synonymsOf('kubernetes', source)).toEqual([]);
    expect(synonymsOf('handset', null)).toEqual([]);
  });

  it('tries only related terms the journal uses, none of its commonest, and none for a word that common itself', () => {
    const source = Buffer.from('# header\nlaptop\tcomput phone notebook\nsession\tweek day\n');
    const journal = new Set(['comput', 'phone', 'week', 'day']);
    const common = new Set(['phone', 'session']);
    const related = (word: string, term: string) => relatedTerms(word, term, (t) => journal.has(t), (t) => common.has(t), source);
    expect(related('laptop', 'laptop')).toEqual(['comput']);
    expect(related('sessions', 'session')).toEqual([]);
  });

  it('finds every line of a sorted thesaurus by binary search, and nothing that is not there', () => {
    const words = [...Array.from({ length: 500 }, (_, i) => `w${(i * 7919) % 100_000}`), 'café', 'naïve', 'über', 'zoë'].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const text = Buffer.from(`# licence\n${words.map((w) => `${w}\tsyn${w}`).join('\n')}\n`);
    for (const w of words) expect(lineOf(text, w)).toBe(`${w}\tsyn${w}`);
    for (const w of ['a', 'w', 'w1x', 'zzz', '#']) expect(lineOf(text, w)).toBeNull();
  });

  it('a term filter never forgets a term it was given, and rarely claims one it was not', () => {
    const filter = TermFilter.sizedFor(5_000);
    const terms = Array.from({ length: 5_000 }, (_, i) => `term${i}`);
    for (const t of terms) filter.add(t);
    expect(terms.every((t) => filter.has(t))).toBe(true);
    const reloaded = TermFilter.from(filter.buffer);
    expect(terms.every((t) => reloaded?.has(t))).toBe(true);
    const strangers = Array.from({ length: 5_000 }, (_, i) => `other${i}`).filter((t) => filter.has(t));
    expect(strangers.length).toBeLessThan(100);
    expect(TermFilter.from(new Uint8Array(7))).toBeNull();
  });
});

describe('shards', () => {
  it('keeps terms that share their first three letters in one shard, so prefix search stays in it', () => {
    expect(shardOf('authent', 256)).toBe(shardOf('author', 256));
    expect(shardCountFor(100)).toBe(1);
    expect(shardCountFor(100_000)).toBe(256);
  });

  it('weighs a capped frequent term as if all its documents were indexed', () => {
    expect(cappedTermFactor(FREQUENT_CAP, 100_000)).toBe(1);
    const factor = cappedTermFactor(30_000, 100_000);
    expect(factor).toBeGreaterThan(0);
    expect(factor).toBeLessThan(1);
  });

  it('answers a frequent word from its capped shard alone: its prefix relatives do not bring the uncapped thousands back', async () => {
    // 1,000 documents hold "postgres" (frequent); each path also gives a rare joined form like "postgres12ts".
    const docs: IndexedDoc[] = Array.from({ length: 1_000 }, (_, o) => ({ o, content: `postgr src postgres${o}ts` }));
    docs.push({ o: 1_000, content: 'postgresql advisori lock' });
    const plan = planShards(docs);
    expect(plan.frequent.has('postgr')).toBe(true);
    const { files, stats } = buildShards(docs, plan, () => 0);
    const read: string[] = [];
    const segments: Segments = {
      bulk: { ...plan, documentCount: stats.documentCount },
      shard: async (key) => (read.push(key), files.has(key) ? readSegment(files.get(key) as string) : null),
      delta: async () => null,
    };
    const query = { terms: [{ term: 'postgr', concept: 0, boost: 1, prefix: true, fuzzy: true }], concepts: ['postgr'], intentOnly: [false], intents: new Set<EventType>() };
    const found = await runQuery(query, segments, () => 1);
    expect(read).toEqual([frequentKey('postgr')]);
    expect(found.length).toBe(FREQUENT_CAP);
  });

  it('scores a segment exactly as MiniSearch.search would: field, term and document boosts, prefix and fuzzy matches', () => {
    const docs: IndexedDoc[] = [
      { o: 10, content: 'postgr advisori lock migrat', files: 'src/db/lock.ts', tags: 'postgr' },
      { o: 11, content: 'postgresql connect pool exhaust', files: 'src/db/pool.ts' },
      { o: 12, content: 'postgr postgr vacuum lock bloat tabl' },
      { o: 13, content: 'redi session lock ttl', tags: 'cach' },
      { o: 14, content: 'posgr typo note', files: 'doc/notes.md' },
      { o: 15, content: 'lock lock lock' },
    ];
    const built = newDelta();
    built.addAll(docs);
    const segment = readSegment(JSON.stringify(built));
    const terms = [
      { term: 'postgr', concept: 0, boost: 1, prefix: true, fuzzy: true },
      { term: 'lock', concept: 1, boost: 0.6, prefix: false, fuzzy: false },
      { term: 'session', concept: 2, boost: 0.3, prefix: false, fuzzy: false },
    ];
    const weigh = (o: number) => (o === 15 ? 0 : o === 12 ? 1.6 : 1);
    const ours = new Map<number, Candidate>();
    scoreSegment(segment, terms, weigh, ours);

    const info = new Map(terms.map((t) => [t.term, t]));
    const theirs = built.search(terms.map((t) => t.term).join(' '), {
      fields: [...FIELDS],
      boost: { ...FIELD_BOOST },
      prefix: (term) => info.get(term)?.prefix ?? false,
      fuzzy: (term) => (info.get(term)?.fuzzy ? 1 : false),
      weights: { prefix: 0.4, fuzzy: 0.35 },
      boostTerm: (term) => info.get(term)?.boost ?? 1,
      boostDocument: (id) => weigh(id as number),
      combineWith: 'OR',
    });
    expect(theirs.length).toBe(5); // 15 is weighed out
    expect([...ours.keys()].sort()).toEqual(theirs.map((r) => r.id as number).sort());
    for (const r of theirs) {
      const c = ours.get(r.id as number) as Candidate;
      // MiniSearch multiplies by the number of query terms matched; the engine applies its own factor.
      expect(c.score).toBeCloseTo(r.score / r.queryTerms.length, 10);
      expect([...c.concepts].sort()).toEqual(r.queryTerms.map((q) => info.get(q)?.concept).sort());
      expect([...c.matched].sort()).toEqual([...r.terms].sort());
    }
    expect(ours.get(14)?.matched).toEqual(['posgr']); // one edit away
    expect(ours.get(11)?.matched).toEqual(['postgresql']); // a longer form
  });

  it('tells a damaged segment file (rebuilt from the journal) from one of another MiniSearch format (a bug to fix)', () => {
    const built = newDelta();
    built.addAll([{ o: 1, content: 'lock' }]);
    const json = JSON.stringify(built);
    expect(() => readSegment(json.slice(0, 40))).toThrow(DamagedSegment);
    expect(() => readSegment('{"index":[]}')).toThrow(DamagedSegment);
    const otherFormat = () => readSegment(json.replace('"serializationVersion":2', '"serializationVersion":3'));
    expect(otherFormat).toThrow(/serialisation 3/);
    expect(otherFormat).not.toThrow(DamagedSegment);
  });

  it('takes a fuzzy match to be one insertion, deletion or substitution away, as MiniSearch does', () => {
    expect(oneEditApart('postgr', 'posgr')).toBe(true);
    expect(oneEditApart('posgr', 'postgr')).toBe(true);
    expect(oneEditApart('postgr', 'postgx')).toBe(true);
    expect(oneEditApart('postgr', 'xpostgr')).toBe(true);
    expect(oneEditApart('postgr', 'postgr')).toBe(false);
    expect(oneEditApart('postgr', 'potsgr')).toBe(false); // a transposition is two edits
    expect(oneEditApart('postgr', 'pstgx')).toBe(false);
  });
});

describe('feedback', () => {
  const doc = (content: string): StoredDoc => ({ id: content, type: 'decision_made', content, ts: '2026-01-01T00:00:00.000Z', session: 's', author: 'a', branch: 'main', commit: null });
  const candidate = (o: number, score: number, concepts: number[] = [0]): Candidate => ({ o, score, concepts, matched: [] });

  it('takes the words the best answers share, none of the question\'s own, numbers or frequent words, at most FEEDBACK_BOOST each', () => {
    const plan = planQuery('keep people logged in');
    const docs = new Map([
      [0, doc('Sessions: the login handler issues a refresh token in an httpOnly cookie, since 2024')],
      [1, doc('Refresh tokens rotate; the cookie is renewed by the handler')],
      [2, doc('Grafana dashboards for the handler latency')],
    ]);
    const terms = feedbackTerms(plan, [candidate(0, 10), candidate(1, 6), candidate(2, 1)], docs, { isFrequent: (t) => t === 'handler', maxDocs: 400 });
    const words = terms.map((t) => t.term);
    expect(words.slice(0, 3).sort()).toEqual(['cooky', 'refresh', 'token']); // in two of the best
    expect(words).not.toContain('login'); // the question's own
    expect(words).not.toContain('2024');
    expect(words).not.toContain('handler'); // frequent
    expect(terms.length).toBeLessThanOrEqual(FEEDBACK_TERMS);
    for (const t of terms) {
      expect(t.boost).toBeLessThanOrEqual(FEEDBACK_BOOST);
      expect(t.concept).toBe(plan.concepts.length); // answers no concept of the question
      expect(t.prefix || t.fuzzy).toBe(false);
      expect(t.maxDocs).toBe(400);
    }
    expect(feedbackTerms(plan, [], docs, { isFrequent: () => false, maxDocs: 400 })).toEqual([]);
    expect([feedbackMaxDocs(300), feedbackMaxDocs(100_000)]).toEqual([100, 400]); // small journals keep every word
  });

  it('adds the second pass as if run with the question (times the concepts answered); a note only it found answers none', () => {
    const first = [candidate(0, 10, [0, 1]), candidate(1, 4, [0])];
    const out = addFeedback(first, [candidate(0, 1, [9]), candidate(2, 2, [9])]);
    expect(out.map((c) => [c.o, c.score, c.concepts])).toEqual([[0, 12, [0, 1]], [1, 4, [0]], [2, 2, []]]);
  });

  it('leaves out a feedback word where more notes than its limit hold it', () => {
    const docs: IndexedDoc[] = [0, 1, 2].map((o) => ({ o, content: `cooky refresh ${o}` }));
    docs.push({ o: 3, content: 'refresh' });
    const plan = planShards(docs);
    const { files } = buildShards(docs, plan, () => 0);
    const segment = readSegment([...files.values()][0] as string);
    const score = (term: string, maxDocs: number) => {
      const acc = new Map<number, Candidate>();
      scoreSegment(segment, [{ term, boost: 0.3, concept: 1, prefix: false, fuzzy: false, maxDocs }], () => 1, acc);
      return [...acc.keys()].sort();
    };
    expect(score('cooky', 3)).toEqual([0, 1, 2]);
    expect(score('refresh', 3)).toEqual([]); // in four notes
  });

  it('picks the best few candidates as sorting them all would', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 40 }), fc.integer({ min: 1, max: 6 }), (scores, n) => {
        const candidates = scores.map((score, o) => candidate(o, score));
        const sorted = [...candidates].sort((a, b) => b.score - a.score || a.o - b.o);
        expect(bestOf(candidates, n)).toEqual(sorted.slice(0, n));
      }),
    );
  });
});

describe('fusion and vectors', () => {
  it('reciprocal rank fusion favours what both rankings put high', () => {
    const fused = reciprocalRankFusion(
      [
        { ordinals: [1, 2, 3], weight: 1 },
        { ordinals: [3, 1, 4], weight: 1 },
      ],
      60,
    );
    expect(fused.map((f) => f.o).slice(0, 2)).toEqual([1, 3]);
    expect(fused.map((f) => f.o)).toContain(4);
  });

  it('finds the nearest int8 vectors among the eligible rows', () => {
    const unit = (xs: number[]) => {
      const n = Math.hypot(...xs);
      return new Float32Array(xs.map((x) => x / n));
    };
    const rows = [unit([1, 0, 0]), unit([0.9, 0.1, 0]), unit([0, 1, 0]), unit([0, 0, 1])].map(quantize);
    const table = new Int8Array(rows.length * 3);
    rows.forEach((r, i) => table.set(r, i * 3));
    const query = quantize(unit([1, 0.05, 0]));
    expect(nearest(table, 3, query, () => true, 2).map((n) => n.o)).toEqual([0, 1]);
    expect(nearest(table, 3, query, (o) => o !== 0, 1).map((n) => n.o)).toEqual([1]);
  });
});

const hit = (over: Partial<SearchHit>): SearchHit => ({
  id: 'evt-1',
  type: 'decision_made',
  content: 'Use Postgres advisory locks',
  ts: '2026-11-01T10:00:00.000Z',
  session: 's1',
  author: 'a@example.com',
  branch: 'main',
  commit: null,
  score: 5,
  matched: [],
  concepts: [0],
  ...over,
});

describe('recall', () => {
  it('offers a rejected approach the prompt is about to revisit, first, with its reason', () => {
    const plan = planQuery('lets store sessions in redis');
    const concepts = (...words: string[]) => words.map((w) => plan.concepts.indexOf(analyze(w)[0] as string)).filter((k) => k >= 0);
    const rejected = hit({ id: 'r', type: 'approach_rejected', content: 'Redis for sessions', reason: 'one more service to run', matched: analyze('redis sessions'), concepts: concepts('redis', 'sessions') });
    const decision = hit({ id: 'd', content: 'Sessions live in signed cookies', score: 9, matched: analyze('sessions store'), concepts: concepts('sessions', 'store') });
    const picked = selectRecall({ hits: [decision, rejected], plan, conceptDocs: plan.concepts.map(() => 1), indexed: 500 });
    expect(picked.map((h) => h.id)).toEqual(['r', 'd']);
    expect(renderRecall(picked, 2000)).toContain('Previously rejected: Redis for sessions — because one more service to run');
  });

  it('stays silent on a prompt that only says what to do, or whose words are everywhere', () => {
    const vague = planQuery('please fix the code and run the tests');
    expect(selectRecall({ hits: [hit({ matched: analyze('fix code'), concepts: [0, 1] })], plan: vague, conceptDocs: vague.concepts.map(() => 1), indexed: 100 })).toEqual([]);
    const common = planQuery('postgres locks');
    expect(selectRecall({ hits: [hit({ matched: analyze('postgres locks'), concepts: [0, 1] })], plan: common, conceptDocs: common.concepts.map(() => 400), indexed: 1000 })).toEqual([]);
  });

  it('speaks on one shared word when it is what a preference rules out, and only then', () => {
    const plan = planQuery('npm install lodash and add it to package.json');
    const npm = [plan.concepts.indexOf('npm')];
    const outcome = (h: SearchHit) => ({ hits: [h], plan, conceptDocs: plan.concepts.map(() => 1), indexed: 500 });
    const never = hit({ id: 'p', type: 'preference_noted', content: 'Always use pnpm, never npm, in this repo', matched: ['npm'], concepts: npm });
    expect(selectRecall(outcome(never)).map((h) => h.id)).toEqual(['p']);
    expect(selectRecall(outcome({ ...never, content: 'Prefer pnpm over npm for installs' }))).toHaveLength(1);
    expect(selectRecall(outcome({ ...never, content: 'Don’t use npm here, only pnpm' }))).toHaveLength(1);
    // The same one word in a preference that does not rule it out, or in a learning, is not enough.
    expect(selectRecall(outcome({ ...never, content: 'Run npm scripts with --silent in this repo' }))).toEqual([]);
    expect(selectRecall(outcome({ ...never, type: 'knowledge_acquired', content: 'never npm link inside the monorepo' }))).toEqual([]);
  });

  it.each([
    ['Ruled out Kafka for the order events: the ops burden is too high for a team of three.', 'Kafka'],
    ['Ruled out Passport.js: too much indirection for three routes.', 'Passport.js'],
    ['I considered Redis for the session store, but it would add another piece of infrastructure to run.', 'Redis'],
    ['Terraform Cloud won’t work here because the security team blocks outbound state.', 'Terraform Cloud'],
    ['We could cache the whole catalog in memory, but it would blow the 512 MB limit.', 'cache the whole catalog'],
    ['I considered switching to pg_dump -Fc, which avoids the pipe, but the runbook expects .sql.gz', 'pg_dump -Fc'],
    ["Doubling the pool didn't help, because the bottleneck was the lock.", 'Doubling the pool'],
    ['Not going with GraphQL for the public API since REST clients exist', 'GraphQL'],
    ['Reverted the connection pool change — it caused deadlocks', 'connection pool change'],
    ['Redis for session storage', 'Redis'],
    ['Using Redis for sessions was ruled out', 'Redis'],
  ])('reads what a rejection turned down: %s', (content, approach) => {
    expect(turnedDown(content)).toBe(approach);
  });

  it('speaks on one shared word when it names the approach a rejection turned down, and only then', () => {
    const outcome = (text: string, h: SearchHit, docs = 1) => {
      const plan = planQuery(text);
      const k = plan.concepts.findIndex((c) => h.matched.includes(c));
      return { hits: [{ ...h, concepts: k >= 0 ? [k] : [] }], plan, conceptDocs: plan.concepts.map(() => docs), indexed: 500 };
    };
    const kafka = hit({ id: 'r', type: 'approach_rejected', content: 'Ruled out Kafka for the order events: the ops burden is too high for a team of three', matched: ['kafka'] });
    for (const text of ["let's bring kafka back", 'I want to use Kafka for replay', "kafka would make replay easy, let's add it"]) {
      expect(selectRecall(outcome(text, kafka)).map((h) => h.id)).toEqual(['r']);
    }
    // Kafka named by many memories is no longer a word that picks this one out.
    expect(selectRecall(outcome("let's bring kafka back", kafka, 400))).toEqual([]);
    // A word of its reason, or of what it was turned down for, is not the approach.
    expect(selectRecall(outcome('the team is off on friday', { ...kafka, matched: ['team'] }))).toEqual([]);
    expect(selectRecall(outcome('the ops dashboard is red', { ...kafka, matched: ['ops'] }))).toEqual([]);
    // Nor is the approach named in a decision or a learning enough on its own.
    expect(selectRecall(outcome("let's bring kafka back", { ...kafka, type: 'decision_made', content: 'Kafka for the order events, rather than SQS' }))).toEqual([]);
  });

  it('counts a word as shared by the word or what it means, not by one that starts like it', () => {
    const plan = planQuery('can we drop redis?');
    const redis = plan.concepts.indexOf('redi');
    const outcome = (h: SearchHit) => ({ hits: [h], plan, conceptDocs: plan.concepts.map(() => 2), indexed: 40 });
    const sessions = hit({ id: 'd', content: 'Sessions are server-side in Redis', matched: ['redi'], concepts: [redis] });
    expect(selectRecall(outcome(sessions)).map((h) => h.id)).toEqual(['d']);
    // Search finds "redirects" by the prefix of "redis" (its stem "redi"); recall does not offer it.
    const redirects = hit({ id: 'p', content: 'Going with Passport.js, since its strategies handle the redirects', matched: ['redirect'], concepts: [redis] });
    expect(selectRecall(outcome(redirects))).toEqual([]);
    // The specific things a general word covers count: "which database" is about Postgres.
    const database = planQuery('which database should we use?');
    const postgres = hit({ id: 'pg', content: 'Reports read from the Postgres replica', matched: ['postgr'], concepts: [database.concepts.indexOf('databas')] });
    expect(database.terms.map((t) => t.term)).toContain('postgr');
    expect(selectRecall({ hits: [postgres], plan: database, conceptDocs: database.concepts.map(() => 2), indexed: 40 }).map((h) => h.id)).toEqual(['pg']);
  });

  it('does not ask a memory to share the words that only say which kind of memory is wanted', () => {
    const plan = planQuery('why did we pick pg_cron?');
    expect(plan.concepts.filter((_, k) => plan.intentOnly[k])).toEqual(['pick']);
    const pick = plan.concepts.indexOf('pick');
    const pgCron = plan.concepts.findIndex((c, k) => !plan.intentOnly[k]);
    const decision = hit({ id: 'd', content: 'Going with pg_cron rather than a node-cron worker', matched: ['pgcron'], concepts: [pgCron] });
    const picked = hit({ id: 'other', content: 'We picked pino for logging', matched: ['pick'], concepts: [pick] });
    const outcome = { hits: [decision, picked], plan, conceptDocs: plan.concepts.map(() => 1), indexed: 500 };
    expect(selectRecall(outcome).map((h) => h.id)).toEqual(['d']);
  });

  it('never offers a plan: the plan as first written says nothing of where it stands', () => {
    const plan = planQuery('the login endpoint returns 500 again');
    const all = plan.concepts.map((_, k) => k);
    const planHit = hit({ id: 'plan', type: 'plan_created', content: 'Plan: Login endpoint; Session expiry job', matched: analyze('login endpoint 500'), concepts: all });
    const fix = hit({ id: 'fix', type: 'error_resolved', content: 'The 500 on /login was a string bcrypt cost', matched: analyze('login endpoint 500'), concepts: all });
    const picked = selectRecall({ hits: [planHit, fix], plan, conceptDocs: plan.concepts.map(() => 1), indexed: 500 });
    expect(picked.map((h) => h.id)).toEqual(['fix']);
    expect(renderRecall(picked, 2000)).not.toContain('Plan');
  });

  it('names each memory by the end of its id, as log --oneline does: memories of one message share its front', () => {
    const shown = renderRecall([hit({ id: '01M80MNTKC3ZDPKSMCXDFM1CSM' }), hit({ id: '01M80MNTKCBHPG8SNR2WN24BHR', type: 'approach_rejected', content: 'Redis for jobs' })], 2000);
    expect(shown).toContain('Use Postgres advisory locks [2026-11-01, XDFM1CSM]');
    expect(shown).toContain('Redis for jobs [2026-11-01, 2WN24BHR]');
  });

  it('leaves out memories of the prompt\'s own session and keeps within the budget', () => {
    const plan = planQuery('postgres advisory locks');
    const outcome = { hits: [hit({ matched: analyze('postgres advisory'), concepts: [0, 1] })], plan, conceptDocs: plan.concepts.map(() => 1), indexed: 100 };
    expect(selectRecall(outcome, 's1')).toEqual([]);
    expect(selectRecall(outcome, 'other')).toHaveLength(1);
    expect(renderRecall(selectRecall(outcome, 'other'), 40)).toBe('');
  });
});

describe('snippets', () => {
  it('marks the words that matched and windows long text around the first match', () => {
    const text = `${'filler '.repeat(60)}the advisory lock was held too long ${'tail '.repeat(40)}`;
    const shown = snippet(text, new Set(analyze('advisory lock')), (w) => `[${w}]`);
    expect(shown).toContain('[advisory] [lock]');
    expect(shown.startsWith('…')).toBe(true);
    expect(shown.length).toBeLessThan(200);
  });
});
