import { describe, expect, it } from 'vitest';
import { queryKind } from './query-kind.js';

describe('queryKind', () => {
  it.each([
    'lennys podcast',
    'The Daily',
    'npr.org',
    'Re:Invent',
    'dhunplugged',
    'https://example.com is great',
  ])('%j is a name', (q) => {
    expect(queryKind(q)).toEqual({ kind: 'name' });
  });

  it.each([
    ['https://podcasts.apple.com/us/podcast/the-daily/id1200361736', { kind: 'apple', appleId: 1200361736n }],
    ['https://podcasts.apple.com/us/podcast/the-daily/id1200361736?i=1000650000000', { kind: 'apple', appleId: 1200361736n }],
    ['podcasts.apple.com/gb/podcast/id1200361736', { kind: 'apple', appleId: 1200361736n }],
    ['https://itunes.apple.com/us/podcast/the-daily/id1200361736?mt=2', { kind: 'apple', appleId: 1200361736n }],
    ['https://itunes.apple.com/lookup?id=1200361736', { kind: 'apple', appleId: 1200361736n }],
    ['https://podcastindex.org/podcast/743229', { kind: 'feed_id', feedId: 743229n }],
    ['https://overcast.fm/itunes1200361736/the-daily', { kind: 'apple', appleId: 1200361736n }],
    ['https://pca.st/itunes/1200361736', { kind: 'apple', appleId: 1200361736n }],
    ['https://castro.fm/itunes/1200361736', { kind: 'apple', appleId: 1200361736n }],
    ['https://castbox.fm/vic/1200361736', { kind: 'apple', appleId: 1200361736n }],
    ['pktc://subscribe/feeds.simplecast.com/54nAGcIl', { kind: 'feed_url', feedUrl: 'https://feeds.simplecast.com/54nAGcIl' }],
    ['https://podcasts.google.com/feed/aHR0cHM6Ly9mZWVkcy5zaW1wbGVjYXN0LmNvbS81NG5BR2NJbA', { kind: 'feed_url', feedUrl: 'https://feeds.simplecast.com/54nAGcIl' }],
    ['https://www.podcastaddict.com/?url=https%3A%2F%2Ffeeds.example.com%2Frss', { kind: 'feed_url', feedUrl: 'https://feeds.example.com/rss' }],
    ['https://subscribeonandroid.com/feeds.example.com/rss', { kind: 'feed_url', feedUrl: 'https://feeds.example.com/rss' }],
  ])('%s is a directory link', (q, target) => {
    const kind = queryKind(q);
    expect(kind.kind).toBe('directory');
    expect(kind.kind === 'directory' && kind.target).toMatchObject(target);
  });

  it.each([
    'https://overcast.fm/+AbCdEfG',
    'https://pocketcasts.com/podcast/the-daily/9d2d9e51-4f5b-4a9d-9b43-3c2f3f8a8c1a',
    'https://www.podchaser.com/podcasts/the-daily-10519',
    'https://castbox.fm/channel/The-Daily-id1234',
    'https://podcasts.apple.com/us/browse',
  ])('%s is a directory link that cannot be resolved', (q) => {
    const kind = queryKind(q);
    expect(kind.kind === 'directory' && kind.target.kind).toBe('unresolvable');
  });

  it.each([
    ['https://open.spotify.com/show/4rOoJ6Egrf8K2IrywzwOMk', 'Spotify'],
    ['open.spotify.com/episode/abc', 'Spotify'],
    ['spotify:show:4rOoJ6Egrf8K2IrywzwOMk', 'Spotify'],
    ['https://spotify.link/abc', 'Spotify'],
    ['https://music.amazon.de/podcasts/abc', 'Amazon Music'],
    ['https://www.amazon.com/The-Daily/dp/B08K58Y8CY/podcast', 'Amazon Music'],
    ['https://youtu.be/dQw4w9WgXcQ', 'YouTube'],
    ['https://m.youtube.com/watch?v=x', 'YouTube'],
    ['https://music.youtube.com/browse/x', 'YouTube'],
    ['https://www.iheart.com/podcast/x/', 'iHeartRadio'],
    ['https://deezer.page.link/x', 'Deezer'],
    ['https://www.pandora.com/podcast/x', 'Pandora'],
    ['https://tunein.com/podcasts/x', 'TuneIn'],
    ['https://www.audible.co.uk/pd/x', 'Audible'],
    ['https://music.apple.com/us/album/x/1', 'Apple Music'],
    ['https://soundcloud.com/someone', 'SoundCloud'],
  ])('%s is a streaming link (%s)', (q, service) => {
    expect(queryKind(q)).toEqual({ kind: 'streaming', service });
  });

  it.each([
    ['https://feeds.simplecast.com/54nAGcIl', 'https://feeds.simplecast.com/54nAGcIl'],
    ['http://example.com/feed.xml?format=rss', 'http://example.com/feed.xml?format=rss'],
    ['feeds.example.com/podcast.rss', 'https://feeds.example.com/podcast.rss'],
    ['itpc://example.com/feed', 'http://example.com/feed'],
    ['feed:https://example.com/feed', 'https://example.com/feed'],
    ['https://feeds.soundcloud.com/users/soundcloud:users:1/sounds.rss', 'https://feeds.soundcloud.com/users/soundcloud:users:1/sounds.rss'],
  ])('%s is a feed URL', (q, feedUrl) => {
    expect(queryKind(q)).toEqual({ kind: 'feed', feedUrl });
  });
});
