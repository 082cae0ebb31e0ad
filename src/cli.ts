#!/usr/bin/env node
/**
 * argv → command. Commands are data (name, options, a lazily imported runner) so start-up only
 * pays for yargs and the one command that runs. The only place that calls process.exit.
 * Exit codes: 0 ok, 1 expected failure (one line on stderr), 2 usage.
 */
import type { Argv } from 'yargs';
import { setFlagsFromString } from 'node:v8';

// A CLI call runs each of its regular expressions (capture's cues, redaction's patterns) a few
// times. V8 would compile each to bytecode first, interpret it once, then compile it again to
// machine code; compiling to machine code at once cuts the Stop hook on a 50 KB tail from 175 to
// 138 ms (p50). Newer V8s default to this (regexp_tier_up_ticks 0). Not `--no-regexp-tier-up`:
// flipped at run time, it crashed ~1 in 700 calls in a pattern compiled before the flip, while
// 3,000 calls with this one ran clean. Patterns compile on first use, so this is early enough.
setFlagsFromString('--regexp-tier-up-ticks=0');

const verb = process.argv[2];

// Hooks run on every prompt and every stop: they skip yargs and load a bundle of their own
// (src/hook.ts). The specifier is a variable so the CLI's bundler leaves that file separate.
// `cortex hook --help` asks for help, which yargs gives; no hook is ever named --help.
if ((verb === 'hook' || verb === 'git-hook') && !['--help', '-h'].includes(process.argv[3] ?? '')) {
  const hookEntry = './hook.js';
  await import(hookEntry);
}

// Output piped into `head` and closed early is the reader's choice, not an error: stop quietly,
// as git does, instead of a stack trace on stderr.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

// The git spawns start before yargs is even loaded.
const { prefetchRepo } = await import('./git/repo.js');
const WRITING_COMMANDS = new Set(['remember', 'import', 'init', 'forget', 'sync']);
if (verb && !verb.startsWith('-') && verb !== 'help') prefetchRepo(process.cwd(), { withAuthor: WRITING_COMMANDS.has(verb) });

const { default: yargs } = await import('yargs');
const { hideBin } = await import('yargs/helpers');
const { CortexError, isCortexError, missingObjectAdvice } = await import('./errors.js');
const { processIO } = await import('./commands/io.js');
const { VERSION } = await import('./version.js');
type CommandIO = import('./commands/io.js').CommandIO;

const io = processIO();
let exitCode = 0;

async function run(load: () => Promise<number>): Promise<void> {
  try {
    exitCode = await load();
  } catch (err) {
    if (isCortexError(err)) {
      io.stderr.write(`cortex: ${err.message}\n`);
      exitCode = err.code === 'USAGE' ? 2 : 1;
    } else if (missingObjectAdvice(err)) {
      io.stderr.write(`cortex: ${missingObjectAdvice(err)}\n`);
      exitCode = 1;
    } else {
      const message = err instanceof Error ? err.message : String(err);
      io.stderr.write(`cortex: unexpected error: ${message} (set CORTEX_DEBUG=1 for details)\n`);
      if (io.env.CORTEX_DEBUG) io.stderr.write(`${(err as Error)?.stack ?? ''}\n`);
      exitCode = 1;
    }
  }
}

/** yargs parses a lone `-` positional as an empty string; `-` conventionally means stdin. */
const stdinPath = (file: string): string => (file === '' ? '-' : file);

const jsonOption = { json: { type: 'boolean', describe: 'print JSON instead of text' } } as const;
const allOption = { all: { type: 'boolean', describe: 'every branch, not only what HEAD\'s history holds' } } as const;

