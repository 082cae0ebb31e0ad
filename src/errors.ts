import { sep } from 'node:path';

/**
 * One error class for every expected failure. Callers branch on `code`, never on message text;
 * the message is the one line a user sees, saying what failed and what to do about it.
 */
export type CortexErrorCode =
  | 'NOT_A_REPO'
  | 'GIT_MISSING'
  | 'GIT_FAILED'
  | 'INVALID_EVENT'
  | 'INVALID_INPUT'
  | 'FILE_NOT_FOUND'
  | 'REF_CONFLICT'
  | 'APPEND_CONTENDED'
  | 'EVENT_NOT_FOUND'
  | 'NO_WORK_TREE'
  | 'EMBEDDINGS_UNAVAILABLE'
  | 'UNSUPPORTED_REPO'
  | 'NOT_WRITABLE'
  | 'USAGE';

export class CortexError extends Error {
  readonly code: CortexErrorCode;
  readonly data: Record<string, unknown>;

  constructor(code: CortexErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(message);
    this.name = 'CortexError';
    this.code = code;
    this.data = data;
  }
}

export const isCortexError = (err: unknown): err is CortexError => err instanceof CortexError;

/**
 * A write the file system refused: no permission (a `.git` left to root by a `sudo git pull`,
 * `chmod -R a-w`) or a read-only mount. Caches skip such writes; memory cannot.
 */
export const isWriteRefused = (err: unknown): err is NodeJS.ErrnoException => ['EACCES', 'EPERM', 'EROFS'].includes((err as NodeJS.ErrnoException | null)?.code ?? '');

/**
 * A git object the journal needs that the repository lacks (isomorphic-git's "Could not find
 * <sha>."): a partial copy of `.git`, a disk that lost a file. What to do, in one line; null for
 * any other error.
 */
export function missingObjectAdvice(err: unknown): string | null {
  const sha = /^Could not find ([0-9a-f]{40,64})\b/.exec((err as Error | null)?.message ?? '')?.[1];
  if (!sha || (err as { code?: string }).code !== 'NotFoundError') return null;
  return `git object ${sha} that the journal needs is missing from this repository; fetch it from a clone that has it (cortex sync) or restore .git/objects (git fsck lists what is missing)`;
}

/**
 * What a write was refused on, or null: a `.git/cortex` left to root by a `sudo git pull`, a
 * read-only mount. Not a bug to log a stack for, but a setup the user has to fix. A file inside
 * `.git/cortex` (often a temp file) is named by the folder, which is what needs fixing.
 */
export function deniedPath(err: unknown, cortexDir: string | undefined): string | null {
  if (!isWriteRefused(err)) return null;
  const { code, path } = err;
  const where = path === undefined ? 'a file Cortex keeps' : cortexDir && (path === cortexDir || path.startsWith(`${cortexDir}${sep}`)) ? cortexDir : path;
  return `${where} (${code})`;
}
