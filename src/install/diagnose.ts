import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { access, readdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { delimiter, dirname, join, relative, sep } from 'node:path';
import { INSTALLS, checkHookShape, cortexHooksIn, outdatedCortexMatchers } from '../claude/settings.js';
import { MCP_SERVER_NAME } from '../claude/mcp-config.js';
import { readJsonFile } from '../commands/init.js';
import { isCortexError, isWriteRefused, missingObjectAdvice } from '../errors.js';
import { cortexDir, readGitConfig, type Repo } from '../git/repo.js';
import { readRef } from '../git/refs.js';
import { runGit } from '../git/run-git.js';
import { inspectCache, isInMemory, refreshCache } from '../journal/cache.js';
import { journalRef, openJournal, type Journal } from '../journal/journal.js';
import { readTip } from '../journal/tip.js';
import { CONFIG_KEYS, findUnknownKeys, parseSettings } from '../projections/settings.js';
import { hubCacheDir, locateModel } from '../search/embeddings/locate-model.js';
import { modelCacheDir } from '../search/embeddings/model.js';
import { readVectorMeta, vectorsDir } from '../search/embeddings/vectors.js';
import { readMeta, searchDir } from '../search/store.js';
import { VERSION } from '../version.js';
import { readSettings } from '../workspace/settings.js';
import { GIT_HOOKS, hooksDir } from './git-integration.js';
import { hasBlock } from './hook-block.js';
import { shellWords } from './shell-words.js';

/**
 * `cortex doctor`: is Cortex set up so that it works here, and if not, what to do. Each check
 * looks at one thing a silent failure would hide (git hooks skip without `cortex` on PATH,
 * Claude Code ignores a settings file it cannot parse) and says how to fix it.
 */
export type Status = 'ok' | 'info' | 'warn' | 'fail';

export interface Finding {
  check: string;
  status: Status;
  detail: string;
  /** What to do, when the status is not ok. */
  fix?: string;
}

const NODE_MIN = [20, 19];
/** `git rev-parse --path-format` (where hooks live, with worktrees) came in 2.31. */
const GIT_MIN = [2, 31];
const STALE_LOCK_MS = 10 * 60_000;
/** `cortex --version` starts in well under a second, even on a busy machine. */
const VERSION_TIMEOUT_MS = 5_000;
const LOG_DAYS = 7;

export interface Diagnosis {
  /** No check failed. */
  healthy: boolean;
  /** `cortex init` has been run here: git or Claude Code hooks are installed. */
  setUp: boolean;
  findings: Finding[];
}

export interface DiagnoseOptions {
  /** Told about each check that threw (it becomes a failing finding): `CORTEX_DEBUG` prints the stack. */
  onError?: (check: string, err: unknown) => void;
}

export async function diagnose(repo: Repo, env: NodeJS.ProcessEnv, options: DiagnoseOptions = {}): Promise<Diagnosis> {
  // Doctor is where a user learns why Cortex fails: a check that throws is a finding too, and
  // every other check still runs.
  const failed = (check: string, err: unknown): Finding => {
    options.onError?.(check, err);
    return thrownFinding(check, err);
  };
  const guard = async (check: string, run: () => Promise<Finding> | Finding): Promise<Finding> => {
    try {
      return await run();
    } catch (err) {
      return failed(check, err);
    }
  };
  const git = await gitIntegration(repo).catch((err: unknown) => ({ installed: false, command: undefined, finding: failed('git hooks', err) }));
  const claude = await claudeHooks(repo, env).catch((err: unknown) => ({ found: false, command: undefined, finding: failed('Claude Code hooks', err) }));
  const command = git.command ?? claude.command ?? 'cortex';
  const journal = await openJournal(repo).catch((err: unknown) => err instanceof Error ? err : new Error(String(err)));
  const findings = [
    versionFinding('node', process.versions.node, NODE_MIN, 'install Node 20.19 or later'),
    await guard('git', async () => versionFinding('git', /(\d+\.\d+(?:\.\d+)?)/.exec((await runGit(['--version'], { cwd: repo.workTree ?? repo.gitDir })).stdout)?.[1] ?? '0', GIT_MIN, 'install git 2.31 or later')),
    await guard('cortex on PATH', () => onPath(command, env, git.installed || claude.found)),
    await guard('write access', () => writeAccessFinding(repo)),
    await guard('journal', async () => {
      if (journal instanceof Error) throw journal;
      return journalFinding(journal);
    }),
    git.finding,
    await guard('merge driver', () => mergeDriver(repo, git.installed)),
    claude.finding,
    await guard('settings', () => settingsFinding(repo)),
    await guard('MCP server', () => mcpFinding(repo)),
    await guard('search index', () => searchIndexFinding(repo)),
    await guard('embeddings', () => embeddingsFinding(repo)),
    await guard('locks', () => locksFinding(repo)),
    await guard('hook log', () => logFinding(repo)),
  ];
  return { healthy: !findings.some((f) => f.status === 'fail'), setUp: git.installed || claude.found, findings };
}

/**
 * Where discovery failed (`cwd` is in no repository, or git is missing), the checks that need
 * a repository cannot run: node's line, and a failing line saying why the rest are missing.
 */
export function diagnoseWithoutRepo(cwd: string, reason: 'NOT_A_REPO' | 'GIT_MISSING'): Diagnosis {
  const why: Finding = reason === 'GIT_MISSING'
    ? { check: 'git', status: 'fail', detail: 'git is not installed or not on PATH', fix: 'install git 2.31 or later' }
    : { check: 'repository', status: 'fail', detail: `not a git repository: ${cwd}`, fix: 'run cortex doctor inside a git project, or `git init` first' };
  return { healthy: false, setUp: false, findings: [versionFinding('node', process.versions.node, NODE_MIN, 'install Node 20.19 or later'), why] };
}

/** A check that threw: what it hit, as a failing line. */
function thrownFinding(check: string, err: unknown): Finding {
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0] as string;
  const missing = missingObjectAdvice(err);
  if (missing) return { check, status: 'fail', detail: missing.slice(0, missing.indexOf(';')), fix: missing.slice(missing.indexOf(';') + 2) };
  return { check, status: 'fail', detail: `could not be checked: ${message}`, fix: isWriteRefused(err) ? 'see the write access line' : 'CORTEX_DEBUG=1 cortex doctor shows where it failed' };
}

