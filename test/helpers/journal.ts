import { discoverRepo } from '../../src/git/repo.js';
import { openJournal, type Journal } from '../../src/journal/journal.js';

export async function journalAt(dir: string): Promise<Journal> {
  return openJournal(await discoverRepo(dir));
}
