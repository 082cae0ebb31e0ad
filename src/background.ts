import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Work a hook starts but does not wait for (regenerating .cortex/*.md after a Stop): a detached
 * `cortex <args>` whose stderr goes to .git/cortex/log. The hook returns at once; Claude never
 * waits on it. Returns false, and the caller does the work in process, when CORTEX_FOREGROUND is
 * set or there is no built CLI next to this file (running from source).
 */
export function startInBackground(args: readonly string[], options: { cwd: string; cortexDir: string }): boolean {
  if (process.env.CORTEX_FOREGROUND) return false;
  const cli = fileURLToPath(new URL('./cli.js', import.meta.url));
  if (!existsSync(cli)) return false;
  mkdirSync(options.cortexDir, { recursive: true });
  const log = openSync(join(options.cortexDir, 'log'), 'a');
  try {
    const child = spawn(process.execPath, [cli, ...args], { cwd: options.cwd, detached: true, stdio: ['ignore', 'ignore', log] });
    child.unref();
  } finally {
    closeSync(log); // the child has its own copy
  }
  return true;
}