function versionFinding(check: string, version: string, min: readonly number[], fix: string): Finding {
  const parts = version.split('.').map(Number);
  const old = (parts[0] ?? 0) < (min[0] ?? 0) || ((parts[0] ?? 0) === min[0] && (parts[1] ?? 0) < (min[1] ?? 0));
  return old ? { check, status: 'fail', detail: `${version}, older than ${min.join('.')}`, fix } : { check, status: 'ok', detail: version };
}

/** The hooks run `cortex` (or CORTEX_HOOK_COMMAND's first word) from PATH, and skip silently without it. */
function onPath(command: string, env: NodeJS.ProcessEnv, hooksInstalled: boolean): Finding {
  const check = 'cortex on PATH';
  const program = shellWords(command.trim())?.[0] ?? 'cortex';
  const found = program.includes('/') ? (isExecutable(program) ? program : null) : (env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, program)).find(isExecutable);
  if (!found) {
    return {
      check,
      status: hooksInstalled ? 'fail' : 'warn',
      detail: `${program} is not on PATH${hooksInstalled ? ': the git and Claude Code hooks call it, and skip silently without it' : ''}`,
      fix: program === 'cortex' ? 'in a clone of Cortex: npm ci && npm run build && npm link' : `install ${program}, or run CORTEX_HOOK_COMMAND=<command> cortex init`,
    };
  }
  if (program !== 'cortex') return { check, status: 'ok', detail: `${found} (the hooks run "${command}")` };
  // A link or wrapper to a moved or deleted clone is found on PATH and executable, and fails.
  const run = spawnSync(found, ['--version'], { encoding: 'utf8', env, timeout: VERSION_TIMEOUT_MS });
  if (run.error || run.status !== 0) {
    const why = (run.error as NodeJS.ErrnoException | undefined)?.code === 'ETIMEDOUT' ? `did not answer in ${VERSION_TIMEOUT_MS / 1000} s`
      : run.error ? `failed: ${run.error.message}`
      : `exited ${run.status ?? run.signal}${firstError(run.stderr) ? `: ${firstError(run.stderr)}` : ''}`;
    return {
      check,
      status: hooksInstalled ? 'fail' : 'warn',
      detail: `${found} does not run (cortex --version ${why})${hooksInstalled ? ': the git and Claude Code hooks call it, and it does nothing for them' : ''}`,
      fix: `point ${found} at a working Cortex (a link to a moved clone: in the clone, npm ci && npm run build && npm link)`,
    };
  }
  const version = run.stdout.trim();
  if (version && version !== VERSION) return { check, status: 'warn', detail: `${found} is version ${version}, this is ${VERSION}`, fix: 'npm link the clone you run, so the hooks run the same version' };
  return { check, status: 'ok', detail: found };
}

