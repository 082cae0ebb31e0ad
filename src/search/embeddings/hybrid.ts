import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProjectionSettings } from '../../projections/settings.js';
import type { Candidate } from '../engine.js';
import type { SearchMeta } from '../store.js';
import { reciprocalRankFusion } from './fuse.js';
import { EmbeddingsUnavailable, loadEmbedder, type Embedder } from './model.js';
import { nearest, quantize, readVectorMeta, readVectors, type VectorMeta } from './vectors.js';

/**
 * Hybrid ranking: when `cortex embed` has computed vectors for this index, the query is embedded
 * too and its nearest memories are fused with the keyword ranking (reciprocal rank fusion).
 * Without vectors, search is keyword-only and silent about it; with vectors but without the
 * package or the model, it is keyword-only and says so once.
 */
const FUSED_DEPTH = 50;

let embedder: Promise<Embedder> | undefined;
const embedderFor = (settings: Pick<ProjectionSettings, 'embedModel' | 'embedPath'>): Promise<Embedder> => (embedder ??= loadEmbedder(settings));

let cached: { dir: string; meta: VectorMeta; vectors: Int8Array } | undefined;

export interface HybridResult {
  candidates: Candidate[];
  /** A one-line notice for the user (shown once per distinct notice). */
  notice?: string;
  used: boolean;
}

export async function fuseWithVectors(
  vectorDir: string,
  meta: SearchMeta,
  query: string,
  keyword: readonly Candidate[],
  eligible: (o: number) => boolean,
  settings: Pick<ProjectionSettings, 'embedModel' | 'embedPath' | 'rrfK' | 'vectorWeight' | 'minSimilarity'>,
): Promise<HybridResult> {
  const vmeta = await readVectorMeta(vectorDir);
  if (!vmeta || vmeta.count === 0) return { candidates: [...keyword], used: false };
  if (vmeta.build !== meta.build) return { candidates: [...keyword], used: false, notice: await once(vectorDir, 'the vectors belong to an earlier search index; run `cortex embed` to bring them up to date (keyword search until then)') };
  let model: Embedder;
  try {
    model = await embedderFor(settings);
  } catch (err) {
    embedder = undefined;
    if (!(err instanceof EmbeddingsUnavailable)) throw err;
    return { candidates: [...keyword], used: false, notice: await once(vectorDir, `${err.message}; searching by keyword only`) };
  }
  if (model.dims !== vmeta.dims || model.model !== vmeta.model) return { candidates: [...keyword], used: false, notice: await once(vectorDir, `the vectors were made with ${vmeta.model}, not ${model.model}; run \`cortex embed\` (keyword search until then)`) };
  if (cached?.dir !== vectorDir || cached.meta.count !== vmeta.count || cached.meta.build !== vmeta.build) {
    const vectors = await readVectors(vectorDir, vmeta);
    if (!vectors) return { candidates: [...keyword], used: false };
    cached = { dir: vectorDir, meta: vmeta, vectors };
  }
  const [queryVector] = await model.embed([query]);
  if (!queryVector) return { candidates: [...keyword], used: false };
  // Every memory is a little similar to any query: below the floor a neighbour is noise, and a
  // query nothing matches should find nothing.
  const near = nearest(cached.vectors, vmeta.dims, quantize(queryVector), (o) => o < vmeta.count && eligible(o), FUSED_DEPTH).filter((n) => n.similarity >= settings.minSimilarity);
  const byOrdinal = new Map(keyword.map((c) => [c.o, c]));
  const fused = reciprocalRankFusion(
    [
      { ordinals: keyword.slice(0, FUSED_DEPTH).map((c) => c.o), weight: 1 },
      { ordinals: near.map((n) => n.o), weight: settings.vectorWeight },
    ],
    settings.rrfK,
  );
  return {
    used: true,
    candidates: fused.map(({ o, score }) => ({ o, score, concepts: byOrdinal.get(o)?.concepts ?? [], matched: byOrdinal.get(o)?.matched ?? [] })),
  };
}

/** The notice, the first time it differs from the last one given; undefined after that. */
async function once(dir: string, notice: string): Promise<string | undefined> {
  const path = join(dir, 'last-notice');
  if ((await readFile(path, 'utf8').catch(() => null)) === notice) return undefined;
  await writeFile(path, notice).catch(() => undefined);
  return notice;
}
