/**
 * A command line as sh splits it into words (CORTEX_HOOK_COMMAND: `cortex`, `node /opt/cortex/cli.js`,
 * `"/Users/me/my tools/cortex"`): single quotes keep everything, double quotes and backslashes
 * as sh reads them. Null when a quote is left open. No expansion: `$HOME` stays as written.
 */
export function shellWords(command: string): string[] | null {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word = `${word ?? ''}${c}`;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < command.length && '"\\$`'.includes(command[i + 1] as string)) word = `${word ?? ''}${command[++i] ?? ''}`;
      else word = `${word ?? ''}${c}`;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < command.length) {
      word = `${word ?? ''}${command[++i] ?? ''}`;
    } else word = (word ?? '') + c;
  }
  if (quote !== null) return null;
  if (word !== null) words.push(word);
  return words;
}

/** A word as sh reads it back: as is when that is safe, else single-quoted. */
export const shellQuote = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** The program a command line runs (its first word), quoted for sh: what `command -v` asks for. */
export const programOf = (command: string): string => shellQuote(shellWords(command)?.[0] ?? 'cortex');
