import { describe, expect, it } from 'vitest';
import { FeedParseError } from './feed-parse-error.js';
import { parseFeed } from './parse-feed.js';
import { TRANSCRIPT_ID, transcriptIdFor } from '../../transcript-id.js';

function rss(items: string, channel = '<title>Show</title>', attributes = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"${attributes}><channel>${channel}${items}</channel></rss>`;
}

const enclosure = (name: string): string => `<enclosure url="https://cdn.example.com/${name}.mp3" type="audio/mpeg" length="0"/>`;

describe('transcriptIdFor', () => {
  it('is the first 16 hex characters of the SHA-1 of the guid', () => {
    expect(transcriptIdFor('abc')).toBe('a9993e364706816a');
    expect(transcriptIdFor('https://example.com/ep0003')).toMatch(TRANSCRIPT_ID);
  });
});

describe('parseFeed: guids', () => {
  it('falls back to the enclosure URL, then the link, then title|pubDate', () => {
    const feed = parseFeed(rss(`
      <item><title>A</title>${enclosure('a')}<link>https://example.com/a</link></item>
      <item><title>B</title><link>https://example.com/b</link></item>
      <item><title>C</title><pubDate>not a date</pubDate></item>
      <item><title>D</title></item>`));
    expect(feed.episodes.map((e) => e.guid)).toEqual([
      'https://cdn.example.com/a.mp3', 'https://example.com/b', 'C|not a date', 'D|',
    ]);
    expect(feed.episodes[0].transcriptId).toBe(transcriptIdFor('https://cdn.example.com/a.mp3'));
  });

  it('skips items with neither an enclosure nor a title, and keeps untitled audio', () => {
    const feed = parseFeed(rss(`<item><description>nothing</description></item><item>${enclosure('x')}</item>`));
    expect(feed.totalItems).toBe(1);
    expect(feed.episodes[0]).toMatchObject({ title: '', audioUrl: 'https://cdn.example.com/x.mp3', audioBytes: null });
  });

  it('keeps only the newest of items sharing a guid', () => {
    const feed = parseFeed(rss(`
      <item><guid>same</guid><title>old</title><pubDate>Mon, 01 Jan 2024 00:00:00 GMT</pubDate></item>
      <item><guid>same</guid><title>new</title><pubDate>Tue, 02 Jan 2024 00:00:00 GMT</pubDate></item>`));
    expect(feed.totalItems).toBe(1);
    expect(feed.episodes[0].title).toBe('new');
  });
});

describe('parseFeed: order and limits', () => {
  it('puts the newest first and leaves undated items where the feed put them', () => {
    const item = (title: string, date?: string): string =>
      `<item><title>${title}</title>${date ? `<pubDate>${date}</pubDate>` : ''}</item>`;
    const feed = parseFeed(rss([
      item('jan', 'Mon, 01 Jan 2024 00:00:00 GMT'),
      item('undated'),
      item('mar', 'Fri, 01 Mar 2024 00:00:00 GMT'),
      item('feb', 'Thu, 01 Feb 2024 00:00:00 GMT'),
      item('bad date', 'soon'),
    ].join('')));
    expect(feed.episodes.map((e) => e.title)).toEqual(['mar', 'undated', 'feb', 'jan', 'bad date']);
    expect(feed.episodes[4].publishedAt).toBeNull();
  });

  it('returns at most maxItems episodes and says so', () => {
    const items = Array.from({ length: 5 }, (_, i) => `<item><title>${i}</title></item>`).join('');
    expect(parseFeed(rss(items), { maxItems: 2 })).toMatchObject({ totalItems: 5, truncated: true, episodes: [{ title: '0' }, { title: '1' }] });
    expect(parseFeed(rss(items)).truncated).toBe(false);
  });
});

