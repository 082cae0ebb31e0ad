import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withCortexMcp, withoutCortexMcp } from '../claude/mcp-config.js';
import { cortexHooksIn, withCortexHooks } from '../claude/settings.js';
import { CortexError } from '../errors.js';
import { readAuthor, type Repo } from '../git/repo.js';
import { compareAndSwapRef } from '../git/refs.js';
import { runGit } from '../git/run-git.js';
import { editJsonText } from '../install/edit-json-text.js';
import { installGitIntegration } from '../install/git-integration.js';
import { nextRecord, readRecord, readTextOrNull, writeRecord } from '../install/install-record.js';
import { excludeInThisClone } from '../install/info-exclude.js';
import { shellWords } from '../install/shell-words.js';
import type { Journal } from '../journal/journal.js';
import { initJournal } from '../journal/store.js';
import { readTip } from '../journal/tip.js';
import { readTemplate } from '../templates.js';
import { writeIfChanged } from '../write-if-changed.js';
import { openJournalAt, printJson, type CommandIO } from './io.js';

export interface InitArgs {
  local?: boolean;
  claude?: boolean;
  /** Register `cortex mcp` in .mcp.json. */
  mcp?: boolean;
  git?: boolean;
  json?: boolean;
}

/** A JSON object file the user may own: its text (to edit in place) and its value; none is `{}`. */
export async function readJsonFile(path: string): Promise<{ text: string; value: Record<string, unknown> }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return { text: '', value: {} };
  }
  if (text.trim() === '') return { text, value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { text, value: value as Record<string, unknown> };
  } catch {
    // fall through to the error below
  }
  if (text.charCodeAt(0) === 0xfeff) throw new CortexError('INVALID_INPUT', `${path} starts with a byte-order mark, which JSON does not allow: save it as UTF-8 without one and run cortex init again`);
  throw new CortexError('INVALID_INPUT', `${path} is not a JSON object; fix it (or move it away) and run cortex init again`);
}

/**
 * Set Cortex up in this repository. Safe to run again: it never rewrites what exists, merges
 * with the user's own Claude Code settings (editing in only its entries, in the file's own
 * layout), and replaces (never duplicates) its own entries. With git set up it writes the
 * tracked `.cortex/` files this work tree lacks, so that they are committed with the setup.
 */
export async function runInit(args: InitArgs, io: CommandIO): Promise<number> {
  const command = io.env.CORTEX_HOOK_COMMAND ?? 'cortex';
  if ((shellWords(command)?.length ?? 0) === 0) throw new CortexError('USAGE', `CORTEX_HOOK_COMMAND ${JSON.stringify(command)} is no command sh can run (a quote left open?): give one such as "node /opt/cortex/dist/cli.js" or '"/Users/me/my tools/cortex"'`);
  const journal = await openJournalAt(io, { forWriting: true });
  // A fresh clone of a repository that already has memory starts from the remote's journal.
  const adopted = (await adoptRemoteJournal(journal)) ?? (await fetchJournalOfNarrowClone(journal));
  const created = adopted ? false : await initJournal(journal.store, await readAuthor(journal.repo));
  const changed: string[] = args.git === false ? [] : await installGitIntegration(journal.repo, command);
  // Hooks run without the variable: the journal's name is kept where they look for it.
  if (io.env.CORTEX_JOURNAL_REF?.trim()) {
    const cwd = journal.repo.workTree ?? journal.repo.gitDir;
    if ((await runGit(['config', 'cortex.journalRef'], { cwd })).stdout.trim() !== io.env.CORTEX_JOURNAL_REF.trim()) {
      await runGit(['config', 'cortex.journalRef', io.env.CORTEX_JOURNAL_REF.trim()], { cwd });
      changed.push('.git/config (cortex.journalRef)');
    }
  }
  const root = journal.repo.workTree;
  if (root && args.git !== false) {
    // The tracked files as a base for the first decisions of parallel branches; uninstall removes them while they are as written here.
    const { writeMissingProjections } = await import('../workspace/write-projections.js');
    for (const { path, content } of await writeMissingProjections(journal)) {
      await writeRecord(journal.repo, join(root, path), { before: null, after: content });
      changed.push(path);
    }
  }
  if (root && args.claude !== false) {
    const settingsPath = join(root, '.claude', args.local ? 'settings.local.json' : 'settings.json');
    if (await editInto(journal.repo, settingsPath, (value) => withCortexHooks(value, command), (value) => cortexHooksIn(value).size > 0)) changed.push(settingsPath.slice(root.length + 1));
    // Personal settings are not for committing: git ignores them here, as Claude Code's own set-up does.
    if (args.local && (await ignoreInThisClone(journal.repo, '.claude/settings.local.json'))) changed.push('.git/info/exclude');
    const rulesPath = join(root, '.claude', 'rules', 'cortex-memory.md');
    if (await writeIfChanged(rulesPath, await readTemplate('cortex-memory.md'))) changed.push(rulesPath.slice(root.length + 1));
  }
  if (root && args.mcp) {
    const mcpPath = join(root, '.mcp.json');
    if (await editInto(journal.repo, mcpPath, (value) => withCortexMcp(value, command), (value) => withoutCortexMcp(value) !== value)) changed.push('.mcp.json');
  }
  if (args.json) {
    printJson(io, { ref: journal.store.ref, created, adopted, changed });
    return 0;
  }
  io.stdout.write(adopted ? `Picked up the journal from ${adopted} on ${journal.store.ref}\n` : created ? `Initialized the Cortex journal on ${journal.store.ref}\n` : `Cortex journal already exists on ${journal.store.ref}\n`);
  for (const path of changed) io.stdout.write(`  wrote ${path}\n`);
  return 0;
}

