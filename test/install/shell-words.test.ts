import { describe, expect, it } from 'vitest';
import { programOf, shellQuote, shellWords } from '../../src/install/shell-words.js';

describe('a hook command split as sh splits it', () => {
  it.each([
    ['cortex', ['cortex']],
    ['node /opt/cortex/dist/cli.js', ['node', '/opt/cortex/dist/cli.js']],
    ['"/Users/me/my tools/cortex" --quiet', ['/Users/me/my tools/cortex', '--quiet']],
    ["'/opt/it''s/cortex'", ['/opt/its/cortex']],
    ['/opt/my\\ tools/cortex', ['/opt/my tools/cortex']],
    ['"say \\"hi\\""', ['say "hi"']],
    ['  spaced   out  ', ['spaced', 'out']],
  ])('%s', (command, words) => {
    expect(shellWords(command)).toEqual(words);
  });

  it('is null with a quote left open, and quotes a program back so sh reads the same word', () => {
    expect(shellWords('"/opt/my tools/cortex')).toBeNull();
    expect(programOf('"/opt/my tools/cortex" mcp')).toBe("'/opt/my tools/cortex'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(programOf('node cli.js')).toBe('node');
  });
});
