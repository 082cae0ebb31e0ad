import { startInBackground } from '../background.js';
import type { EventType } from '../events/types.js';
import { cortexDir } from '../git/repo.js';
import type { Journal } from '../journal/journal.js';
import { detachedStayBefore, isVisible, previousName, squashLimit, type BranchView, type Place } from '../projections/visibility.js';
import { readBranchViewOf } from '../workspace/branch-view.js';
import { previousIncarnations } from '../workspace/fork-records.js';
import { existsSync } from 'node:fs';
import { readSettings } from '../workspace/settings.js';
import { EMBEDDED_TYPE_CODES, INDEXED_TYPES, TYPE_BOOST, typeCode, type StoredDoc } from './documents.js';
import { vectorsDir } from './embeddings/vectors.js';
import { byScore, scoreQuery, type Candidate, type Segments } from './engine.js';
import { withNeighbours } from './neighbours.js';
import { impliedRetirements, memoryKey } from './implied-reversals.js';
import { feedbackMaxDocs, withFeedback, type FeedbackSource } from './feedback.js';
import { loadLexicon, planQuery, type QueryPlan } from './query-plan.js';
import { DamagedSegment, readSegment, type Segment } from './score-segment.js';
import { readAttrs, readDelta, readDocs, readListed, readShard, readTermFilter, resetIndex, type AttrTable, type SearchMeta } from './store.js';
import type { TermFilter } from './term-filter.js';
import { relatedTerms } from './thesaurus.js';
import { deltaName, updateIndex, type UpdateOptions, type UpdateResult } from './update.js';

/**
 * `cortex search`, recall and the MCP server all come here: bring the index to the journal's
 * tip (incrementally), align with HEAD like the projections do, run the query, and turn the best
 * candidates into hits: retracted memories never, amended ones by their amendment, superseded
 * decisions (by an event, or by what a later decision says: implied-reversals.ts) marked and
 * ranked below what replaced them, repeats of one memory once.
 */
export interface SearchRequest {
  query: string;
  /** Only answers of these types (`--type`); the question is still answered over every type. */
  types?: readonly EventType[];
  /** Only these types are searched at all, nor counted in how common a word is (recall leaves plans out). */
  within?: readonly EventType[];
  /** Only memories captured at or after this time. */
  since?: Date;
  all?: boolean;
  limit?: number;
}

export interface SearchHit extends StoredDoc {
  score: number;
  /** The document's words that matched, as index terms (for highlighting). */
  matched: string[];
  /** Which of the query's concepts it matched (indexes into plan.concepts). */
  concepts: number[];
  superseded?: boolean;
  supersededBy?: string;
}

export interface SearchOutcome {
  hits: SearchHit[];
  plan: QueryPlan;
  /** The index is behind the journal (a hook left the catch-up to the background). */
  stale: boolean;
  /** Documents in the index. */
  indexed: number;
  /** Per concept of the plan, how many eligible documents matched it (a measure of how specific it is). */
  conceptDocs: number[];
  /** Whether vector similarity took part in the ranking. */
  hybrid: boolean;
  /** Something the user should hear once (why search is keyword-only, say). */
  notice?: string;
}

const INTENT_BOOST = 1.8;
const SUPERSEDED_FACTOR = 0.5;

/**
 * Loaded segments, kept for the life of the process (the MCP server answers many queries): the
 * shards of the current bulk generation and the latest delta of each index. A new generation or
 * a grown delta replaces what it supersedes, so a long-lived server does not accumulate them.
 */
interface LoadedIndex {
  gen: number;
  shards: Map<string, Promise<Segment | null>>;
  delta?: { count: number; segment: Promise<Segment | null> };
}
const loaded = new Map<string, LoadedIndex>();

const parse = (read: Promise<string | null>) => read.then((json) => (json === null ? null : readSegment(json)));

function segmentsOf(dir: string, meta: SearchMeta): Segments {
  const bulk = meta.bulk;
  const gen = bulk?.gen ?? 0;
  let index = loaded.get(dir);
  if (!index || index.gen !== gen) loaded.set(dir, (index = { gen, shards: new Map() }));
  const current = index;
  return {
    bulk: bulk && { shards: bulk.shards, frequent: new Map(Object.entries(bulk.frequent)), documentCount: bulk.count },
    shard: (key) => {
      if (!bulk) return Promise.resolve(null);
      let segment = current.shards.get(key);
      if (!segment) current.shards.set(key, (segment = parse(readShard(dir, bulk.gen, key))));
      return segment;
    },
    // The delta changes with every append: reloaded when it covers more documents.
    delta: () => {
      if (current.delta?.count !== meta.count) current.delta = { count: meta.count, segment: parse(readDelta(dir, deltaName(meta))) };
      return current.delta.segment;
    },
  };
}

