import { refreshProjections } from '../workspace/refresh.js';
import { cortexDir, discoverRepo, type Repo } from '../git/repo.js';
import { openJournal } from '../journal/journal.js';
import { assistantLine, captureSession, userLine, type CaptureOutcome } from './capture-session.js';
import { CATCH_UP_BUDGET_MS, CATCH_UP_READ_MS, HOOK_BUDGET_MS, HOOK_EVENTS, HOOK_READ_MS, kebab, resolveHookEvent, SESSION_END_CHUNK_BYTES, type HookEvent } from './hook-events.js';
import { MAX_RECORD_BYTES } from './cursor.js';
import { startInBackground } from '../background.js';
import { writeHookLog } from './hook-log.js';
import { deliverBriefing } from './deliver-briefing.js';
import { markSessionActive, markSessionEnded } from '../git-hooks/active-session.js';
import { deniedPath, isCortexError } from '../errors.js';

/**
 * `cortex hook <event>`: the entry point Claude Code calls. It fails open, always: whatever
 * happens it exits 0 (never 2, which would block the session or erase a prompt), says what went
 * wrong in one stderr line (Claude never sees stderr on exit 0), logs details to
 * `.git/cortex/log`, and gives up when its time budget runs out.
 */
type Payload = Record<string, unknown>;

export interface HookIO {
  readStdin: () => Promise<string>;
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  cwd: string;
}

const str = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() !== '' ? x : undefined);
const MEMORY_HINT = /\[\s*memory\s*:|\b(?:i prefer|i'd rather|always use|never use|from now on|please (?:always|never))\b/i;

interface Handled {
  /** What happened, for .git/cortex/log. */
  summary: string;
  /** What Claude should see (SessionStart's briefing, a prompt's recall); printed only if the hook finishes in time. */
  context?: string;
  /** What the user should hear (Claude Code shows it as a system message). */
  notice?: string;
  /** Transcript left unread (bytes): a catch-up reads it. */
  backlog?: number;
}

export interface HookOptions {
  /** This run reads what an earlier run of the hook left unread (`cortex hook <event> --catch-up`). */
  catchUp?: boolean;
}

interface Run extends HookOptions {
  started: number;
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

async function handle(event: HookEvent, payload: Payload, repo: Repo, run: Run): Promise<Handled> {
  // Opened only by the branches that capture: most prompts capture nothing and should cost nothing.
  const journal = () => openJournal(repo);
  const session = str(payload.session_id) ?? 'unknown-session';
  // Commits made while a session works carry its id as a trailer (prepare-commit-msg). A
  // catch-up runs later, maybe after the session ended: it says nothing about that.
  if (!run.catchUp) {
    if (event === 'SessionEnd') await markSessionEnded(repo, session);
    else if (event === 'SessionStart' || event === 'UserPromptSubmit' || event === 'Stop') await markSessionActive(repo, session);
  }
  let outcome: CaptureOutcome;
  let transcriptPath: string | undefined;
  switch (event) {
    case 'SessionStart':
      return deliverBriefing(await journal(), str(payload.source) ?? 'startup');
    case 'UserPromptSubmit': {
      const prompt = str(payload.prompt);
      if (!prompt) return { summary: 'empty prompt' };
      // Most prompts hold no tag and no stated preference: capture nothing, fast.
      const opened = await journal();
      const captured = MEMORY_HINT.test(prompt) ? await captureSession(opened, { session, extraLines: [userLine(prompt, session)] }) : null;
      const { recallForPrompt } = await import('./recall-prompt.js');
      const recall = await recallForPrompt(opened, prompt, session);
      return { summary: `${captured ? `stored ${captured.stored}; ` : ''}${recall.summary}`, context: recall.context };
    }
    case 'PostToolUse': {
      const name = str(payload.tool_name);
      if (!name) return { summary: 'no tool name' };
      const id = str(payload.tool_use_id) ?? `hook-${Date.now()}`;
      const response = payload.tool_response;
      // An object says so in `success`; a string response is an error message when it reads as one.
      const failedResponse = typeof response === 'object' && response !== null ? (response as Payload).success === false : typeof response === 'string' && /^\s*(?:<tool_use_error>|error\b)/i.test(response);
      const lines = [
        JSON.stringify({ type: 'assistant', sessionId: session, cwd: payload.cwd, timestamp: new Date().toISOString(), message: { id, role: 'assistant', content: [{ type: 'tool_use', id, name, input: payload.tool_input ?? {} }] } }),
        JSON.stringify({ type: 'user', sessionId: session, cwd: payload.cwd, timestamp: new Date().toISOString(), toolUseResult: response, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, is_error: failedResponse, content: '' }] } }),
      ];
      outcome = await captureSession(await journal(), { session, extraLines: lines });
      break;
    }
    case 'SubagentStop':
    case 'Stop':
    case 'PreCompact':
    case 'PostCompact':
    case 'SessionEnd': {
      transcriptPath = event === 'SubagentStop' ? (str(payload.agent_transcript_path) ?? str(payload.transcript_path)) : str(payload.transcript_path);
      // The transcript may lag the conversation; Stop's last message fills the gap (deduped).
      const last = str(payload.last_assistant_message);
      const reading = run.catchUp ? { readUntil: run.started + CATCH_UP_READ_MS } : event === 'SessionEnd' ? { chunkBytes: SESSION_END_CHUNK_BYTES } : { readUntil: run.started + HOOK_READ_MS[event] };
      outcome = await captureSession(await journal(), {
        session,
        transcriptPath,
        includeSidechains: event === 'SubagentStop',
        extraLines: last ? [assistantLine(last, session)] : [],
        ...reading,
      });
      break;
    }
  }
  if (outcome.transcriptError) throw new HookProblem(`${outcome.transcriptError}: ${transcriptPath ?? '(no transcript_path)'}; captured ${outcome.stored} from the payload only`);
  if (outcome.busy) return { summary: 'another capture of this session is running; it will pick this up' };
  let summary = `stored ${outcome.stored} event${outcome.stored === 1 ? '' : 's'}${outcome.skippedLines ? `, skipped ${outcome.skippedLines} unreadable transcript lines` : ''}`;
  if (outcome.skippedBytes) summary += `, passed over ${megabytes(outcome.skippedBytes)} of transcript records too long to read (over ${megabytes(MAX_RECORD_BYTES)} each)`;
  if (outcome.backlog) summary += `; ${megabytes(outcome.backlog)} of the transcript is left to read, by a catch-up`;
  // The tracked files follow memory at the end of a turn and before compaction, and only when
  // something they show was captured (file and command events never change them), into a tree
  // the session changed: a clean one stays clean (refresh.ts).
  if ((event === 'Stop' || event === 'PreCompact' || event === 'SessionEnd') && outcome.projected > 0 && repo.workTree) {
    summary += `; ${await refreshProjections(await journal(), { files: true, keepCleanTree: true })}`;
  }
  return { summary, backlog: outcome.backlog };
}

