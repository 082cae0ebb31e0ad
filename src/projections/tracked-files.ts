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
export const CORRECTION_LINE = /^[-*] `([^`]+)` (?:forgets|amends|supersedes|changes) `/;
/**
 * The plan file's front matter: the newest plan event it shows (`as_of: <id>`), or after a
 * merge the newest of each side (`as_of: [<id>, <id>]`).
 */
export const AS_OF_LINE = /^as_of: (.+)$/;
const idsOfAsOf = (value: string): string[] => value.split(/[\s,[\]'"]+/).filter(Boolean);

/**
 * The event ids tracked files name (entries' Id lines, corrections, the plan's as_of), whatever
 * state the rest is in.
 */
export const listedIds = (text: string): string[] => [
  ...[ID_LINE, CORRECTION_LINE].flatMap((line) => [...text.matchAll(new RegExp(line.source, 'gm'))].map((m) => m[1] as string)),
  ...[...text.matchAll(new RegExp(AS_OF_LINE.source, 'gm'))].flatMap((m) => idsOfAsOf(m[1] as string)),
];

/** `as_of` naming every id of both sides' lines, for a plan file merged from two. */
export function unitedAsOf(...files: string[]): string | null {
  const ids = [...new Set(files.flatMap((f) => idsOfAsOf(new RegExp(AS_OF_LINE.source, 'm').exec(f)?.[1] ?? '')))].sort();
  if (ids.length === 0) return null;
  return ids.length === 1 ? `as_of: ${ids[0]}` : `as_of: [${ids.join(', ')}]`;
}