let attrCache: { dir: string; count: number; table: AttrTable } | undefined;
async function attrsOf(dir: string, count: number): Promise<AttrTable | null> {
  if (attrCache?.dir === dir && attrCache.count === count) return attrCache.table;
  const table = await readAttrs(dir, count);
  attrCache = table ? { dir, count, table } : undefined;
  return table;
}

export interface SearchOptions {
  update?: UpdateOptions;
  /** The index as the caller just brought it up to date (saves reading it twice). */
  index?: UpdateResult;
  /** Fuse with vector similarity when `cortex embed` has made vectors (default true; recall passes false). */
  vectors?: boolean;
  /** The view to align with; read from git when absent. */
  view?: BranchView;
  /** Try thesaurus synonyms for words the journal never uses (default true; recall passes false). */
  thesaurus?: boolean;
  /** A second pass with the words the best answers share (feedback.ts; default true; recall passes false). */
  feedback?: boolean;
  /** Let the best answers lend a share of their score to what was recorded beside them (neighbours.ts; default true; recall passes false). */
  neighbours?: boolean;
  /** Correct one-letter typos of words the journal lacks (default true; recall, whose prompts are long, passes false). */
  typos?: boolean;
  /** The caller is a hook, with a time budget: a damaged index is rebuilt in the background, not here. */
  inHook?: boolean;
}

let filterCache: { dir: string; count: number; filter: TermFilter | null } | undefined;
/**
 * A word's thesaurus relatives that the journal uses (the index's term filter against the
 * thesaurus). Asked also for words the journal does use: a question says "laptop" where the
 * memory that answers it says "computer", even when some other memory says "laptop".
 */
function relatedIn(dir: string, meta: SearchMeta | null): ((word: string, term: string) => string[]) | undefined {
  const count = meta?.count ?? 0;
  if (filterCache?.dir !== dir || filterCache.count !== count) filterCache = { dir, count, filter: readTermFilter(dir) };
  const filter = filterCache.filter;
  const frequent = meta?.bulk?.frequent ?? {};
  return filter ? (word, term) => relatedTerms(word, term, (t) => filter.has(t), (t) => Object.hasOwn(frequent, t)) : undefined;
}

export async function searchMemory(journal: Journal, request: SearchRequest, options: SearchOptions = {}): Promise<SearchOutcome> {
  await loadLexicon();
  let update = options.index ?? (await updateIndex(journal, options.update));
  if (update.wantsCompaction && !catchUpInBackground(journal)) update = await updateIndex(journal, { compact: true });
  try {
    return await searchIndex(journal, request, options, update);
  } catch (err) {
    if (!(err instanceof DamagedSegment)) throw err;
    // The index is derived from the journal, so a damaged file costs a rebuild, nothing more. The
    // index is dropped and built again: here, or for a hook (which has a budget) in the
    // background, answering nothing meanwhile. Several hooks may each start one; the first
    // rebuilds and the others, waiting on its lock, find the index up to date.
    forgetLoaded(update.dir);
    await resetIndex(update.dir);
    if (options.inHook && catchUpInBackground(journal)) {
      const plan = planQuery(request.query);
      return { hits: [], plan, stale: true, indexed: 0, conceptDocs: plan.concepts.map(() => 0), hybrid: false };
    }
    return await searchIndex(journal, request, options, await updateIndex(journal, { onProgress: options.update?.onProgress }));
  }
}

function forgetLoaded(dir: string): void {
  loaded.delete(dir);
  attrCache = undefined;
  filterCache = undefined;
}

