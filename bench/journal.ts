import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { forgetWrittenEvents } from '../src/journal/cache.js';
import { append, openJournal, readAll } from '../src/journal/journal.js';
import { discoverRepo } from '../src/git/repo.js';
import { benchRepo, buildJournal, runCli, syntheticEvent } from './fixtures.js';
import { round, sample, time } from './stats.js';

/** Issue 2 budgets: append flat in journal size, remember and log fast as whole CLI calls. */
export async function benchJournal(size: number) {
  const dir = benchRepo();
  try {
    const { journal, buildMs } = await buildJournal(dir, size);
    let n = 0;
    const appendInProcess = await sample(40, () => append(journal, [syntheticEvent(size + n++, 'bench-append', Date.now())]));

    rmSync(join(dir, '.git', 'cortex', 'cache'), { recursive: true, force: true });
    const cold = await time(async () => readAll(await openJournal(await discoverRepo(dir))));
    // A warm read as the next command sees it: from the cache file, not from this process's memory.
    const warm = await sample(3, async () => {
      forgetWrittenEvents();
      return readAll(await openJournal(await discoverRepo(dir)));
    });

    const remember = await sample(15, () => runCli(dir, ['remember', `bench note ${n++}`, '--type', 'learned']));
    runCli(dir, ['log', '-n', '20', '--json']);
    const log = await sample(15, () => runCli(dir, ['log', '-n', '20', '--json']));
    return {
      events: size,
      buildMs: round(buildMs),
      appendInProcessMs: appendInProcess,
      readAllMs: { cold: round(cold.ms), warmP50: warm.p50, events: cold.value.events.length },
      rememberCliMs: remember,
      logN20JsonWarmMs: log,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
