import type { KnownNamespace, NameLookup } from './feed-namespaces.js';
import type { ParsedEpisode, ParsedPerson, ParsedShow, ParsedTranscriptLink } from './feed-types.js';
import { attrOf, childOf, childrenOf, childText, textOf } from './xml-tree.js';
import { plainLine } from './plain-text.js';

/** What the feed-wide steps (ordering, dedupe, truncation) need from RSS or Atom. */
export interface FeedFormat {
  show(): ParsedShow;
  items: unknown[];
  /** Cheap facts about one item, computed for every item before any is built in full. */
  keyOf(item: unknown): ItemKey;
  episodeOf(item: unknown, key: ItemKey): ParsedEpisode;
}

export interface ItemKey {
  guid: string;
  publishedAt: Date | null;
  /** False for items with neither an enclosure nor a title: nothing to show or transcribe. */
  usable: boolean;
}

/** The elements a show and its items share across formats, read through namespace aliases. */
export function readerFor(names: NameLookup) {
  const ns = (space: KnownNamespace, local: string): string[] => names(space, local);
  return {
    ns,
    text: (node: unknown, space: KnownNamespace | null, local: string): string | null =>
      childText(node, space ? ns(space, local) : [local]),
    attr: (node: unknown, space: KnownNamespace | null, local: string, attribute: string): string | null => {
      for (const child of childrenOf(node, space ? ns(space, local) : [local])) {
        const value = attrOf(child, attribute);
        if (value) return value;
      }
      return null;
    },
    categories(node: unknown): string[] {
      const found = new Set<string>();
      const walk = (parent: unknown, depth: number): void => {
        if (depth > 5) return;
        for (const category of childrenOf(parent, ns('itunes', 'category'))) {
          const text = attrOf(category, 'text') ?? textOf(category).trim();
          if (text) found.add(plainLine(text));
          walk(category, depth + 1);
        }
      };
      walk(node, 0);
      return [...found];
    },
    transcripts(item: unknown): ParsedTranscriptLink[] {
      return childrenOf(item, ns('podcast', 'transcript')).flatMap((node) => {
        const url = attrOf(node, 'url');
        if (!url) return [];
        return [{
          url,
          type: attrOf(node, 'type')?.toLowerCase() ?? guessTranscriptType(url),
          language: attrOf(node, 'language')?.toLowerCase() ?? null,
          rel: attrOf(node, 'rel'),
        }];
      });
    },
    persons(item: unknown): ParsedPerson[] {
      return childrenOf(item, ns('podcast', 'person')).flatMap((node) => {
        const name = plainLine(textOf(node));
        if (!name) return [];
        return [{
          name,
          role: attrOf(node, 'role')?.toLowerCase() ?? null,
          group: attrOf(node, 'group')?.toLowerCase() ?? null,
          href: attrOf(node, 'href'),
          img: attrOf(node, 'img'),
        }];
      });
    },
    /** itunes:episode, else podcast:episode. */
    numbered(item: unknown, local: 'episode' | 'season'): number | null {
      return wholeNumber(childText(item, ns('itunes', local))) ?? wholeNumber(textOf(childOf(item, ns('podcast', local))));
    },
  };
}

export type FeedReader = ReturnType<typeof readerFor>;

const TRANSCRIPT_TYPES: Record<string, string> = {
  vtt: 'text/vtt', srt: 'application/x-subrip', json: 'application/json', html: 'text/html', txt: 'text/plain',
};

function guessTranscriptType(url: string): string {
  const extension = /\.([a-z0-9]{2,5})(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase() ?? '';
  return TRANSCRIPT_TYPES[extension] ?? 'application/octet-stream';
}

/** A non-negative integer, or null (`3.0` counts as 3; `1.5`, `-1`, `S2` do not). */
export function wholeNumber(raw: string | null | undefined): number | null {
  const text = raw?.trim();
  if (!text || !/^\d{1,9}(?:\.0+)?$/.test(text)) return null;
  return Number(text);
}

/** A positive byte count, or null (`0`, a common placeholder, is null). */
export function byteCount(raw: string | null | undefined): number | null {
  const text = raw?.trim();
  if (!text || !/^\d{1,15}$/.test(text)) return null;
  const value = Number(text);
  return value > 0 ? value : null;
}

/** `en_US` → `en-us`; anything that is not a language tag → null. */
export function languageTag(raw: string | null | undefined): string | null {
  const tag = raw?.trim().toLowerCase().replace(/_/g, '-');
  return tag && /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/.test(tag) ? tag : null;
}

export function explicitFlag(raw: string | null | undefined): boolean | null {
  const value = raw?.trim().toLowerCase();
  if (value === 'yes' || value === 'true' || value === 'explicit') return true;
  if (value === 'no' || value === 'false' || value === 'clean') return false;
  return null;
}
