/**
 * `npm run demo`: replays a multi-session story into a fresh temporary repository through the
 * built CLI, exactly as a user would run it, and prints what Cortex remembers.
 *   --keep   leave the temporary repository in place to explore it
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STORY } from './story.js';

const CLI = fileURLToPath(new URL('./cli.js', import.meta.url));
const keep = process.argv.includes('--keep');
const bold = (text: string) => (process.stdout.isTTY ? `\u001b[1m${text}\u001b[22m` : text);

const dir = mkdtempSync(join(tmpdir(), 'cortex-demo-'));
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, env, stdio: 'ignore' });
const cortex = (...args: string[]) => execFileSync(process.execPath, [CLI, ...args], { cwd: dir, env, encoding: 'utf8' });

function show(title: string, command: string[]): void {
  const shown = command.map((arg) => (/\s/.test(arg) ? JSON.stringify(arg) : arg)).join(' ');
  process.stdout.write(`\n${bold(`$ cortex ${shown}`)}   ${title}\n`);
  process.stdout.write(cortex(...command));
}

try {
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'ana@example.com');
  git('config', 'user.name', 'Ana');
  writeFileSync(join(dir, 'README.md'), '# shortener\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');

  process.stdout.write(`Replaying ${STORY.length} memories from 3 sessions into ${dir}\n`);
  show('create the journal branch', ['init']);
  show('replay the story', ['import', storyFile()]);
  show('one session later, a decision stated by hand', ['remember', 'Rate limiting lives in the edge proxy, not the app', '--type', 'decision', '--why', 'one place for every service']);
  show('what was decided and rejected, newest first', ['log', '--type', 'decision,rejected']);
  show('everything, one line each', ['log', '--oneline']);
  show('Ben’s work only', ['log', '--author', 'ben', '--oneline']);
  show('the journal itself', ['status']);
  process.stdout.write(`\nYour work tree was never touched: \`git status\` is clean, and the memory lives on the branch cortex/journal.\n`);
  if (keep) process.stdout.write(`Kept the repository: ${dir}\n`);
} finally {
  if (!keep) rmSync(dir, { recursive: true, force: true });
}

function storyFile(): string {
  const path = join(dir, '..', `${dir.split('/').pop()}-story.jsonl`);
  writeFileSync(path, STORY.map((e) => JSON.stringify(e)).join('\n'));
  process.on('exit', () => rmSync(path, { force: true }));
  return path;
}
