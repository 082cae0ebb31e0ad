// Trains the sentence models (src/capture/sentence-model.ts) on the labelled sessions and writes
// their weights beside it: `npx tsx scripts/train-sentence-model.ts`. Two models: the assistant's
// prose (sentence-model-data.json) and the user's standing preferences (preference-model-data.json).
// Deterministic (a fixed seed and order), so the committed weights are what this writes; a test
// checks they still are. Run it after changing a labelled set or sentence-features.ts.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { withoutTags } from '../src/capture/layer3.js';
import { splitProse } from '../src/capture/prose.js';
import { classProbabilities, MODEL_CLASSES, MODEL_FILES, type SentenceModelData } from '../src/capture/sentence-model.js';
import { sentenceFeatures } from '../src/capture/sentence-features.js';
import { parseTranscript } from '../src/capture/transcript.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Every labelled set: the project's fixtures and the blind sets (bench/capture-sets). */
export const LABELLED_SETS: readonly string[] = [
  join(ROOT, 'test/fixtures/sessions'),
  ...readdirSync(join(ROOT, 'bench/capture-sets'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(ROOT, 'bench/capture-sets', entry.name))
    .sort(),
];

interface Expected {
  type: string;
  keywords: string[];
}

export interface Example {
  text: string;
  /** A class of the model trained on it, or 'none'. */
  label: string;
}

const holdsAll = (text: string, keywords: readonly string[]) => keywords.every((k) => text.toLowerCase().includes(k.toLowerCase()));
const overlaps = (a: string, b: string) => a.includes(b.slice(0, 40)) || b.includes(a.slice(0, 40));

/**
 * Each sentence of the assistant's own prose in a set, labelled with the memory it states (an
 * expected item whose keywords it holds) or 'none'. Sentences labelled neutral, or holding a
 * memory of a kind the model does not learn (plans, preferences), are left out.
 */
export function examplesOf(dir: string): Example[] {
  const out: Example[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.labels.json')).sort()) {
    const labels = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { expected: Expected[]; neutral?: string[] };
    const transcript = parseTranscript(readFileSync(join(dir, file.replace('.labels.json', '.jsonl')), 'utf8'));
    for (const item of transcript.items) {
      if (item.kind !== 'assistant-text' || item.sidechain || item.recap) continue;
      for (const sentence of splitProse(withoutTags(item.text))) {
        if (sentence.table) continue;
        const text = sentence.text;
        const expected = labels.expected.filter((e) => holdsAll(text, e.keywords));
        const learned = expected.find((e) => (MODEL_CLASSES as readonly string[]).includes(e.type));
        if (learned) out.push({ text, label: learned.type });
        else if (expected.length === 0 && !(labels.neutral ?? []).some((n) => overlaps(text, n))) out.push({ text, label: 'none' });
      }
    }
  }
  return out;
}

/**
 * Each sentence the user typed in a set (split as capture splits a user's text), labelled
 * 'preference_noted' when it holds an expected preference's keywords, else 'none' (one-off
 * requests, questions, context). Sentences labelled neutral are left out.
 */
export function preferenceExamplesOf(dir: string): Example[] {
  const out: Example[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.labels.json')).sort()) {
    const labels = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { expected: Expected[]; neutral?: string[] };
    const preferences = labels.expected.filter((e) => e.type === 'preference_noted');
    const transcript = parseTranscript(readFileSync(join(dir, file.replace('.labels.json', '.jsonl')), 'utf8'));
    for (const item of transcript.items) {
      if (item.kind !== 'user-text' || item.sidechain || item.recap) continue;
      for (const { text } of splitProse(withoutTags(item.text))) {
        if (preferences.some((e) => holdsAll(text, e.keywords))) out.push({ text, label: 'preference_noted' });
        else if (!(labels.neutral ?? []).some((n) => overlaps(text, n))) out.push({ text, label: 'none' });
      }
    }
  }
  return out;
}

const EPOCHS = 15;
const LEARNING_RATE = 0.2;
const L2 = 1e-3;
/** A memory sentence counts twice: they are the rarer class, and the one a miss costs. */
const MEMORY_WEIGHT = 2;
/** Weights this small change no decision; dropping them keeps the file small. */
const KEEP_ABOVE = 0.02;
/** In how many sentences a feature must occur to be learned. */
const MIN_SENTENCES = 2;

/** Multinomial logistic regression by stochastic gradient descent, in a fixed order; 'none' is class 0. */
export function trainSentenceModel(examples: readonly Example[], classes: readonly string[] = ['none', ...MODEL_CLASSES]): SentenceModelData {
  const weights = new Map<string, Float64Array>();
  // A feature of one sentence only names that sentence: learning it would only memorise the set.
  const seen = new Map<string, number>();
  for (const e of examples) for (const f of sentenceFeatures(e.text)) seen.set(f, (seen.get(f) ?? 0) + 1);
  const xs = examples.map((e) => ({ features: sentenceFeatures(e.text).filter((f) => (seen.get(f) ?? 0) >= MIN_SENTENCES), y: classes.indexOf(e.label) }));
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    const order = xs.map((_, i) => ({ i, r: random() })).sort((a, b) => a.r - b.r);
    for (const { i } of order) {
      const { features, y } = xs[i] as (typeof xs)[number];
      const p = classProbabilities(features, (f) => weights.get(f), classes.length);
      const scale = y === 0 ? 1 : MEMORY_WEIGHT;
      for (const f of features) {
        let w = weights.get(f);
        if (!w) weights.set(f, (w = new Float64Array(classes.length)));
        for (let c = 0; c < w.length; c++) w[c] = (w[c] as number) - LEARNING_RATE * (scale * ((p[c] as number) - (c === y ? 1 : 0)) + L2 * (w[c] as number));
      }
    }
  }
  const kept: Record<string, number[]> = {};
  for (const [f, w] of [...weights].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (w.some((x) => Math.abs(x) >= KEEP_ABOVE)) kept[f] = Array.from(w, (x) => Math.round(x * 1000) / 1000);
  }
  return { classes: [...classes], weights: kept };
}

export const MODEL_PATH = join(ROOT, 'src/capture', MODEL_FILES.prose);
export const PREFERENCE_MODEL_PATH = join(ROOT, 'src/capture', MODEL_FILES.preference);
export const PREFERENCE_CLASSES = ['none', 'preference_noted'] as const;
export const serialise = (model: SentenceModelData): string => `${JSON.stringify(model)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const [path, examples, classes] of [
    [MODEL_PATH, LABELLED_SETS.flatMap(examplesOf), undefined],
    [PREFERENCE_MODEL_PATH, LABELLED_SETS.flatMap(preferenceExamplesOf), PREFERENCE_CLASSES],
  ] as const) {
    const model = trainSentenceModel(examples, classes);
    writeFileSync(path, serialise(model));
    const memories = examples.filter((e) => e.label !== 'none').length;
    console.log(`${path}: trained on ${examples.length} sentences (${memories} memories) from ${LABELLED_SETS.length} sets, ${Object.keys(model.weights).length} features kept`);
  }
}
