import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
// onnx-proto is CommonJS and sets `module.exports = $root` at runtime, which Node's ESM loader
// cannot see as named exports; a default import works under node, tsx and vitest alike.
import onnxProto from 'onnx-proto';
import type { onnx as Onnx } from 'onnx-proto';

const { onnx } = onnxProto;

/**
 * A tiny, BERT-shaped sentence-embedding model written to disk at test time.
 *
 * Why: real models (all-MiniLM-L6-v2, ~90 MB) cannot be downloaded in CI or on these machines,
 * but the embedding code path should still run end to end through @huggingface/transformers and
 * onnxruntime-node. This writes the same file layout transformers.js expects of a local model
 * (`config.json`, `tokenizer.json`, `tokenizer_config.json`, `onnx/model.onnx`), so
 *
 *   env.allowRemoteModels = false; env.allowLocalModels = true; env.localModelPath = dir;
 *   await pipeline('feature-extraction', modelName, { dtype: 'fp32' })
 *
 * loads it fully offline. The "model" is a fixed pseudo-random word-embedding table followed by
 * a near-identity projection, so with mean pooling a text's vector is roughly the average of its
 * words' vectors: texts that share words come out more similar than unrelated texts, and the
 * same text always gives the same vector (every weight comes from a seeded PRNG).
 */

/** Default embedding size; small enough to keep the model file around 74 KB. */
const DEFAULT_DIM = 32;
const DEFAULT_NAME = 'tiny-bert-embedder';

const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

/**
 * Common English and software words. Anything not listed still tokenizes: the vocabulary also
 * holds every letter and digit as a word start and as a `##` continuation, so WordPiece splits
 * unknown words into pieces instead of collapsing them all onto [UNK] (which would make every
 * out-of-vocabulary text look alike).
 */
const WORDS = `
the a an and or not no of to in on at by for from with without into over under about as is are
was were be been being has have had do does did will would can could should must may might this
that these those it its we you they he she i me my our your their there here what which who when
where why how all any some each every more most less other same new old first last next only also
just then than so but if else because before after again still very too up down out off
use used using add added remove removed change changed update updated fix fixed fixes bug bugs
error errors fail failed failure crash issue issues test tests testing pass passed run runs build
builds release version deploy install config configure setting settings option options default
file files folder directory path name names line lines code source module package library import
export function class method type types value values string number list array map object key keys
data database table query index search cache memory disk store storage save load read write
event events log logs journal commit commits branch branches merge merged rebase git repo
repository clone push pull fetch sync remote local server client api request response http user
users account login password token auth session cookie network timeout retry slow fast speed
performance latency startup time date hook hooks plugin script scripts command cli terminal shell
process thread worker queue job task tasks plan plans decision decisions decide decided reject
rejected approach idea note notes document docs readme comment review refactor rename move split
delete create open close start stop begin end small large big tiny simple complex rule rules
check checks validate schema json yaml markdown text word words sentence model models embedding
embeddings vector vectors similar similarity score rank ranking result results filter sort match
team project feature features design api frontend backend ui page button form style css html
browser window screen mobile linux windows mac docker container image cloud production staging
node npm typescript javascript python rust java go sql postgres sqlite redis react vue
lint format compile compiler runtime dependency dependencies upgrade downgrade patch security
migration migrations schema lock locks conflict conflicts parse parser output input stream
good bad better best wrong right true false null empty missing broken works working because
cat dog bird fish tree flower garden weather rain sun sunny cloudy snow cold hot warm food eat
cook recipe apple banana coffee tea music song play game ball football team win lose
`;

const PUNCTUATION = [...'.,;:!?\'"()[]{}<>/\\-_=+*&%$#@^`~|'];
const CHARACTERS = [...'abcdefghijklmnopqrstuvwxyz0123456789'];

/** Builds the vocabulary: specials first (ids 0..4, [PAD] = 0 as in BERT), then words, pieces. */
function buildVocab(): string[] {
  const tokens = new Set<string>(SPECIAL_TOKENS);
  for (const word of WORDS.split(/\s+/)) if (word) tokens.add(word);
  for (const p of PUNCTUATION) tokens.add(p);
  for (const c of CHARACTERS) tokens.add(c);
  for (const c of CHARACTERS) tokens.add(`##${c}`);
  return [...tokens];
}