/** The line init adds to `.git/info/exclude` under this comment, for uninstall to find. */
export const EXCLUDE_COMMENT = '# cortex init --local: personal Claude Code settings';

/** `path` ignored in this clone only, unless git ignores it already. Whether `.git/info/exclude` changed. */
async function ignoreInThisClone(repo: Repo, path: string): Promise<boolean> {
  if ((await runGit(['check-ignore', '-q', path], { cwd: repo.workTree ?? repo.gitDir })).code === 0) return false;
  return excludeInThisClone(repo, path, EXCLUDE_COMMENT);
}

/**
 * Cortex's entries edited into a JSON file of the user's, in its own layout; the bytes it had are
 * recorded so uninstall can give them back (install-record.ts). Whether the file changed.
 */
async function editInto(repo: Repo, path: string, withOurs: (value: Record<string, unknown>) => Record<string, unknown>, holdsOurs: (value: Record<string, unknown>) => boolean): Promise<boolean> {
  const current = await readTextOrNull(path);
  const file = await readJsonFile(path);
  const next = editJsonText(file.text, withOurs(file.value));
  if (!(await writeIfChanged(path, next))) return false;
  await writeRecord(repo, path, nextRecord(await readRecord(repo, path), current, next, holdsOurs(file.value)));
  return true;
}

/**
 * A shallow or single-branch clone (`git clone --depth 1`) fetched no journal, though origin may
 * have one, nor did a repository set up by hand that fetched only its branch (`git fetch origin
 * main`, which leaves FETCH_HEAD; a clone leaves none): fetched by name here, once, as `cortex
 * sync origin --no-push` would. A full clone fetched every branch already, so there is nothing
 * to ask the network. Unreachable: a fresh journal.
 */
async function fetchJournalOfNarrowClone(journal: Journal): Promise<string | null> {
  if ((await readTip(journal.store)) !== null) return null;
  const cwd = journal.repo.workTree ?? journal.repo.gitDir;
  const refspecs = (await runGit(['config', '--get-all', 'remote.origin.fetch'], { cwd })).stdout.split('\n').filter(Boolean);
  if (refspecs.length === 0) return null;
  if (refspecs.some((spec) => spec.includes('refs/heads/*')) && !existsSync(join(journal.repo.gitDir, 'FETCH_HEAD'))) return null;
  const { syncJournal } = await import('../journal/sync.js');
  const result = await syncJournal(journal.repo, journal.store, 'origin', await readAuthor(journal.repo), { push: false }).catch(() => null);
  return result?.after ? `origin/${journal.store.ref.replace(/^refs\/heads\//, '')}` : null;
}

/** Point the local journal at a remote-tracking one (origin's first) when there is no local journal yet. */
async function adoptRemoteJournal(journal: Journal): Promise<string | null> {
  if ((await readTip(journal.store)) !== null) return null;
  const name = journal.store.ref.replace(/^refs\/heads\//, '');
  const out = await runGit(['for-each-ref', '--format=%(refname) %(objectname)', `refs/remotes/*/${name}`], { cwd: journal.repo.workTree ?? journal.repo.gitDir });
  const found = out.stdout.split('\n').filter(Boolean).map((l) => l.split(' ') as [string, string]);
  const pick = found.find(([ref]) => ref.startsWith('refs/remotes/origin/')) ?? found[0];
  if (!pick) return null;
  return (await compareAndSwapRef(journal.store.gitdir, journal.store.ref, null, pick[1])) ? pick[0].replace(/^refs\/remotes\//, '') : null;
}
