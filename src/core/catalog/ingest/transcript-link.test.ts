import { describe, expect, it } from 'vitest';
import type { ParsedTranscriptLink } from '../feed/feed-types.js';
import { bestTranscriptLink } from './transcript-link.js';

const link = (type: string, url = `https://example.com/t.${type.split('/')[1]}`): ParsedTranscriptLink => ({ url, type, language: null, rel: null });

describe('bestTranscriptLink', () => {
  it('prefers JSON > VTT > SRT > HTML > text', () => {
    const all = [link('text/plain'), link('text/html'), link('application/x-subrip'), link('text/vtt'), link('application/json')];
    expect(bestTranscriptLink(all, null)?.type).toBe('application/json');
    expect(bestTranscriptLink(all.slice(0, 4), null)?.type).toBe('text/vtt');
    expect(bestTranscriptLink(all.slice(0, 3), null)?.type).toBe('application/x-subrip');
    expect(bestTranscriptLink([link('application/srt'), link('text/html')], null)?.type).toBe('application/srt');
    expect(bestTranscriptLink(all.slice(0, 2), null)?.type).toBe('text/html');
  });

  it('keeps feed order among equals, ranks unknown types last and skips non-http links', () => {
    expect(bestTranscriptLink([link('text/vtt', 'https://a/1.vtt'), link('text/vtt; charset=utf-8', 'https://a/2.vtt')], null)?.url).toBe('https://a/1.vtt');
    expect(bestTranscriptLink([link('application/octet-stream'), link('text/plain')], null)?.type).toBe('text/plain');
    expect(bestTranscriptLink([link('text/vtt', 'ftp://a/1.vtt')], null)).toBeNull();
    expect(bestTranscriptLink([], null)).toBeNull();
  });

  it("takes the show's language (or a link stating none) before a translation in a better format", () => {
    const inLanguage = (type: string, language: string | null) => ({ ...link(type, `https://a/${language}.${type.split('/')[1]}`), language });
    const translated = inLanguage('application/json', 'es');
    const original = inLanguage('application/x-subrip', 'en-us');
    expect(bestTranscriptLink([translated, original], 'en')).toBe(original);
    expect(bestTranscriptLink([translated, original], 'EN-GB')).toBe(original);
    expect(bestTranscriptLink([translated, inLanguage('text/plain', null)], 'en')?.type).toBe('text/plain');
    // A translation when it is all there is; format alone when the show states no language.
    expect(bestTranscriptLink([translated], 'en')).toBe(translated);
    expect(bestTranscriptLink([original, translated], null)).toBe(translated);
  });
});
