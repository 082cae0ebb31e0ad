/**
 * Terminal colour, on only when the output is a terminal and the user has not opted out
 * (NO_COLOR), or when forced (FORCE_COLOR). Pure: the caller says whether it is enabled.
 */
const CODES = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39] } as const;

export type Colour = keyof typeof CODES;
export type Paint = Record<Colour, (text: string) => string>;

export function createPaint(enabled: boolean): Paint {
  const paint = {} as Paint;
  for (const [name, [open, close]] of Object.entries(CODES)) {
    paint[name as Colour] = enabled ? (text) => `\u001b[${open}m${text}\u001b[${close}m` : (text) => text;
  }
  return paint;
}

export function colourEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return true;
  return stream.isTTY === true;
}
