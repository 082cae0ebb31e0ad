/**
 * Where the tracked files live and how an entry names its event: kept apart from the renderer
 * (remark, gray-matter) so that search, which reads the ids a committed file lists, loads none
 * of it.
 */
export const PROJECTION_FILES = {
  decisions: '.cortex/decisions.md',
  archive: '.cortex/decisions-archive.md',
  plan: '.cortex/active-plan.md',
} as const;

/** An entry's id line, as the renderer writes it. */
export const ID_LINE = /^- \*\*Id:\*\* `([^`]+)`$/;

/** The event ids a decisions file lists (its entries' Id lines), whatever state the rest is in. */
export const listedIds = (text: string): string[] => [...text.matchAll(new RegExp(ID_LINE.source, 'gm'))].map((m) => m[1] as string);
