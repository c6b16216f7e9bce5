import type { NameLookup } from './feed-namespaces.js';
import { byteCount, explicitFlag, languageTag, readerFor, type FeedFormat, type ItemKey } from './feed-format.js';
import { parseFeedDate } from './feed-date.js';
import type { ParsedEpisode, ParsedShow } from './feed-types.js';
import { parseItunesDuration } from './itunes-duration.js';
import { htmlToText, plainLine } from './plain-text.js';
import { transcriptIdFor } from '../../transcript-id.js';
import { attrOf, childOf, childrenOf, childText, textOf } from './xml-tree.js';

interface Audio {
  url: string;
  type: string | null;
  bytes: number | null;
}

/**
 * RSS 2.0 (and RSS 1.0, whose items sit beside the channel) with the
 * iTunes, Podcasting 2.0, content, Media RSS and Dublin Core extensions.
 */
export function rssFormat(channel: unknown, items: unknown[], names: NameLookup): FeedFormat {
  const read = readerFor(names);

  const audioOf = (item: unknown): Audio | null => {
    for (const enclosure of childrenOf(item, ['enclosure'])) {
      const url = attrOf(enclosure, 'url');
      if (url) return { url, type: attrOf(enclosure, 'type'), bytes: byteCount(attrOf(enclosure, 'length')) };
    }
    // Media RSS only when it is clearly audio: video and image media are not episodes we can transcribe.
    const media = [...childrenOf(item, read.ns('media', 'content')),
      ...childrenOf(childOf(item, read.ns('media', 'group')), read.ns('media', 'content'))];
    for (const content of media) {
      const url = attrOf(content, 'url');
      const type = attrOf(content, 'type');
      if (url && (type?.startsWith('audio/') || attrOf(content, 'medium') === 'audio')) {
        return { url, type, bytes: byteCount(attrOf(content, 'fileSize')) };
      }
    }
    return null;
  };

  // RSS links are text; an Atom-style <link href> (often rel="self") only counts when nothing else does.
  const linkOf = (node: unknown): string | null => {
    const links = childrenOf(node, ['link']);
    for (const link of links) {
      const text = textOf(link).trim();
      if (text) return text;
    }
    for (const link of links) {
      const rel = attrOf(link, 'rel') ?? 'alternate';
      if (rel === 'alternate' && attrOf(link, 'href')) return attrOf(link, 'href');
    }
    return null;
  };

  const rawTitle = (item: unknown): string => childText(item, ['title']) ?? '';
  const rawDate = (item: unknown): string | null => childText(item, ['pubDate']) ?? read.text(item, 'dc', 'date');

  return {
    items,
    show(): ParsedShow {
      const description =
        childText(channel, ['description']) ?? read.text(channel, 'itunes', 'summary') ?? read.text(channel, 'itunes', 'subtitle');
      const author =
        read.text(channel, 'itunes', 'author') ??
        read.text(childOf(channel, read.ns('itunes', 'owner')), 'itunes', 'name') ??
        read.text(channel, 'dc', 'creator') ??
        childText(channel, ['managingEditor']);
      return {
        title: plainLine(childText(channel, ['title']) ?? ''),
        author: author ? plainLine(author) || null : null,
        description: description ? htmlToText(description) || null : null,
        artwork:
          read.attr(channel, 'itunes', 'image', 'href') ??
          childText(childOf(channel, ['image']), ['url']) ??
          read.attr(channel, 'podcast', 'image', 'href') ??
          read.attr(channel, 'media', 'thumbnail', 'url'),
        language: languageTag(childText(channel, ['language']) ?? read.text(channel, 'dc', 'language')),
        categories: read.categories(channel),
        website: linkOf(channel),
        itunesType: read.text(channel, 'itunes', 'type')?.toLowerCase() ?? null,
        podcastGuid: read.text(channel, 'podcast', 'guid'),
        explicit: explicitFlag(read.text(channel, 'itunes', 'explicit')),
      };
    },
    keyOf(item): ItemKey {
      const audio = audioOf(item);
      const title = rawTitle(item);
      const date = rawDate(item);
      const guid = childText(item, ['guid']) ?? audio?.url ?? linkOf(item) ?? `${title}|${date ?? ''}`;
      return { guid, publishedAt: parseFeedDate(date), usable: audio !== null || title !== '' };
    },
    episodeOf(item, key): ParsedEpisode {
      const audio = audioOf(item);
      const description =
        childText(item, ['description']) ??
        read.text(item, 'content', 'encoded') ??
        read.text(item, 'itunes', 'summary') ??
        read.text(item, 'itunes', 'subtitle');
      return {
        guid: key.guid,
        transcriptId: transcriptIdFor(key.guid),
        title: plainLine(rawTitle(item)),
        description: description ? htmlToText(description) || null : null,
        episode: read.numbered(item, 'episode'),
        season: read.numbered(item, 'season'),
        publishedAt: key.publishedAt,
        durationSeconds: parseItunesDuration(read.text(item, 'itunes', 'duration')),
        audioUrl: audio?.url ?? null,
        audioType: audio?.type ?? null,
        audioBytes: audio?.bytes ?? null,
        image: read.attr(item, 'itunes', 'image', 'href') ?? read.attr(item, 'media', 'thumbnail', 'url'),
        link: linkOf(item),
        transcripts: read.transcripts(item),
        persons: read.persons(item),
      };
    },
  };
}
