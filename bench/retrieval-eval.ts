import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { hubCacheDir, locateModel } from '../src/search/embeddings/locate-model.js';
import { modelCacheDir } from '../src/search/embeddings/model.js';
import { benchRepo, CLI } from './fixtures.js';

/**
 * Retrieval quality on the labelled sets in bench/retrieval/ (dev: tuned against; test: held
 * out), measured the way the held-out evaluation does: `cortex import` then `cortex search
 * --json`, as a user runs them. recall@5 is the share of a query's relevant memories in its top
 * five; MRR the mean of 1 / rank of the first relevant one (0 past the tenth).
 */
interface Judged {
  query: string;
  relevant: string[];
  paraphrase: boolean;
}

export interface RetrievalScore {
  queries: number;
  recallAt5: number;
  mrr: number;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

function score(rows: ReadonlyArray<{ judged: Judged; ids: string[] }>): RetrievalScore {
  let recall = 0;
  let rr = 0;
  for (const { judged, ids } of rows) {
    const relevant = new Set(judged.relevant);
    recall += ids.slice(0, 5).filter((id) => relevant.has(id)).length / relevant.size;
    const first = ids.slice(0, 10).findIndex((id) => relevant.has(id));
    rr += first < 0 ? 0 : 1 / (first + 1);
  }
  return { queries: rows.length, recallAt5: round3(recall / Math.max(1, rows.length)), mrr: round3(rr / Math.max(1, rows.length)) };
}

export function evaluateRetrieval(set: string, options: { env?: NodeJS.ProcessEnv; setup?: (dir: string) => void; misses?: boolean } = {}) {
  const folder = new URL(`./retrieval/${set}/`, import.meta.url).pathname;
  const queries = JSON.parse(readFileSync(join(folder, 'queries.json'), 'utf8')) as Judged[];
  const dir = benchRepo();
  const env = { ...process.env, ...options.env };
  const cortex = (...args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, encoding: 'utf8', env });
    if (r.status !== 0) throw new Error(`cortex ${args.join(' ')} failed (${r.signal ?? `exit ${r.status}`}): ${r.stderr}`);
    return r.stdout;
  };
  try {
    cortex('import', join(folder, 'events.jsonl'));
    options.setup?.(dir);
    const rows = queries.map((judged) => ({ judged, ids: (JSON.parse(cortex('search', judged.query, '--json', '--limit', '10')) as Array<{ id: string }>).map((h) => h.id) }));
    const result = {
      all: score(rows),
      paraphrased: score(rows.filter((r) => r.judged.paraphrase)),
      literal: score(rows.filter((r) => !r.judged.paraphrase)),
    };
    if (options.misses) {
      for (const r of rows) {
        const relevant = new Set(r.judged.relevant);
        if (!r.ids.slice(0, 5).some((id) => relevant.has(id))) process.stderr.write(`miss${r.judged.paraphrase ? ' (paraphrase)' : ''}: ${r.judged.query}\n`);
      }
    }
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** dev is tuned against; the test sets are held out (written blind to the engine and its vocabulary). */
export const RETRIEVAL_SETS = ['dev', 'test', 'test-mobile', 'test-platform', 'test-market', 'test-ml', 'test-desktop', 'test-helpdesk', 'test-fleet', 'test-courses', 'test-bank', 'test-library', 'test-rag', 'test-game', 'test-cli', 'test-clinic', 'test-extension', 'test-genomics'];

/**
 * Keyword-only and hybrid figures on every set. Hybrid uses the model in BENCH_EMBED_PATH, else
 * all-MiniLM-L6-v2 where Cortex would find it (its model cache, the Hugging Face hub cache), else
 * the tiny test model.
 */
export async function benchRetrieval() {
  const { execFileSync } = await import('node:child_process');
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  let model = process.env.BENCH_EMBED_MODEL ?? 'Xenova/all-MiniLM-L6-v2';
  const cached = locateModel(model, [modelCacheDir(), hubCacheDir()]);
  let path = process.env.BENCH_EMBED_PATH ?? (cached ? join(cached.parent, cached.id) : undefined);
  let note = `hybrid uses ${model} from ${path}`;
  let generated: string | undefined;
  if (!path) {
    const { writeTinyModel } = await import('../test/helpers/tiny-model.js');
    path = generated = mkdtempSync(join(tmpdir(), 'cortex-bench-model-'));
    model = (await writeTinyModel(path)).modelName;
    note = 'all-MiniLM-L6-v2 cannot be downloaded on this machine: hybrid ran on the tiny test model (random word vectors), so its figures measure the plumbing, not the quality; set BENCH_EMBED_PATH to a side-loaded copy for real ones';
  }
  const embed = (dir: string) => {
    execFileSync('git', ['config', 'cortex.embedPath', path as string], { cwd: dir });
    execFileSync('git', ['config', 'cortex.embedModel', model], { cwd: dir });
    execFileSync(process.execPath, [CLI, 'embed', '--json'], { cwd: dir, stdio: 'ignore' });
  };
  const out: Record<string, unknown> = { note };
  try {
    for (const set of RETRIEVAL_SETS) out[set] = { keyword: evaluateRetrieval(set), hybrid: evaluateRetrieval(set, { setup: embed }) };
  } finally {
    if (generated) rmSync(generated, { recursive: true, force: true });
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const set of process.argv.slice(2).length ? process.argv.slice(2) : ['dev']) process.stdout.write(`${set}: ${JSON.stringify(evaluateRetrieval(set, { misses: true }))}\n`);
}
