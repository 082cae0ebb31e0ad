import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built CLI, run as a user runs it. `npm test` builds first. */
export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

if (!existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build` (npm test does it for you)');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `as`: run as another user (only root can), e.g. one who cannot write what root left behind. */
export function cortex(cwd: string, args: string[], options: { input?: string; env?: NodeJS.ProcessEnv; as?: { uid: number; gid: number } } = {}): CliResult {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd,
    input: options.input,
    encoding: 'utf8',
    ...options.as,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    maxBuffer: 256 * 1024 * 1024,
  });
  return { code: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

export function cortexAsync(cwd: string, args: string[], options: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1', ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** The CLI started now, reading its stdin only when `send` is called: to start several at once. */
export function cortexWaitingForInput(cwd: string, args: string[]): { send: (input: string) => void; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
  return { send: (input) => child.stdin.end(input), done };
}

export function cortexJson<T>(cwd: string, args: string[]): T {
  const result = cortex(cwd, [...args, '--json']);
  if (result.code !== 0) throw new Error(`cortex ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}

/**
 * An environment where `cortex` is a command on PATH, as git hooks and the merge driver expect
 * (they run `cortex …` from a shell). The shim runs the built CLI.
 */
export function cortexOnPath(binDir: string): NodeJS.ProcessEnv {
  writeFileSync(join(binDir, 'cortex'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
  return { ...process.env, PATH: `${binDir}:${process.env.PATH}` };
}

/** git with `cortex` on PATH, as a user's shell has it (hooks and the merge driver call it). */
export function gitWith(env: NodeJS.ProcessEnv) {
  return (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
}
