import { CortexError } from '../errors.js';
import { runGit } from '../git/run-git.js';
import { readAll } from '../journal/journal.js';
import { rankDecisions, sessionsFor, type BlamedCommit, type BlameMatch } from '../projections/blame.js';
import { foldMemory } from '../projections/fold.js';
import { becauseOf, shortSession } from '../projections/markdown.js';
import { eventsInView } from '../workspace/branch-view.js';
import { readSettings } from '../workspace/settings.js';
import { openJournalAt, paintFor, printJson, warnProblems, type CommandIO } from './io.js';

export interface BlameArgs {
  target: string;
  json?: boolean;
}

/** `file`, `file:12` or `file:12,20`. */
export function parseBlameTarget(target: string): { file: string; start?: number; end?: number } {
  const match = /^(.*?):(\d+)(?:,(\d+))?$/.exec(target);
  if (!match) return { file: target };
  const start = Number(match[2]);
  const end = match[3] ? Number(match[3]) : start;
  if (start < 1 || end < start) throw new CortexError('USAGE', `bad line range in "${target}": use file:12 or file:12,20`);
  return { file: match[1] as string, start, end };
}

/** `git blame`, then commits → sessions → the decisions behind those lines. */
export async function runBlameDecision(args: BlameArgs, io: CommandIO): Promise<number> {
  const { file, start, end } = parseBlameTarget(args.target);
  const journal = await openJournalAt(io);
  const cwd = journal.repo.workTree;
  if (!cwd) throw new CortexError('NO_WORK_TREE', 'blame-decision needs a work tree');
  const blame = await runGit(['blame', '--porcelain', ...(start ? ['-L', `${start},${end}`] : []), '--', file], { cwd: io.cwd });
  if (blame.code !== 0) throw new CortexError('INVALID_INPUT', `git blame ${args.target} failed: ${blame.stderr.trim().split('\n')[0] ?? ''}`);
  const commits = parsePorcelain(blame.stdout);
  const repoPath = (await runGit(['ls-files', '--full-name', '--', file], { cwd: io.cwd })).stdout.trim().split('\n')[0] || file;

  const [read, { settings }] = await Promise.all([readAll(journal), readSettings(journal)]);
  warnProblems(io, read.problems);
  // What is in force on HEAD, whose lines these are: a session's later decision on a branch HEAD
  // has not merged explains none of them.
  const state = foldMemory(await eventsInView(journal.repo, read.events), settings, new Date());
  const matches: Array<BlameMatch & { author: string; time: string; summary: string; lines: number[] }> = [];
  // A squash commit names the sessions of every commit it squashed: those that modified this file wrote these lines.
  const modifiedIn = new Set(read.events.filter((e) => e.type === 'file_modified' && e.meta.path === repoPath).map((e) => e.session));
  for (const c of commits) {
    if (/^0+$/.test(c.commit)) continue; // not committed yet
    const shown = await runGit(['log', '-1', '--format=%P%x00%B', c.commit], { cwd });
    const [parents = '', message = ''] = shown.stdout.split('\0');
    c.parents = parents.trim().split(' ').filter(Boolean);
    const named = parseSessionLines(message);
    const modifying = named.filter((session) => modifiedIn.has(session));
    c.trailerSessions = modifying.length > 0 ? modifying : named;
    const linked = sessionsFor(c, repoPath, read.events);
    matches.push({ commit: c.commit, author: c.author, time: c.time, summary: c.summary, lines: c.lines, sessions: linked, decisions: rankDecisions(state, linked, repoPath, c.time) });
  }
  if (args.json) {
    printJson(io, matches);
    return 0;
  }
  const paint = paintFor(io);
  if (matches.length === 0) io.stdout.write(`${args.target}: no committed lines to blame\n`);
  for (const m of matches) {
    io.stdout.write(`${paint.yellow(m.commit.slice(0, 8))} (${m.author} ${m.time.slice(0, 10)}) ${lineSpans(m.lines)} ${paint.dim(m.summary)}\n`);
    if (m.sessions.length === 0) io.stdout.write(paint.dim('    no recorded session behind this commit\n'));
    else if (m.decisions.length === 0) io.stdout.write(paint.dim(`    session ${m.sessions.map(shortSession).join(', ')}: no decision recorded\n`));
    for (const d of m.decisions.slice(0, 5)) {
      const label = d.type === 'approach_rejected' ? paint.red('rejected') : paint.green('decision');
      io.stdout.write(`    ${label} ${d.content}${d.reason && !d.content.includes(d.reason) ? paint.dim(` — ${becauseOf(d.reason)}`) : ''} ${paint.dim(`(${d.ts.slice(0, 10)}, session ${shortSession(d.session)})`)}\n`);
    }
  }
  return 0;
}

/**
 * The sessions a commit message names on `Cortex-Session: <id>` lines, wherever they are. The
 * commit's own trailers are its last paragraph; a squash merge's message carries those of every
 * commit it squashed: git's own (`git merge --squash`, `commit --no-edit`) quotes each message
 * indented by four spaces, and a forge's lists them paragraph by paragraph, where git's trailer
 * parser sees only the last.
 */
export function parseSessionLines(message: string): string[] {
  const sessions = [...message.matchAll(/^[ \t]*cortex-session:[ \t]*(\S+)[ \t]*$/gim)].map((m) => m[1] as string);
  return [...new Set(sessions)];
}

function lineSpans(lines: readonly number[]): string {
  const spans: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    let j = i;
    while (j + 1 < lines.length && (lines[j + 1] as number) === (lines[j] as number) + 1) j++;
    spans.push(i === j ? `${lines[i]}` : `${lines[i]}-${lines[j]}`);
    i = j;
  }
  return `line${lines.length === 1 ? '' : 's'} ${spans.join(',')}`;
}

/** `git blame --porcelain` → one record per commit with the final line numbers it owns. */
function parsePorcelain(out: string): BlamedCommit[] {
  const byCommit = new Map<string, BlamedCommit>();
  let current: BlamedCommit | null = null;
  for (const line of out.split('\n')) {
    const header = /^([0-9a-f]{40,64}) \d+ (\d+)/.exec(line);
    if (header) {
      const sha = header[1] as string;
      current = byCommit.get(sha) ?? { commit: sha, parents: [], author: '', time: '', summary: '', lines: [], trailerSessions: [] };
      byCommit.set(sha, current);
      current.lines.push(Number(header[2]));
    } else if (current && line.startsWith('author-mail ')) current.author = line.slice(12).replace(/[<>]/g, '');
    else if (current && line.startsWith('author-time ')) current.time = new Date(Number(line.slice(12)) * 1000).toISOString();
    else if (current && line.startsWith('summary ')) current.summary = line.slice(8);
  }
  return [...byCommit.values()];
}
