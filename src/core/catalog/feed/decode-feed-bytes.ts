import { decodeText } from '../../decode-text.js';

/**
 * Turns the bytes of a feed into text through {@link decodeText}: a byte
 * order mark wins; otherwise the XML declaration's `encoding` (ISO-8859-1,
 * windows-1252, …) is the charset; otherwise UTF-8, as XML prescribes.
 * UTF-16 without a mark is told by its `<?`.
 */
export function decodeFeedBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0x3c && bytes[1] === 0x00 && bytes[2] === 0x3f && bytes[3] === 0x00) {
    return new TextDecoder('utf-16le').decode(bytes);
  }
  if (bytes[0] === 0x00 && bytes[1] === 0x3c && bytes[2] === 0x00 && bytes[3] === 0x3f) {
    return new TextDecoder('utf-16be').decode(bytes);
  }
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 512)).toString('latin1');
  const declared = /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]{1,40})["']/.exec(head)?.[1];
  // A declaration readable as ASCII means the bytes are not UTF-16, whatever it says.
  return decodeText(bytes, declared && !/^utf-?16/i.test(declared) ? declared : undefined);
}
