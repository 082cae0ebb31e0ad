import type { CortexEvent } from '../events/types.js';
import { readAuthor, type HeadState } from '../git/repo.js';
import { readAll, type Journal } from '../journal/journal.js';
import type { LineProblem } from '../journal/parse-shard.js';
import { foldMemory, type MemoryState } from '../projections/fold.js';
import type { ProjectionSettings } from '../projections/settings.js';
import { visibleEvents } from '../projections/visibility.js';
import { readBranchView } from './branch-view.js';
import { readSettings } from './settings.js';

/**
 * Memory as this work tree sees it: the journal, aligned with HEAD (or every branch with
 * `all`), folded into state. The one read behind every projection command.
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
}

export async function readMemory(journal: Journal, options: { all?: boolean; now?: Date } = {}): Promise<Memory> {
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
  };
}
