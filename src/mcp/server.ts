import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { answerMalformed } from './answer-malformed.js';
import { z } from 'zod';
import { isCortexError } from '../errors.js';
import type { CommandIO } from '../commands/io.js';
import { VERSION } from '../version.js';

/**
 * `cortex mcp`: memory for the middle of a session, over stdio. Each tool is the CLI command of
 * the same name run with `--json` in this process, so the MCP server answers exactly what the
 * CLI would (same branch alignment, same contracts) and keeps search shards loaded between calls.
 */
type Runner = (args: Record<string, unknown>, io: CommandIO) => Promise<number>;

async function callCommand(load: () => Promise<Runner>, args: Record<string, unknown>, base: CommandIO) {
  let stdout = '';
  let stderr = '';
  const io: CommandIO = { ...base, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, readStdin: async () => '' };
  try {
    await (await load())({ ...args, json: true }, io);
    return withinToolLimit(stdout.trim() || 'null');
  } catch (err) {
    const message = isCortexError(err) || err instanceof Error ? err.message : String(err);
    return { content: [{ type: 'text' as const, text: `cortex: ${message}${stderr ? `\n${stderr.trim()}` : ''}` }], isError: true };
  }
}

/**
 * Claude Code refuses a tool result over 25,000 tokens and warns past 10,000: a list is cut to
 * what fits in about 12,000 (the best or newest first, so the last go), each memory's text to a
 * few thousand characters, and the result says what was left out.
 */
const MAX_TOOL_CHARS = 48_000;
const MAX_TEXT_CHARS = 4_000;
function withinToolLimit(json: string) {
  const text = (t: string) => ({ type: 'text' as const, text: t });
  if (json.length <= MAX_TOOL_CHARS) return { content: [text(json)] };
  const value = JSON.parse(json) as unknown;
  if (!Array.isArray(value)) return { content: [text(json)] };
  const items = value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || typeof (item as { content?: unknown }).content !== 'string') return item;
    const content = (item as { content: string }).content;
    return content.length > MAX_TEXT_CHARS ? { ...item, content: `${content.slice(0, MAX_TEXT_CHARS)}… (cut: ${content.length} characters in all)` } : item;
  });
  let shown = JSON.stringify(items, null, 2);
  while (items.length > 1 && shown.length > MAX_TOOL_CHARS) {
    items.pop();
    shown = JSON.stringify(items, null, 2);
  }
  const left = value.length - items.length;
  return { content: [text(shown), ...(left > 0 ? [text(`${left} more not shown, to stay within the tool result limit: ask for fewer (limit) or narrow the question.`)] : [])] };
}

const types = z.array(z.string()).optional().describe('only these memory types: decision, rejected, learned, error, preference, plan, done (or full type names)');
const all = z.boolean().optional().describe('every branch, not only what the current HEAD\'s history holds');

export function createMcpServer(io: CommandIO): McpServer {
  const server = new McpServer({ name: 'cortex', version: VERSION });
  const tool = (name: string, description: string, inputSchema: z.ZodRawShape, load: () => Promise<Runner>, map: (a: Record<string, unknown>) => Record<string, unknown> = (a) => a) =>
    server.registerTool(name, { description, inputSchema }, (args: Record<string, unknown>) => callCommand(load, map(args), io));

  tool(
    'search',
    'Search the project\'s memory (decisions, rejected approaches, learnings, fixed errors, preferences, plans, files touched) for what bears on a question. Returns JSON hits, best first.',
    { query: z.string().min(1).describe('what to look for, in plain words'), type: types, since: z.string().optional().describe('only after this date (2026-11-01, "3 days ago")'), limit: z.number().int().min(1).max(50).optional(), all },
    async () => (await import('../commands/search.js')).runSearch as unknown as Runner,
    (a) => ({ ...a, query: [a.query] }),
  );
  tool('decisions', 'The decisions, rejected approaches and preferences in force on this branch, most recently used first.', { all }, async () => (await import('../commands/decisions.js')).runDecisions as unknown as Runner);
  tool('plan', 'The active plan: its steps, which are done, and the current one.', { all }, async () => (await import('../commands/plan.js')).runPlan as unknown as Runner);
  tool(
    'recent',
    'Recent work on this branch, newest first: memories and file activity from the latest sessions (nothing forgotten, nothing from branches not merged here).',
    { limit: z.number().int().min(1).max(200).optional().describe('how many (default 20)'), type: types },
    async () => (await import('../commands/log.js')).runLog as unknown as Runner,
    (a) => ({ range: 'HEAD', current: true, n: a.limit ?? 20, type: a.type }),
  );
  tool('status', 'Where the memory journal is, how many events of each type it holds, and the state of its caches.', {}, async () => (await import('../commands/status.js')).runStatus as unknown as Runner);
  tool(
    'remember',
    'Store a memory for future sessions: a decision (with why), a rejected approach (with why and what instead), something learned, a preference. A decision that replaces an earlier one names it in supersedes, so the earlier one stops being current.',
    {
      text: z.string().min(1).describe('the memory, one or two sentences'),
      type: z.string().optional().describe('decision | rejected | learned | plan | preference | error | done (default learned)'),
      why: z.string().optional().describe('the reason behind it'),
      instead: z.string().optional().describe('for a rejected approach: what was chosen instead'),
      files: z.array(z.string()).optional().describe('related files'),
      tags: z.array(z.string()).optional(),
      steps: z.array(z.string()).optional().describe('for a plan: its steps, in order'),
      supersedes: z
        .string()
        .min(1)
        .optional()
        .describe('the id of the decision, rejected approach or preference this one replaces: the full id, or the 8 characters the briefing shows after "id" (as cortex log --oneline prints them); the type defaults to decision'),
    },
    async () => (await import('../commands/remember.js')).runRemember as unknown as Runner,
    (a) => ({ text: [a.text], type: a.type ?? (a.supersedes ? 'decision' : 'learned'), why: a.why, instead: a.instead, file: a.files, tag: a.tags, step: a.steps, supersedes: a.supersedes, session: io.env.CLAUDE_CODE_SESSION_ID?.trim() || 'mcp' }),
  );
  return server;
}

export async function runMcpServer(io: CommandIO): Promise<number> {
  const server = createMcpServer(io);
  const transport = new StdioServerTransport(answerMalformed(process.stdin, (message) => process.stdout.write(`${JSON.stringify(message)}\n`)));
  await server.connect(transport);
  // Serve until the client closes stdin.
  await new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.on('end', () => resolve());
  });
  return 0;
}