/** The line of a failed program's stderr that says what went wrong (Node prints a stack frame first). */
function firstError(stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
  return (lines.find((l) => /error/i.test(l)) ?? lines[0] ?? '').slice(0, 200);
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** A path Cortex writes that the current user cannot. */
interface Blocked {
  path: string;
  /** Its owner's uid, or undefined where uids mean nothing (Windows). */
  uid?: number;
  readOnlyFs: boolean;
}

const SHOWN_PATHS = 3;

/**
 * Can this user write what Cortex writes: `.git/cortex` (caches, session state, the hook log),
 * the folder the journal ref lives in and the object folders new journal commits go to? After
 * `sudo git pull` (whose hooks run Cortex as root) or a root container, they belong to root,
 * and every hook then fails where nobody sees it: it cannot even write its log.
 */
async function writeAccessFinding(repo: Repo): Promise<Finding> {
  const check = 'write access';
  const dir = cortexDir(repo);
  const blocked: Blocked[] = [];
  const visit = async (path: string, recurse: boolean): Promise<void> => {
    const problem = await unwritable(path);
    if (problem) blocked.push(problem);
    if (!recurse || problem) return;
    const entries = await readdir(path, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) await visit(join(path, entry.name), entry.isDirectory());
  };
  // Before .git/cortex exists, the folder it will be made in.
  if (existsSync(dir)) await visit(dir, true);
  else await visit(repo.commonDir, false);
  // A ref moves by renaming a lock file in its folder (or the nearest one that exists).
  let refDir = dirname(join(repo.commonDir, journalRef(await readGitConfig(repo))));
  while (!existsSync(refDir) && refDir.startsWith(repo.commonDir + sep)) refDir = dirname(refDir);
  await visit(refDir, false);
  // Loose objects go into objects/<2 hex digits>/; the object files themselves are read-only by design.
  const objects = join(repo.commonDir, 'objects');
  await visit(objects, false);
  for (const entry of await readdir(objects, { withFileTypes: true }).catch(() => [])) {
    if (entry.isDirectory() && /^[0-9a-f]{2}$/.test(entry.name)) await visit(join(objects, entry.name), false);
  }
  if (blocked.length === 0) return { check, status: 'ok', detail: `${dir}, the journal ref and the object folders` };

  const me = process.getuid?.();
  const owners = [...new Set(blocked.filter((b) => !b.readOnlyFs && b.uid !== undefined && b.uid !== me).map((b) => ownerName(b.uid as number)))];
  const listed = blocked.slice(0, SHOWN_PATHS).map((b) => b.path).join(', ') + (blocked.length > SHOWN_PATHS ? ` and ${blocked.length - SHOWN_PATHS} more` : '');
  const consequence = 'hooks capture nothing (and cannot log why), commands that write fail';
  if (blocked.some((b) => b.readOnlyFs)) return { check, status: 'fail', detail: `on a read-only file system: ${listed}: ${consequence}`, fix: 'Cortex can only read here: use a writable clone to capture' };
  // What to hand back: .git/cortex whole, else the folder under .git that holds the path.
  const top = (path: string) => (path === repo.commonDir ? path : join(repo.commonDir, relative(repo.commonDir, path).split(sep)[0] as string));
  const others = [...new Set(blocked.filter((b) => b.uid !== undefined && b.uid !== me).map((b) => top(b.path)))];
  const mine = [...new Set(blocked.filter((b) => b.uid === undefined || b.uid === me).map((b) => top(b.path)))];
  const fix = [...(others.length > 0 ? [`sudo chown -R $(id -un) ${others.join(' ')}`] : []), ...(mine.length > 0 ? [`chmod -R u+w ${mine.join(' ')}`] : [])].join(' && ');
  return { check, status: 'fail', detail: `not writable by you${owners.length > 0 ? ` (owned by ${owners.join(', ')})` : ''}: ${listed}: ${consequence}`, fix };
}

async function unwritable(path: string): Promise<Blocked | null> {
  try {
    await access(path, constants.W_OK);
    return null;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null; // gone meanwhile (a lock released, a cache rewritten)
    const info = await stat(path).catch(() => null);
    return { path, uid: process.platform === 'win32' ? undefined : info?.uid, readOnlyFs: code === 'EROFS' };
  }
}

/** A uid as a name: from /etc/passwd where there is one (Node has no getpwuid). */
function ownerName(uid: number): string {
  if (uid === 0) return 'root';
  try {
    const line = readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.split(':')[2] === String(uid));
    if (line) return line.split(':')[0] as string;
  } catch {
    // no passwd file: the number will do
  }
  return `uid ${uid}`;
}