async function searchIndex(journal: Journal, request: SearchRequest, options: SearchOptions, update: UpdateResult): Promise<SearchOutcome> {
  const plan = planQuery(request.query, { related: options.thesaurus === false ? undefined : relatedIn(update.dir, update.meta ?? null), typos: options.typos !== false });
  const meta = update.meta;
  const attrs = meta && (await attrsOf(update.dir, meta.count));
  if (!meta || !attrs) return { hits: [], plan, stale: true, indexed: 0, conceptDocs: plan.concepts.map(() => 0), hybrid: false };

  const places = meta.places.map(([branch, commit]) => ({ branch, commit }));
  const listed = async (ids: ReadonlySet<string>) => (await readListed(update.dir, ids)).map((row) => ({ ...(places[row.place] as Place), id: row.id, millis: row.millis }));
  const read = docReader(update.dir, attrs);
  const earlier = options.view ? { previous: new Map(), places: [], docs: new Set<number>() } : await earlierBranchesOfTheName(journal, places, attrs, read);
  const view = options.view ?? (await readBranchViewOf(journal.repo, places, new Map(meta.rewrites), { all: request.all, listed, rewrittenParents: new Map(meta.rewriteParents), previous: earlier.previous, previousPlaces: earlier.places }));
  const visiblePlace = places.map((place) => isVisible(place, view));
  // Memory an earlier branch of a name recorded, judged as that branch.
  const visibleAsPrevious = places.map((place) => place.branch !== null && earlier.previous.has(place.branch) && isVisible({ branch: previousName(place.branch), commit: place.commit }, view));
  // A branch merged without ancestry (squashed) is visible up to a time, not by place.
  const squashLimits = places.map((place, i) => (visiblePlace[i] ? undefined : squashLimit(place, view)));
  const origin = originIn(view, places, visiblePlace, attrs, read);
  const stayBefore = places.map((place) => detachedStayBefore(place, view));
  // Edits keep no time: one made on a squashed branch counts (a retraction errs on the side of forgetting).
  const { shown, superseded } = editsInView(meta, visiblePlace.map((v, i) => v || squashLimits[i] !== undefined || i === origin.place));

  const allowed = request.types && request.types.length > 0 ? new Set(request.types.map((t) => typeCode(t))) : null;
  const since = request.since ? Math.floor(request.since.getTime() / 1000) : 0;
  const boosts = INDEXED_TYPES.map((t) => (TYPE_BOOST[t] ?? 1) * (plan.intents.has(t) ? INTENT_BOOST : 1));
  // The question is answered over everything in view; --type and --since then pick among the
  // answers. Filtering earlier would cut the routes by which an answer is found: the notes
  // feedback and neighbours lend words and score through are often of another type.
  const within = request.within && request.within.length > 0 ? new Set(request.within.map((t) => typeCode(t))) : null;
  const weigh = (o: number): number => {
    if (o >= meta.count) return 0;
    const place = attrs.place(o);
    const inView = (earlier.docs.has(o) ? visibleAsPrevious[place] : place === origin.place ? !origin.since.has(o) : visiblePlace[place]) && !(attrs.millis(o) < (stayBefore[place] as number));
    if (!inView && !(attrs.millis(o) <= (squashLimits[place] ?? Number.NEGATIVE_INFINITY))) return 0;
    const type = attrs.type(o);
    if (within && !within.has(type)) return 0;
    return boosts[type] ?? 1;
  };
  const wanted = (c: { o: number }): boolean => (!allowed || allowed.has(attrs.type(c.o))) && (!since || attrs.time(c.o) >= since);
  const segments = segmentsOf(update.dir, meta);
  const scored = await scoreQuery(plan, segments, weigh);
  const conceptDocs = plan.concepts.map(() => 0);
  for (const c of scored) for (const k of c.concepts) conceptDocs[k] = (conceptDocs[k] ?? 0) + 1;
  const frequent = meta.bulk?.frequent ?? {};
  const feedback: FeedbackSource = {
    docs: read,
    shown,
    isFrequent: (t) => Object.hasOwn(frequent, t),
    maxDocs: feedbackMaxDocs(meta.count),
    score: (p) => scoreQuery(p, segments, weigh),
  };
  const answered = byScore(options.feedback === false ? scored : await withFeedback(plan, scored, feedback));
  const everyAnswer = options.neighbours === false ? answered : withNeighbours(answered, { count: meta.count, place: (o) => attrs.place(o), time: (o) => attrs.time(o), weigh });
  const filtered = allowed !== null || since > 0;
  const keyword = filtered ? everyAnswer.filter(wanted) : everyAnswer;
  let ranked = keyword;
  let hybrid: { used: boolean; notice?: string } = { used: false };
  if (options.vectors !== false && existsSync(vectorsDir(cortexDir(journal.repo)))) {
    const { fuseWithVectors } = await import('./embeddings/hybrid.js');
    const { settings } = await readSettings(journal);
    const eligible = (o: number) => weigh(o) > 0 && EMBEDDED_TYPE_CODES.has(attrs.type(o)) && (!filtered || wanted({ o }));
    const fused = await fuseWithVectors(vectorsDir(cortexDir(journal.repo)), meta, request.query, keyword, eligible, settings);
    ranked = fused.candidates;
    hybrid = fused;
  }
  const limit = request.limit ?? 10;
  // Reversals are read among what is shown first, then among the other answers: a decision that
  // took up a rejection reverses it even where --type rejected does not show it.
  const implied = impliedAmong(read, attrs, filtered ? [...ranked, ...everyAnswer] : ranked, limit, shown, superseded);
  const hits = toHits(read, ranked, { shown, superseded: { byEvent: superseded, implied }, limit });
  return { hits, plan, stale: update.stale, indexed: meta.count, conceptDocs, hybrid: hybrid.used, ...(hybrid.notice ? { notice: hybrid.notice } : {}) };
}

