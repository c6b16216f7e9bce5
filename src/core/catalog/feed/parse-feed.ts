import { atomFormat } from './atom-format.js';
import { decodeFeedBytes } from './decode-feed-bytes.js';
import { collectNamespaces } from './feed-namespaces.js';
import type { FeedFormat, ItemKey } from './feed-format.js';
import { FeedParseError } from './feed-parse-error.js';
import type { ParsedFeed } from './feed-types.js';
import { rssFormat } from './rss-format.js';
import { childOf, childrenOf, isElement, MAX_CHARACTER_REFERENCES, parseXmlTree, type XmlElement } from './xml-tree.js';

export interface ParseFeedOptions {
  /** Most episodes returned, newest first. Default: 1000. */
  maxItems?: number;
  /** More numeric character references than this refuses the feed. Default: 1,000,000. */
  maxCharacterReferences?: number;
  /** The charset the server named in `Content-Type`, for bytes that neither a BOM nor an XML declaration labels (see `decodeFeedBytes`). */
  charset?: string;
}

interface Candidate extends ItemKey {
  node: unknown;
  index: number;
}

function formatOf(tree: XmlElement, names: ReturnType<typeof collectNamespaces>): FeedFormat {
  const rootName = Object.keys(tree).find((key) => !key.startsWith('?') && !key.startsWith('#'));
  // A web page where a feed was expected, the commonest mistake (a lower-case `<!doctype>` comes through as an element).
  if (rootName === 'html' || rootName?.toLowerCase() === '!doctype') throw new FeedParseError('the address serves a web page (HTML)');
  const root = rootName === undefined ? undefined : tree[rootName];
  const first = Array.isArray(root) ? root[0] : root;
  if (rootName === 'rss') {
    const channel = childOf(first, ['channel']);
    if (!isElement(channel)) throw new FeedParseError('RSS feed without a <channel>');
    return rssFormat(channel, childrenOf(channel, ['item']), names);
  }
  if (rootName === 'rdf:RDF') {
    return rssFormat(childOf(first, ['channel']) ?? {}, childrenOf(first, ['item']), names);
  }
  if (rootName === 'feed') return atomFormat(first, names);
  throw new FeedParseError(rootName ? `the root element is <${rootName}>` : 'no XML element found');
}

/** Newest first; items without a date keep their position, the dated ones fill the other places. */
function newestFirst(candidates: Candidate[]): Candidate[] {
  const dated = candidates
    .filter((c) => c.publishedAt !== null)
    .sort((a, b) => (b.publishedAt as Date).getTime() - (a.publishedAt as Date).getTime() || a.index - b.index);
  let next = 0;
  return candidates.map((c) => (c.publishedAt === null ? c : dated[next++]));
}

/**
 * Parses an RSS 2.0, RSS 1.0 or Atom podcast feed. Pure: no I/O, no DTD
 * entity expansion, nothing fetched. A Buffer is decoded by its BOM or XML
 * declaration (ISO-8859-1 feeds exist), else the served `charset`; a string is taken as is.
 *
 * Episode guid: the item's `<guid>` (Atom: `<id>`); without one, the
 * enclosure URL, else the link, else `title + '|' + the raw pubDate`. An
 * item with neither an enclosure nor a title is skipped; of items sharing a
 * guid only the newest is kept.
 *
 * @throws FeedParseError when the input is not well-formed XML, declares DTD entities, holds more
 *   than `maxCharacterReferences` numeric references, or is neither RSS nor Atom.
 * @example const { show, episodes } = parseFeed(await readFile('feed.xml'), { maxItems: 500 });
 */
export function parseFeed(input: Buffer | Uint8Array | string, options: ParseFeedOptions = {}): ParsedFeed {
  const maxItems = Math.max(0, Math.floor(options.maxItems ?? 1000));
  const xml = typeof input === 'string' ? input.replace(/^\uFEFF/, '') : decodeFeedBytes(input, options.charset);
  const tree = parseXmlTree(xml, options.maxCharacterReferences ?? MAX_CHARACTER_REFERENCES);
  const format = formatOf(tree, collectNamespaces(xml));

  const candidates: Candidate[] = [];
  format.items.forEach((node, index) => {
    const key = format.keyOf(node);
    if (key.usable) candidates.push({ ...key, node, index });
  });
  const seen = new Set<string>();
  const unique = newestFirst(candidates).filter((c) => !seen.has(c.guid) && seen.add(c.guid));
  return {
    show: format.show(),
    episodes: unique.slice(0, maxItems).map((c) => format.episodeOf(c.node, c)),
    totalItems: unique.length,
    truncated: unique.length > maxItems,
  };
}
