import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ProjectionSettings } from '../../projections/settings.js';
import { hubCacheDir, locateModel } from './locate-model.js';

/**
 * The optional embedding model, through @huggingface/transformers (an optional peer dependency:
 * Cortex works keyword-only without it). Models load from local folders only (locate-model.ts):
 * the folder `git config cortex.embedPath` names, Cortex's model cache (~/.cache/cortex/models, or
 * CORTEX_MODEL_CACHE), transformers.js's own cache and the Hugging Face hub cache. Nothing is
 * downloaded unless the user asks (`cortex embed --download`).
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

/** transformers.js's own model folder and cache, as it set them: models may already be there. */
let transformersFolders: string[] | undefined;

type Settings = Pick<ProjectionSettings, 'embedModel' | 'embedPath'>;

export async function loadEmbedder(settings: Settings, options: { download?: boolean } = {}): Promise<Embedder> {
  let transformers: typeof import('@huggingface/transformers');
  try {
    transformers = await import('@huggingface/transformers');
  } catch {
    throw new EmbeddingsUnavailable('the optional package @huggingface/transformers is not installed (npm install @huggingface/transformers next to cortex)');
  }
  const { env, pipeline } = transformers;
  transformersFolders ??= [env.localModelPath, env.cacheDir].filter((dir): dir is string => !!dir); // before they are pointed elsewhere below
  const roots = [...(settings.embedPath ? [settings.embedPath] : []), modelCacheDir(), ...transformersFolders, hubCacheDir()];
  const found = locateModel(settings.embedModel, roots, settings.embedPath);
  if (!found && !options.download) {
    throw new EmbeddingsUnavailable(`no embedding model ${settings.embedModel} in ${settings.embedPath ?? modelCacheDir()} (run \`cortex embed --download\` once, or point git config cortex.embedPath at a folder holding it)`);
  }
  env.allowLocalModels = true;
  env.localModelPath = found?.parent ?? modelCacheDir();
  env.cacheDir = modelCacheDir();
  env.allowRemoteModels = !found && options.download === true;
  let extractor: Awaited<ReturnType<typeof pipeline<'feature-extraction'>>>;
  try {
    // With dtype fp32 transformers.js adds no suffix, so model_file_name names the weights file exactly.
    const where = found ? { subfolder: found.subfolder, model_file_name: found.fileName } : {};
    extractor = await pipeline('feature-extraction', found?.id ?? settings.embedModel, { dtype: 'fp32', ...where });
  } catch (err) {
    throw new EmbeddingsUnavailable(`could not load the embedding model ${settings.embedModel} from ${found ? join(found.parent, found.id) : modelCacheDir()}: ${(err as Error).message.split('\n')[0]}`);
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