/**
 * What a hook left unread is read by the same hook with the same payload, detached, so nobody
 * waits for it (with CORTEX_FOREGROUND, here and now, as the detached run would).
 */
async function catchUp(event: HookEvent, payload: string, repo: Repo, io: HookIO): Promise<void> {
  if (startInBackground(['hook', kebab(event), '--catch-up'], { cwd: repo.workTree ?? repo.gitDir, cortexDir: cortexDir(repo), input: payload })) return;
  await runHook(kebab(event), { ...io, readStdin: async () => payload, stdout: { write: () => true } }, { catchUp: true });
}

/** An expected problem: reported in one line, the hook still exits 0. */
class HookProblem extends Error {}

function parsePayload(text: string): Payload {
  if (text.trim() === '') throw new HookProblem('empty payload on stdin; nothing captured');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HookProblem('the payload on stdin is not JSON; nothing captured');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HookProblem('the payload on stdin is not a JSON object; nothing captured');
  return value as Payload;
}

export async function runHook(eventName: string | undefined, io: HookIO, options: HookOptions = {}): Promise<void> {
  const event = resolveHookEvent(eventName);
  if (!event) {
    io.stderr.write(`cortex hook: unknown event "${eventName ?? ''}" (one of ${HOOK_EVENTS.map(kebab).join(', ')}); nothing done\n`);
    return;
  }
  const run: Run = { ...options, started: Date.now() };
  const name = `${kebab(event)}${run.catchUp ? ' (catch-up)' : ''}`;
  const budget = run.catchUp ? CATCH_UP_BUDGET_MS : HOOK_BUDGET_MS[event];
  let logDir: string | undefined;
  const work = (async () => {
    const text = await io.readStdin();
    const payload = parsePayload(text);
    const cwd = str(payload.cwd) ?? io.cwd;
    let repo: Repo;
    try {
      repo = await discoverRepo(cwd, { fast: true });
    } catch (err) {
      if (isCortexError(err)) throw new HookProblem(`${err.message}; nothing captured`);
      throw err;
    }
    logDir = cortexDir(repo);
    const handled = await handle(event, payload, repo, run);
    await writeHookLog(logDir, `${name}: ${handled.summary}`);
    return { ...handled, text, repo };
  })();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), budget)));
  try {
    const result = await Promise.race([work, timeout]);
    if (result !== 'timeout' && result.notice) io.stdout.write(`${JSON.stringify({ systemMessage: result.notice, ...(result.context ? { hookSpecificOutput: { hookEventName: event, additionalContext: result.context } } : {}) })}\n`);
    else if (result !== 'timeout' && result.context) io.stdout.write(result.context);
    if (result === 'timeout') {
      io.stderr.write(`cortex hook ${name}: gave up after ${budget} ms; continuing without it\n`);
      if (logDir) await writeHookLog(logDir, `${name}: error: timed out after ${budget} ms`);
    } else if (result.backlog) {
      await catchUp(event, result.text, result.repo, io);
    }
  } catch (err) {
    const denied = deniedPath(err, logDir);
    const expected = err instanceof HookProblem || isCortexError(err) || denied !== null;
    const message = denied ? `cannot write ${denied}: nothing stored; cortex doctor says how to fix it` : err instanceof Error ? err.message : String(err);
    io.stderr.write(`cortex hook ${name}: ${expected ? message : `unexpected error (${message.split('\n')[0]}); see .git/cortex/log`}\n`);
    // Claude Code shows nobody a hook's stderr on exit 0, and the log is likely as unwritable as
    // what failed: once a session, at its start, the user is told.
    if (denied && event === 'SessionStart') io.stdout.write(`${JSON.stringify({ systemMessage: `Cortex cannot write ${denied}, so this session's memory will not be saved. Run cortex doctor for the fix.` })}\n`);
    if (logDir) await writeHookLog(logDir, `${name}: error: ${expected ? message : (err as Error)?.stack ?? message}`);
  } finally {
    clearTimeout(timer);
  }
}
