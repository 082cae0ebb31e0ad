import { readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isWriteRefused } from '../errors.js';
import { cortexDir, type Repo } from '../git/repo.js';
import { writeIfChanged } from '../write-if-changed.js';

/**
 * The bytes a JSON file of the user's (`.claude/settings.json`, `.mcp.json`) had before `cortex
 * init` edited Cortex's entries into it, kept in `.git/cortex/installed.json` with the bytes init
 * left, so `cortex uninstall` gives back exactly that file (or no file). Taking the entries out
 * cannot do it alone: a `"hooks": {}` or `"Stop": []` the user had looks like one init made. Only
 * while the file is as init left it; after other edits uninstall takes the entries out in place.
 */
export interface Recorded {
  /** The file's text before init, null when there was none. */
  before: string | null;
  /** The text init wrote. */
  after: string;
}

/**
 * What to record when init turns `current` into `next`: the original bytes carried over from an
 * earlier init whose result is still there, or `current`, unless it holds Cortex's entries
 * already (a teammate's init, committed), whose before is unknown.
 */
export function nextRecord(recorded: Recorded | undefined, current: string | null, next: string, holdsOurs: boolean): Recorded | undefined {
  if (recorded && recorded.after === current) return { before: recorded.before, after: next };
  return holdsOurs ? undefined : { before: current, after: next };
}

/** The text uninstall gives back (null: remove the file), or undefined when the file changed since init. */
export const restoredText = (recorded: Recorded | undefined, current: string | null): string | null | undefined => (recorded && recorded.after === current ? recorded.before : undefined);

type Records = Record<string, Recorded>;
const recordsPath = (repo: Repo) => join(cortexDir(repo), 'installed.json');
const keyOf = (repo: Repo, path: string) => relative(repo.workTree ?? repo.commonDir, path);

async function readRecords(repo: Repo): Promise<Records> {
  try {
    const value = JSON.parse(await readFile(recordsPath(repo), 'utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Records) : {};
  } catch {
    return {};
  }
}

/** The file's text, or null when there is none. */
export const readTextOrNull = (path: string): Promise<string | null> => readFile(path, 'utf8').catch(() => null);

export async function readRecord(repo: Repo, path: string): Promise<Recorded | undefined> {
  return (await readRecords(repo))[keyOf(repo, path)];
}

/** Keep (or, with undefined, drop) the record for `path`. A record that cannot be kept only costs uninstall its exactness. */
export async function writeRecord(repo: Repo, path: string, recorded: Recorded | undefined): Promise<void> {
  const records = await readRecords(repo);
  const key = keyOf(repo, path);
  if (recorded) records[key] = recorded;
  else if (key in records) delete records[key];
  else return;
  try {
    if (Object.keys(records).length > 0) await writeIfChanged(recordsPath(repo), `${JSON.stringify(records, null, 2)}\n`);
    else await rm(recordsPath(repo), { force: true });
  } catch (err) {
    if (!isWriteRefused(err)) throw err;
  }
}
