import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';

/**
 * Where a model's files are on this machine. Side-loaded copies come in several layouts, and a
 * user who has the model should not have to rearrange it: `cortex.embedPath` may name the model's
 * own folder or a folder of models; the model may sit under its full name (Xenova/all-MiniLM-L6-v2),
 * its bare name, or another publisher's name for the same model (sentence-transformers/…); and a
 * Hugging Face hub cache (models--owner--name/snapshots/<rev>/, as Python's sentence-transformers
 * leaves it) holds it too. Any of the ONNX weight files transformers.js reads will do.
 */
export interface ModelLocation {
  /** The folder holding the model's folder: transformers.js's `localModelPath`. */
  parent: string;
  /** The model's folder name under `parent`: the id transformers.js loads. */
  id: string;
  /** Where the weights are inside the model's folder ('onnx' or ''). */
  subfolder: string;
  /** The weights file without `.onnx`: transformers.js's `model_file_name` (with dtype fp32, no suffix is added). */
  fileName: string;
}

/** Weight files in order of preference: full precision first (the reference vectors), then the quantised copies. */
const WEIGHTS = ['model', 'model_quantized', 'model_int8', 'model_uint8', 'model_fp16'];

/** The weights of a model folder, if it is one (a config, a tokenizer and an ONNX file). */
function weightsIn(folder: string): Pick<ModelLocation, 'subfolder' | 'fileName'> | null {
  if (!existsSync(join(folder, 'config.json')) || !existsSync(join(folder, 'tokenizer.json'))) return null;
  for (const subfolder of ['onnx', '']) {
    const dir = join(folder, subfolder);
    const named = WEIGHTS.find((name) => existsSync(join(dir, `${name}.onnx`)));
    if (named) return { subfolder, fileName: named };
    const other = listing(dir).filter((name) => name.endsWith('.onnx')).sort()[0]; // e.g. model_qint8_avx512.onnx
    if (other) return { subfolder, fileName: other.slice(0, -'.onnx'.length) };
  }
  return null;
}

const listing = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** Folders under `root` that may hold the model `name` ("owner/model" or "model"), most specific first. */
function candidateFolders(root: string, name: string): string[] {
  const bare = basename(name);
  const hubFolders = (entry: string) => listing(join(root, entry, 'snapshots')).map((rev) => join(root, entry, 'snapshots', rev));
  return [
    join(root, name),
    join(root, bare),
    ...listing(root).map((owner) => join(root, owner, bare)),
    ...listing(root)
      .filter((entry) => entry.startsWith('models--') && entry.endsWith(`--${bare}`))
      .flatMap(hubFolders),
  ];
}

/** The Hugging Face hub cache, as huggingface_hub resolves it. */
export function hubCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.HF_HUB_CACHE ?? join(env.HF_HOME ?? join(env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'huggingface'), 'hub');
}

/**
 * The first place in `roots` (in order) holding the model `name`. `configured` (cortex.embedPath)
 * is also tried as the model's own folder.
 */
export function locateModel(name: string, roots: readonly string[], configured: string | null = null): ModelLocation | null {
  const folders = [...(configured ? [configured] : []), ...roots.flatMap((root) => candidateFolders(root, name))];
  for (const folder of folders) {
    const weights = weightsIn(folder);
    if (weights) return { parent: dirname(folder), id: basename(folder), ...weights };
  }
  return null;
}
