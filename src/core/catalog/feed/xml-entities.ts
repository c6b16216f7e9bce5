import type { EntityDecoderOptions } from 'fast-xml-parser';
import { FeedParseError } from './feed-parse-error.js';

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const REFERENCE = /&(?:#(\d{1,8})|#[xX]([0-9a-fA-F]{1,7})|(amp|lt|gt|quot|apos));/g;

function fromCodePoint(code: number): string {
  // NUL and other C0 controls are not XML characters and break databases downstream.
  if (code === 0x9 || code === 0xa || code === 0xd) return String.fromCodePoint(code);
  if (code < 0x20 || (code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff) return '';
  if (code > 0x10ffff) return '\ufffd';
  return String.fromCodePoint(code);
}

/**
 * Decodes the five predefined XML entities and numeric character references
 * in one linear pass. Every other `&name;` stays as written: DTD-declared
 * entities are never expanded, so entity bombs have nothing to multiply.
 */
export function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (_match, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (name) return PREDEFINED[name];
    return fromCodePoint(dec !== undefined ? Number(dec) : parseInt(hex as string, 16));
  });
}

/**
 * The decoder handed to fast-xml-parser in place of its own: it ignores the
 * entities a DOCTYPE declares (`addInputEntities`) and knows no external ones.
 */
export function createXmlEntityDecoder(): EntityDecoderOptions {
  return {
    setExternalEntities: () => {},
    addInputEntities: () => {},
    reset: () => {},
    setXmlVersion: () => {},
    decode: decodeXmlEntities,
  };
}

/** Where the root element starts: the prolog (declaration, DOCTYPE, comments) is before it. */
function rootStart(xml: string): number {
  const match = /<[A-Za-z_]/.exec(xml);
  return match ? match.index : xml.length;
}

/**
 * Refuses a DOCTYPE that declares entities or parameter entities. Podcast
 * feeds have no use for them; billion laughs, quadratic blow-up and
 * `SYSTEM "file:///etc/passwd"` all need them. A DOCTYPE that only names an
 * external DTD (old RSS 0.91 feeds) is let through: it is never fetched.
 */
export function assertNoEntityDeclarations(xml: string): void {
  const prolog = xml.slice(0, rootStart(xml));
  if (/<!ENTITY/i.test(prolog)) {
    throw new FeedParseError('the feed declares DTD entities, which Podtext does not expand');
  }
}
