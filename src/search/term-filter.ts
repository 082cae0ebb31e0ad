/**
 * Which terms the index holds, as a Bloom filter (`terms.bloom` beside the index): a query can ask
 * "has this journal ever said *handset*?" without loading a shard. About 10 bits a term and 7
 * probes give ~1% false positives; a false positive only means a thesaurus word is not tried.
 */
const PROBES = 7;

export class TermFilter {
  private constructor(private readonly bits: Uint8Array) {}

  /** A filter sized for `terms` distinct terms, with room for the delta to grow into. */
  static sizedFor(terms: number): TermFilter {
    let bytes = 8192;
    while (bytes * 8 < terms * 20) bytes *= 2;
    return new TermFilter(new Uint8Array(bytes));
  }

  static from(buffer: Uint8Array): TermFilter | null {
    const ok = buffer.length >= 8 && (buffer.length & (buffer.length - 1)) === 0;
    return ok ? new TermFilter(buffer) : null;
  }

  add(term: string): void {
    for (const bit of this.probes(term)) this.bits[bit >>> 3] = (this.bits[bit >>> 3] as number) | (1 << (bit & 7));
  }

  has(term: string): boolean {
    for (const bit of this.probes(term)) if (((this.bits[bit >>> 3] as number) & (1 << (bit & 7))) === 0) return false;
    return true;
  }

  get buffer(): Uint8Array {
    return this.bits;
  }

  /** Double hashing over two 32-bit FNV-1a variants (Kirsch–Mitzenmacher). */
  private *probes(term: string): Generator<number> {
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193;
    for (let i = 0; i < term.length; i++) {
      const c = term.charCodeAt(i);
      h1 = Math.imul(h1 ^ c, 0x01000193);
      h2 = Math.imul(h2 ^ c, 0x5bd1e995) ^ (h2 >>> 15);
    }
    const mask = this.bits.length * 8 - 1;
    for (let k = 0; k < PROBES; k++) yield ((h1 >>> 0) + k * ((h2 >>> 0) | 1)) & mask;
  }
}
