import { XMLParser } from 'fast-xml-parser';
import { FeedParseError } from './feed-parse-error.js';
import { createXmlEntityDecoder, findXmlHazard } from './xml-entities.js';

/** An element as fast-xml-parser gives it: attributes under `@_name`, text under `#text`. */
export type XmlElement = Record<string, unknown>;

const ATTRIBUTE_PREFIX = '@_';
const TEXT = '#text';

/**
 * Default cap on numeric character references in one document: a million
 * (about 1.2 s of parsing, on the feed thread). Feeds written wholly in
 * references (`&#1488;…`, as some publishing tools emit Hebrew) hold
 * hundreds of thousands; past a million it is an attack on time.
 */
export const MAX_CHARACTER_REFERENCES = 1_000_000;

/**
 * fast-xml-parser set up for untrusted feeds: our entity decoder (DTD
 * entities ignored, nothing external), values kept as strings, attributes
 * under `@_`. It never fetches anything; it has no way to.
 */
export function createFeedXmlParser(): XMLParser {
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: ATTRIBUTE_PREFIX,
    textNodeName: TEXT,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: true,
    entityDecoder: createXmlEntityDecoder(),
    ignoreDeclaration: true,
    ignorePiTags: true,
  });
}

/**
 * Parses XML into a plain object tree without expanding any DTD entity and
 * without fetching anything. Hazards are refused before parsing, since
 * fast-xml-parser builds text one character at a time (slow on huge inputs).
 *
 * @throws FeedParseError for hazards (see findXmlHazard) and XML that is not well-formed.
 */
export function parseXmlTree(xml: string, maxCharacterReferences = MAX_CHARACTER_REFERENCES): XmlElement {
  const hazard = findXmlHazard(xml, maxCharacterReferences);
  if (hazard) throw new FeedParseError(hazard);
  try {
    return createFeedXmlParser().parse(xml) as XmlElement;
  } catch (err) {
    throw new FeedParseError(`not well-formed XML: ${(err as Error).message}`, { cause: err });
  }
}

export function isElement(value: unknown): value is XmlElement {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** All children with any of `names`, in document order per name. */
export function childrenOf(node: unknown, names: readonly string[]): unknown[] {
  if (!isElement(node)) return [];
  const out: unknown[] = [];
  for (const name of names) {
    const value = node[name];
    if (Array.isArray(value)) out.push(...value);
    else if (value !== undefined) out.push(value);
  }
  return out;
}

export function childOf(node: unknown, names: readonly string[]): unknown {
  return childrenOf(node, names)[0];
}

/**
 * Text content of an element: its own text, or for mixed content (Atom
 * xhtml, stray HTML) the text of its descendants joined by spaces.
 */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map(textOf).filter(Boolean).join(' ');
  if (!isElement(value)) return '';
  const own = value[TEXT];
  const parts: string[] = own === undefined ? [] : [textOf(own)];
  for (const [key, child] of Object.entries(value)) {
    if (key !== TEXT && !key.startsWith(ATTRIBUTE_PREFIX)) parts.push(textOf(child));
  }
  return parts.filter(Boolean).join(' ');
}

/** Trimmed text of the first child with a non-empty text, or null. */
export function childText(node: unknown, names: readonly string[]): string | null {
  for (const child of childrenOf(node, names)) {
    const text = textOf(child).trim();
    if (text) return text;
  }
  return null;
}

/** A trimmed attribute value, or null when absent or empty. */
export function attrOf(node: unknown, name: string): string | null {
  if (!isElement(node)) return null;
  const value = node[`${ATTRIBUTE_PREFIX}${name}`];
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed || null;
}