/** FNV-1a: a stable 32-bit seed per token, so a word's vector does not depend on vocab order. */
function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: tiny deterministic PRNG returning floats in [-1, 1). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) / 4294967296) * 2 - 1;
  };
}

/** [vocab, dim] word embeddings, row-major. */
function wordEmbeddings(vocab: readonly string[], dim: number): Float32Array {
  const table = new Float32Array(vocab.length * dim);
  vocab.forEach((token, row) => {
    // [PAD] stays zero (it is masked out anyway). [CLS]/[SEP] appear in every text, so they
    // get small vectors: a full-size shared component would push all similarities up, while
    // a zero vector would make an empty text's embedding 0/0 = NaN after normalization.
    if (token === '[PAD]') return;
    const scale = token === '[CLS]' || token === '[SEP]' ? 0.1 : 1;
    const next = prng(hashString(token));
    for (let j = 0; j < dim; j++) table[row * dim + j] = next() * scale;
  });
  return table;
}

/** [2, dim] token-type embeddings: small, like BERT's, so they barely move the result. */
function typeEmbeddings(dim: number): Float32Array {
  const next = prng(0x7e57);
  return Float32Array.from({ length: 2 * dim }, () => next() * 0.05);
}

/**
 * [dim, dim] projection: identity plus a little noise. It stands in for an encoder layer so the
 * graph exercises a MatMul like a real model, while staying close enough to identity not to
 * scramble the word-overlap similarity that the embedding table provides.
 */
function projection(dim: number): Float32Array {
  const next = prng(0xbe27);
  const w = new Float32Array(dim * dim);
  for (let i = 0; i < dim; i++) {
    for (let j = 0; j < dim; j++) w[i * dim + j] = (i === j ? 1 : 0) + next() * 0.05;
  }
  return w;
}

const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

function floatTensor(name: string, dims: number[], values: Float32Array): Onnx.ITensorProto {
  // rawData is little-endian; every platform Node supports for onnxruntime-node is little-endian.
  const rawData = new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  return { name, dims, dataType: FLOAT, rawData };
}

function int64Tensor(name: string, values: bigint[]): Onnx.ITensorProto {
  const data = BigInt64Array.from(values);
  return { name, dims: [values.length], dataType: INT64, rawData: new Uint8Array(data.buffer) };
}

/** A [batch, seq(, dim)] tensor type with symbolic batch and sequence sizes, as exported BERTs have. */
function valueInfo(name: string, elemType: number, hidden?: number): Onnx.IValueInfoProto {
  const dim: Onnx.TensorShapeProto.IDimension[] = [{ dimParam: 'batch_size' }, { dimParam: 'sequence_length' }];
  if (hidden !== undefined) dim.push({ dimValue: hidden });
  return { name, type: { tensorType: { elemType, shape: { dim } } } };
}

/**
 * The graph, in BERT's input/output contract:
 *   words  = Gather(word_embeddings, input_ids)           [batch, seq, dim]
 *   types  = Gather(token_type_embeddings, token_type_ids)
 *   hidden = MatMul(words + types, projection)
 *   last_hidden_state = hidden * attention_mask[..., None]
 * All three inputs are consumed, so transformers.js feeds exactly what it feeds a real BERT.
 * Masking padded positions mirrors a real encoder's output and keeps batched results equal to
 * one-at-a-time results.
 */
