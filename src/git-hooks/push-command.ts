/**
 * Pure: what a `git push` command line asks for. Git tells the pre-push hook the remote and the
 * refs, never that the push is a dry run, so the hook reads the command line of the git running it.
 */

/** git's own options that take the next argument as their value (`git -C dir push`). */
const GIT_OPTIONS_WITH_VALUE = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--attr-source']);
/** push's options that may take the next argument as their value (`git push -o ci.skip`). */
const PUSH_OPTIONS_WITH_VALUE = new Set(['--push-option', '--repo', '--receive-pack', '--exec', '--recurse-submodules']);

/** Whether a command line runs git (`git`, `/usr/bin/git`, `git.exe`), not a shell or a hook manager. */
export const isGitCommand = (argv: readonly string[]): boolean => /(^|[/\\])git(\.exe)?$/.test(argv[0] ?? '');

/**
 * Whether `argv` (a whole command line: `git [options] push [args]`) is a push with `--dry-run`
 * or `-n`, as git's option parser reads them: short options clustered (`-nv`), long ones
 * abbreviated (`--dry`), the last of `--dry-run` and `--no-dry-run` winning, nothing after `--`.
 */
export function isDryRunPush(argv: readonly string[]): boolean {
  let i = 1;
  while (i < argv.length && argv[i]!.startsWith('-')) i += GIT_OPTIONS_WITH_VALUE.has(argv[i]!) ? 2 : 1;
  if (!isGitCommand(argv) || argv[i] !== 'push') return false;
  let dryRun = false;
  for (i++; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (PUSH_OPTIONS_WITH_VALUE.has(arg)) i++;
    else if (arg.length >= 4 && '--dry-run'.startsWith(arg)) dryRun = true;
    else if (arg.length >= 7 && '--no-dry-run'.startsWith(arg)) dryRun = false;
    else if (/^-[^-]/.test(arg)) {
      // A cluster of short options; -o takes the rest of it, or the next argument, as its value.
      const cluster = arg.slice(1);
      const o = cluster.indexOf('o');
      if ((o === -1 ? cluster : cluster.slice(0, o)).includes('n')) dryRun = true;
      if (o === cluster.length - 1) i++;
    }
  }
  return dryRun;
}
