import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { withoutCortexMcp } from '../claude/mcp-config.js';
import { withoutCortexHooks } from '../claude/settings.js';
import { discoverRepo } from '../git/repo.js';
import { editJsonText } from '../install/edit-json-text.js';
import { uninstallGitIntegration } from '../install/git-integration.js';
import { writeIfChanged } from '../write-if-changed.js';
import { readJsonFile } from './init.js';
import { printJson, type CommandIO } from './io.js';

/** Undo `cortex init` exactly: git hook blocks, the merge driver, Claude Code hooks and rules. The journal stays. */
export async function runUninstall(args: { json?: boolean }, io: CommandIO): Promise<number> {
  const repo = await discoverRepo(io.cwd);
  const changed = await uninstallGitIntegration(repo);
  const root = repo.workTree;
  if (root) {
    for (const name of ['settings.json', 'settings.local.json']) {
      const path = join(root, '.claude', name);
      const settings = await readJsonFile(path).catch(() => null);
      if (!settings || Object.keys(settings.value).length === 0) continue;
      const rest = withoutCortexHooks(settings.value);
      if (JSON.stringify(rest) === JSON.stringify(settings.value)) continue;
      if (Object.keys(rest).length === 0) await rm(path);
      else await writeIfChanged(path, editJsonText(settings.text, rest));
      changed.push(Object.keys(rest).length === 0 ? `.claude/${name}` : `Cortex's hooks from .claude/${name}`);
    }
    const mcpPath = join(root, '.mcp.json');
    const mcp = await readJsonFile(mcpPath).catch(() => null);
    if (mcp && Object.keys(mcp.value).length > 0) {
      const rest = withoutCortexMcp(mcp.value);
      if (JSON.stringify(rest) !== JSON.stringify(mcp.value)) {
        if (Object.keys(rest).length === 0) await rm(mcpPath);
        else await writeIfChanged(mcpPath, editJsonText(mcp.text, rest));
        changed.push(Object.keys(rest).length === 0 ? '.mcp.json' : 'the cortex server from .mcp.json');
      }
    }
    for (const rule of ['cortex-memory.md', 'cortex-briefing.md']) {
      const path = join(root, '.claude', 'rules', rule);
      if (await rm(path).then(() => true, () => false)) changed.push(`.claude/rules/${rule}`);
    }
  }
  if (args.json) printJson(io, { removed: changed });
  else io.stdout.write(changed.length === 0 ? 'nothing to remove\n' : `${changed.map((c) => `removed ${c}`).join('\n')}\nThe journal (cortex/journal) is kept: delete it with git branch -D cortex/journal if you mean to.\n`);
  return 0;
}