describe('parseFeed: fields', () => {
  it('reads CDATA, entities and iTunes tags under another prefix', () => {
    const feed = parseFeed(rss(`
      <item>
        <title><![CDATA[Q&A: <live> & more]]></title>
        <description><![CDATA[<p>Show&nbsp;notes</p><p>second   paragraph</p>]]></description>
        <it:duration>1:02:03</it:duration><it:episode>7</it:episode><it:season>2</it:season>
        <it:image href="https://example.com/7.jpg"/>
        ${enclosure('q')}
      </item>`,
      '<title>Tom &amp;amp; Jerry&#x27;s</title><language>EN_us</language><it:explicit>Yes</it:explicit><it:type>Serial</it:type>',
      ' xmlns:it="http://www.itunes.com/dtds/podcast-1.0.dtd"'));
    expect(feed.show).toMatchObject({ title: "Tom & Jerry's", language: 'en-us', explicit: true, itunesType: 'serial' });
    expect(feed.episodes[0]).toMatchObject({
      title: 'Q&A: <live> & more', description: 'Show notes second paragraph', durationSeconds: 3723,
      episode: 7, season: 2, image: 'https://example.com/7.jpg',
    });
  });

  it('guesses a missing transcript type from the file extension and lower-cases language and role', () => {
    const feed = parseFeed(rss(`<item><title>t</title>
      <podcast:transcript url="https://example.com/t.vtt" language="EN-GB"/>
      <podcast:person role="Host" group="Cast">Ada</podcast:person><podcast:person></podcast:person></item>`,
      '<title>s</title>', ' xmlns:podcast="https://podcastindex.org/namespace/1.0"'));
    expect(feed.episodes[0].transcripts).toEqual([{ url: 'https://example.com/t.vtt', type: 'text/vtt', language: 'en-gb', rel: null }]);
    expect(feed.episodes[0].persons).toEqual([{ name: 'Ada', role: 'host', group: 'cast', href: null, img: null }]);
  });

  it('takes audio from Media RSS when there is no enclosure, but not video', () => {
    const media = ' xmlns:media="http://search.yahoo.com/mrss/"';
    const feed = parseFeed(rss(`
      <item><title>a</title><media:content url="https://example.com/a.m4a" type="audio/mp4" fileSize="99"/></item>
      <item><title>v</title><media:content url="https://example.com/v.mp4" type="video/mp4"/></item>`, '<title>s</title>', media));
    expect(feed.episodes.map((e) => [e.audioUrl, e.audioBytes])).toEqual([['https://example.com/a.m4a', 99], [null, null]]);
  });

  it('reads RSS 1.0', () => {
    const feed = parseFeed(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
      <channel><title>RDF show</title><link>https://example.com</link></channel>
      <item><title>one</title><link>https://example.com/1</link></item></rdf:RDF>`);
    expect(feed.show).toMatchObject({ title: 'RDF show', website: 'https://example.com' });
    expect(feed.episodes[0].guid).toBe('https://example.com/1');
  });

  it('accepts a string with a byte order mark', () => {
    expect(parseFeed(`\uFEFF${rss('<item><title>x</title></item>')}`).episodes).toHaveLength(1);
  });
});

describe('parseFeed: refusals', () => {
  it.each([
    ['an HTML page', '<!DOCTYPE html><html><body>hi</body></html>', /^the address serves a web page \(HTML\)$/],
    ['an HTML page with a lower-case doctype', '<!doctype html><title>x</title>', /^the address serves a web page \(HTML\)$/],
    ['another XML document', '<?xml version="1.0"?><svg></svg>', /^the root element is <svg>$/],
    ['text', 'just some text', /no XML element found/],
    ['an empty document', '', /no XML element found/],
    ['RSS without a channel', '<rss version="2.0"></rss>', /without a <channel>/],
    ['broken XML', '<rss><channel><title><![CDATA[x</title></channel></rss>', /not well-formed XML/],
  ])('%s', (_name, input, reason) => {
    expect(() => parseFeed(input)).toThrow(FeedParseError);
    expect(() => parseFeed(input)).toThrow(reason);
  });
});

describe('parseFeed: website', () => {
  it('prefers the RSS link text over an Atom self link without a prefix', () => {
    const feed = parseFeed(rss('', '<title>s</title><link href="https://example.com/feed.xml" rel="self"/><link>https://example.com/</link>'));
    expect(feed.show.website).toBe('https://example.com/');
  });
});

describe('feeds written in character references', () => {
  it('reads a feed whose every description is numeric references (Hebrew, as some tools write it)', () => {
    const hebrew = '&#1513;&#1500;&#1493;&#1501; '.repeat(60);
    const items = Array.from({ length: 400 }, (_, i) => `<item><title>&#1508;&#1512;&#1511; ${i}</title><guid>he-${i}</guid><enclosure url="https://cdn.example.com/he${i}.mp3" type="audio/mpeg"/><description>${hebrew}</description></item>`);
    const feed = parseFeed(`<rss version="2.0"><channel><title>&#1508;&#1493;&#1491;&#1511;&#1488;&#1505;&#1496;</title>${items.join('')}</channel></rss>`);
    expect(feed.show.title).toBe('פודקאסט');
    expect(feed.episodes).toHaveLength(400);
  });
});