function commands(cli: Argv, io: CommandIO): Argv {
  return cli
    .command(
      'init',
      'set up Cortex in this repository: the journal branch, Claude Code hooks, the memory-tag rules (safe to run twice)',
      (y) =>
        y.options({
          local: { type: 'boolean', describe: 'write the hooks to .claude/settings.local.json (just you) instead of .claude/settings.json (the team)' },
          claude: { type: 'boolean', default: true, describe: 'set up .claude/ (hooks, memory-tag rules); --no-claude leaves it alone' },
          git: { type: 'boolean', default: true, describe: 'install the git hooks and the merge driver; --no-git leaves git alone' },
          mcp: { type: 'boolean', describe: 'also register the Cortex MCP server (cortex mcp) in .mcp.json' },
          ...jsonOption,
        }),
      (argv) => run(async () => (await import('./commands/init.js')).runInit(argv, io)),
    )
    .command(
      'remember [text..]',
      'store a memory: a decision, a rejected approach, something learned…',
      (y) =>
        y
          .positional('text', { type: 'string', array: true, describe: 'the memory (after -- when it starts with a dash)' })
          .options({
            type: { alias: 't', type: 'string', describe: 'decision | rejected | learned | plan | step | preference | error | done (or a full type name); default learned, or decision with --supersedes' },
            why: { type: 'string', describe: 'the reason behind it' },
            instead: { type: 'string', describe: 'what was chosen instead (for a rejected approach)' },
            file: { alias: 'f', type: 'string', array: true, describe: 'a related file (repeatable)' },
            tag: { type: 'string', array: true, describe: 'a tag (repeatable)' },
            session: { type: 'string', describe: 'session id to record (default: cli)' },
            supersedes: { type: 'string', describe: 'the id (or a unique prefix or suffix, e.g. what log --oneline prints) of a decision, rejected approach or preference this one replaces' },
            step: { type: 'string', array: true, describe: 'a step of a plan (repeatable; default: the text\'s list items, or its parts between semicolons)' },
            ...jsonOption,
          }),
      (argv) => run(async () => (await import('./commands/remember.js')).runRemember({ ...argv, text: wordsOf('remember', 'the memory', argv.text, argv['--']) }, io)),
    )
    .command(
      'forget <id>',
      'retract a memory (recorded as a new event; the id may be a unique prefix or suffix, e.g. what log --oneline prints)',
      (y) => y.positional('id', { type: 'string', demandOption: true }).options({ why: { type: 'string', describe: 'why it no longer holds' }, ...jsonOption }),
      (argv) => run(async () => (await import('./commands/forget.js')).runForget({ ...argv, id: String(argv.id) }, io)),
    )
    .command(
      'briefing',
      'print the briefing the next session starts from (what the SessionStart hook delivers)',
      (y) => y.options({ budget: { type: 'string', describe: 'budget in tokens (default 2000, or git config cortex.budget)' }, ...allOption, ...jsonOption }),
      (argv) => run(async () => (await import('./commands/briefing.js')).runBriefing(argv, io)),
    )
    .command(
      'decisions',
      'list the decisions, rejected approaches and preferences in force on this branch',
      (y) => y.options({ ...allOption, ...jsonOption }),
      (argv) => run(async () => (await import('./commands/decisions.js')).runDecisions(argv, io)),
    )
    .command(
      'plan',
      'show the active plan and where the work stands',
      (y) => y.options({ ...allOption, ...jsonOption }),
      (argv) => run(async () => (await import('./commands/plan.js')).runPlan(argv, io)),
    )
    .command(
      'projections',
      'regenerate the tracked files .cortex/decisions.md, decisions-archive.md and active-plan.md',
      (y) => y.options({ write: { type: 'boolean', describe: 'write the files (only those that changed)' }, briefing: { type: 'boolean', describe: 'refresh the cached briefing and .git/cortex/briefing.md' }, quiet: { type: 'boolean', describe: 'print nothing (hooks use this)' }, guard: { type: 'boolean', hidden: true }, 'keep-clean-tree': { type: 'boolean', hidden: true }, 'after-merge': { type: 'boolean', hidden: true }, ...jsonOption }),
      (argv) => run(async () => (await import('./commands/projections.js')).runProjections(argv, io)),
    )
    .command(
      'diff <range>',
      'the decision diff of a range (base..head, or base...head for a pull request): decisions, rejections, plan progress, learnings',
      (y) => y.positional('range', { type: 'string', demandOption: true }).options({ markdown: { type: 'boolean', describe: 'Markdown for a pull request body' }, ...jsonOption }),
      (argv) => run(async () => (await import('./commands/diff.js')).runDiff({ ...argv, range: String(argv.range) }, io)),
    )
    .command(
      'blame-decision <target>',
      'the decisions behind some lines: git blame → commits → sessions → decisions (file, file:12 or file:12,20)',
      (y) => y.positional('target', { type: 'string', demandOption: true }).options(jsonOption),
      (argv) => run(async () => (await import('./commands/blame-decision.js')).runBlameDecision({ ...argv, target: String(argv.target) }, io)),
    )
    .command(
      'log [range]',
      'show memories newest first, like git log',
      (y) =>
        y.options({
          type: { alias: 't', type: 'string', array: true, describe: 'only these types (repeatable or comma-separated)' },
          since: { type: 'string', describe: 'only after this date (2026-11-01, "3 days ago")' },
          until: { type: 'string', describe: 'only before this date' },
          author: { type: 'string', describe: 'only by this author (substring of the email)' },
          session: { type: 'string', describe: 'only from this session (id or prefix)' },
          grep: { type: 'string', describe: 'only whose content matches this regular expression (case-insensitive)' },
          n: { alias: 'max-count', type: 'string', describe: 'at most this many' },
          oneline: { type: 'boolean', describe: 'one line per memory' },
          ...jsonOption,
        }),
      (argv) => run(async () => (await import('./commands/log.js')).runLog({ ...argv, range: argv.range as string | undefined }, io)),
    )
    .command(
      'search [query..]',
      'find memories by what they say, best first (stemming, synonyms, decisions and rejections favoured; aligned with this branch)',
      (y) =>
        y.positional('query', { type: 'string', array: true, describe: 'what to look for (after -- when it starts with a dash)' }).options({
          type: { alias: 't', type: 'string', array: true, describe: 'only these types (repeatable or comma-separated)' },
          since: { type: 'string', describe: 'only after this date (2026-11-01, "3 days ago")' },
          limit: { alias: 'n', type: 'string', describe: 'at most this many results (default 10)' },
          keyword: { type: 'boolean', describe: 'rank by keywords only, even where `cortex embed` made vectors' },
          ...allOption,
          ...jsonOption,
        }),
      (argv) => run(async () => (await import('./commands/search.js')).runSearch({ ...argv, query: wordsOf('search', 'what to look for', argv.query, argv['--']), type: argv.type as string[] | undefined }, io)),
    )
    .command(
      'reindex',
      'rebuild the search index from the journal (it lives in .git/cortex/search and updates itself; this is for when you want it now)',
      (y) => y.options({ compact: { type: 'boolean', describe: 'only fold recent additions into the main index' }, quiet: { type: 'boolean', describe: 'print nothing' }, ...jsonOption }),
      (argv) => run(async () => (await import('./commands/reindex.js')).runReindex(argv, io)),
    )
    .command(
      'import <file>',
      'add events from a JSONL file (- for stdin); ids already present are skipped',
      (y) =>
        y.positional('file', { type: 'string', demandOption: true }).options({
          'skip-invalid': { type: 'boolean', describe: 'import the valid lines and report the rest, instead of importing nothing' },
          ...jsonOption,
        }),
      (argv) => run(async () => (await import('./commands/import.js')).runImport({ ...argv, file: stdinPath(argv.file as string) }, io)),
    )
    .command(
      'export',
      'print the whole journal as JSONL (what import takes back)',
      (y) => y,
      () => run(async () => (await import('./commands/export.js')).runExport({}, io)),
    )
    .command(
      'extract <transcript>',
      'run capture on a Claude Code transcript without storing anything',
      (y) =>
        y.positional('transcript', { type: 'string', demandOption: true, describe: 'a transcript .jsonl file (- for stdin)' }).options({
          session: { type: 'string', describe: 'session id to stamp (default: the transcript\'s own)' },
          ...jsonOption,
        }),
      (argv) => run(async () => (await import('./commands/extract.js')).runExtract({ ...argv, transcript: stdinPath(argv.transcript as string) }, io)),
    )
    .command(
      'hook <event>',
      'the entry point for Claude Code hooks (reads the hook JSON on stdin; always exits 0)',
      (y) => y.positional('event', { type: 'string', demandOption: true }),
      () => undefined,
    )
    .command(
      'git-hook <name>',
      'the entry point for the git hooks cortex init installs (always exits 0)',
      (y) => y.positional('name', { type: 'string', demandOption: true }),
      () => undefined,
    )
    .command(
      'merge-driver <base> <ours> <theirs> [path]',
      'the merge driver git calls for .cortex/*.md (%O %A %B %P): merges by entry, never leaves conflict markers',
      (y) => y.positional('base', { type: 'string', demandOption: true }).positional('ours', { type: 'string', demandOption: true }).positional('theirs', { type: 'string', demandOption: true }).positional('path', { type: 'string' }),
      (argv) => run(async () => (await import('./commands/merge-driver.js')).runMergeDriver({ base: String(argv.base), ours: String(argv.ours), theirs: String(argv.theirs), path: argv.path === undefined ? undefined : String(argv.path) }, io)),
    )
    .command(
      'sync [remote]',
      'fetch, unite and push the journal through an existing remote (default origin)',
      (y) => y.positional('remote', { type: 'string' }).options({ push: { type: 'boolean', default: true, describe: 'push what the remote lacks; --no-push only fetches and unites' }, quiet: { type: 'boolean', describe: 'print nothing' }, ...jsonOption }),
      (argv) => run(async () => (await import('./commands/sync.js')).runSync({ ...argv, remote: argv.remote as string | undefined }, io)),
    )
    .command(
      'uninstall',
      'remove what cortex init added: git hook blocks, the merge driver and its .gitattributes line, .cortex/*.md files as init wrote them, Claude Code hooks and rules, the .mcp.json entry; the journal stays',
      (y) => y.options(jsonOption),
      (argv) => run(async () => (await import('./commands/uninstall.js')).runUninstall(argv, io)),
    )
    .command(
      'embed',
      'compute vectors for memories so search also ranks by meaning (optional: needs @huggingface/transformers and a local all-MiniLM-L6-v2)',
      (y) => y.options({ download: { type: 'boolean', describe: 'download the model (cortex.embedModel) into ~/.cache/cortex/models if it is not there' }, ...jsonOption }),
      (argv) => run(async () => (await import('./commands/embed.js')).runEmbed(argv, io)),
    )
    .command(
      'mcp',
      'run the MCP server on stdio (tools: search, decisions, plan, recent, status, remember); cortex init --mcp registers it in .mcp.json',
      (y) => y,
      () => run(async () => (await import('./commands/mcp.js')).runMcp({}, io)),
    )
    .command(
      'doctor',
      'check that Cortex is set up to work here (PATH, hooks, merge driver, index, model, logged problems) and say how to fix what is not',
      (y) => y.options(jsonOption),
      (argv) => run(async () => (await import('./commands/doctor.js')).runDoctor(argv, io)),
    )
    .command(
      'status',
      'show the journal, its size by type, and the cache',
      (y) => y.options(jsonOption),
      (argv) => run(async () => (await import('./commands/status.js')).runStatus(argv, io)),
    );
}

