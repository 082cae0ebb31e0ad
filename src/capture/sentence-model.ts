import type { EventType } from '../events/types.js';
import DATA from './sentence-model-data.json' with { type: 'json' };
import { sentenceFeatures } from './sentence-features.js';

/**
 * A small learned reading of assistant prose, for the sentences no cue of Layer 2 speaks for.
 * Cues see the words Claude uses to mark a memory; much of what it says marks nothing ("The
 * cache key now includes the locale, since two locales were sharing one entry") and a list of
 * patterns long enough to catch it would also catch narration. A logistic regression over word
 * stems and pairs of them, trained on the labelled sessions (scripts/train-sentence-model.ts),
 * reads such sentences by everything they say at once. It is consulted last, after the gates
 * that keep questions, narration, hedges and proposals out, and only a confident reading counts.
 * Pure: its weights are data in the bundle.
 */
export const MODEL_CLASSES = ['decision_made', 'approach_rejected', 'knowledge_acquired', 'error_resolved'] as const;
export type ModelClass = (typeof MODEL_CLASSES)[number] | 'none';

export interface SentenceModelData {
  /** 'none' first, then MODEL_CLASSES. */
  classes: string[];
  /** Feature → one weight per class. */
  weights: Record<string, number[]>;
}

/** How sure the model must be: measured on blind sets, lower admits more narration than memory. */
export const MODEL_THRESHOLD = 0.7;

export function readWithModel(text: string, model: SentenceModelData = DATA as SentenceModelData): { type: EventType; probability: number } | null {
  const n = model.classes.length;
  const z = new Array<number>(n).fill(0);
  for (const f of sentenceFeatures(text)) {
    const w = model.weights[f];
    if (w) for (let c = 0; c < n; c++) z[c] = (z[c] as number) + (w[c] as number);
  }
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  let best = 1;
  for (let c = 2; c < n; c++) if ((e[c] as number) > (e[best] as number)) best = c;
  const probability = (e[best] as number) / sum;
  return probability >= MODEL_THRESHOLD ? { type: model.classes[best] as EventType, probability } : null;
}
