import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalServer, startLocalServer } from '../../src/infra/outbound/local-test-server.js';
import { type TestAccount, type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { SEARCH_TARGETS, seedSearchCorpus } from './catalog-fixtures.js';

type ShowOut = { feed_id: number; title: string; apple_id: number | null; url: string; episodes_url: string; categories: string[]; language: string | null; indexed: boolean };
type SearchOut = { query: string; shows: ShowOut[] };

let t: TestPodtext;
let a: TestAccount;
let feeds: LocalServer;
let feedRequests = 0;

beforeAll(async () => {
  const rss = await readFile(new URL('../fixtures/rss/apple-podcasters-guide-example.xml', import.meta.url));
  feeds = await startLocalServer((req, res) => {
    feedRequests++;
    if (req.url === '/feed.xml') res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss);
    else if (req.url === '/page.html') res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Not a feed</title>');
    else res.writeHead(404).end('no');
  });
  t = await startTestPodtext({ env: { OUTBOUND_ALLOW: feeds.endpoint } });
  await seedSearchCorpus(t.podtext.services.db);
  a = await t.account();
});
afterAll(async () => {
  await t?.close();
  await feeds?.close();
});

async function search(q: string): Promise<{ status: number; body: SearchOut & { error?: { code: string; message: string } } }> {
  const res = await t.api('GET', `/search?q=${encodeURIComponent(q)}`, { key: a.key });
  return { status: res.status, body: (await res.json()) as never };
}

describe('search by name: typos, punctuation, accents, run-together words', () => {
  const { lenny, dh, daily, rogan, cafe, smartless, crime, huberman, serial } = SEARCH_TARGETS;
  it.each([
    ['lennys podcast', lenny],
    ["Lenny's Podcast", lenny],
    ['lenny podcast', lenny],
    ['dhunplugged', dh],
    ['dh unplugged', dh],
    ['DH-Unplugged!', dh],
    ['the daly', daily],
    ['the daily', daily],
    ['joe rogen', rogan],
    ['the joe rogan experiance', rogan],
    ['cafe creme', cafe],
    ['CAFÉ CRÈME', cafe],
    ['smartless', smartless],
    ['smart less', smartless],
    ['crime junky', crime],
    ['hubermanlab', huberman],
    ['huberman', huberman],
    ['serial', serial],
  ])('%j finds %j first', async (q, target) => {
    const { status, body } = await search(q);
    expect(status).toBe(200);
    expect(body.query).toBe(q);
    expect(body.shows[0]?.title).toBe(target.title);
  });

  it('"cafe" finds the accented title among the best few', async () => {
    const { body } = await search('cafe');
    expect(body.shows.slice(0, 3).map((s) => s.title)).toContain(SEARCH_TARGETS.cafe.title);
  });

  it('results are ShowSummaries with categories and language, at most 25, never dead shows', async () => {
    const { body } = await search('podcast');
    expect(body.shows.length).toBe(25);
    const { body: lenny } = await search('lennys podcast');
    expect(lenny.shows[0]).toEqual({
      feed_id: 5001,
      title: SEARCH_TARGETS.lenny.title,
      author: '',
      artwork: 'https://img.example.com/5001.jpg',
      apple_id: 1627920305,
      indexed: true,
      url: 'http://podtext.test/shows/5001',
      episodes_url: 'http://podtext.test/api/v1/shows/5001/episodes',
      categories: ['Business', 'Careers'],
      language: 'en',
    });
    const { body: dead } = await search('dead old show');
    expect(dead.shows.map((s) => s.title)).not.toContain('Dead Old Show');
  });

  it('a bad query is a 400 naming q', async () => {
    for (const q of ['', '   ', 'x'.repeat(501), '!!!']) {
      const { status, body } = await search(q);
      expect(status).toBe(400);
      expect(body.error?.code).toBe('invalid_request');
      expect(body.error?.message.startsWith('q:')).toBe(true);
    }
    const res = await t.api('GET', '/search', { key: a.key });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message.startsWith('q:')).toBe(true);
  });

  it('q takes up to 500 characters, counted as a reader counts them: an emoji is one', async () => {
    // 'a😀' is two characters and three UTF-16 units.
    expect((await search('a\u{1F600}'.repeat(200))).status).toBe(200);
    expect((await search('a\u{1F600}'.repeat(250))).status).toBe(200);
    const long = await search(`${'a\u{1F600}'.repeat(250)}a`);
    expect([long.status, long.body.error?.message]).toEqual([400, 'q: at most 500 characters']);
  });

  it('a missing q is a 400 naming q', async () => {
    const res = await t.api('GET', '/search', { key: a.key });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message.startsWith('q:')).toBe(true);
  });

  it('needs a key and counts one request', async () => {
    expect((await t.api('GET', '/search?q=serial')).status).toBe(401);
    const res = await t.api('GET', '/search?q=serial', { key: a.key });
    expect(Number(res.headers.get('x-ratelimit-remaining'))).toBeLessThan(Number(res.headers.get('x-ratelimit-limit')));
  });
});

