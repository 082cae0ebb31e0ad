import { CortexError } from '../errors.js';

/**
 * A count flag (`--limit`, `-n`, `--budget`) as typed on the command line, or a number from an
 * MCP client. The CLI declares these flags as strings so that a wrong one can be echoed as the
 * user typed it: yargs turns `--limit abc` into NaN, and "got NaN" tells nobody what went wrong.
 */
export function parseCount(flag: string, given: number | string | undefined, options: { min: number; unit?: string; why?: string }): number | undefined {
  if (given === undefined) return undefined;
  const text = String(given).trim();
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (Number.isSafeInteger(value) && value >= options.min) return value;
  const least = options.min > 1 ? `, at least ${options.min}` : options.min === 1 ? ' above 0' : '';
  const what = `a whole number${options.unit ? ` of ${options.unit}` : ''}${least}${options.why ? ` (${options.why})` : ''}`;
  throw new CortexError('USAGE', `${flag} must be ${what}, not "${String(given)}"`);
}
