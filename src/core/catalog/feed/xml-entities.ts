import type { EntityDecoderOptions } from 'fast-xml-parser';

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
/** `&#x10FFFF;` is the longest reference we decode: 8 characters between `&` and `;`. */
const LONGEST_REFERENCE = 9;

function fromCodePoint(code: number): string | undefined {
  if (!Number.isInteger(code)) return undefined;
  // NUL and other C0 controls are not XML characters and break databases downstream.
  if (code === 0x9 || code === 0xa || code === 0xd) return String.fromCharCode(code);
  if (code < 0x20 || (code >= 0xd800 && code <= 0xdfff) || code === 0xfffe || code === 0xffff) return '';
  if (code > 0x10ffff) return '\ufffd';
  return String.fromCodePoint(code);
}

function resolveReference(ref: string): string | undefined {
  if (ref.charCodeAt(0) !== 35 /* # */) return PREDEFINED[ref];
  const hex = ref[1] === 'x' || ref[1] === 'X';
  const digits = ref.slice(hex ? 2 : 1);
  if (!(hex ? /^[0-9a-fA-F]+$/ : /^[0-9]+$/).test(digits)) return undefined;
  return fromCodePoint(parseInt(digits, hex ? 16 : 10));
}

/**
 * Decodes the five predefined XML entities and numeric character references
 * in one linear pass. Every other `&name;` stays as written: DTD-declared
 * entities are never expanded, so entity bombs have nothing to multiply.
 */
export function decodeXmlEntities(text: string): string {
  let at = text.indexOf('&');
  if (at === -1) return text;
  const parts: string[] = [];
  let copied = 0;
  while (at !== -1) {
    const semi = text.indexOf(';', at + 1);
    if (semi === -1) break;
    const replacement = semi - at <= LONGEST_REFERENCE ? resolveReference(text.slice(at + 1, semi)) : undefined;
    if (replacement === undefined) {
      at = text.indexOf('&', at + 1);
      continue;
    }
    parts.push(text.slice(copied, at), replacement);
    copied = semi + 1;
    at = text.indexOf('&', copied);
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

/**
 * The decoder handed to fast-xml-parser in place of its own: it ignores the
 * entities a DOCTYPE declares (`addInputEntities`) and knows no external
 * ones, whatever slips past {@link findXmlHazard}.
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

/** Index just past the comment or quoted literal starting at `at`, or `at` when there is none. */
function skipOpaque(xml: string, at: number): number {
  const ch = xml[at];
  if (ch === '"' || ch === "'") {
    const end = xml.indexOf(ch, at + 1);
    return end === -1 ? xml.length : end + 1;
  }
  if (xml.startsWith('<!--', at)) {
    const end = xml.indexOf('-->', at + 4);
    return end === -1 ? xml.length : end + 3;
  }
  return at;
}

/** True when the prolog's DOCTYPE declares an entity or a parameter entity. */
function declaresEntities(xml: string): boolean {
  let at = 0;
  let inDoctype = false;
  while (at < xml.length) {
    const next = inDoctype ? skipOpaque(xml, at) : xml.startsWith('<!--', at) ? skipOpaque(xml, at) : at;
    if (next !== at) {
      at = next;
      continue;
    }
    if (xml[at] === '<') {
      const following = xml.charCodeAt(at + 1);
      // The root element's start ends the prolog.
      if ((following >= 65 && following <= 90) || (following >= 97 && following <= 122) || following === 95) return false;
      if (xml.startsWith('<!DOCTYPE', at) || xml.startsWith('<!doctype', at)) inDoctype = true;
      else if (inDoctype && xml.slice(at, at + 8).toUpperCase() === '<!ENTITY') return true;
    }
    at += 1;
  }
  return false;
}

/** Counts `&#` up to `limit + 1`, so a huge document costs no more than the limit. */
function characterReferencesOver(xml: string, limit: number): boolean {
  let count = 0;
  for (let at = xml.indexOf('&#'); at !== -1; at = xml.indexOf('&#', at + 2)) {
    count += 1;
    if (count > limit) return true;
  }
  return false;
}

/**
 * Why this XML must not be parsed, or null. Checked before fast-xml-parser
 * sees the text: DTD entity declarations (billion laughs, one big entity
 * used many times, `SYSTEM "file:///etc/passwd"`) have no place in a
 * podcast feed; and more than `maxCharacterReferences` numeric references
 * is an attack on time, not a feed (feeds written in references hold a few
 * hundred thousand).
 * A DOCTYPE that only names an external DTD (old RSS 0.91) is let through;
 * it is never fetched.
 */
export function findXmlHazard(xml: string, maxCharacterReferences: number): string | null {
  if (declaresEntities(xml)) return 'the feed declares DTD entities, which Podtext does not expand';
  if (characterReferencesOver(xml, maxCharacterReferences)) {
    return `the feed holds more than ${maxCharacterReferences} numeric character references`;
  }
  return null;
}
