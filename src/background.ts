import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Work a hook starts but does not wait for (regenerating .cortex/*.md after a Stop): a detached
 * `cortex <args>` whose stderr goes to .git/cortex/log, and whose stdin is `input` when given. The
 * hook returns at once; Claude never waits on it. Returns false, and the caller does the work in
 * process, when CORTEX_FOREGROUND is set or there is no built CLI next to this file (running
 * from source).
 */
export function startInBackground(args: readonly string[], options: { cwd: string; cortexDir: string; input?: string }): boolean {
  if (process.env.CORTEX_FOREGROUND) return false;
  const cli = fileURLToPath(new URL('./cli.js', import.meta.url));
  if (!existsSync(cli)) return false;
  mkdirSync(options.cortexDir, { recursive: true });
  const log = openSync(join(options.cortexDir, 'log'), 'a');
  // The input goes through a file, not a pipe: a pipe could still hold it when this process
  // exits. The child has the file open once spawned, so its name can go at once.
  const inputPath = options.input === undefined ? null : join(options.cortexDir, `input-${process.pid}-${Date.now()}`);
  if (inputPath) writeFileSync(inputPath, options.input!);
  const stdin = inputPath ? openSync(inputPath, 'r') : 'ignore';
  try {
    const child = spawn(process.execPath, [cli, ...args], { cwd: options.cwd, detached: true, stdio: [stdin, 'ignore', log] });
    child.unref();
  } finally {
    closeSync(log); // the child has its own copy
    if (typeof stdin === 'number') closeSync(stdin);
    try {
      if (inputPath) rmSync(inputPath, { force: true });
    } catch {
      // Windows keeps a file that is open; a leftover input file harms nothing
    }
  }
  return true;
}
