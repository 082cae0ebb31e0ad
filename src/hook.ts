/**
 * The entry for `cortex hook <event>` (Claude Code) and `cortex git-hook <name>` (git), bundled
 * on its own (dist/hook.js): hooks run on every prompt, stop, checkout and commit, and load
 * fewer files this way than through the CLI's chunk graph. Skips yargs entirely and always
 * exits 0 (hooks fail open).
 */
import { runHook } from './claude/hook.js';
import { processIO } from './commands/io.js';
import { prefetchRepo } from './git/repo.js';

// Hooks run in the repository, so the repository lookup starts right away, alongside reading stdin.
prefetchRepo(process.cwd(), { fast: true });
const io = processIO();
if (process.argv[2] === 'git-hook') {
  const { runGitHook } = await import('./git-hooks/run-git-hook.js');
  await runGitHook(process.argv[3], { cwd: io.cwd, args: process.argv.slice(4), readStdin: io.readStdin, stderr: io.stderr });
} else {
  // Claude Code hooks are the hot path (every prompt and stop): imported statically, so they
  // load with this file; the git hooks' code is a chunk of its own.
  // `--catch-up`: a hook's own detached run, reading what it left of a long transcript.
  await runHook(process.argv[3], io, { catchUp: process.argv[4] === '--catch-up' });
}
process.exit(0);
