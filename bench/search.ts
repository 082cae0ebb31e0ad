import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createIdGenerator } from '../src/events/ids.js';
import { normalizeEvent } from '../src/events/parse-event.js';
import type { CortexEvent } from '../src/events/types.js';
import { discoverRepo } from '../src/git/repo.js';
import { append, openJournal } from '../src/journal/journal.js';
import { updateIndex } from '../src/search/update.js';
import { benchRepo, CLI } from './fixtures.js';
import { percentile, round, sample, time } from './stats.js';

/**
 * Issue 6 budgets at 100K events: `cortex search` as a whole CLI call, a query in process, the
 * UserPromptSubmit hook, and the index update after an append of 50 events. The journal has a
 * realistic shape: most events are file and command activity, memories use a Zipf-distributed
 * vocabulary of a few thousand words (half real, half invented), and paths and identifiers are
 * many and mostly rare.
 */
const nextId = createIdGenerator((n) => randomBytes(n));
const SOFTWARE = (
  'postgres redis cache queue worker retry backoff schema migration index token auth session cookie header proxy build bundle test ' +
  'fixture deploy rollout canary metric trace span log parser lexer router handler webhook stripe invoice billing tenant upload image ' +
  'thumbnail resize timezone locale email template render component hook state store reducer api endpoint pagination cursor limit ' +
  'rate throttle lock mutex transaction isolation replica shard partition kafka consumer producer offset docker kubernetes helm ' +
  'terraform bucket s3 cdn cloudfront lambda cron scheduler job batch csv export import json yaml config env secret vault oauth jwt'
).split(' ');
const SYLLABLES = 'ka lo mi ne ru sa to vi be da fe gu ho ji ku ma no pi qu re si tu wa xe yo ze'.split(' ');

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/**
 * The words of the labelled retrieval projects' events, most frequent first: real English and
 * software words, so the term filter and the thesaurus meet a journal's vocabulary (invented
 * words would have no related words to find, and the cost of looking them up would go unmeasured).
 */
let projectWordsCache: string[] | undefined;
function projectWords(): string[] {
  if (projectWordsCache) return projectWordsCache;
  const folder = new URL('./retrieval/', import.meta.url).pathname;
  const counts = new Map<string, number>();
  for (const set of readdirSync(folder)) {
    const file = join(folder, set, 'events.jsonl');
    if (!existsSync(file)) continue;
    for (const word of readFileSync(file, 'utf8').toLowerCase().match(/(?<="content":"[^"]*)\b[a-z]{3,}\b/g) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return (projectWordsCache = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w));
}

/** A vocabulary of real software and project words plus invented ones, drawn with a Zipf-like skew. */
function vocabulary(size: number, random: () => number): () => string {
  const words = [...new Set([...SOFTWARE, ...projectWords()])].slice(0, size / 2);
  while (words.length < size) words.push(Array.from({ length: 2 + Math.floor(random() * 3) }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''));
  return () => words[Math.min(words.length - 1, Math.floor(random() ** 2.5 * words.length))] as string;
}

const MEMORY_TYPES = ['decision_made', 'approach_rejected', 'knowledge_acquired', 'error_resolved', 'preference_noted', 'task_completed', 'plan_step_completed'] as const;
const ACTIVITY_TYPES = ['file_modified', 'file_explored', 'file_explored', 'command_run'] as const;

export function searchCorpus(size: number, seed = 7): CortexEvent[] {
  const random = rng(seed);
  const word = vocabulary(4000, random);
  const span = 180 * 86_400_000;
  const start = Date.now() - span;
  const events: CortexEvent[] = [];
  for (let i = 0; i < size; i++) {
    const memory = random() < 0.2;
    const type = memory ? MEMORY_TYPES[Math.floor(random() * MEMORY_TYPES.length)] : ACTIVITY_TYPES[Math.floor(random() * ACTIVITY_TYPES.length)];
    const path = `src/${word()}/${word()}-${Math.floor(random() * 50)}.ts`;
    const content = memory
      ? `${Array.from({ length: 8 + Math.floor(random() * 14) }, word).join(' ')} (#${i})`
      : type === 'command_run'
        ? `npm run ${word()} -- --filter ${word()}`
        : path;
    const ts = start + Math.floor((i / size) * span);
    const session = `session-${Math.floor(i / 100)}`;
    const result = normalizeEvent(
      { type, content, ts: new Date(ts).toISOString(), session, meta: type?.startsWith('file_') ? { path } : type === 'decision_made' ? { reason: Array.from({ length: 6 }, word).join(' ') } : {} },
      { now: new Date(ts), session, author: 'bench@example.com', branch: 'main', commit: null, provenance: 'layer1:bench', newId: nextId },
    );
    if (!result.ok) throw new Error(result.error);
    events.push(result.event);
  }
  return events;
}

const QUERIES = ['postgres advisory lock', 'why not redis for sessions', 'webhook retry backoff', 'timezone bug', 'kafka consumer offset', 'upload thumbnail resize', 'jwt oauth token refresh', 'rate limit'];

const RESIDENT = new URL('./resident-queries.ts', import.meta.url).pathname;
const PROJECT = new URL('..', import.meta.url).pathname; // where tsx resolves

export async function benchSearch(size: number) {
  const dir = benchRepo();
  try {
    const journal = await openJournal(await discoverRepo(dir));
    const events = searchCorpus(size);
    for (let i = 0; i < events.length; i += 10_000) await append(journal, events.slice(i, i + 10_000));

    const reindex = await time(() => updateIndex(journal, { rebuild: true }));
    const cli = (query: string) => {
      const r = spawnSync(process.execPath, [CLI, 'search', query, '--json'], { cwd: dir, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`search failed (status ${r.status}, signal ${r.signal}): ${r.stderr}`);
      return JSON.parse(r.stdout).length as number;
    };
    cli(QUERIES[0] as string);
    let q = 0;
    const searchCli = await sample(16, () => cli(QUERIES[q++ % QUERIES.length] as string));

    // In process: a resident searcher (as the MCP server is) in a process of its own.
    const resident = spawnSync(process.execPath, ['--import', 'tsx', RESIDENT, dir, '10', ...QUERIES], { cwd: PROJECT, encoding: 'utf8' });
    if (resident.status !== 0) throw new Error(`resident queries failed: ${resident.stderr}`);
    const queryInProcess = JSON.parse(resident.stdout) as { first: number; p50: number; p95: number; runs: number };

    const prompt = (text: string) => {
      const payload = JSON.stringify({ session_id: 'bench', transcript_path: join(dir, 'none.jsonl'), cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: text });
      const r = spawnSync(process.execPath, [CLI, 'hook', 'user-prompt-submit'], { cwd: dir, input: payload, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`hook failed: ${r.stderr}`);
      return r.stdout.length;
    };
    q = 0;
    const userPromptSubmit = await sample(16, () => prompt(`can you look at the ${QUERIES[q++ % QUERIES.length]} code again and tidy it up`));

    const incremental: number[] = [];
    for (let r = 0; r < 7; r++) {
      await append(journal, searchCorpus(50, 100 + r));
      incremental.push((await time(() => updateIndex(journal))).ms);
    }
    return {
      events: size,
      reindexMs: round(reindex.ms),
      searchCliMs: searchCli,
      queryInProcessMs: queryInProcess,
      userPromptSubmitMs: userPromptSubmit,
      incrementalUpdateAfter50Ms: { p50: percentile(incremental, 50), p95: percentile(incremental, 95), runs: incremental.length },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
