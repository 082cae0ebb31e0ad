/**
 * `npm run bench`: the project's benchmark harness (not tests). Builds journals in temp repos and
 * prints one JSON document with the numbers each issue's budgets are judged by.
 *   BENCH_SIZES=1000,10000   limit the journal sizes (default 1000,10000,100000)
 *   BENCH_ONLY=journal       run only the named scenarios (comma-separated: journal, capture, projections, git, search)
 *   BENCH_PROJECTIONS_EVENTS journal size behind the SessionStart scenario (default 100000)
 *   BENCH_CAPTURE_JOURNAL    journal size behind the capture scenario (default 10000)
 *   BENCH_SEARCH_EVENTS      journal size behind the search scenario (default 100000)
 *   BENCH_EMBED_PATH, BENCH_EMBED_MODEL  a local embedding model for the hybrid retrieval figures
 *                            (e.g. a side-loaded Xenova/all-MiniLM-L6-v2); without them the
 *                            hybrid path runs on the tiny test model, which says nothing of quality
 */
import { cpus } from 'node:os';
import { benchCapture } from './capture.js';
import { benchJournal } from './journal.js';
import { benchGitHooks, benchMergeDriver, benchSync } from './git-native.js';
import { benchMergeConflicts, benchSessionStart } from './projections.js';
import { benchSearch } from './search.js';
import { benchRetrieval } from './retrieval-eval.js';

const sizes = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map(Number);
const only = process.env.BENCH_ONLY?.split(',');
const wanted = (name: string) => !only || only.includes(name);

const report: Record<string, unknown> = {
  machine: { node: process.version, cpus: cpus().length, model: cpus()[0]?.model },
  note: 'milliseconds; p50/p95 over repeated runs; whole CLI calls include node start-up',
};

if (wanted('journal')) {
  const results = [];
  for (const size of sizes) {
    process.stderr.write(`bench: journal at ${size} events…\n`);
    results.push(await benchJournal(size));
  }
  report.journal = results;
}

if (wanted('capture')) {
  process.stderr.write('bench: capture (stop hook, extract throughput, quality)…\n');
  report.capture = await benchCapture(Number(process.env.BENCH_CAPTURE_JOURNAL ?? 10_000));
}

if (wanted('projections')) {
  process.stderr.write('bench: projections (SessionStart hook, plain git merges of decisions.md)…\n');
  report.projections = {
    sessionStart: await benchSessionStart(Number(process.env.BENCH_PROJECTIONS_EVENTS ?? 100_000)),
    plainGitMerge: benchMergeConflicts(100),
  };
}

if (wanted('git')) {
  process.stderr.write('bench: git-native (post-checkout and post-merge hooks, merge driver, sync)…\n');
  report.git = {
    hooks: await benchGitHooks(Number(process.env.BENCH_PROJECTIONS_EVENTS ?? 100_000)),
    mergeDriver: await benchMergeDriver(),
    sync: await benchSync(1000),
  };
}

if (wanted('search')) {
  process.stderr.write('bench: search (CLI, in-process queries, UserPromptSubmit recall, incremental index updates)…\n');
  report.search = {
    budgets: await benchSearch(Number(process.env.BENCH_SEARCH_EVENTS ?? 100_000)),
    retrieval: await benchRetrieval(),
  };
}

process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
