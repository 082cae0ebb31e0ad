/**
 * `npm run demo`: a fresh temporary repository, three Claude Code sessions replayed through the
 * real hooks (SessionStart, Stop) with real transcript records and real commits, on main and on
 * a feature branch; then what Cortex gives back: the decisions on each branch and the pull
 * request's decision diff, the plan, the briefing the next session starts from, and the tracked files.
 *   --keep   leave the temporary repository in place to explore it
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STORY, type Step, type StorySession } from './story.js';

const CLI = fileURLToPath(new URL('./cli.js', import.meta.url));
const keep = process.argv.includes('--keep');
const tty = process.stdout.isTTY;
const bold = (text: string) => (tty ? `\u001b[1m${text}\u001b[22m` : text);
const dim = (text: string) => (tty ? `\u001b[2m${text}\u001b[22m` : text);

const dir = mkdtempSync(join(tmpdir(), 'cortex-demo-'));
const transcripts = mkdtempSync(join(tmpdir(), 'cortex-demo-transcripts-'));
// The hooks regenerate .cortex/ in process here, so the demo can show the files at once.
const baseEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', CORTEX_FOREGROUND: '1', NO_COLOR: tty ? process.env.NO_COLOR : '1' };
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env: baseEnv, encoding: 'utf8' });
const run = (args: string[], options: { input?: string; author?: string } = {}) =>
  execFileSync(process.execPath, [CLI, ...args], { cwd: dir, env: { ...baseEnv, ...(options.author ? { GIT_AUTHOR_EMAIL: options.author } : {}) }, input: options.input, encoding: 'utf8' });

function show(title: string, args: string[]): void {
  process.stdout.write(`\n${bold(`$ cortex ${args.join(' ')}`)}   ${dim(title)}\n`);
  process.stdout.write(run(args));
}

/** The transcript lines Claude Code writes for one step (TRANSCRIPTS.md, 2.x shape). */
function lines(session: StorySession, step: Step, n: number): object[] {
  const base = { sessionId: session.id, cwd: dir, gitBranch: session.branch, version: '2.1.39', isSidechain: false, userType: 'external', timestamp: new Date(Date.now() + n).toISOString() };
  const id = `toolu_${session.id.slice(0, 8)}_${n}`;
  const assistant = (content: object[]) => ({ ...base, type: 'assistant', uuid: `${id}-a`, message: { id: `msg_${id}`, type: 'message', role: 'assistant', content } });
  const result = (extra: object) => ({ ...base, type: 'user', uuid: `${id}-r`, ...extra, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] } });
  if ('user' in step) return [{ ...base, type: 'user', uuid: `${id}-u`, message: { role: 'user', content: step.user } }];
  if ('say' in step) return [assistant([{ type: 'text', text: step.say }])];
  if ('todos' in step) {
    const input = { todos: step.todos.map(([content, status]) => ({ content, status, activeForm: content })) };
    return [assistant([{ type: 'tool_use', id, name: 'TodoWrite', input }]), result({ toolUseResult: { newTodos: input.todos } })];
  }
  const path = join(dir, step.edit);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, step.content);
  return [assistant([{ type: 'tool_use', id, name: 'Write', input: { file_path: path, content: step.content } }]), result({ toolUseResult: { type: 'create', filePath: path } })];
}

