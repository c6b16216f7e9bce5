import type { NameLookup } from './feed-namespaces.js';
import { byteCount, explicitFlag, languageTag, readerFor, type FeedFormat, type ItemKey } from './feed-format.js';
import { parseFeedDate } from './feed-date.js';
import type { ParsedEpisode, ParsedShow } from './feed-types.js';
import { parseItunesDuration } from './itunes-duration.js';
import { htmlToText, plainLine } from './plain-text.js';
import { transcriptIdFor } from '../../transcript-id.js';
import { attrOf, childOf, childrenOf, textOf } from './xml-tree.js';

/** Atom text constructs: `type="html"` carries markup, `text` and `xhtml` give text directly. */
function atomText(node: unknown, maxChars?: number): string {
  const raw = textOf(node).trim();
  if (!raw) return '';
  return attrOf(node, 'type') === 'html' ? htmlToText(raw, maxChars) : plainLine(raw, maxChars ?? 1000);
}

function linkWithRel(node: unknown, rel: string): unknown {
  return childrenOf(node, ['link']).find((link) => (attrOf(link, 'rel') ?? 'alternate') === rel);
}

/**
 * Atom 1.0 (RFC 4287), namespaced or not: entries with a
 * `link rel="enclosure"` are episodes, `id` is the guid.
 */
export function atomFormat(feed: unknown, names: NameLookup): FeedFormat {
  const read = readerFor(names);
  const entries = childrenOf(feed, ['entry']);
  const dateOf = (entry: unknown): string | null => textOf(childOf(entry, ['published'])).trim() || textOf(childOf(entry, ['updated'])).trim() || null;

  return {
    items: entries,
    show(): ParsedShow {
      const description = atomText(childOf(feed, ['subtitle']), 5000);
      const author = textOf(childOf(childOf(feed, ['author']), ['name'])).trim() || read.text(feed, 'itunes', 'author');
      return {
        title: atomText(childOf(feed, ['title'])),
        author: author ? plainLine(author) || null : null,
        description: description || null,
        artwork:
          read.attr(feed, 'itunes', 'image', 'href') ??
          (textOf(childOf(feed, ['logo'])).trim() || textOf(childOf(feed, ['icon'])).trim() || null),
        language: languageTag(attrOf(feed, 'xml:lang')),
        categories: read.categories(feed),
        website: attrOf(linkWithRel(feed, 'alternate'), 'href'),
        itunesType: read.text(feed, 'itunes', 'type')?.toLowerCase() ?? null,
        podcastGuid: read.text(feed, 'podcast', 'guid'),
        explicit: explicitFlag(read.text(feed, 'itunes', 'explicit')),
      };
    },
    keyOf(entry): ItemKey {
      const enclosure = attrOf(linkWithRel(entry, 'enclosure'), 'href');
      const title = textOf(childOf(entry, ['title'])).trim();
      const date = dateOf(entry);
      const guid =
        textOf(childOf(entry, ['id'])).trim() || enclosure || attrOf(linkWithRel(entry, 'alternate'), 'href') ||
        `${title}|${date ?? ''}`;
      return { guid, publishedAt: parseFeedDate(date), usable: enclosure !== null || title !== '' };
    },
    episodeOf(entry, key): ParsedEpisode {
      const enclosure = linkWithRel(entry, 'enclosure');
      const description = atomText(childOf(entry, ['summary']), 5000) || atomText(childOf(entry, ['content']), 5000);
      return {
        guid: key.guid,
        transcriptId: transcriptIdFor(key.guid),
        title: atomText(childOf(entry, ['title'])),
        description: description || null,
        episode: read.numbered(entry, 'episode'),
        season: read.numbered(entry, 'season'),
        publishedAt: key.publishedAt,
        durationSeconds: parseItunesDuration(read.text(entry, 'itunes', 'duration')),
        audioUrl: attrOf(enclosure, 'href'),
        audioType: attrOf(enclosure, 'type'),
        audioBytes: byteCount(attrOf(enclosure, 'length')),
        image: read.attr(entry, 'itunes', 'image', 'href'),
        link: attrOf(linkWithRel(entry, 'alternate'), 'href'),
        transcripts: read.transcripts(entry),
        persons: read.persons(entry),
      };
    },
  };
}