/** What search shows superseded, and by what ('' when unknown). */
interface Supersessions {
  /** By an event: a `decision_superseded`, or a decision naming the id it replaces. */
  byEvent(id: string): string | undefined;
  /** By what a later decision's words imply (implied-reversals.ts): text key → the id of what retired it. */
  implied: ReadonlyMap<string, string>;
}

/**
 * The edits in view: what may be shown (not retracted; for an amended memory, only its latest
 * amendment's text, amendedDoc) and what is superseded.
 */
function editsInView(meta: SearchMeta, visiblePlace: readonly boolean[]): { shown: (doc: StoredDoc) => boolean; superseded: (id: string) => string | undefined } {
  const retracted = new Set<string>();
  const amendedBy = new Map<string, string>();
  const byId = new Map<string, string>();
  const named: Array<{ ref: string; by: string; at: string }> = [];
  for (const edit of meta.edits) {
    if (!visiblePlace[edit.place]) continue;
    if (edit.kind === 'retract') retracted.add(edit.target);
    else if (edit.kind === 'amend') amendedBy.set(edit.target, edit.by ?? '');
    else if (edit.named) named.push({ ref: edit.target, by: edit.by ?? '', at: edit.at ?? '' });
    else byId.set(edit.target, edit.by ?? '');
  }
  const shown = (doc: StoredDoc): boolean => !retracted.has(doc.id) && (doc.amendedBy ?? '') === (amendedBy.get(doc.id) ?? '');
  // A forgotten decision replaces nothing.
  const live = named.filter((n) => !retracted.has(n.by));
  // A full id of any length names its decision; a part of one (as the briefing shows ids) needs 6+ characters.
  const naming = (id: string) => {
    const upper = id.toUpperCase();
    return live.find((n) => n.by !== id && (upper === n.ref || (n.ref.length >= 6 && (upper.startsWith(n.ref) || upper.endsWith(n.ref)))));
  };
  const superseded = (id: string): string | undefined => {
    const by = byId.get(id);
    if (by !== undefined || live.length === 0) return by;
    const found = naming(id);
    if (!found) return undefined;
    // Two decisions that each name the other: the later one (by time, then id) stands, as the
    // projections judge it (compareEvents), however the index took them in.
    const back = naming(found.by);
    const later = (a: { at: string; by: string }, b: { at: string; by: string }) => (a.at !== b.at ? a.at > b.at : a.by > b.by);
    return back && back.by === id && later(back, found) ? undefined : found.by;
  };
  return { shown, superseded };
}

/** How many of the best decisions and rejections a search reads for the reversals among them. */
const REVERSAL_WINDOW = 30;

function impliedAmong(read: DocReader, attrs: AttrTable, ranked: readonly Candidate[], limit: number, shown: (doc: StoredDoc) => boolean, byEvent: (id: string) => string | undefined): Map<string, string> {
  const said = new Set([typeCode('decision_made'), typeCode('approach_rejected')]);
  // Only a decision or rejection among the results can be marked: most queries show none.
  if (!ranked.slice(0, limit * 2).some((c) => said.has(attrs.type(c.o)))) return new Map();
  const ordinals: number[] = [];
  for (const c of ranked) {
    if (said.has(attrs.type(c.o)) && !ordinals.includes(c.o)) ordinals.push(c.o);
    if (ordinals.length >= REVERSAL_WINDOW) break;
  }
  if (ordinals.length < 2) return new Map();
  const found = [...read(ordinals)].map(([o, doc]) => ({ o, doc })).filter(({ doc }) => shown(doc));
  const explicit = new Set(found.filter(({ doc }) => byEvent(doc.id) !== undefined).map(({ doc }) => doc.id));
  const idOf = new Map(found.map(({ doc }) => [memoryKey(doc), doc.id]));
  const implied = new Map<string, string>();
  for (const [retired, by] of impliedRetirements(found, explicit)) implied.set(retired, idOf.get(by) ?? '');
  return implied;
}

type DocReader = (ordinals: readonly number[]) => Map<number, StoredDoc>;

/** Stored records by ordinal, each read from disk once however often it is asked for. */
/**
 * The documents an earlier branch of a name recorded (deleted or renamed since this clone made a
 * branch of that name; fork-records.ts), by ordinal, and the places they were recorded at under
 * that branch's own name: read from the documents of those names' places only.
 */
