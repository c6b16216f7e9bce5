import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FeedParseError } from './feed-parse-error.js';
import type { ParsedFeed } from './feed-types.js';
import { parseFeed } from './parse-feed.js';
import { transcriptIdFor } from '../../transcript-id.js';

const FIXTURES = new URL('../../../../test/fixtures/rss/', import.meta.url);
const parsed = new Map<string, ParsedFeed>();

/** Each fixture is parsed once, from its bytes, as a crawler would. */
function fixture(file: string): ParsedFeed {
  let feed = parsed.get(file);
  if (!feed) {
    feed = parseFeed(readFileSync(new URL(file, FIXTURES)));
    parsed.set(file, feed);
  }
  return feed;
}

interface Expectation {
  file: string;
  total: number;
  language: string | null;
  showTitle: string;
  first: { guid: string; title: string; publishedAt: string | null };
  duration?: [guid: string, seconds: number];
  transcript?: [guid: string, link: { url: string; type: string; language: string | null; rel: string | null }];
}

const EXPECTATIONS: Expectation[] = [
  {
    file: 'pc20-namespace-example.xml', total: 3, language: 'en-us', showTitle: 'Podcasting 2.0 Namespace Example',
    first: { guid: 'https://example.com/ep0003', title: 'Episode 3 - The Future', publishedAt: '2020-10-09T04:30:38.000Z' },
    transcript: ['https://example.com/ep0003', { url: 'https://example.com/episode1/transcript.vtt', type: 'text/vtt', language: 'es', rel: 'captions' }],
  },
  {
    file: 'podcasting20-pc20rss.xml', total: 56, language: 'en', showTitle: 'Podcasting 2.0',
    first: { guid: 'PC2057', title: 'Episode 57: Rebel Rubes', publishedAt: '2021-10-08T18:55:32.000Z' },
    transcript: ['PC2057', { url: 'https://mp3s.nashownotes.com/PC20-57-Captions.srt', type: 'application/srt', language: null, rel: null }],
  },
  {
    file: 'themnshow-srt-vtt-transcripts.xml', total: 54, language: 'en-us', showTitle: 'The Mike Neumann Show',
    first: { guid: 'ab86b7b7-79e2-43f4-9f58-8d2584b103ec', title: 'Social Media', publishedAt: '2024-09-14T19:05:58.000Z' },
    duration: ['32b8f150-5771-47d6-9f89-9177761f0f4e', 4209],
    transcript: ['ab86b7b7-79e2-43f4-9f58-8d2584b103ec', {
      url: 'https://mikeneumann.show/assets/static/themnshow054-20240914-DRAFT-transcript.srt',
      type: 'application/x-subrip', language: 'en', rel: 'captions',
    }],
  },
  {
    file: '1865-itunes-episode-season.xml', total: 61, language: 'en', showTitle: '1865',
    first: {
      guid: 'gid://art19-episode-locator/V0/T-ywFiCQHfUv9JLKUSMpo1_zw7dONvCZdtDMuzfQMOs',
      title: "Introducing 'History Daily' From Host Lindsay Graham", publishedAt: '2021-11-03T08:00:00.000Z',
    },
    duration: ['gid://art19-episode-locator/V0/T-ywFiCQHfUv9JLKUSMpo1_zw7dONvCZdtDMuzfQMOs', 960],
  },
  {
    file: 'dw-langsam-gesprochene-nachrichten-de.xml', total: 59, language: 'de',
    showTitle: 'Langsam gesprochene Nachrichten | Audios | DW Deutsch lernen',
    first: { guid: '61170826', title: '18.03.2022 – Langsam gesprochene Nachrichten', publishedAt: '2022-03-18T09:46:00.000Z' },
    duration: ['61170826', 420],
  },
  {
    file: 'giantbomb-730-items.rss', total: 730, language: 'en-us', showTitle: 'Giant Bombcast',
    first: { guid: '1600-2823', title: 'Giant Bombcast 603: Call of Tuesday', publishedAt: '2019-10-01T22:30:00.000Z' },
    duration: ['1600-2823', 10475],
  },
  {
    file: 'no-guids-esperanto-373-items.xml', total: 373, language: 'eo', showTitle: 'Varsovia Vento Podkasto',
    first: {
      guid: 'http://www.podkasto.net/wp-content/uploads/2023/07/230727VVE168P3.mp3',
      title: 'La 168-a elsendo - parto 3 (2023-07-27)', publishedAt: '2023-07-27T02:00:00.000Z',
    },
  },
  {
    file: 'hebrew-rtl-feedburner.xml', total: 7, language: 'he', showTitle: 'שיעור הקבלה היומי',
    first: { guid: 'https://cdn.kabbalahmedia.info/yN51Bqom', title: 'בעל הסולם. שמעתי, צט. רשע או צדיק לא קאמר', publishedAt: '2021-11-30T09:55:20.000Z' },
  },
  {
    file: 'catalan-iso-8859-1.xml', total: 350, language: 'ca', showTitle: "L'ofici de viure",
    first: { guid: 'mp3/2/4/1770796837042.mp3', title: 'Jubilació: aspectes psicològics', publishedAt: '2026-02-21T22:05:00.000Z' },
    duration: ['mp3/2/4/1770796837042.mp3', 3340],
  },
  {
    // 75 items, two share a guid; the first item's pubDate is empty, so it keeps its place.
    file: 'malformed-pubdate.xml', total: 74, language: 'en-us', showTitle: 'Old Time Radio Mystery Theater',
    first: {
      guid: 'http://www.mysteryshows.com/Podcasts/CBS-Radio-Mystery-Theater_74-01-22_0017_A-Very-Old-Man.mp3',
      title: 'CBS Radio Mystery Theater - 0017 - A Very Old Man', publishedAt: null,
    },
    duration: ['http://www.mysteryshows.com/Podcasts/CBS-Radio-Mystery-Theater_74-01-22_0017_A-Very-Old-Man.mp3', 2665],
  },
  {
    file: 'malformed-itunes-duration.xml', total: 450, language: 'en-us', showTitle: 'At The Races with Steve Byk',
    first: { guid: 'https://stevebyk.com/?post_type=tribe_events&p=24567', title: 'NHC-2021 Live coverage Day 1 Part 2', publishedAt: '2021-08-27T23:00:00.000Z' },
  },
  {
    file: 'apple-podcasters-guide-example.xml', total: 3, language: 'en-us', showTitle: 'All About Everything',
    first: { guid: 'http://example.com/podcasts/archive/aae20140615.m4a', title: 'Shake Shake Shake Your Spices', publishedAt: '2014-06-15T19:00:00.000Z' },
    duration: ['http://example.com/podcasts/archive/aae20140615.m4a', 424],
  },
  {
    file: 'rtve-spanish-entity-encoded.xml', total: 6, language: 'es', showTitle: 'Tiempo de valientes. El diario de Julián Martínez',
    first: { guid: 'http://rtve.es/a/3472786', title: 'El Ministerio del Tiempo - Tiempo de valientes: capítulo 6', publishedAt: '2016-03-21T21:30:00.000Z' },
    duration: ['http://rtve.es/a/3472786', 148],
  },
  {
    file: 'atom-rfc4287-example-enclosure.xml', total: 1, language: null, showTitle: 'dive into mark',
    first: { guid: 'tag:example.org,2003:3.2397', title: 'Atom draft-07 snapshot', publishedAt: '2003-12-13T12:29:29.000Z' },
  },
];