async function journalFinding(journal: Journal): Promise<Finding> {
  const check = 'journal';
  const { ref } = journal.store;
  const tip = await readTip(journal.store);
  if (!tip) return { check, status: 'warn', detail: `${ref} does not exist yet`, fix: 'cortex init (or remember something, or run a Claude Code session)' };
  const damage = await tipDamage(journal.repo, tip);
  if (damage) return { check, status: 'fail', detail: `${ref} points at ${damage}: no command can read the journal or add to it`, fix: await restoreJournalFix(journal.repo, ref) };
  const before = await inspectCache(journal.store, journal.cacheDir);
  const meta = await refreshCache(journal.store, journal.cacheDir);
  // A cache that cannot be written is read into memory: the write access line says why.
  const cache = before.state === 'fresh' ? '' : isInMemory(meta) ? ` (read into memory: the read cache in ${cortexDir(journal.repo)} cannot be written)` : ' (read cache rebuilt)';
  const detail = `${ref} at ${meta.tip?.slice(0, 12)}: ${meta.total} event${meta.total === 1 ? '' : 's'}${cache}`;
  if (meta.problems.length > 0) return { check, status: 'warn', detail: `${detail}; ${meta.problems.length} unreadable line${meta.problems.length === 1 ? '' : 's'} skipped`, fix: 'cortex status lists them' };
  return { check, status: 'ok', detail };
}

/**
 * What is wrong with the object the journal ref names, or null when it is a commit: a bad gc, a
 * partial copy of .git or a broken alternates file leaves it missing; a hand edit, something else.
 */
async function tipDamage(repo: Repo, tip: string): Promise<string | null> {
  const type = await runGit(['cat-file', '-t', tip], { cwd: repo.workTree ?? repo.gitDir });
  if (type.code !== 0) return `a missing object, ${tip}`;
  const kind = type.stdout.trim();
  return kind === 'commit' ? null : `a ${kind} (${tip.slice(0, 12)}), not a commit`;
}

/** Dropping the damaged ref lets `cortex sync` take the remote's journal back (what was never pushed is lost). */
async function restoreJournalFix(repo: Repo, ref: string): Promise<string> {
  const remotes = (await runGit(['remote'], { cwd: repo.workTree ?? repo.gitDir })).stdout.split('\n').filter(Boolean);
  const drop = `git update-ref -d ${ref}`;
  if (remotes.length === 0) return `restore .git from a backup, or start a new journal: ${drop} && cortex init`;
  const sync = remotes.includes('origin') ? 'cortex sync' : `cortex sync ${remotes[0]}`;
  return `${drop} && ${sync} (takes the remote's journal back; memory never pushed is lost)`;
}