async function earlierBranchesOfTheName(journal: Journal, places: readonly Place[], attrs: AttrTable, read: DocReader): Promise<{ previous: Map<string, Set<string>>; places: Place[]; docs: Set<number> }> {
  const previous = await previousIncarnations(journal.repo, new Set(places.map((p) => p.branch).filter((b): b is string => b !== null)));
  const docs = new Set<number>();
  const at = new Map<string, Place>();
  if (previous.size === 0) return { previous, places: [], docs };
  const here: number[] = [];
  for (let o = 0; o < attrs.count; o++) {
    const branch = places[attrs.place(o)]?.branch;
    if (branch && previous.has(branch)) here.push(o);
  }
  for (const [o, doc] of read(here)) {
    const place = places[attrs.place(o)] as Place;
    if (!previous.get(place.branch as string)?.has(doc.id)) continue;
    docs.add(o);
    const earlierPlace = { branch: previousName(place.branch as string), commit: place.commit };
    at.set(`${earlierPlace.branch} ${earlierPlace.commit}`, earlierPlace);
  }
  return { previous, places: [...at.values()], docs };
}

/**
 * The place HEAD's branch was made at, on the branch it was made from (`view.origin`), with the
 * ordinals of what was recorded there since the branch was made (out of view, whether or not
 * the place is): read by id, from the few documents of that one place.
 */
function originIn(view: BranchView, places: readonly Place[], visiblePlace: readonly boolean[], attrs: AttrTable, read: DocReader): { place: number; since: ReadonlySet<number> } {
  const origin = view.origin;
  const place = origin ? places.findIndex((p) => p.branch === origin.place.branch && p.commit === origin.place.commit) : -1;
  if (!origin || place < 0 || (visiblePlace[place] && origin.since.size === 0)) return { place: -1, since: new Set() };
  const here: number[] = [];
  for (let o = 0; o < attrs.count; o++) if (attrs.place(o) === place) here.push(o);
  const since = new Set<number>();
  if (origin.since.size > 0) for (const [o, doc] of read(here)) if (origin.since.has(doc.id)) since.add(o);
  return { place, since };
}

function docReader(dir: string, attrs: AttrTable): DocReader {
  const known = new Map<number, StoredDoc>();
  return (ordinals) => {
    const missing = ordinals.filter((o) => !known.has(o));
    for (const [o, doc] of readDocs(dir, attrs, missing)) known.set(o, doc);
    const out = new Map<number, StoredDoc>();
    for (const o of ordinals) {
      const doc = known.get(o);
      if (doc) out.set(o, doc);
    }
    return out;
  };
}

/** The best candidates as hits: read in batches until `limit` survive the edits and the dedupe. */
function toHits(read: DocReader, candidates: readonly Candidate[], options: { shown: (doc: StoredDoc) => boolean; superseded: Supersessions; limit: number }): SearchHit[] {
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  const batch = Math.max(20, options.limit * 2);
  for (let from = 0; from < candidates.length && hits.length < options.limit * 2; from += batch) {
    const slice = candidates.slice(from, from + batch);
    const docs = read(slice.map((c) => c.o));
    for (const c of slice) {
      const doc = docs.get(c.o);
      if (!doc || !options.shown(doc)) continue;
      const key = memoryKey(doc);
      if (seen.has(key)) continue;
      seen.add(key);
      const hit: SearchHit = { ...doc, score: round(c.score), matched: [...c.matched], concepts: [...c.concepts] };
      const by = options.superseded.byEvent(doc.id) ?? options.superseded.implied.get(key);
      if (by !== undefined) {
        hit.superseded = true;
        if (by) hit.supersededBy = by;
        hit.score = round(hit.score * SUPERSEDED_FACTOR);
      }
      hits.push(hit);
    }
  }
  // A superseded decision never outranks the decision that replaced it.
  const byId = new Map(hits.map((h) => [h.id, h]));
  for (const hit of hits) {
    const replacement = hit.supersededBy ? byId.get(hit.supersededBy) : undefined;
    if (replacement && hit.score >= replacement.score) hit.score = round(replacement.score * 0.99);
  }
  return hits.sort((a, b) => b.score - a.score).slice(0, options.limit);
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * Bring the index up to the journal's tip, building it if it is missing and folding an oversized
 * delta, without making this caller wait (false: the caller must do it itself).
 */
export const catchUpInBackground = (journal: Journal): boolean =>
  startInBackground(['reindex', '--compact', '--quiet'], { cwd: journal.repo.workTree ?? journal.repo.gitDir, cortexDir: cortexDir(journal.repo) });

