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

/** A correction's line in the archive, an entry of its own: its id, then the id of the memory it changes. */
export const CORRECTION_LINE = /^- `([^`]+)` (?:forgets|amends|supersedes|changes) `/;
/** The plan file's front matter: the newest plan event it shows. */
const AS_OF_LINE = /^as_of: ['"]?([^'"\s]+)['"]?$/;

/**
 * The event ids tracked files name (entries' Id lines, corrections, the plan's as_of), whatever
 * state the rest is in.
 */
export const listedIds = (text: string): string[] => [ID_LINE, CORRECTION_LINE, AS_OF_LINE].flatMap((line) => [...text.matchAll(new RegExp(line.source, 'gm'))].map((m) => m[1] as string));