async function gitIntegration(repo: Repo): Promise<{ finding: Finding; installed: boolean; command?: string }> {
  const check = 'git hooks';
  const dir = await hooksDir(repo);
  const present: string[] = [];
  const broken: string[] = [];
  let command: string | undefined;
  for (const hook of GIT_HOOKS) {
    const path = join(dir, hook);
    const text = await readFile(path, 'utf8').catch(() => null);
    if (!text || !hasBlock(text)) continue;
    present.push(hook);
    command ??= /then (.+?) git-hook /.exec(text)?.[1];
    // A shebang-less .husky/<hook> is run by husky with sh; everywhere else git needs the execute bit.
    if (!isExecutable(path) && !(dir.endsWith('.husky') && !text.startsWith('#!'))) broken.push(hook);
  }
  const missing = GIT_HOOKS.filter((h) => !present.includes(h));
  if (present.length === 0) return { installed: false, finding: { check, status: 'warn', detail: `none installed in ${dir}: merges will not regenerate .cortex/, pushes will not share the journal`, fix: 'cortex init (without --no-git)' } };
  // Both said at once: fixing one should not reveal the other only on the next run.
  if (broken.length > 0 || missing.length > 0) {
    const details = [...(broken.length > 0 ? [`not executable, so git skips them: ${broken.join(', ')}`] : []), ...(missing.length > 0 ? [`missing: ${missing.join(', ')} (in ${dir})`] : [])];
    const fixes = [...(broken.length > 0 ? [`chmod +x ${broken.map((h) => join(dir, h)).join(' ')}`] : []), ...(missing.length > 0 ? ['cortex init'] : [])];
    return { installed: true, command, finding: { check, status: 'fail', detail: details.join('; '), fix: fixes.join(' && ') } };
  }
  return { installed: true, command, finding: { check, status: 'ok', detail: `${GIT_HOOKS.join(', ')} in ${dir}` } };
}

async function mergeDriver(repo: Repo, expected: boolean): Promise<Finding> {
  const check = 'merge driver';
  const cwd = repo.workTree ?? repo.gitDir;
  const driver = (await runGit(['config', 'merge.cortex.driver'], { cwd })).stdout.trim();
  const attribute = repo.workTree ? /: merge: (\S+)/.exec((await runGit(['check-attr', 'merge', '--', '.cortex/decisions.md'], { cwd })).stdout)?.[1] : 'cortex';
  const gaps = [...(driver ? [] : ['merge.cortex.driver is not configured']), ...(attribute === 'cortex' ? [] : ['.gitattributes does not give .cortex/*.md merge=cortex'])];
  if (gaps.length === 0) return { check, status: 'ok', detail: driver };
  return { check, status: expected ? 'fail' : 'warn', detail: `${gaps.join('; ')}: git merges .cortex/*.md line by line`, fix: 'cortex init' };
}

async function claudeHooks(repo: Repo, env: NodeJS.ProcessEnv): Promise<{ finding: Finding; found: boolean; command?: string }> {
  const check = 'Claude Code hooks';
  const project = repo.workTree ? join(repo.workTree, '.claude', 'settings.json') : null;
  const local = repo.workTree ? join(repo.workTree, '.claude', 'settings.local.json') : null;
  const user = join(env.HOME ?? homedir(), '.claude', 'settings.json');
  const files = [project, local, user].filter((f) => f !== null);
  const events = new Map<string, string>();
  const where: string[] = [];
  const disabled = new Map<string, boolean>();
  const outdated: string[] = [];
  for (const file of files) {
    let value: Record<string, unknown>;
    try {
      value = (await readJsonFile(file)).value;
      checkHookShape(value);
    } catch (err) {
      const detail = isCortexError(err) && err.message.startsWith('"hooks') ? `${file}: ${err.message.split(';')[0]}` : `${file} is not a JSON object: Claude Code cannot read it`;
      return { found: false, finding: { check, status: 'fail', detail, fix: `fix ${file}, then cortex init` } };
    }
    const ours = cortexHooksIn(value);
    if (ours.size > 0) where.push(file);
    outdated.push(...outdatedCortexMatchers(value).map((m) => `${m} in ${file}`));
    for (const [event, command] of ours) events.set(event, command);
    if (typeof value.disableAllHooks === 'boolean') disabled.set(file, value.disableAllHooks);
  }
  const command = [...events.values()][0]?.replace(/ hook [a-z-]+$/, '');
  const missing = INSTALLS.map((i) => i.event).filter((e) => !events.has(e));
  if (events.size === 0) return { found: false, finding: { check, status: 'warn', detail: 'not installed: Claude Code sessions are not captured', fix: 'cortex init (without --no-claude)' } };
  // The most specific file that says wins, as Claude Code ranks them.
  const decides = [local, project, user].find((f) => f !== null && disabled.has(f));
  if (decides && disabled.get(decides)) return { found: true, command, finding: { check, status: 'fail', detail: `"disableAllHooks": true in ${decides}: Claude Code runs none of them, so sessions are not captured`, fix: `remove "disableAllHooks" from ${decides}` } };
  if (missing.length > 0) return { found: true, command, finding: { check, status: 'warn', detail: `missing for ${missing.join(', ')} (in ${where.join(', ')})`, fix: 'cortex init' } };
  if (outdated.length > 0) {
    const wanted = INSTALLS.filter((i) => outdated.some((o) => o.startsWith(`${i.event} `))).map((i) => `${i.event} "${i.matcher ?? ''}"`);
    return { found: true, command, finding: { check, status: 'warn', detail: `written by an older Cortex: ${outdated.join(', ')}; this version runs ${wanted.join(', ')}`, fix: 'cortex init' } };
  }
  return { found: true, command, finding: { check, status: 'ok', detail: `${events.size} events, in ${where.join(', ')}` } };
}

