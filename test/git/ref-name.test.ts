import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isValidRefName } from '../../src/git/ref-name.js';

const NAMES = [
  'refs/heads/cortex/journal',
  'refs/heads/@',
  'refs/notes/cortex',
  'refs/heads/bad..ref',
  'refs/heads/a b',
  'refs/heads/.hidden',
  'refs/heads/x.lock',
  'refs/heads/x.lock/y',
  'refs/heads/x/',
  'refs/heads//x',
  'refs/heads/x.',
  'refs/heads/x~1',
  'refs/heads/x^',
  'refs/heads/x:y',
  'refs/heads/x?',
  'refs/heads/x*',
  'refs/heads/x[1]',
  'refs/heads/x\\y',
  'refs/heads/x@{1}',
  'refs/heads/tab\there',
  'refs/heads/del\u007f',
  'journal',
  '@',
  '/refs/heads/x',
];

describe('isValidRefName', () => {
  it.each(NAMES)('agrees with git check-ref-format on %j', (name) => {
    const git = spawnSync('git', ['check-ref-format', name]);
    expect(isValidRefName(name)).toBe(git.status === 0);
  });
});
