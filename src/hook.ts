/**
 * The `cortex hook <event>` entry, bundled on its own into one file (dist/hook.js): hooks run on
 * every prompt and every stop, and one flat module loads measurably faster than the CLI's chunk
 * graph. Skips yargs entirely and always exits 0 (hooks fail open).
 */
import { runHook } from './claude/hook.js';
import { processIO } from './commands/io.js';
import { prefetchRepo } from './git/repo.js';

// Claude Code runs hooks in the project directory, so the repository lookup starts right away,
// alongside reading stdin (the payload's cwd is usually this one).
prefetchRepo(process.cwd(), { fast: true });
await runHook(process.argv[3], processIO());
process.exit(0);
