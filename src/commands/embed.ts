import { CortexError } from '../errors.js';
import { createProgress } from '../format/progress.js';
import { embedIndex } from '../search/embeddings/embed-index.js';
import { EmbeddingsUnavailable, loadEmbedder } from '../search/embeddings/model.js';
import { readSettings } from '../workspace/settings.js';
import { openJournalAt, printJson, type CommandIO } from './io.js';

export interface EmbedArgs {
  download?: boolean;
  json?: boolean;
}

/** `cortex embed`: compute the vectors hybrid search fuses with keyword search. */
export async function runEmbed(args: EmbedArgs, io: CommandIO): Promise<number> {
  const journal = await openJournalAt(io);
  const { settings } = await readSettings(journal);
  let model;
  try {
    model = await loadEmbedder(settings, { download: args.download });
  } catch (err) {
    if (err instanceof EmbeddingsUnavailable) throw new CortexError('EMBEDDINGS_UNAVAILABLE', `${err.message}; search keeps working by keyword`);
    throw err;
  }
  const progress = args.json ? undefined : createProgress(io.stderr as { write(text: string): unknown; isTTY?: boolean }, 'cortex: embedding');
  const started = Date.now();
  const result = await embedIndex(journal, model, progress?.update);
  progress?.finish();
  if (args.json) printJson(io, { model: model.model, dims: model.dims, ...result, ms: Date.now() - started });
  else io.stdout.write(`Embedded ${result.embedded.toLocaleString('en')} memories with ${model.model}${result.reused ? ` (${result.reused.toLocaleString('en')} carried over)` : ''}; search now fuses keyword and vector rankings.\n`);
  return 0;
}
