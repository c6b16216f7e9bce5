import { decodeText } from '../../decode-text.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: Uint8Array): boolean {
  try {
    utf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Turns the bytes of a feed into text through {@link decodeText}: a byte
 * order mark wins; otherwise the XML declaration's `encoding` (ISO-8859-1,
 * windows-1252, …) is the charset; otherwise UTF-8, as XML prescribes,
 * unless the bytes are not UTF-8 and the server named a charset in its
 * `Content-Type` (`served`): a feed in Latin-1 with no declaration, served
 * as `charset=ISO-8859-1`. A header naming Latin-1 on bytes that are UTF-8
 * (a server's default, often wrong) is not believed.
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
  return decodeText(bytes, served && !/^utf-?(8|16)/i.test(served) && !isUtf8(bytes) ? served : undefined);
}
