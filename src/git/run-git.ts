import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CortexError } from '../errors.js';

/**
 * The git CLI, for what isomorphic-git cannot do or does slower (discovery, config with its
 * global and system layers, ancestry). Failures become CortexErrors with a fix in the message.
 */
export interface GitResult {
  stdout: string;
  stderr: string;
  code: number;
}

export function runGit(args: readonly string[], options: { cwd: string; input?: string; env?: NodeJS.ProcessEnv }): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      args,
      { cwd: options.cwd, env: options.env, maxBuffer: 512 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
          // Node says ENOENT for a missing working directory as for a missing git.
          if (!existsSync(options.cwd)) reject(new CortexError('NOT_A_REPO', `no such directory: ${options.cwd} (run cortex inside a git project)`));
          else reject(new CortexError('GIT_MISSING', 'git is not installed or not on PATH: install git and try again'));
          return;
        }
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ stdout, stderr, code });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** Run git and return stdout, or throw GIT_FAILED with git's own first error line. */
export async function gitOutput(args: readonly string[], options: { cwd: string; input?: string }): Promise<string> {
  const result = await runGit(args, options);
  if (result.code !== 0) {
    const reason = result.stderr.trim().split('\n')[0] || `exit code ${result.code}`;
    throw new CortexError('GIT_FAILED', `git ${args[0]} failed: ${reason}`, { args, stderr: result.stderr });
  }
  return result.stdout;
}
