import { cortexDir } from '../../git/repo.js';
import type { Journal } from '../../journal/journal.js';
import { EMBEDDED_TYPES, proseOf } from '../documents.js';
import { INDEXED_TYPES } from '../documents.js';
import { readAttrs, readDocs } from '../store.js';
import { updateIndex } from '../update.js';
import type { Embedder } from './model.js';
import { appendVectors, quantize, readVectorIds, readVectorMeta, readVectors, resetVectors, vectorsDir, type VectorMeta } from './vectors.js';

/**
 * `cortex embed`: vectors for every memory the index holds that has none yet. Incremental: rows
 * follow the index's ordinals, so a later run embeds only what was appended since. After the
 * index was rebuilt, rows are carried over by event id and only new memories are embedded.
 */
const BATCH = 32;

export async function embedIndex(journal: Journal, model: Embedder, onProgress?: (done: number, total: number) => void): Promise<{ embedded: number; rows: number; reused: number }> {
  const { meta, dir } = await updateIndex(journal);
  if (!meta) return { embedded: 0, rows: 0, reused: 0 };
  const attrs = await readAttrs(dir, meta.count);
  if (!attrs) throw new Error('the search index is damaged; run `cortex reindex`');
  const vdir = vectorsDir(cortexDir(journal.repo));
  let vmeta = await readVectorMeta(vdir);
  let start = 0;
  let reuse = new Map<string, Int8Array>();
  if (vmeta && vmeta.model === model.model && vmeta.dims === model.dims) {
    if (vmeta.build === meta.build && vmeta.count <= meta.count) start = vmeta.count;
    else reuse = await oldRows(vdir, vmeta);
  }
  if (start === 0) {
    await resetVectors(vdir);
    vmeta = { model: model.model, dims: model.dims, build: meta.build, count: 0, idsBytes: 0 } satisfies VectorMeta;
  }
  let current = vmeta as VectorMeta;
  let embedded = 0;
  let reused = 0;
  const total = meta.count - start;
  for (let from = start; from < meta.count; from += BATCH) {
    const ordinals = Array.from({ length: Math.min(BATCH, meta.count - from) }, (_, i) => from + i);
    const docs = readDocs(dir, attrs, ordinals);
    const rows = ordinals.map((o) => ({ o, doc: docs.get(o), wanted: EMBEDDED_TYPES.has(INDEXED_TYPES[attrs.type(o)] ?? '') }));
    const todo = rows.filter((r) => r.wanted && r.doc && !reuse.has(r.doc.id));
    const vectors = await model.embed(todo.map((r) => proseOf(r.doc!)));
    const fresh = new Map(todo.map((r, i) => [r.o, quantize(vectors[i] as Float32Array)]));
    embedded += fresh.size;
    current = await appendVectors(
      vdir,
      current,
      rows.map((r) => {
        const kept = r.doc ? reuse.get(r.doc.id) : undefined;
        if (kept) reused++;
        return { id: r.doc?.id ?? '', vector: r.wanted ? (fresh.get(r.o) ?? kept ?? null) : null };
      }),
    );
    onProgress?.(from + ordinals.length - start, total);
  }
  return { embedded, rows: current.count, reused };
}

async function oldRows(vdir: string, vmeta: VectorMeta): Promise<Map<string, Int8Array>> {
  const [ids, vectors] = await Promise.all([readVectorIds(vdir, vmeta), readVectors(vdir, vmeta)]);
  const rows = new Map<string, Int8Array>();
  if (!vectors) return rows;
  ids.forEach((id, i) => {
    const row = vectors.slice(i * vmeta.dims, (i + 1) * vmeta.dims);
    if (id && row.some((x) => x !== 0)) rows.set(id, row);
  });
  return rows;
}