function replay(session: StorySession): void {
  const transcript = join(transcripts, `${session.id}.jsonl`);
  writeFileSync(transcript, '');
  const payload = (event: string, extra: object = {}) => JSON.stringify({ session_id: session.id, transcript_path: transcript, cwd: dir, hook_event_name: event, ...extra });
  process.stdout.write(`\n${bold(`── Session ${session.id} · ${session.author} on ${session.branch} ──`)}\n`);
  const briefing = run(['hook', 'session-start'], { input: payload('SessionStart', { source: 'startup' }), author: session.author });
  process.stdout.write(briefing ? dim(`SessionStart hook gave Claude a ${briefing.length}-character briefing (shown at the end).\n`) : dim('SessionStart hook: nothing remembered yet, so nothing printed.\n'));
  let n = 0;
  for (const turn of session.turns) {
    for (const step of turn) for (const line of lines(session, step, n++)) appendFileSync(transcript, `${JSON.stringify(line)}\n`);
    run(['hook', 'stop'], { input: payload('Stop', { stop_hook_active: false }), author: session.author });
  }
  run(['hook', 'session-end'], { input: payload('SessionEnd', { reason: 'exit' }), author: session.author });
  git('add', '-A');
  git('-c', `user.email=${session.author}`, 'commit', '-q', '-m', session.commit);
  process.stdout.write(dim(`${session.turns.length} turn${session.turns.length === 1 ? "" : "s"} captured by the Stop hook; committed "${session.commit}".\n`));
}

/** What Cortex added to the work tree, read from it: everything tracked that the story itself did not write. */
function addedByCortex(): string[] {
  const written = new Set(['README.md', ...STORY.flatMap((session) => session.turns.flat()).flatMap((step) => ('edit' in step ? [step.edit] : []))].map((path) => path.split('/')[0]));
  const top = git('ls-files').split('\n').filter(Boolean).map((path) => path.split('/'));
  return [...new Set(top.filter(([first]) => !written.has(first!)).map((parts) => (parts.length > 1 ? `${parts[0]}/` : parts[0]!)))];
}

const listed = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? 'nothing'));

try {
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'ana@example.com');
  git('config', 'user.name', 'Ana');
  writeFileSync(join(dir, 'README.md'), '# shortener\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  process.stdout.write(`${bold('Cortex demo')}: ${STORY.length} Claude Code sessions replayed through the hooks in ${dir}\n`);
  show('create the journal branch and install the hooks', ['init']);

  for (const session of STORY) {
    if (session.branch !== 'main') git('checkout', '-q', '-b', session.branch);
    replay(session);
  }

  show('on the feature branch: its own decisions on top of main\'s', ['decisions']);
  show('the decision diff of the pull request (add --markdown for its body)', ['diff', 'main...feature/slugs']);
  git('checkout', '-q', 'main');
  show('back on main: the feature\'s decisions are not here until it is merged', ['decisions']);
  git('merge', '-q', '--no-ff', '-m', 'Merge feature/slugs', 'feature/slugs');
  show('after the merge they are', ['decisions']);
  show('where the plan stands', ['plan']);
  show('the briefing the next session starts from (what SessionStart prints)', ['briefing']);
  show('the history of memory, like git log', ['log', '--oneline', '-n', '8']);
  show('search memory in plain words (stemming, synonyms, aligned with this branch)', ['search', 'why not hash the url for slugs']);
  const prompt = 'Could we just hash each link to make the short code?';
  const recalled = run(['hook', 'user-prompt-submit'], { input: JSON.stringify({ session_id: 'next-session', transcript_path: join(transcripts, 'next.jsonl'), cwd: dir, hook_event_name: 'UserPromptSubmit', prompt }) });
  process.stdout.write(`\n${bold('UserPromptSubmit')}   ${dim(`a new session's prompt: "${prompt}"; what the hook adds to Claude's context:`)}\n${recalled || dim('(nothing)\n')}`);
  show('regenerate the tracked files for this HEAD', ['projections', '--write']);
  process.stdout.write(`\n${bold('.cortex/active-plan.md')} ${dim('(tracked, reviewable in pull requests)')}\n${readFileSync(join(dir, '.cortex', 'active-plan.md'), 'utf8')}`);
  process.stdout.write(`\nMemory lives on the branch cortex/journal; your work tree only gains ${listed(addedByCortex())}.\n`);
  if (keep) process.stdout.write(`Kept the repository: ${dir}\n`);
} finally {
  rmSync(transcripts, { recursive: true, force: true });
  if (!keep) rmSync(dir, { recursive: true, force: true });
}
