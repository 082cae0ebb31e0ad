import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { withCortexHooks } from '../claude/settings.js';
import { CortexError } from '../errors.js';
import { readAuthor } from '../git/repo.js';
import { initJournal } from '../journal/store.js';
import { readTemplate } from '../templates.js';
import { writeIfChanged } from '../write-if-changed.js';
import { openJournalAt, printJson, type CommandIO } from './io.js';

export interface InitArgs {
  local?: boolean;
  claude?: boolean;
  json?: boolean;
}

async function readJsonObject(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return {};
  }
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // fall through to the error below
  }
  throw new CortexError('INVALID_INPUT', `${path} is not a JSON object; fix it (or move it away) and run cortex init again`);
}

/** Write `text` only when it differs, so a second init leaves every file's mtime alone. */
/**
 * Set Cortex up in this repository. Safe to run again: it never rewrites what exists, merges
 * with the user's own Claude Code settings, and replaces (never duplicates) its own entries.
 */
export async function runInit(args: InitArgs, io: CommandIO): Promise<number> {
  const journal = await openJournalAt(io, { forWriting: true });
  const created = await initJournal(journal.store, await readAuthor(journal.repo));
  const changed: string[] = [];
  const root = journal.repo.workTree;
  if (root && args.claude !== false) {
    const settingsPath = join(root, '.claude', args.local ? 'settings.local.json' : 'settings.json');
    const settings = withCortexHooks(await readJsonObject(settingsPath), io.env.CORTEX_HOOK_COMMAND ?? 'cortex');
    if (await writeIfChanged(settingsPath, `${JSON.stringify(settings, null, 2)}\n`)) changed.push(settingsPath.slice(root.length + 1));
    const rulesPath = join(root, '.claude', 'rules', 'cortex-memory.md');
    if (await writeIfChanged(rulesPath, await readTemplate('cortex-memory.md'))) changed.push(rulesPath.slice(root.length + 1));
  }
  if (args.json) {
    printJson(io, { ref: journal.store.ref, created, changed });
    return 0;
  }
  io.stdout.write(created ? `Initialized the Cortex journal on ${journal.store.ref}\n` : `Cortex journal already exists on ${journal.store.ref}\n`);
  for (const path of changed) io.stdout.write(`  wrote ${path}\n`);
  return 0;
}
