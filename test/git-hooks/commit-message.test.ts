import { describe, expect, it } from 'vitest';
import { isEmptyMessage } from '../../src/git-hooks/commit-message.js';

describe('isEmptyMessage', () => {
  const hint = "\n# Please enter the commit message for your changes. Lines starting\n# with '#' will be ignored, and an empty message aborts the commit.\n#\n# On branch main\n";
  const scissors = '# ------------------------ >8 ------------------------\n# Do not modify or remove the line above.\ndiff --git a/b.txt b/b.txt\n+b\n';
  it.each([
    ['nothing', '', undefined, true],
    ['whitespace', ' \n\t\n\n', undefined, true],
    ["git's hint alone", hint, undefined, true],
    ['a message above the hint', `Fix the loader\n${hint}`, undefined, false],
    ['commit -v: only the diff below the scissors', `${hint}${scissors}`, undefined, true],
    ['commit -v: a message above the scissors', `Fix\n${hint}${scissors}`, undefined, false],
    ['another comment char', '\n; Please enter the commit message\n;\n', ';', true],
    ['# is text when ; comments', '#123 fix the loader\n; Please enter the commit message\n', ';', false],
    ['auto: whichever git picked', '\n; Please enter the commit message\n', 'auto', true],
    ['auto: scissors with the picked char', `\n; ------------------------ >8 ------------------------\ndiff\n`, 'auto', true],
    ['a multi-character comment string', '\n// Please enter\n//\n', '//', true],
    ['a trailer is content', 'Cortex-Session: s1\n', undefined, false],
    ['CRLF', '# hint\r\n\r\n', undefined, true],
  ])('%s', (_name, message, commentChar, empty) => {
    expect(isEmptyMessage(message, commentChar)).toBe(empty);
  });
});
