/**
 * Stands in for the string-width package in the CLI bundle (scripts/build.mjs aliases it). yargs
 * and cliui measure help text with it, and its Unicode tables (an Intl.Segmenter and an
 * RGI_Emoji regex, built when the module loads, and the code that loads them) cost every CLI call
 * about 30 ms before any work (cortex --version: 131 → 97 ms).
 * Cortex's help text is ASCII: a string's width is its length without ANSI colour codes.
 */
const ANSI = /\u001b\[[0-9;]*m/g;

export default function stringWidth(text: unknown): number {
  return typeof text === 'string' ? text.replace(ANSI, '').length : 0;
}
