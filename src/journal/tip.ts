import { readRef } from '../git/refs.js';

/**
 * What every journal operation needs to know, and the one read that is always cheap: the tip.
 * Kept apart from the store so that a fresh-cache read never loads isomorphic-git.
 */
export interface JournalStore {
  /** The repository's common git dir (objects and refs live there, shared by worktrees). */
  gitdir: string;
  ref: string;
  cloneId: string;
  /** isomorphic-git's per-process cache of parsed packfiles (used only for packed objects). */
  packCache: object;
}

export const readTip = (store: JournalStore): Promise<string | null> => readRef(store.gitdir, store.ref);