function buildModel(vocabSize: number, dim: number, words: Float32Array): Uint8Array {
  const graph: Onnx.IGraphProto = {
    name: 'tiny_bert_embedder',
    input: [
      valueInfo('input_ids', INT64),
      valueInfo('attention_mask', INT64),
      valueInfo('token_type_ids', INT64),
    ],
    output: [valueInfo('last_hidden_state', FLOAT, dim)],
    initializer: [
      floatTensor('word_embeddings', [vocabSize, dim], words),
      floatTensor('token_type_embeddings', [2, dim], typeEmbeddings(dim)),
      floatTensor('projection', [dim, dim], projection(dim)),
      int64Tensor('unsqueeze_axes', [-1n]),
    ],
    node: [
      { opType: 'Gather', name: 'word_lookup', input: ['word_embeddings', 'input_ids'], output: ['words'] },
      { opType: 'Gather', name: 'type_lookup', input: ['token_type_embeddings', 'token_type_ids'], output: ['types'] },
      { opType: 'Add', name: 'embed_sum', input: ['words', 'types'], output: ['embedded'] },
      { opType: 'MatMul', name: 'project', input: ['embedded', 'projection'], output: ['projected'] },
      {
        opType: 'Cast',
        name: 'mask_to_float',
        input: ['attention_mask'],
        output: ['mask_float'],
        attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }],
      },
      { opType: 'Unsqueeze', name: 'mask_expand', input: ['mask_float', 'unsqueeze_axes'], output: ['mask_3d'] },
      { opType: 'Mul', name: 'apply_mask', input: ['projected', 'mask_3d'], output: ['last_hidden_state'] },
    ],
  };
  const model: Onnx.IModelProto = {
    // IR 8 / opset 14: old enough for any onnxruntime-node of recent years, new enough for
    // Unsqueeze taking its axes as an input (opset >= 13).
    irVersion: 8,
    opsetImport: [{ domain: '', version: 14 }],
    producerName: 'cortex-test-tiny-model',
    graph,
  };
  return onnx.ModelProto.encode(onnx.ModelProto.create(model)).finish();
}

/** A Hugging Face tokenizer.json for BERT-style uncased WordPiece over the tiny vocabulary. */
function tokenizerJson(vocab: readonly string[]): unknown {
  const ids = (token: string): number => vocab.indexOf(token);
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((content) => ({
      id: ids(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'BertProcessing',
      sep: ['[SEP]', ids('[SEP]')],
      cls: ['[CLS]', ids('[CLS]')],
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((token, id) => [token, id])),
    },
  };
}

function tokenizerConfig(): unknown {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: 512,
    clean_up_tokenization_spaces: true,
    unk_token: '[UNK]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    cls_token: '[CLS]',
    mask_token: '[MASK]',
  };
}

function modelConfig(vocabSize: number, dim: number): unknown {
  return {
    model_type: 'bert',
    architectures: ['BertModel'],
    vocab_size: vocabSize,
    hidden_size: dim,
    num_hidden_layers: 1,
    num_attention_heads: 1,
    intermediate_size: dim,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    pad_token_id: 0,
    hidden_act: 'gelu',
    layer_norm_eps: 1e-12,
  };
}

export interface TinyModelOptions {
  /** Folder name under `dir`, and the id to pass to `pipeline()`. */
  name?: string;
  /** Embedding size (default 32). */
  dim?: number;
}

/**
 * Writes the tiny model into `<dir>/<name>/` and returns its path and the model id to pass to
 * `pipeline('feature-extraction', modelName, { dtype: 'fp32' })` with `env.localModelPath = dir`.
 * Takes about 10 ms and writes about 85 KB (dim 32); needs no network.
 */
export async function writeTinyModel(
  dir: string,
  options: TinyModelOptions = {},
): Promise<{ modelPath: string; modelName: string }> {
  const modelName = options.name ?? DEFAULT_NAME;
  const dim = options.dim ?? DEFAULT_DIM;
  if (!Number.isInteger(dim) || dim < 1) {
    throw new Error(`tiny model: dim must be a positive integer, got ${dim}`);
  }

  const vocab = buildVocab();
  const modelPath = join(dir, modelName);
  await mkdir(join(modelPath, 'onnx'), { recursive: true });

  const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
  await Promise.all([
    writeFile(join(modelPath, 'config.json'), json(modelConfig(vocab.length, dim))),
    writeFile(join(modelPath, 'tokenizer.json'), json(tokenizerJson(vocab))),
    writeFile(join(modelPath, 'tokenizer_config.json'), json(tokenizerConfig())),
    writeFile(join(modelPath, 'onnx', 'model.onnx'), buildModel(vocab.length, dim, wordEmbeddings(vocab, dim))),
  ]);
  return { modelPath, modelName };
}