describe('parseFeed on every fixture', () => {
  it.each(EXPECTATIONS)('$file', (expected) => {
    const feed = fixture(expected.file);
    expect(feed.totalItems).toBe(expected.total);
    expect(feed.episodes).toHaveLength(expected.total);
    expect(feed.truncated).toBe(false);
    expect(feed.show.title).toBe(expected.showTitle);
    expect(feed.show.language).toBe(expected.language);
    const first = feed.episodes[0];
    expect({ guid: first.guid, title: first.title, publishedAt: first.publishedAt?.toISOString() ?? null }).toEqual(expected.first);
    if (expected.duration) {
      const [guid, seconds] = expected.duration;
      expect(feed.episodes.find((e) => e.guid === guid)?.durationSeconds).toBe(seconds);
    }
    if (expected.transcript) {
      const [guid, link] = expected.transcript;
      expect(feed.episodes.find((e) => e.guid === guid)?.transcripts).toContainEqual(link);
    }
  });

  it.each(EXPECTATIONS.map((e) => e.file))('%s: every episode is well-formed and newest first', (file) => {
    const { episodes } = fixture(file);
    let previous = Infinity;
    for (const episode of episodes) {
      expect(episode.transcriptId).toBe(transcriptIdFor(episode.guid));
      expect(episode.guid).not.toBe('');
      expect(episode.audioUrl ?? episode.title).toBeTruthy();
      expect(episode.description?.length ?? 0).toBeLessThanOrEqual(5000);
      expect(JSON.stringify(episode)).not.toMatch(/\ufffd|\\u0000/);
      if (episode.publishedAt) {
        expect(Number.isNaN(episode.publishedAt.getTime())).toBe(false);
        expect(episode.publishedAt.getTime()).toBeLessThanOrEqual(previous);
        previous = episode.publishedAt.getTime();
      }
    }
    expect(new Set(episodes.map((e) => e.guid)).size).toBe(episodes.length);
  });
});

