import { parseDateBound, resolveTypeList } from '../events/filter.js';
import { CortexError } from '../errors.js';
import { createProgress } from '../format/progress.js';
import { searchMemory, type SearchHit } from '../search/search.js';
import { snippet } from '../search/snippet.js';
import { openJournalAt, paintFor, printJson, type CommandIO } from './io.js';
import { parseCount } from './parse-count.js';

export interface SearchArgs {
  query: string[];
  type?: string[];
  since?: string;
  all?: boolean;
  limit?: number | string;
  keyword?: boolean;
  json?: boolean;
}

const LABEL: Record<string, string> = {
  decision_made: 'decision',
  approach_rejected: 'rejected',
  knowledge_acquired: 'learned',
  error_resolved: 'fixed',
  preference_noted: 'preference',
  plan_created: 'plan',
  plan_step_completed: 'step',
  task_completed: 'done',
  event_amended: 'amended',
  file_modified: 'modified',
  file_explored: 'explored',
  command_run: 'command',
};
export const typeLabel = (type: string): string => LABEL[type] ?? type;

// A pasted page as the query must not come back as a page of "nothing matches".
const ECHOED_QUERY_CHARS = 80;
const echoQuery = (query: string): string => (query.length <= ECHOED_QUERY_CHARS ? query : `${query.slice(0, ECHOED_QUERY_CHARS - 1).trimEnd()}…`);

/** `cortex search "<query>"`: memories on this branch that match, best first. */
export async function runSearch(args: SearchArgs, io: CommandIO): Promise<number> {
  const query = args.query.join(' ').trim();
  if (!query) throw new CortexError('USAGE', 'give something to search for: cortex search "why postgres"');
  const types = resolveTypeList(args.type ?? []);
  if (!types.ok) throw new CortexError('USAGE', types.error);
  const since = args.since === undefined ? undefined : parseDateBound(args.since, new Date());
  if (args.since !== undefined && !since) throw new CortexError('USAGE', `--since "${args.since}" is not a date (try 2026-11-01 or "3 days ago")`);
  const limit = parseCount('--limit', args.limit, { min: 1 }) ?? 10;

  const journal = await openJournalAt(io);
  const progress = createProgress(io.stderr as { write(text: string): unknown; isTTY?: boolean }, 'cortex: indexing');
  const outcome = await searchMemory(journal, { query, types: [...types.types], since, all: args.all, limit }, { update: { onProgress: progress.update }, vectors: !args.keyword });
  progress.finish();
  if (outcome.notice) io.stderr.write(`cortex: ${outcome.notice}\n`);
  if (args.json) {
    printJson(io, outcome.hits.map(jsonHit));
    return 0;
  }
  if (outcome.hits.length === 0) {
    io.stdout.write(`Nothing in memory matches "${echoQuery(query)}"${args.all ? '' : ' on this branch (--all searches every branch)'}.\n`);
    return 0;
  }
  const paint = paintFor(io);
  for (const hit of outcome.hits) {
    const matched = new Set(hit.matched);
    const colour = hit.type === 'approach_rejected' ? paint.red : hit.type === 'decision_made' ? paint.green : paint.cyan;
    const marks = [hit.superseded ? 'superseded' : '', hit.branch && args.all ? hit.branch : ''].filter(Boolean);
    io.stdout.write(`${paint.yellow(hit.id.slice(0, 12))} ${colour(typeLabel(hit.type).padEnd(10))} ${hit.ts.slice(0, 10)} ${paint.dim(`score ${hit.score.toFixed(2)}`)}${marks.length ? paint.dim(` [${marks.join(', ')}]`) : ''}\n`);
    io.stdout.write(`    ${snippet(hit.content, matched, paint.bold)}\n`);
    if (hit.reason && !hit.content.includes(hit.reason)) io.stdout.write(`    ${paint.dim('why:')} ${snippet(hit.reason, matched, paint.bold)}\n`);
    if (hit.alternative && !hit.content.includes(hit.alternative)) io.stdout.write(`    ${paint.dim('instead:')} ${hit.alternative}\n`);
    if (hit.files && hit.type.startsWith('file_') === false) io.stdout.write(`    ${paint.dim('files:')} ${hit.files.join(', ')}\n`);
  }
  return 0;
}

/** The `--json` contract: [{id, type, content, score, ts, …}]. */
export function jsonHit(hit: SearchHit) {
  return {
    id: hit.id,
    type: hit.type,
    content: hit.content,
    score: hit.score,
    ts: hit.ts,
    session: hit.session,
    author: hit.author,
    branch: hit.branch,
    commit: hit.commit,
    reason: hit.reason ?? null,
    alternative: hit.alternative ?? null,
    files: hit.files ?? [],
    tags: hit.tags ?? [],
    superseded: hit.superseded ?? false,
    ...(hit.supersededBy ? { supersededBy: hit.supersededBy } : {}),
    ...(hit.amendedBy ? { amendedBy: hit.amendedBy } : {}),
    ...(hit.target ? { amends: hit.target } : {}),
  };
}