/**
 * `git config cortex.*` values every command refuses (and replaces with the default, with a
 * warning on each run): the same validation, and for each bad key the scope to unset it in.
 * Keys Cortex never reads (a misspelt `cortex.budgte`, silently ignored) too, with the key meant.
 */
async function settingsFinding(repo: Repo): Promise<Finding> {
  const check = 'settings';
  const config = await readGitConfig(repo);
  const { problems } = await readSettings({ repo });
  const unknown = findUnknownKeys(Object.keys(config));
  const set = CONFIG_KEYS.filter((key) => config[key] !== undefined);
  if (problems.length === 0 && unknown.length === 0) return { check, status: 'ok', detail: set.length === 0 ? 'the defaults (no git config cortex.*)' : `git config ${set.join(', ')}` };
  // `git config` as the scope the key is set in needs it (the last one set wins).
  const gitConfig = async (key: string) => {
    const scope = (await runGit(['config', '--show-scope', '--get-all', key], { cwd: repo.workTree ?? repo.gitDir })).stdout.trim().split('\n').at(-1)?.split('\t')[0];
    const flag = scope === 'global' || scope === 'system' || scope === 'worktree' ? ` --${scope}` : '';
    return `${scope === 'system' ? 'sudo ' : ''}git config${flag}`;
  };
  const fixes: string[] = [];
  const bad = set.filter((key) => parseSettings({ [key]: config[key] as string }).problems.length > 0);
  const unsets = await Promise.all(bad.map(async (key) => `${await gitConfig(key)} --unset-all ${key}`));
  if (bad.length > 0) fixes.push(`set ${bad.length === 1 ? 'it' : 'each'} within range, or drop ${bad.length === 1 ? 'it' : 'them'}: ${unsets.join(' && ')}`);
  for (const { key, suggestion } of unknown) {
    const command = await gitConfig(key);
    fixes.push(suggestion ? `rename it: ${command} --unset-all ${key} && ${command} ${suggestion} ${shellQuote(config[key] as string)}` : `drop it: ${command} --unset-all ${key}`);
  }
  const unread = unknown.map(({ key, suggestion }) => `git config ${key} is not a Cortex setting, so it does nothing${suggestion ? ` (did you mean ${suggestion}?)` : ''}`);
  return { check, status: 'warn', detail: [...problems, ...unread].join('; '), fix: fixes.join('; ') };
}