describe('parseFeed: spot checks', () => {
  it('reads the Podcasting 2.0 namespace example', () => {
    const feed = fixture('pc20-namespace-example.xml');
    expect(feed.show).toMatchObject({
      podcastGuid: 'y0ur-gu1d-g035-h3r3', itunesType: 'episodic', explicit: false,
      categories: ['Technology', 'News', 'Tech News'],
    });
    const [third] = feed.episodes;
    expect(third).toMatchObject({ episode: 3, season: 1, audioType: 'audio/mpeg', audioBytes: 43200000 });
    expect(third.transcripts).toContainEqual({ url: 'https://example.com/ep3/transcript.txt', type: 'text/plain', language: null, rel: null });
    expect(third.persons).toContainEqual(expect.objectContaining({ name: 'Dave Jones', role: 'guest' }));
  });

  it('reads seasons, episodes and nested categories', () => {
    const feed = fixture('1865-itunes-episode-season.xml');
    expect(feed.show.itunesType).toBe('serial');
    expect(feed.show.categories).toEqual(['Fiction', 'Drama', 'History', 'Government']);
    expect(feed.episodes.filter((e) => e.season !== null && e.episode !== null).length).toBeGreaterThan(20);
  });

  it('decodes ISO-8859-1 from the declaration, not as UTF-8', () => {
    const feed = fixture('catalan-iso-8859-1.xml');
    expect(feed.show.author).toBe('Catalunya Ràdio');
    expect(feed.episodes[0].description).toContain('psicòloga Sílvia Caballol');
  });

  it('turns double-escaped Spanish HTML into plain text', () => {
    const { description } = fixture('rtve-spanish-entity-encoded.xml').episodes[0];
    expect(description).toMatch(/^"Soy Julián Martínez, y que yo sepa/);
    expect(description).not.toMatch(/&[a-z]+;|<[a-z]/);
  });

  it('keys guid-less items by their enclosure URL', () => {
    for (const episode of fixture('no-guids-esperanto-373-items.xml').episodes) {
      expect(episode.guid).toBe(episode.audioUrl);
    }
  });

  it('treats junk durations as unknown', () => {
    const feed = fixture('malformed-itunes-duration.xml');
    expect(feed.episodes.every((e) => e.durationSeconds === null)).toBe(true);
  });

  it('reads an Atom entry with an enclosure link', () => {
    const [entry] = fixture('atom-rfc4287-example-enclosure.xml').episodes;
    expect(entry).toMatchObject({
      audioUrl: 'http://example.org/audio/ph34r_my_podcast.mp3', audioType: 'audio/mpeg', audioBytes: 1337,
      link: 'http://example.org/2005/04/02/atom', description: '[Update: The Atom draft is finished.]',
    });
    expect(fixture('atom-rfc4287-example-enclosure.xml').show.description).toBe('A lot of effort went into making this effortless');
  });

  it('keeps the 500 newest of the 730-item feed', () => {
    const all = fixture('giantbomb-730-items.rss');
    const feed = parseFeed(readFileSync(new URL('giantbomb-730-items.rss', FIXTURES)), { maxItems: 500 });
    expect(feed).toMatchObject({ totalItems: 730, truncated: true });
    expect(feed.episodes).toHaveLength(500);
    expect(feed.episodes.map((e) => e.guid)).toEqual(all.episodes.slice(0, 500).map((e) => e.guid));
    const oldestKept = feed.episodes[499].publishedAt?.getTime() ?? 0;
    expect(all.episodes.slice(500).every((e) => (e.publishedAt?.getTime() ?? 0) <= oldestKept)).toBe(true);
  });
});