describe('search by podcast-directory link', () => {
  it.each([
    ['https://podcasts.apple.com/us/podcast/the-daily/id1200361736', 5003],
    ['https://podcasts.apple.com/us/podcast/the-daily/id1200361736?i=1000650000000', 5003],
    ['podcasts.apple.com/gb/podcast/smartless/id1521578868', 5006],
    ['https://itunes.apple.com/us/podcast/the-joe-rogan-experience/id360084272?mt=2', 5004],
    ['https://podcastindex.org/podcast/5009', 5009],
    ['https://overcast.fm/itunes1627920305/lennys-podcast-product-growth-career', 5001],
    ['https://pca.st/itunes/1200361736', 5003],
    ['https://castro.fm/itunes/360084272', 5004],
    ['https://podcasts.google.com/feed/aHR0cHM6Ly9mZWVkcy5zaW1wbGVjYXN0LmNvbS81NG5BR2NJbA', 5003],
  ])('%s → feed %i', async (link, feedId) => {
    const { status, body } = await search(link);
    expect(status).toBe(200);
    expect(body.shows.map((s) => s.feed_id)).toEqual([feedId]);
  });

  it('a Podcast Index id the index lacks gives no shows', async () => {
    const { status, body } = await search('https://podcastindex.org/podcast/987654');
    expect(status).toBe(200);
    expect(body.shows).toEqual([]);
  });

  it('a directory link naming the show only by its own id is unsupported_link, saying why', async () => {
    const { status, body } = await search('https://www.podchaser.com/podcasts/the-daily-10519');
    expect(status).toBe(400);
    expect(body.error?.code).toBe('unsupported_link');
    expect(body.error?.message).toMatch(/Podchaser/);
  });
});

describe('search by RSS feed URL', () => {
  it('a known feed is found by its URL, however spelled', async () => {
    for (const url of ['https://feeds.simplecast.com/54nAGcIl', 'http://feeds.simplecast.com/54nAGcIl/']) {
      const { body } = await search(url);
      expect(body.shows.map((s) => s.feed_id)).toEqual([5003]);
    }
  });

  it('an unknown feed is read from its server and added on the spot, then found by name too', async () => {
    const before = feedRequests;
    const { status, body } = await search(feeds.url('/feed.xml'));
    expect(status).toBe(200);
    expect(feedRequests).toBe(before + 1);
    expect(body.shows).toHaveLength(1);
    const added = body.shows[0]!;
    expect(added.title).toBe('All About Everything');
    expect(added.feed_id).toBeGreaterThanOrEqual(1e12);
    const again = await search(feeds.url('/feed.xml'));
    expect(again.body.shows[0]?.feed_id).toBe(added.feed_id);
    expect(feedRequests).toBe(before + 1);
    const byName = await search('all about everything');
    expect(byName.body.shows[0]?.feed_id).toBe(added.feed_id);
    const episodes = await t.api('GET', `/shows/${added.feed_id}/episodes`, { key: a.key });
    expect(((await episodes.json()) as { episodes: unknown[] }).episodes.length).toBeGreaterThan(0);
  });

  it('a feed that cannot be added is a 400 naming q, saying why', async () => {
    const page = await search(feeds.url('/page.html'));
    expect(page.status).toBe(400);
    expect(page.body.error?.code).toBe('invalid_request');
    expect(page.body.error?.message).toBe('q: not a podcast feed: the address serves a web page (HTML)');
    const missing = await search(feeds.url('/missing.xml'));
    expect(missing.status).toBe(400);
    expect(missing.body.error?.message).toMatch(/^q: .*404/);
    const refused = await search('http://127.0.0.1:9/feed.xml');
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toMatch(/^q: /);
  });

  it("a directory link whose directory cannot be asked just now is a 502 to try again, not a bad query", async () => {
    // An Apple id nobody has: Podtext asks Apple's lookup, which this test's network cannot reach.
    const { status, body } = await search('https://podcasts.apple.com/us/podcast/nobody-has-this/id987654321');
    expect(status).toBe(502);
    expect(body.error?.code).toBe('upstream_failed');
    expect(body.error?.message).toBe('q: the directory lookup failed; try again later');
  });
});

describe('streaming-service links are refused: they do not publish the RSS feed', () => {
  it.each([
    ['https://open.spotify.com/show/4rOoJ6Egrf8K2IrywzwOMk', 'Spotify'],
    ['spotify:show:4rOoJ6Egrf8K2IrywzwOMk', 'Spotify'],
    ['https://music.amazon.com/podcasts/7e2b4fd3-8a8c-4d8e-b7c4-0c0f8ec7f0a1/the-daily', 'Amazon Music'],
    ['https://www.youtube.com/@TheDaily', 'YouTube'],
    ['https://music.youtube.com/playlist?list=PL123', 'YouTube'],
    ['https://www.iheart.com/podcast/1119-the-daily-12345/', 'iHeartRadio'],
    ['https://www.deezer.com/show/64421', 'Deezer'],
    ['https://www.pandora.com/podcast/the-daily/PC:1001', 'Pandora'],
    ['https://tunein.com/podcasts/News--Politics-Podcasts/The-Daily-p1065558/', 'TuneIn'],
    ['https://www.audible.com/pd/The-Daily-Podcast/B08JJR7RX1', 'Audible'],
  ])('%s', async (link, service) => {
    const { status, body } = await search(link);
    expect(status).toBe(400);
    expect(body.error?.code).toBe('unsupported_link');
    expect(body.error?.message).toContain(service);
    expect(body.error?.message).toMatch(/RSS feed/);
  });
});
