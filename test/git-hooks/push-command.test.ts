import { describe, expect, it } from 'vitest';
import { isDryRunPush } from '../../src/git-hooks/push-command.js';

describe('isDryRunPush', () => {
  it.each([
    ['a push', 'git push origin main', false],
    ['--dry-run', 'git push --dry-run origin main', true],
    ['-n', 'git push -n', true],
    ['after the refs', 'git push origin main --dry-run', true],
    ['in a cluster', 'git push -qn origin', true],
    ['abbreviated', 'git push --dry origin', true],
    ['negated later', 'git push -n --no-dry-run origin', false],
    ['git options first', 'git -C repo -c push.default=current push -n', true],
    ['git by path', '/usr/bin/git push --dry-run', true],
    ['a value of -o', 'git push -o -n origin', false],
    ['-o with its value attached', 'git push -on origin', false],
    ['after --', 'git push origin -- -n', false],
    ['another command', 'git fetch -n origin', false],
    ['not git', 'sh .git/hooks/pre-push origin -n', false],
  ])('%s', (_name, line, dryRun) => {
    expect(isDryRunPush(line.split(' '))).toBe(dryRun);
  });
});
