import { createProgress } from '../format/progress.js';
import { updateIndex } from '../search/update.js';
import { openJournalAt, printJson, type CommandIO } from './io.js';

export interface ReindexArgs {
  compact?: boolean;
  quiet?: boolean;
  json?: boolean;
}

/**
 * `cortex reindex`: rebuild the search index from the journal (`--compact`: only fold a grown
 * delta into the shards, which is what hooks start in the background).
 */
export async function runReindex(args: ReindexArgs, io: CommandIO): Promise<number> {
  const journal = await openJournalAt(io);
  const progress = args.quiet || args.json ? undefined : createProgress(io.stderr as { write(text: string): unknown; isTTY?: boolean }, 'cortex: indexing');
  const started = Date.now();
  const result = await updateIndex(journal, args.compact ? { compact: true } : { rebuild: true, onProgress: progress?.update });
  progress?.finish();
  const documents = result.meta?.count ?? 0;
  if (args.json) printJson(io, { documents, shards: result.meta?.bulk?.shards ?? 0, ms: Date.now() - started });
  else if (!args.quiet) io.stdout.write(`Indexed ${documents.toLocaleString('en')} memories in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
  return 0;
}
