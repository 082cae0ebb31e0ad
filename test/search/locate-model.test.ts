import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hubCacheDir, locateModel } from '../../src/search/embeddings/locate-model.js';
import { tempDir } from '../helpers/repo.js';

/** A model folder's files (empty: only their presence matters here). */
function lay(folder: string, weights: string[]) {
  for (const file of ['config.json', 'tokenizer.json', ...weights]) {
    mkdirSync(dirname(join(folder, file)), { recursive: true });
    writeFileSync(join(folder, file), '');
  }
  return folder;
}

const NAME = 'Xenova/all-MiniLM-L6-v2';

describe('locating a side-loaded embedding model', () => {
  it('finds the model under its full name in a folder of models', () => {
    const root = tempDir();
    lay(join(root, NAME), ['onnx/model.onnx']);
    expect(locateModel(NAME, [root])).toEqual({ parent: join(root, 'Xenova'), id: 'all-MiniLM-L6-v2', subfolder: 'onnx', fileName: 'model' });
  });

  it('takes cortex.embedPath naming the model folder itself, with only quantised weights', () => {
    const folder = lay(join(tempDir(), 'minilm'), ['onnx/model_quantized.onnx']);
    expect(locateModel(NAME, [], folder)).toEqual({ parent: dirname(folder), id: 'minilm', subfolder: 'onnx', fileName: 'model_quantized' });
  });

  it('prefers full-precision weights, and takes weights at the top of the folder', () => {
    const root = tempDir();
    lay(join(root, 'all-MiniLM-L6-v2'), ['model_fp16.onnx', 'model.onnx']);
    expect(locateModel(NAME, [root])).toMatchObject({ id: 'all-MiniLM-L6-v2', subfolder: '', fileName: 'model' });
  });

  it('accepts another publisher of the same model, and any ONNX file name', () => {
    const root = tempDir();
    lay(join(root, 'sentence-transformers', 'all-MiniLM-L6-v2'), ['onnx/model_qint8_avx512.onnx']);
    expect(locateModel(NAME, [root])).toMatchObject({ parent: join(root, 'sentence-transformers'), fileName: 'model_qint8_avx512' });
  });

  it('finds a snapshot in a Hugging Face hub cache', () => {
    const hub = tempDir();
    const snapshot = lay(join(hub, 'models--sentence-transformers--all-MiniLM-L6-v2', 'snapshots', 'c9745ed1'), ['onnx/model.onnx']);
    expect(locateModel(NAME, [hub])).toEqual({ parent: dirname(snapshot), id: 'c9745ed1', subfolder: 'onnx', fileName: 'model' });
  });

  it('skips folders that lack a tokenizer or weights, and answers null when nothing is there', () => {
    const root = tempDir();
    lay(join(root, NAME), []); // config and tokenizer, no weights
    mkdirSync(join(root, 'all-MiniLM-L6-v2', 'onnx'), { recursive: true });
    writeFileSync(join(root, 'all-MiniLM-L6-v2', 'onnx', 'model.onnx'), ''); // weights, no config
    expect(locateModel(NAME, [root, join(root, 'missing')])).toBeNull();
    const fallback = lay(join(tempDir(), NAME), ['onnx/model.onnx']);
    expect(locateModel(NAME, [root, dirname(dirname(fallback))])?.parent).toBe(dirname(fallback));
  });

  it('resolves the hub cache as huggingface_hub does', () => {
    expect(hubCacheDir({ HF_HUB_CACHE: '/a' })).toBe('/a');
    expect(hubCacheDir({ HF_HOME: '/h' })).toBe('/h/hub');
    expect(hubCacheDir({ XDG_CACHE_HOME: '/x' })).toBe('/x/huggingface/hub');
  });
});
