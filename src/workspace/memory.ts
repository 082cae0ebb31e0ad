import type { CortexEvent } from '../events/types.js';
import { readAuthor, type HeadState } from '../git/repo.js';
import { readAll, type Journal } from '../journal/journal.js';
import type { LineProblem } from '../journal/parse-shard.js';
import { foldMemory, type MemoryState } from '../projections/fold.js';
import type { ProjectionSettings } from '../projections/settings.js';
import { visibleEvents } from '../projections/visibility.js';
import { readBranchView } from './branch-view.js';
import { uniteNewlyFetchedJournals } from './fetched-journals.js';
import { readSettings } from './settings.js';

/**
 * Memory as this work tree sees it: the journal (with the remote journals git fetched), aligned
 * with HEAD (or every branch with `all`), folded into state. The one read behind every projection
 * command.
 */
export interface Memory {
  state: MemoryState;
  head: HeadState;
  settings: ProjectionSettings;
  settingProblems: string[];
  /** This clone's author email. */
  me: string;
  tip: string | null;
  visible: CortexEvent[];
  problems: LineProblem[];
  /** Whether the journal holds this event, or an edit of it, on any branch. */
  knows(id: string): boolean;
}

export async function readMemory(journal: Journal, options: { all?: boolean; now?: Date } = {}): Promise<Memory> {
  await uniteNewlyFetchedJournals(journal);
  const [read, { settings, problems: settingProblems }, me] = await Promise.all([readAll(journal), readSettings(journal), readAuthor(journal.repo)]);
  const view = await readBranchView(journal.repo, read.events, options);
  const visible = visibleEvents(read.events, view);
  return {
    state: foldMemory(visible, settings, options.now ?? new Date()),
    head: view.head,
    settings,
    settingProblems,
    me,
    tip: read.tip,
    visible,
    problems: read.problems,
    knows: knownIds(read.events),
  };
}

/** Built on first use: only regenerating the tracked files asks. */
function knownIds(events: readonly CortexEvent[]): (id: string) => boolean {
  let known: Set<string> | undefined;
  return (id) => {
    known ??= new Set(events.flatMap((e) => [e.id, ...[e.meta.target, e.meta.id].filter((x): x is string => typeof x === 'string')]));
    return known.has(id);
  };
}
