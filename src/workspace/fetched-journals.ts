import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readRef } from '../git/refs.js';
import { cortexDir, readAuthor } from '../git/repo.js';
import type { Journal } from '../journal/journal.js';
import { readTip } from '../journal/tip.js';
import { writeIfChanged } from '../write-if-changed.js';

/**
 * Memory git fetched counts before memory is read. A `git fetch` brings the teammates' journals
 * (`refs/remotes/<remote>/cortex/journal`) beside their branches, but no hook runs after it:
 * `git switch <their-branch>` or `git reset --hard origin/main` then showed their code with
 * none of their memory, until a pull, a sync or a diff united the journals. Every read of
 * memory for HEAD (the briefing, `cortex decisions`, the regenerated files) unites them first.
 *
 * The session-start path runs this, so asking costs no git call: the remote journals' tips are
 * read from the ref files and compared with those united last time (kept in
 * `.git/cortex/fetched-journals`) and with the journal's own tip. Only a tip not seen yet is
 * handed to the union, which needs git. It fails open: a journal that cannot be written (a
 * read-only `.git`) leaves this clone's memory to answer.
 */
export async function uniteNewlyFetchedJournals(journal: Journal): Promise<void> {
  try {
    const branch = journal.store.ref.replace(/^refs\/heads\//, '');
    const tips = await fetchedTips(journal.repo.commonDir, branch);
    if (tips.length === 0) return;
    const recordPath = join(cortexDir(journal.repo), 'fetched-journals');
    const [ours, record] = await Promise.all([readTip(journal.store), readFile(recordPath, 'utf8').catch(() => '')]);
    const seen = new Set(record.split('\n'));
    if (tips.every((tip) => tip === ours || seen.has(tip))) return;
    const { uniteFetchedJournals } = await import('../journal/sync.js');
    await uniteFetchedJournals(journal.repo, journal.store, await readAuthor(journal.repo));
    await writeIfChanged(recordPath, `${tips.join('\n')}\n`);
  } catch {
    // Not united this time (a read-only .git, a journal being written): this clone's memory answers, and the next read tries again.
  }
}

/** The tips of `refs/remotes/*\/<branch>`, loose or packed, without spawning git. */
async function fetchedTips(commonDir: string, branch: string): Promise<string[]> {
  const remotes = new Set(await readdir(join(commonDir, 'refs', 'remotes')).catch(() => [] as string[]));
  const packed = await readFile(join(commonDir, 'packed-refs'), 'utf8').catch(() => '');
  for (const line of packed.split('\n')) {
    const ref = line.slice(line.indexOf(' ') + 1);
    if (ref.startsWith('refs/remotes/') && ref.endsWith(`/${branch}`)) remotes.add(ref.slice('refs/remotes/'.length, -branch.length - 1));
  }
  const tips = await Promise.all([...remotes].sort().map((remote) => readRef(commonDir, `refs/remotes/${remote}/${branch}`)));
  return [...new Set(tips.filter((tip): tip is string => tip !== null))];
}
