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
