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

/**
 * The `<podcast:transcript>` worth fetching: JSON (word timings) before VTT,
 * SRT, HTML and plain text; among equals the first in the feed. Links that are
 * not http(s) are ignored.
 *
 * @example bestTranscriptLink([{ type: 'text/plain', … }, { type: 'text/vtt', … }]) // the VTT one
 */
export function bestTranscriptLink(links: readonly ParsedTranscriptLink[]): ParsedTranscriptLink | null {
  let best: ParsedTranscriptLink | null = null;
  for (const link of links) {
    if (!/^https?:\/\//i.test(link.url)) continue;
    if (best === null || rank(link) < rank(best)) best = link;
  }
  return best;
}
