import type { ParsedTranscriptLink } from '../feed/feed-types.js';

/** Preference order of publisher transcript formats, best first. */
export const TRANSCRIPT_PREFERENCE = ['json', 'vtt', 'srt', 'html', 'text'] as const;

type Kind = (typeof TRANSCRIPT_PREFERENCE)[number];

const KINDS: Record<string, Kind> = {
  'application/json': 'json',
  'text/json': 'json',
  'text/vtt': 'vtt',
  'text/x-vtt': 'vtt',
  'application/srt': 'srt',
  'application/x-subrip': 'srt',
  'application/x-srt': 'srt',
  'text/srt': 'srt',
  'text/x-srt': 'srt',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
};

function rank(link: ParsedTranscriptLink): number {
  const kind = KINDS[link.type.split(';')[0].trim().toLowerCase()];
  // An unknown type still gets a chance (the parser sniffs the content), after every known one.
  return kind === undefined ? TRANSCRIPT_PREFERENCE.length : TRANSCRIPT_PREFERENCE.indexOf(kind);
}

/** The primary language subtag (`en` of `en-US`), lower case; null when none. */
function primaryLanguage(tag: string | null): string | null {
  return tag?.trim().split(/[-_]/)[0]?.toLowerCase() || null;
}

/**
 * The `<podcast:transcript>` worth fetching: one in the show's language (or
 * stating none) before a translation, then JSON (word timings) before VTT,
 * SRT, HTML and plain text; among equals the first in the feed. A translation
 * is taken only when it is all there is. Links that are not http(s) are ignored.
 *
 * @example bestTranscriptLink([{ type: 'text/plain', … }, { type: 'text/vtt', … }], 'en') // the VTT one
 */
export function bestTranscriptLink(links: readonly ParsedTranscriptLink[], showLanguage: string | null): ParsedTranscriptLink | null {
  const spoken = primaryLanguage(showLanguage);
  const translated = (link: ParsedTranscriptLink) => {
    const language = primaryLanguage(link.language);
    return spoken !== null && language !== null && language !== spoken ? 1 : 0;
  };
  let best: ParsedTranscriptLink | null = null;
  for (const link of links) {
    if (!/^https?:\/\//i.test(link.url)) continue;
    if (best === null) best = link;
    else {
      const byLanguage = translated(link) - translated(best);
      if (byLanguage < 0 || (byLanguage === 0 && rank(link) < rank(best))) best = link;
    }
  }
  return best;
}
