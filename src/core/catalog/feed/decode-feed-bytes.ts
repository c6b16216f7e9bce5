import { decodeText } from '../../decode-text.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The bytes as UTF-8 (a mark dropped), or null when they are not UTF-8. */
function asUtf8(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

/** One well-formed UTF-8 sequence of two bytes or more, read as Latin-1. */
const MULTIBYTE = /[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}/;

/**
 * Turns the bytes of a feed into text through {@link decodeText}: a byte
 * order mark wins; otherwise the XML declaration's `encoding` (ISO-8859-1,
 * windows-1252, …) is the charset; otherwise UTF-8, as XML prescribes,
 * unless the bytes are not UTF-8: then the charset the server named in its
 * `Content-Type` (`served`), as for a feed in Latin-1 with no declaration
 * served as `charset=ISO-8859-1`; without one, windows-1252 when not a
 * single well-formed multi-byte UTF-8 sequence is in them (an old tool's
 * unlabelled Latin-1), else UTF-8 with its bad bytes replaced. A header
 * naming Latin-1 on bytes that are UTF-8 (a server's default, often wrong)
 * is not believed.
 * UTF-16 without a mark is told by its `<?`.
 * @example decodeFeedBytes(Buffer.from('<t>caf\xe9</t>', 'latin1'), 'ISO-8859-1') // '<t>café</t>'
 */
export function decodeFeedBytes(bytes: Uint8Array, served?: string): string {
  if (bytes[0] === 0x3c && bytes[1] === 0x00 && bytes[2] === 0x3f && bytes[3] === 0x00) {
    return new TextDecoder('utf-16le').decode(bytes);
  }
  if (bytes[0] === 0x00 && bytes[1] === 0x3c && bytes[2] === 0x00 && bytes[3] === 0x3f) {
    return new TextDecoder('utf-16be').decode(bytes);
  }
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 512)).toString('latin1');
  const declared = /^\s*<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._:-]{1,40})["']/.exec(head)?.[1];
  // A declaration readable as ASCII means the bytes are not UTF-16, whatever it says.
  if (declared) return decodeText(bytes, /^utf-?16/i.test(declared) ? undefined : declared);
  if (bytes[0] !== 0xff && bytes[0] !== 0xfe) {
    const text = asUtf8(bytes);
    if (text !== null) return text;
  }
  if (served && !/^utf-?(8|16)/i.test(served)) return decodeText(bytes, served);
  const latin1 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  return decodeText(bytes, MULTIBYTE.test(latin1) ? undefined : 'windows-1252');
}
