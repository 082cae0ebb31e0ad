/**
 * Bytes from a file or a pipe as text. UTF-8 unless a byte-order mark says otherwise: Windows
 * PowerShell writes UTF-16 with one by default (`> events.jsonl`, `Out-File`), and read as UTF-8
 * every line of it would be "not valid JSON". A UTF-8 mark is dropped. Pure.
 */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2)));
    return swapped.swap16().toString('utf16le');
  }
  const text = bytes.toString('utf8');
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/** A UTF-16 byte-order mark (either order) or UTF-8's. */
export const hasByteOrderMark = (bytes: Buffer): boolean => (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf);
