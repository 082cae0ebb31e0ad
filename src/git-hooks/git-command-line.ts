import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { isGitCommand } from './push-command.js';

/**
 * The command line of the git that runs this hook: the nearest git among our ancestors (the hook
 * script's shell, and a hook manager's, stand between). Linux has it in /proc, with arguments
 * intact; elsewhere `ps` gives it joined by spaces, which is enough for options. Null when it
 * cannot be found: the hook then does what it would do without knowing.
 */
const MAX_DEPTH = 6;

export async function readGitCommandLine(pid = process.ppid): Promise<string[] | null> {
  for (let depth = 0; depth < MAX_DEPTH && pid > 1; depth++) {
    const ancestor = await readProcess(pid).catch(() => null);
    if (!ancestor) return null;
    if (isGitCommand(ancestor.argv)) return ancestor.argv;
    pid = ancestor.parent;
  }
  return null;
}

async function readProcess(pid: number): Promise<{ argv: string[]; parent: number } | null> {
  if (process.platform === 'linux') {
    const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
    if (argv.at(-1) === '') argv.pop();
    // stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses, so read after the last ')'.
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return { argv, parent: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) };
  }
  const line = await new Promise<string>((resolve, reject) =>
    execFile('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8', timeout: 2_000 }, (error, stdout) => (error ? reject(error) : resolve(stdout.trim()))),
  );
  const [parent, ...argv] = line.split(/\s+/);
  return line ? { argv, parent: Number(parent) } : null;
}
