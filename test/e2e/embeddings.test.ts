import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cortex, cortexJson } from '../helpers/cli.js';
import { git, tempDir, tempRepo } from '../helpers/repo.js';
import { writeTinyModel } from '../helpers/tiny-model.js';

/**
 * The embedding sidecar end to end, offline: a tiny BERT-shaped model is written at test time
 * (test/helpers/tiny-model.ts) and @huggingface/transformers loads it from cortex.embedPath.
 */
interface HitJson {
  id: string;
  content: string;
  score: number;
}

const remember = (dir: string, text: string, type = 'learned') => JSON.parse(cortex(dir, ['remember', text, '-t', type, '--json']).stdout) as { id: string };

async function repoWithModel() {
  const models = tempDir('cortex-models-');
  const { modelName } = await writeTinyModel(models);
  const dir = tempRepo({ files: { 'README.md': '# app\n' } });
  cortex(dir, ['init', '--no-claude', '--no-git']);
  git(dir, 'config', 'cortex.embedPath', models);
  git(dir, 'config', 'cortex.embedModel', modelName);
  return { dir, models, modelName };
}

describe('cortex embed and hybrid search', () => {
  it('embeds memories incrementally and fuses vector and keyword rankings', async () => {
    const { dir } = await repoWithModel();
    const queue = remember(dir, 'the worker queue retry uses a timeout', 'decision');
    remember(dir, 'the page button style uses css');
    cortex(dir, ['remember', 'src/app.ts', '-t', 'modified']);
    const first = cortexJson<{ embedded: number; rows: number; dims: number }>(dir, ['embed']);
    expect(first).toMatchObject({ embedded: 2, rows: 3, dims: 32 }); // file activity gets a row but no vector

    const again = cortexJson<{ embedded: number }>(dir, ['embed']);
    expect(again.embedded).toBe(0); // nothing new
    remember(dir, 'a third memory about the server cache');
    expect(cortexJson<{ embedded: number }>(dir, ['embed']).embedded).toBe(1);

    const hybrid = cortexJson<HitJson[]>(dir, ['search', 'worker retry timeout']);
    expect(hybrid[0]?.id).toBe(queue.id);
    expect(hybrid[0]?.score).toBeLessThan(1); // a reciprocal-rank-fusion score, not BM25
    const keyword = cortexJson<HitJson[]>(dir, ['search', 'worker retry timeout', '--keyword']);
    expect(keyword[0]?.id).toBe(queue.id);
    expect(keyword[0]?.score).toBeGreaterThan(1);
  });

  it('with vectors, --type still answers from the whole ranking: a decision below sixty learnings that match better is found', async () => {
    const { dir } = await repoWithModel();
    const input = Array.from({ length: 60 }, (_, i) => JSON.stringify({ type: 'learned', content: `the worker queue retry timeout note ${i} worker queue retry`, ts: `2026-01-01T10:${String(i).padStart(2, '0')}:00Z`, session: 's' }));
    input.push(JSON.stringify({ type: 'decision', content: 'the worker queue retry gives up after a timeout', ts: '2026-01-02T10:00:00Z', session: 's' }));
    expect(cortex(dir, ['import', '-'], { input: input.join('\n') }).code).toBe(0);
    expect(cortex(dir, ['embed']).code).toBe(0);
    expect(cortexJson<HitJson[]>(dir, ['search', 'worker queue retry', '--type', 'decision']).map((h) => h.content)).toEqual(['the worker queue retry gives up after a timeout']);
  });

  it('a memory enters the vector ranking only above cortex.minSimilarity: a query nothing is similar to finds nothing', async () => {
    const { dir } = await repoWithModel();
    const queue = remember(dir, 'the worker queue retry uses a timeout', 'decision');
    remember(dir, 'the page button style uses css');
    cortexJson(dir, ['embed']);
    git(dir, 'config', 'cortex.minSimilarity', '-1'); // no floor: the vector ranking lists every memory
    expect(cortexJson<HitJson[]>(dir, ['search', 'kubernetes helm chart'])).toHaveLength(2);
    git(dir, 'config', 'cortex.minSimilarity', '0.9');
    expect(cortexJson<HitJson[]>(dir, ['search', 'kubernetes helm chart'])).toEqual([]);
    expect(cortexJson<HitJson[]>(dir, ['search', 'the worker queue retry uses a timeout']).map((h) => h.id)).toEqual([queue.id]); // the same text: similarity 1
  });

  it('carries vectors over a rebuilt index by event id instead of embedding again', async () => {
    const { dir } = await repoWithModel();
    remember(dir, 'the worker queue retry uses a timeout', 'decision');
    remember(dir, 'the page button style uses css');
    cortexJson(dir, ['embed']);
    cortex(dir, ['reindex']);
    const notice = cortex(dir, ['search', 'worker queue']);
    expect(notice.stderr).toMatch(/run `cortex embed`/);
    expect(cortexJson<{ embedded: number; reused: number }>(dir, ['embed'])).toMatchObject({ embedded: 0, reused: 2 });
    expect(cortex(dir, ['search', 'worker queue']).stderr).toBe('');
  });

  it('without the model, search stays keyword-only and says so once; cortex embed explains what to do', async () => {
    const { dir, models, modelName } = await repoWithModel();
    const { id } = remember(dir, 'the worker queue retry uses a timeout', 'decision');
    cortexJson(dir, ['embed']);
    rmSync(join(models, modelName), { recursive: true, force: true });
    const first = cortex(dir, ['search', 'worker queue', '--json']);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout).map((h: HitJson) => h.id)).toEqual([id]);
    expect(first.stderr).toMatch(/^cortex: no embedding model .* searching by keyword only\n$/);
    const second = cortex(dir, ['search', 'worker queue', '--json']);
    expect(second.stderr).toBe('');
    const embed = cortex(dir, ['embed']);
    expect(embed.code).toBe(1);
    expect(embed.stderr.trim().split('\n')).toHaveLength(1);
    expect(embed.stderr).toMatch(/cortex embed --download|cortex.embedPath/);
    expect(existsSync(join(dir, '.git', 'cortex', 'vectors', 'vectors.bin'))).toBe(true); // nothing lost
  });

  it('loads a side-loaded copy as it was left: embedPath naming the model folder with quantised weights only, or a Hugging Face hub snapshot', async () => {
    const { dir, models, modelName } = await repoWithModel();
    const { id } = remember(dir, 'the worker queue retry uses a timeout', 'decision');
    remember(dir, 'the page button style uses css');
    const folder = join(models, modelName);
    renameSync(join(folder, 'onnx', 'model.onnx'), join(folder, 'onnx', 'model_quantized.onnx'));
    git(dir, 'config', 'cortex.embedPath', folder);
    expect(cortexJson<{ embedded: number }>(dir, ['embed']).embedded).toBe(2);
    expect(cortexJson<HitJson[]>(dir, ['search', 'worker retry timeout'])[0]).toMatchObject({ id, score: expect.any(Number) });

    const hub = tempDir('cortex-hub-');
    const snapshot = join(hub, `models--someone--${modelName}`, 'snapshots', '0123abcd');
    mkdirSync(join(snapshot, '..'), { recursive: true });
    renameSync(folder, snapshot);
    renameSync(join(snapshot, 'onnx', 'model_quantized.onnx'), join(snapshot, 'model.onnx')); // weights at the top, as some exports leave them
    git(dir, 'config', '--unset', 'cortex.embedPath');
    git(dir, 'config', 'cortex.embedModel', `someone/${modelName}`);
    const embed = cortex(dir, ['embed', '--json'], { env: { HF_HUB_CACHE: hub } });
    expect(embed.stderr).toBe('');
    expect(JSON.parse(embed.stdout)).toMatchObject({ embedded: 2 }); // another model name: every memory again
    const hybrid = cortex(dir, ['search', 'worker retry timeout', '--json'], { env: { HF_HUB_CACHE: hub } });
    expect(hybrid.stderr).toBe('');
    const [top] = JSON.parse(hybrid.stdout) as HitJson[];
    expect(top?.id).toBe(id);
    expect(top?.score).toBeLessThan(1); // fused with the vectors, not keyword-only
  });
});
