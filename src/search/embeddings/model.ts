import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ProjectionSettings } from '../../projections/settings.js';

/**
 * The optional embedding model, through @huggingface/transformers (an optional peer dependency:
 * Cortex works keyword-only without it). Models load from a local folder only: Cortex's model
 * cache (~/.cache/cortex/models, or CORTEX_MODEL_CACHE) or the folder `git config cortex.embedPath`
 * names. Nothing is downloaded unless the user asks (`cortex embed --download`).
 */
export type Embed = (texts: readonly string[]) => Promise<Float32Array[]>;

export interface Embedder {
  model: string;
  dims: number;
  embed: Embed;
}

/** Why there are no vectors: said once, in one line, with what to do. */
export class EmbeddingsUnavailable extends Error {}

export const modelCacheDir = (env: NodeJS.ProcessEnv = process.env): string => env.CORTEX_MODEL_CACHE ?? join(homedir(), '.cache', 'cortex', 'models');

type Settings = Pick<ProjectionSettings, 'embedModel' | 'embedPath'>;

export async function loadEmbedder(settings: Settings, options: { download?: boolean } = {}): Promise<Embedder> {
  let transformers: typeof import('@huggingface/transformers');
  try {
    transformers = await import('@huggingface/transformers');
  } catch {
    throw new EmbeddingsUnavailable('the optional package @huggingface/transformers is not installed (npm install @huggingface/transformers next to cortex)');
  }
  const root = settings.embedPath ?? modelCacheDir();
  const { env, pipeline } = transformers;
  env.allowLocalModels = true;
  env.localModelPath = root;
  env.cacheDir = modelCacheDir();
  env.allowRemoteModels = options.download === true;
  if (!options.download && !existsSync(join(root, settings.embedModel))) {
    throw new EmbeddingsUnavailable(`no embedding model ${settings.embedModel} in ${root} (run \`cortex embed --download\` once, or point git config cortex.embedPath at a folder holding it)`);
  }
  let extractor: Awaited<ReturnType<typeof pipeline<'feature-extraction'>>>;
  try {
    extractor = await pipeline('feature-extraction', settings.embedModel, { dtype: 'fp32' });
  } catch (err) {
    throw new EmbeddingsUnavailable(`could not load the embedding model ${settings.embedModel} from ${root}: ${(err as Error).message.split('\n')[0]}`);
  }
  const embed: Embed = async (texts) => {
    if (texts.length === 0) return [];
    const output = await extractor([...texts], { pooling: 'mean', normalize: true });
    const [rows, dims] = output.dims as [number, number];
    const data = output.data as Float32Array;
    return Array.from({ length: rows }, (_, i) => data.slice(i * dims, (i + 1) * dims));
  };
  const [probe] = await embed(['probe']);
  return { model: settings.embedModel, dims: probe?.length ?? 0, embed };
}
