import { isUtf8 } from 'node:buffer';

/**
 * Bytes from a file or a pipe as text. UTF-8 unless a byte-order mark says otherwise: Windows
 * PowerShell writes UTF-16 with one by default (`> events.jsonl`, `Out-File`), and read as UTF-8
 * every line of it would be "not valid JSON". A UTF-8 mark is dropped. Pure.
 */
export function decodeText(bytes: Buffer): string {
  switch (byteOrderMark(bytes)) {
    case 'utf16le':
      return bytes.subarray(2).toString('utf16le');
    case 'utf16be':
      return Buffer.from(bytes.subarray(2, bytes.length - (bytes.length % 2))).swap16().toString('utf16le'); // a stray last byte is no character
    case 'utf8':
      return bytes.subarray(3).toString('utf8');
    default:
      return bytes.toString('utf8');
  }
}

/** Text `decodeText` reads as it was written: UTF-16 of whole characters, or valid UTF-8. */
export function isReadableText(bytes: Buffer): boolean {
  const mark = byteOrderMark(bytes);
  if (mark === 'utf16le' || mark === 'utf16be') return bytes.length % 2 === 0;
  return isUtf8(mark === 'utf8' ? bytes.subarray(3) : bytes);
}

function byteOrderMark(bytes: Buffer): 'utf16le' | 'utf16be' | 'utf8' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be';
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8';
  return null;
}