/**
 * A command's words: those before `--` and those after it, where words starting with a dash
 * ("-Xmx4g is the heap flag") can only go. None is a usage error, as yargs says it.
 */
function wordsOf(command: string, what: string, before: unknown, after: unknown): string[] {
  const words = [...(Array.isArray(before) ? before : []), ...(Array.isArray(after) ? after : [])].map(String);
  if (words.length === 0) throw new CortexError('USAGE', `give ${what}: cortex ${command} "…" (after -- when it starts with a dash)`);
  return words;
}

/** Options that take one value: given twice, the last one counts, as in git (yargs would make an array). */
const SINGLE_VALUED = ['why', 'instead', 'session', 'supersedes', 'budget', 'since', 'until', 'author', 'grep', 'n', 'limit', 'remote'];
function lastOfRepeated(argv: Record<string, unknown>): void {
  const single = argv._ && (argv._ as unknown[])[0] === 'remember' ? [...SINGLE_VALUED, 'type', 't'] : SINGLE_VALUED;
  for (const key of single) {
    const value = argv[key];
    if (Array.isArray(value)) argv[key] = value[value.length - 1];
  }
}

const cli = commands(yargs(hideBin(process.argv)).scriptName('cortex').parserConfiguration({ 'populate--': true }).middleware(lastOfRepeated, true), io)
  .demandCommand(1, 'give a command (cortex --help lists them)')
  .strict()
  .recommendCommands()
  .help()
  .alias('h', 'help')
  .version(VERSION)
  .wrap(process.stdout.isTTY ? Math.min(110, process.stdout.columns || 100) : null)
  .fail((message, error) => {
    if (error) throw error;
    io.stderr.write(`cortex: ${message} (see cortex --help)\n`);
    process.exit(2);
  });

// yargs renders the whole help text (~15 ms) on every command run, only to show it if an async
// handler fails; our handlers never reject (run() reports errors itself), so skip that work.
const usage = (cli as unknown as { getInternalMethods?: () => { getUsageInstance(): { cacheHelpMessage?: () => void } } }).getInternalMethods?.().getUsageInstance();
if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => undefined;

await cli.parseAsync();
process.exitCode = exitCode;
