import { rm, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { withoutCortexMcp } from '../claude/mcp-config.js';
import { withoutCortexHooks } from '../claude/settings.js';
import { discoverRepo, type Repo } from '../git/repo.js';
import { editJsonText } from '../install/edit-json-text.js';
import { uninstallGitIntegration } from '../install/git-integration.js';
import { unexcludeInThisClone } from '../install/info-exclude.js';
import { readRecord, readTextOrNull, restoredText, writeRecord } from '../install/install-record.js';
import { PROJECTION_FILES } from '../projections/tracked-files.js';
import { writeIfChanged } from '../write-if-changed.js';
import { EXCLUDE_COMMENT, readJsonFile } from './init.js';
import { printJson, type CommandIO } from './io.js';

/** Undo `cortex init` exactly: git hook blocks, the merge driver, the `.cortex/` files it wrote, Claude Code hooks and rules. The journal stays. */
export async function runUninstall(args: { json?: boolean }, io: CommandIO): Promise<number> {
  const repo = await discoverRepo(io.cwd);
  const changed = await uninstallGitIntegration(repo);
  const root = repo.workTree;
  if (root) {
    // The tracked files init wrote, while they are as it wrote them: once a session has filled them they are memory, and stay.
    for (const path of Object.values(PROJECTION_FILES)) {
      const recorded = await readRecord(repo, join(root, path));
      if (!recorded) continue;
      await writeRecord(repo, join(root, path), undefined);
      if (restoredText(recorded, await readTextOrNull(join(root, path))) === null && (await rm(join(root, path)).then(() => true, () => false))) changed.push(path);
    }
    for (const name of ['settings.json', 'settings.local.json']) {
      const removed = await removeFrom(repo, join(root, '.claude', name), withoutCortexHooks);
      if (removed) changed.push(removed === 'file' ? `.claude/${name}` : `Cortex's hooks from .claude/${name}`);
    }
    if (await unexcludeInThisClone(repo, '.claude/settings.local.json', EXCLUDE_COMMENT)) changed.push('the .claude/settings.local.json line from .git/info/exclude');
    const removed = await removeFrom(repo, join(root, '.mcp.json'), withoutCortexMcp);
    if (removed) changed.push(removed === 'file' ? '.mcp.json' : 'the cortex server from .mcp.json');
    for (const rule of ['cortex-memory.md', 'cortex-briefing.md']) {
      const path = join(root, '.claude', 'rules', rule);
      if (await rm(path).then(() => true, () => false)) changed.push(`.claude/rules/${rule}`);
    }
    // The folders init made for those files, when nothing of the user's is in them (rmdir refuses otherwise).
    for (const dir of [join(root, '.claude', 'rules'), join(root, '.claude'), join(root, '.cortex')]) await rmdir(dir).catch(() => undefined);
  }
  if (args.json) printJson(io, { removed: changed });
  else io.stdout.write(changed.length === 0 ? 'nothing to remove\n' : `${changed.map((c) => `removed ${c}`).join('\n')}\nThe journal (cortex/journal) is kept: delete it with git branch -D cortex/journal && rm -rf .git/cortex if you mean to (Cortex restores a journal branch deleted while its cache remembers it).\n`);
  return 0;
}

/**
 * Cortex's entries taken out of a JSON file of the user's: the bytes it had before init where
 * init recorded them and the file is as init left it, else the entries edited out in place (the
 * file removed when nothing else is left). Whether the whole file went, only the entries, or nothing.
 */
async function removeFrom(repo: Repo, path: string, without: (value: Record<string, unknown>) => Record<string, unknown>): Promise<'file' | 'entries' | null> {
  const restored = restoredText(await readRecord(repo, path), await readTextOrNull(path));
  await writeRecord(repo, path, undefined);
  if (restored === null) await rm(path);
  else if (restored !== undefined) await writeIfChanged(path, restored);
  if (restored !== undefined) return restored === null ? 'file' : 'entries';
  const file = await readJsonFile(path).catch(() => null);
  if (!file || Object.keys(file.value).length === 0) return null;
  const rest = without(file.value);
  if (JSON.stringify(rest) === JSON.stringify(file.value)) return null;
  if (Object.keys(rest).length === 0) await rm(path);
  else await writeIfChanged(path, editJsonText(file.text, rest));
  return Object.keys(rest).length === 0 ? 'file' : 'entries';
}
