/**
 * ULIDs: 48 bits of milliseconds + 80 random bits, Crockford base32, so ids sort by time as
 * strings. Pure: the clock and the randomness come in as arguments.
 */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TIME_LEN = 10;
const RANDOM_BYTES = 10;
const MAX_TIME = 2 ** 48 - 1;

export const ULID_PATTERN = /^[0-9A-HJKMNP-TV-Z]{26}$/;

function encodeTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms > MAX_TIME) throw new RangeError(`ULID time out of range: ${ms}`);
  let out = '';
  let rest = ms;
  for (let i = 0; i < TIME_LEN; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** 80 bits → 16 base32 characters, most significant first. */
function encodeRandom(bytes: Uint8Array): string {
  let bits = 0n;
  for (let i = 0; i < RANDOM_BYTES; i++) bits = (bits << 8n) | BigInt(bytes[i] ?? 0);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = ALPHABET[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out;
}

export function ulid(timeMs: number, randomBytes: Uint8Array): string {
  return encodeTime(timeMs) + encodeRandom(randomBytes);
}

export function ulidTime(id: string): number | undefined {
  if (!ULID_PATTERN.test(id)) return undefined;
  let ms = 0;
  for (const ch of id.slice(0, TIME_LEN)) ms = ms * 32 + ALPHABET.indexOf(ch);
  return ms;
}

/**
 * A generator that stays strictly increasing within one process even when many ids share a
 * millisecond (as in one append of a whole hook's events): the random part is incremented.
 */
export function createIdGenerator(random: (n: number) => Uint8Array): (timeMs: number) => string {
  let lastTime = -1;
  let lastRandom: Uint8Array = new Uint8Array(RANDOM_BYTES);
  return (timeMs: number) => {
    if (timeMs <= lastTime) {
      lastRandom = increment(lastRandom);
    } else {
      lastTime = timeMs;
      lastRandom = random(RANDOM_BYTES);
    }
    return ulid(lastTime, lastRandom);
  };
}

function increment(bytes: Uint8Array): Uint8Array {
  const next = Uint8Array.from(bytes);
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i] !== 255) {
      next[i] = (next[i] ?? 0) + 1;
      return next;
    }
    next[i] = 0;
  }
  return next;
}
