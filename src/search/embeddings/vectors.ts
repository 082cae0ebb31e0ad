import { appendFile, mkdir, readFile, rm, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomic } from '../store.js';

/**
 * Event vectors on disk, under `.git/cortex/vectors/`: one row per search-index ordinal (the
 * index build they belong to is recorded, so a rebuilt index is detected), each an int8
 * quantisation of a unit vector (384 bytes for all-MiniLM-L6-v2 instead of 1,536 as float32).
 * Rows of documents not worth embedding (file and command activity) are zeros.
 *
 *   meta.json    { model, dims, build, count, idsBytes }
 *   vectors.bin  count × dims signed bytes
 *   ids.txt      the event id of each row, a line each, so `cortex embed` can carry rows over to a new build
 *
 * Both files are appended to and meta.json is written last, so bytes past what it describes are
 * a crash's leftovers and are cut before the next append.
 */
export interface VectorMeta {
  model: string;
  dims: number;
  /** The search index build the rows are aligned with. */
  build: string;
  count: number;
  idsBytes: number;
}

export const vectorsDir = (cortexDir: string): string => join(cortexDir, 'vectors');

export async function readVectorMeta(dir: string): Promise<VectorMeta | null> {
  try {
    const meta = JSON.parse(await readFile(join(dir, 'meta.json'), 'utf8')) as VectorMeta;
    return typeof meta.count === 'number' && typeof meta.idsBytes === 'number' ? meta : null;
  } catch {
    return null;
  }
}

/** A unit vector → int8 (×127). Cosine similarity survives up to a constant factor. */
export function quantize(vector: Float32Array): Int8Array {
  const out = new Int8Array(vector.length);
  for (let i = 0; i < vector.length; i++) out[i] = Math.max(-127, Math.min(127, Math.round((vector[i] as number) * 127)));
  return out;
}

export async function appendVectors(dir: string, meta: VectorMeta, rows: ReadonlyArray<{ id: string; vector: Int8Array | null }>): Promise<VectorMeta> {
  await mkdir(dir, { recursive: true });
  for (const [name, size] of [['vectors.bin', meta.count * meta.dims], ['ids.txt', meta.idsBytes]] as const) {
    const info = await stat(join(dir, name)).catch(() => null);
    if (info && info.size > size) await truncate(join(dir, name), size);
  }
  const buf = Buffer.alloc(rows.length * meta.dims);
  rows.forEach((r, i) => r.vector && buf.set(new Uint8Array(r.vector.buffer, r.vector.byteOffset, r.vector.length), i * meta.dims));
  const ids = rows.map((r) => `${r.id}\n`).join('');
  await appendFile(join(dir, 'vectors.bin'), buf);
  await appendFile(join(dir, 'ids.txt'), ids);
  const next = { ...meta, count: meta.count + rows.length, idsBytes: meta.idsBytes + Buffer.byteLength(ids) };
  await writeAtomic(join(dir, 'meta.json'), JSON.stringify(next));
  return next;
}

export async function readVectors(dir: string, meta: VectorMeta): Promise<Int8Array | null> {
  const buf = await readFile(join(dir, 'vectors.bin')).catch(() => null);
  if (!buf || buf.length < meta.count * meta.dims) return null;
  return new Int8Array(buf.buffer, buf.byteOffset, meta.count * meta.dims);
}

export async function readVectorIds(dir: string, meta: VectorMeta): Promise<string[]> {
  const text = (await readFile(join(dir, 'ids.txt')).catch(() => Buffer.alloc(0))).subarray(0, meta.idsBytes).toString('utf8');
  return text.split('\n').slice(0, meta.count);
}

export const resetVectors = (dir: string): Promise<void> => rm(dir, { recursive: true, force: true });

/**
 * The best `limit` rows by dot product with the query, among those `eligible` keeps. Brute force
 * over int8: at 100K rows × 384 that is ~38M multiply-adds, tens of milliseconds.
 */
export function nearest(vectors: Int8Array, dims: number, query: Int8Array, eligible: (o: number) => boolean, limit: number): Array<{ o: number; similarity: number }> {
  const rows = vectors.length / dims;
  let best: Array<{ o: number; dot: number }> = [];
  let floor = -Infinity;
  for (let o = 0; o < rows; o++) {
    if (!eligible(o)) continue;
    const at = o * dims;
    let dot = 0;
    for (let i = 0; i < dims; i++) dot += (vectors[at + i] as number) * (query[i] as number);
    if (dot <= floor) continue;
    best.push({ o, dot });
    if (best.length >= limit * 4) {
      best = best.sort((a, b) => b.dot - a.dot).slice(0, limit);
      floor = (best[limit - 1] as { dot: number }).dot;
    }
  }
  return best
    .sort((a, b) => b.dot - a.dot)
    .slice(0, limit)
    .map(({ o, dot }) => ({ o, similarity: dot / (127 * 127) }));
}
