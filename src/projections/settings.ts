import { oneEditApart, swappedNeighbours } from '../one-edit.js';

/**
 * What a user can tune about the projections, from `git config cortex.*` (any scope). Pure:
 * the I/O shell reads the config and hands the key/value pairs in.
 */
export type BriefingDelivery = 'stdout' | 'rules';

export interface ProjectionSettings {
  /** The briefing's budget in tokens (characters / 4). */
  budgetTokens: number;
  /** Events below this confidence are kept in the journal but left out of every projection. */
  minConfidence: number;
  /** Effective salience is multiplied by this for every hour since an item was last used. */
  decayPerHour: number;
  /** Added to an item's salience for each later use (restated, amended, its files touched). */
  reinforcement: number;
  /** Sessions without use after which an item is marked "possibly outdated" (decisions go one-line). */
  outdatedAfterSessions: number;
  /** Sessions without use after which a decision moves to decisions-archive.md. */
  archiveAfterSessions: number;
  /** `stdout`: the SessionStart hook prints the briefing; `rules`: it writes .claude/rules/cortex-briefing.md. */
  delivery: BriefingDelivery;
  /** Characters of memory recalled into the context on each prompt; 0 turns recall off. */
  recallBudget: number;
  /** Reciprocal rank fusion's k: larger flattens the difference between ranks. */
  rrfK: number;
  /** How much the vector ranking counts against the keyword ranking in fusion. */
  vectorWeight: number;
  /** Cosine similarity a memory needs to enter the vector ranking: every memory is somewhat similar to anything. */
  minSimilarity: number;
  /** The embedding model's name (a folder under the model cache or under embedPath). */
  embedModel: string;
  /** A local folder holding embedding models (side-loaded), instead of Cortex's model cache. */
  embedPath: string | null;
}

export const DEFAULT_SETTINGS: Readonly<ProjectionSettings> = {
  budgetTokens: 2000,
  minConfidence: 0.65,
  decayPerHour: 0.99,
  reinforcement: 0.1,
  outdatedAfterSessions: 10,
  archiveAfterSessions: 40,
  delivery: 'stdout',
  recallBudget: 2000,
  rrfK: 60,
  vectorWeight: 1,
  minSimilarity: 0.2,
  embedModel: 'Xenova/all-MiniLM-L6-v2',
  embedPath: null,
};

/**
 * The smallest briefing budget, in tokens: what the preamble (memory to verify, not instructions)
 * and the line counting what did not fit take (render-briefing.ts). Below it a briefing says
 * nothing useful, so `cortex.budget` and `cortex briefing --budget` refuse it.
 */
export const MIN_BUDGET_TOKENS = 100;

type NumericKey = Exclude<keyof ProjectionSettings, 'delivery' | 'embedModel' | 'embedPath'>;

/** git config key (lower case, as `git config --get-regexp` prints it) → setting, with its valid range. */
const NUMERIC: ReadonlyArray<{ key: string; field: NumericKey; min: number; max: number; integer?: boolean }> = [
  { key: 'cortex.budget', field: 'budgetTokens', min: MIN_BUDGET_TOKENS, max: 100_000, integer: true },
  { key: 'cortex.minconfidence', field: 'minConfidence', min: 0, max: 1 },
  { key: 'cortex.decayperhour', field: 'decayPerHour', min: 0, max: 1 },
  { key: 'cortex.reinforcement', field: 'reinforcement', min: 0, max: 1 },
  { key: 'cortex.outdatedaftersessions', field: 'outdatedAfterSessions', min: 1, max: 100_000, integer: true },
  { key: 'cortex.archiveaftersessions', field: 'archiveAfterSessions', min: 1, max: 100_000, integer: true },
  { key: 'cortex.recallbudget', field: 'recallBudget', min: 0, max: 9_500, integer: true },
  { key: 'cortex.rrfk', field: 'rrfK', min: 1, max: 1_000 },
  { key: 'cortex.vectorweight', field: 'vectorWeight', min: 0, max: 10 },
  { key: 'cortex.minsimilarity', field: 'minSimilarity', min: -1, max: 1 },
];

export const SETTING_KEYS: readonly string[] = [...NUMERIC.map((n) => n.key), 'cortex.briefing', 'cortex.embedmodel', 'cortex.embedpath'];
/** Every `cortex.*` key Cortex reads: the settings, and the switches the git hooks read (git-hooks/run-git-hook.ts). */
export const CONFIG_KEYS: readonly string[] = [...SETTING_KEYS, 'cortex.pushjournal', 'cortex.pulljournal', 'cortex.journalref'];

/**
 * The `cortex.*` keys among `keys` (lower case) that Cortex never reads, so git keeps them and
 * nothing happens: each with the known key one typo away, when there is one (`cortex.budgte`).
 */
export function findUnknownKeys(keys: readonly string[]): Array<{ key: string; suggestion?: string }> {
  return keys
    .filter((key) => key.startsWith('cortex.') && !CONFIG_KEYS.includes(key))
    .map((key) => {
      const suggestion = CONFIG_KEYS.find((known) => oneEditApart(key, known) || swappedNeighbours(key, known));
      return suggestion ? { key, suggestion } : { key };
    });
}

/** Settings from config pairs; a bad value keeps its default and yields a one-line problem. */
export function parseSettings(config: Readonly<Record<string, string>>): { settings: ProjectionSettings; problems: string[] } {
  const settings: ProjectionSettings = { ...DEFAULT_SETTINGS };
  const problems: string[] = [];
  for (const { key, field, min, max, integer } of NUMERIC) {
    const raw = config[key];
    if (raw === undefined) continue;
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
      problems.push(`git config ${key} = ${JSON.stringify(raw)} is not ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}; using ${DEFAULT_SETTINGS[field]}`);
      continue;
    }
    settings[field] = value;
  }
  const delivery = config['cortex.briefing']?.trim().toLowerCase();
  if (delivery === 'stdout' || delivery === 'rules') settings.delivery = delivery;
  else if (delivery !== undefined) problems.push(`git config cortex.briefing = ${JSON.stringify(delivery)} must be "stdout" or "rules"; using stdout`);
  const model = config['cortex.embedmodel']?.trim();
  if (model) settings.embedModel = model;
  const path = config['cortex.embedpath']?.trim();
  if (path) settings.embedPath = path;
  return { settings, problems };
}