/** A value as the shell reads it back: bare when safe, else in single quotes. */
const shellQuote = (value: string): string => (/^[\w.,:/@%+=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);

async function mcpFinding(repo: Repo): Promise<Finding> {
  const check = 'MCP server';
  if (!repo.workTree) return { check, status: 'info', detail: 'no work tree' };
  const mcp = await readJsonFile(join(repo.workTree, '.mcp.json')).catch(() => null);
  if (!mcp) return { check, status: 'warn', detail: '.mcp.json is not a JSON object', fix: 'fix .mcp.json, then cortex init --mcp' };
  const servers = mcp.value.mcpServers;
  if (typeof servers === 'object' && servers !== null && MCP_SERVER_NAME in servers) return { check, status: 'ok', detail: 'registered in .mcp.json' };
  return { check, status: 'info', detail: 'not registered (optional)', fix: 'cortex init --mcp' };
}

async function searchIndexFinding(repo: Repo): Promise<Finding> {
  const check = 'search index';
  const meta = await readMeta(searchDir(cortexDir(repo)));
  if (!meta) return { check, status: 'info', detail: 'not built (or from another version): the next search builds it', fix: 'cortex reindex builds it now' };
  const tip = await readRef(repo.commonDir, journalRef(await readGitConfig(repo)));
  if (meta.tip !== tip) return { check, status: 'info', detail: `${meta.count} events, behind the journal: the next search catches up` };
  return { check, status: 'ok', detail: `${meta.count} events, at the journal's tip` };
}

async function embeddingsFinding(repo: Repo): Promise<Finding> {
  const check = 'embeddings';
  const { settings } = await readSettings({ repo });
  const vectors = await readVectorMeta(vectorsDir(cortexDir(repo)));
  let installed = true;
  try {
    createRequire(import.meta.url).resolve('@huggingface/transformers');
  } catch {
    installed = false;
  }
  const roots = [...(settings.embedPath ? [settings.embedPath] : []), modelCacheDir(), hubCacheDir()];
  const model = locateModel(settings.embedModel, roots, settings.embedPath);
  if (vectors) return { check, status: 'ok', detail: `${vectors.count} vectors from ${vectors.model}; search is hybrid` };
  if (!installed) return { check, status: 'info', detail: 'keyword-only: @huggingface/transformers is not installed (optional)' };
  if (!model) return { check, status: 'info', detail: `keyword-only: no ${settings.embedModel} found locally (optional)`, fix: 'cortex embed --download, or git config cortex.embedPath <folder>' };
  return { check, status: 'info', detail: `keyword-only: ${settings.embedModel} is here but nothing is embedded yet`, fix: 'cortex embed' };
}

async function locksFinding(repo: Repo): Promise<Finding> {
  const check = 'locks';
  const dir = cortexDir(repo);
  const now = Date.now();
  const stale: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.endsWith('.lock')) continue;
    const info = await stat(join(dir, name)).catch(() => null);
    if (info && now - info.mtimeMs > STALE_LOCK_MS) stale.push(join(dir, name));
  }
  if (stale.length === 0) return { check, status: 'ok', detail: 'none held' };
  return { check, status: 'warn', detail: `held for over 10 minutes: ${stale.join(', ')}`, fix: 'delete them if no cortex process is running' };
}

/** Problems the hooks logged lately (`.git/cortex/log`): hooks never show them to the user otherwise. */
async function logFinding(repo: Repo): Promise<Finding> {
  const check = 'hook log';
  const path = join(cortexDir(repo), 'log');
  const text = await readFile(path, 'utf8').catch(() => '');
  const since = Date.now() - LOG_DAYS * 86_400_000;
  const problems = text.split('\n').filter((line) => {
    const when = Date.parse(line.slice(0, 24));
    return (Number.isNaN(when) || when >= since) && isProblem(line);
  });
  if (problems.length === 0) return { check, status: 'ok', detail: `no problems in the last ${LOG_DAYS} days` };
  const last = (problems.at(-1) as string).slice(0, 200);
  return { check, status: 'warn', detail: `${problems.length} problem${problems.length === 1 ? '' : 's'} in the last ${LOG_DAYS} days; the last: ${last}`, fix: `read ${path}` };
}

/** A failure line: a hook's `error:` (hook.ts, run-git-hook.ts) or a background command's `cortex:` message. */
export const isProblem = (line: string): boolean => /^\S+ (?:git )?[a-z-]+: error: /.test(line) || line.startsWith('cortex: ');
