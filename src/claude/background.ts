import { spawn } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Work a hook starts but does not wait for (regenerating .cortex/*.md after a Stop): a detached
 * `cortex <args>` whose stderr goes to .git/cortex/log. The hook returns at once; Claude never
 * waits on it. Returns false when there is no built CLI next to this file (running from source),
 * and the caller then does the work in process.
 */
export function startInBackground(args: readonly string[], options: { cwd: string; cortexDir: string }): boolean {
  const cli = fileURLToPath(new URL('./cli.js', import.meta.url));
  if (!existsSync(cli)) return false;
  const log = openSync(join(options.cortexDir, 'log'), 'a');
  const child = spawn(process.execPath, [cli, ...args], { cwd: options.cwd, detached: true, stdio: ['ignore', 'ignore', log], env: { ...process.env, CORTEX_BACKGROUND: '1' } });
  child.unref();
  return true;
}
