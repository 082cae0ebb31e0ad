import { readFileSync } from 'node:fs';
import type { EventType } from '../events/types.js';
import { sentenceFeatures } from './sentence-features.js';

/**
 * A small learned reading of assistant prose, for the sentences no cue of Layer 2 speaks for.
 * Cues see the words Claude uses to mark a memory; much of what it says marks nothing ("The
 * cache key now includes the locale, since two locales were sharing one entry") and a list of
 * patterns long enough to catch it would also catch narration. A logistic regression over word
 * stems and pairs of them, trained on the labelled sessions (scripts/train-sentence-model.ts),
 * reads such sentences by everything they say at once. It is consulted last, after the gates
 * that keep questions, narration, hedges and proposals out, and only a confident reading counts.
 * Its weights are data (sentence-model-data.json), read on first use.
 */
export const MODEL_CLASSES = ['decision_made', 'approach_rejected', 'knowledge_acquired', 'error_resolved'] as const;

export interface SentenceModelData {
  /** 'none' first, then MODEL_CLASSES. */
  classes: string[];
  /** Feature → one weight per class. */
  weights: Record<string, number[]>;
}

/** How sure the model must be: measured on blind sets, lower admits more narration than memory. */
export const MODEL_THRESHOLD = 0.7;

/** Each class's probability for a sentence's features (softmax over the summed weights); training uses it too. */
export function classProbabilities(features: readonly string[], weightsOf: (feature: string) => ArrayLike<number> | undefined, classes: number): number[] {
  const z = new Array<number>(classes).fill(0);
  for (const f of features) {
    const w = weightsOf(f);
    if (w) for (let c = 0; c < classes; c++) z[c] = (z[c] as number) + (w[c] as number);
  }
  const max = Math.max(...z);
  const e = z.map((v) => Math.exp(v - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((v) => v / sum);
}

/** The committed model files: the assistant's prose, and the user's standing preferences. */
export const MODEL_FILES = { prose: 'sentence-model-data.json', preference: 'preference-model-data.json' } as const;

const committed = new Map<string, SentenceModelData | null>();

/**
 * Committed weights, read when a sentence first needs them rather than bundled: every hook
 * loads capture's code, and a prompt or session-start hook that reads no prose would otherwise
 * compile 300 KB of weights for nothing. Beside the bundle in dist/ (the build copies them), or
 * beside this file from source. The one read of a file in capture, and it fails soft: without
 * the file (a broken install) capture goes on with its patterns alone, rather than stop every
 * later capture of the session.
 */
function committedModel(file: string): SentenceModelData | null {
  if (!committed.has(file)) {
    let model: SentenceModelData | null = null;
    try {
      model = JSON.parse(readFileSync(new URL(`./${file}`, import.meta.url), 'utf8')) as SentenceModelData;
    } catch {
      // no model: see above
    }
    committed.set(file, model);
  }
  return committed.get(file) ?? null;
}

export function readWithModel(text: string, model: SentenceModelData | null = committedModel(MODEL_FILES.prose)): { type: EventType; probability: number } | null {
  if (!model) return null;
  const p = classProbabilities(sentenceFeatures(text), (f) => model.weights[f], model.classes.length);
  let best = 1; // the likeliest memory class ('none' is class 0)
  for (let c = 2; c < p.length; c++) if ((p[c] as number) > (p[best] as number)) best = c;
  const probability = p[best] as number;
  return probability >= MODEL_THRESHOLD ? { type: model.classes[best] as EventType, probability } : null;
}

/**
 * How sure the preference model must be. Held out of training, each of five blind sets in turn,
 * it alone found 58–92% of the users' standing instructions at 0.6, with 2 false ones in 293
 * sentences.
 */
export const PREFERENCE_THRESHOLD = 0.6;

/**
 * Whether a sentence the user typed states how they want things done from now on ("we pin every
 * third-party action to a full commit SHA, security asked for that"), rather than asks for
 * something once ("add the check to the PR description"). The same kind of model as the prose
 * one, over the same features, trained on the user's sentences of the labelled sessions: users
 * state rules in too many ways for a list of patterns ("we stay on spring data repositories",
 * "that's our default everywhere", "output stays CSV in reports/").
 */
export function readPreferenceWithModel(text: string, model: SentenceModelData | null = committedModel(MODEL_FILES.preference)): number | null {
  if (!model) return null;
  const probability = classProbabilities(sentenceFeatures(text), (f) => model.weights[f], model.classes.length)[1] as number;
  return probability >= PREFERENCE_THRESHOLD ? probability : null;
}
