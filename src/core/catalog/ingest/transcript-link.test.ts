import { describe, expect, it } from 'vitest';
import type { ParsedTranscriptLink } from '../feed/feed-types.js';
import { bestTranscriptLink } from './transcript-link.js';

const link = (type: string, url = `https://example.com/t.${type.split('/')[1]}`): ParsedTranscriptLink => ({ url, type, language: null, rel: null });

describe('bestTranscriptLink', () => {
  it('prefers JSON > VTT > SRT > HTML > text', () => {
    const all = [link('text/plain'), link('text/html'), link('application/x-subrip'), link('text/vtt'), link('application/json')];
    expect(bestTranscriptLink(all)?.type).toBe('application/json');
    expect(bestTranscriptLink(all.slice(0, 4))?.type).toBe('text/vtt');
    expect(bestTranscriptLink(all.slice(0, 3))?.type).toBe('application/x-subrip');
    expect(bestTranscriptLink([link('application/srt'), link('text/html')])?.type).toBe('application/srt');
    expect(bestTranscriptLink(all.slice(0, 2))?.type).toBe('text/html');
  });

  it('keeps feed order among equals, ranks unknown types last and skips non-http links', () => {
    expect(bestTranscriptLink([link('text/vtt', 'https://a/1.vtt'), link('text/vtt; charset=utf-8', 'https://a/2.vtt')])?.url).toBe('https://a/1.vtt');
    expect(bestTranscriptLink([link('application/octet-stream'), link('text/plain')])?.type).toBe('text/plain');
    expect(bestTranscriptLink([link('text/vtt', 'ftp://a/1.vtt')])).toBeNull();
    expect(bestTranscriptLink([])).toBeNull();
  });
});
