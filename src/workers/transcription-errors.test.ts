import { describe, expect, it } from 'vitest';
import { OutboundError } from '../infra/outbound/outbound-error.js';
import { classifyFailure } from './transcription-errors.js';

const notFound = (url?: string) => new OutboundError('http_status', 'server answered 404', { url, status: 404 });

describe('classifyFailure', () => {
  it('names the URL a download failed on, without user info, query or fragment', () => {
    const failure = classifyFailure(notFound('https://ann:pw@cdn.example/shows/ep%201.mp3?token=s3cret&x=1#t=5'), { nameUrl: true });
    expect(failure).toEqual({ message: 'download of https://cdn.example/shows/ep%201.mp3: server answered 404', permanent: false });
  });

  it('names no URL unless asked, or when the error holds none', () => {
    expect(classifyFailure(notFound('https://cdn.example/ep.mp3')).message).toBe('download: server answered 404');
    expect(classifyFailure(notFound(), { nameUrl: true }).message).toBe('download: server answered 404');
    expect(classifyFailure(new OutboundError('bad_url', 'not a URL: nope'), { nameUrl: true })).toEqual({ message: 'download: not a URL: nope', permanent: true });
  });
});
