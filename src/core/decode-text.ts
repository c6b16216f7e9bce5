// WHATWG windows-1252 for 0x80–0x9F. Node 20's TextDecoder returns C1 controls
// there instead (ISO-8859-1 and US-ASCII labels map to windows-1252 too), which
// would turn the curly quotes of many feeds into invisible characters.
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('latin1')
    .replace(/[\x80-\x9f]/g, (ch) => String.fromCharCode(WINDOWS_1252_HIGH[ch.charCodeAt(0) - 0x80]));
}

/**
 * Turns fetched bytes into text. A UTF-8 or UTF-16 byte order mark wins (and
 * is dropped); otherwise `charset` (ISO-8859-1, windows-1252, Shift_JIS, …)
 * is honoured through TextDecoder; otherwise UTF-8. An unknown label falls
 * back to UTF-8: most such bodies are UTF-8 anyway. Malformed bytes become
 * U+FFFD rather than failing the whole body.
 *
 * @example decodeText(Buffer.from('caf\xe9', 'latin1'), 'windows-1252') // 'café'
 */
export function decodeText(bytes: Uint8Array, charset?: string): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset ?? 'utf-8');
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.encoding === 'windows-1252' ? decodeWindows1252(bytes) : decoder.decode(bytes);
}

/**
 * The `charset` parameter of a `Content-Type` value, unquoted; undefined when absent.
 * @example charsetOf('text/plain; charset="windows-1252"') // 'windows-1252'
 */
export function charsetOf(contentType: string | undefined): string | undefined {
  return /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1];
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A request body as UTF-8 (a leading byte order mark dropped), or null when
 * its bytes are not UTF-8: JSON is UTF-8 (RFC 8259), and a Latin-1 "café" or
 * an encoded lone surrogate would otherwise become U+FFFD and be stored so,
 * in a title or a topic, without a word to the client.
 *
 * @example utf8OrNull(Buffer.from('caf\xe9', 'latin1')) // null
 */
export function utf8OrNull(bytes: ArrayBuffer | Uint8Array): string | null {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return null;
  }
}

/** What a body that is not UTF-8 is told, on REST and GraphQL alike. */
export const NOT_UTF8 = 'not valid UTF-8 (JSON is sent as UTF-8)';
