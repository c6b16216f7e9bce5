import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/core/catalog/feed/parse-feed.js';
import { OWN_FEED_ID_START } from '../../src/core/catalog/ingest/feed-id.js';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { searchKey } from '../../src/core/catalog/ingest/search-key.js';
import { startLocalServer, type LocalServer } from '../../src/infra/outbound/local-test-server.js';
import { fakeClock } from '../support/fake-clock.js';
import { startTestPodtext, type TestPodtext } from '../support/podtext.js';
import { type FeedServer, serve, startFeedServer } from './feed-server.js';

const RSS_DIR = path.resolve('test/fixtures/rss');
const FEEDS = readdirSync(RSS_DIR).filter((f) => /\.(xml|rss)$/.test(f)).sort();
const HOUR = 3_600_000;

let server: FeedServer;
let outsider: LocalServer;
let outsiderHits = 0;
let t: TestPodtext;
const clock = fakeClock('2026-03-10T12:00:00Z');

beforeAll(async () => {
  server = await startFeedServer();
  // A second local server that is NOT on the allow list: everything aimed at it must be refused.
  outsider = await startLocalServer((_req, res) => {
    outsiderHits += 1;
    res.writeHead(200, { 'content-type': 'text/vtt' }).end('WEBVTT\n\n00:00.000 --> 00:01.000\nsecret\n');
  });
  for (const file of FEEDS) server.routes.set(`/rss/${file}`, serve(readFileSync(path.join(RSS_DIR, file))));
  t = await startTestPodtext({ clock, env: { OUTBOUND_ALLOW: server.endpoint } });
});

afterAll(async () => {
  await t?.close();
  await server?.close();
  await outsider?.close();
});

describe('adding feeds', () => {
  it.each(FEEDS)('ingests %s through the guarded client', async (file) => {
    const { catalogIngest, db } = t.podtext.services;
    const expected = parseFeed(readFileSync(path.join(RSS_DIR, file)));
    const url = server.url(`/rss/${file}`);

    const added = await catalogIngest.addFeedByUrl(url);
    expect(added.created).toBe(true);
    expect(added.feedId).toBeGreaterThanOrEqual(OWN_FEED_ID_START);

    const show = await db.show.findUniqueOrThrow({ where: { id: added.feedId } });
    const episodes = await db.episode.findMany({ where: { showId: added.feedId } });
    const title = expected.show.title.trim() || '127.0.0.1';
    expect(show).toMatchObject({
      feedUrl: url,
      title,
      searchName: searchKey(title).name,
      searchCompact: searchKey(title).compact,
      language: expected.show.language,
      indexed: true,
      source: 'feed',
      episodeCountTracked: expected.episodes.length,
      truncated: false,
      fetchFailures: 0,
    });
    expect(episodes.map((e) => e.transcriptId).sort()).toEqual(expected.episodes.map((e) => e.transcriptId).sort());
    const newest = Math.max(...expected.episodes.map((e) => e.publishedAt?.getTime() ?? -Infinity));
    expect(show.newestEpisodeAt?.getTime() ?? -Infinity).toBe(newest);
    const wait = show.nextFetchAt!.getTime() - clock.now().getTime();
    expect(wait).toBeGreaterThanOrEqual(0.9 * HOUR);
    expect(wait).toBeLessThanOrEqual(1.1 * HOUR);
    // Publisher transcripts in these feeds live on hosts that cannot be reached here.
    expect(episodes.filter((e) => e.transcriptStatus === 'ready')).toHaveLength(0);

    expect(await catalogIngest.addFeedByUrl(url)).toEqual({ feedId: added.feedId, created: false });
  });

  it('keeps the 1,000 newest episodes of a bigger feed and says it is truncated', async () => {
    const { catalogIngest, db } = t.podtext.services;
    const items = Array.from({ length: 1005 }, (_, i) => {
      const day = new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toUTCString();
      return `<item><title>Part ${i}</title><guid>big-feed-${i}</guid><pubDate>${day}</pubDate><enclosure url="https://cdn.example.com/${i}.mp3" type="audio/mpeg" length="1"/></item>`;
    });
    server.routes.set('/big.xml', serve(`<?xml version="1.0"?><rss version="2.0"><channel><title>Big Feed</title>${items.join('')}</channel></rss>`));
    const { feedId } = await catalogIngest.addFeedByUrl(server.url('/big.xml'));
    const show = await db.show.findUniqueOrThrow({ where: { id: feedId } });
    expect(show).toMatchObject({ truncated: true, episodeCountTracked: 1000 });
    expect(await db.episode.count({ where: { showId: feedId, title: 'Part 4' } })).toBe(0);
    expect(await db.episode.count({ where: { showId: feedId, title: 'Part 5' } })).toBe(1);
  });

  it('tells a URL that leads to no feed from a feed server in trouble', async () => {
    server.routes.set('/page.html', serve('<html><body>hello</body></html>', 'text/html'));
    await expect(t.podtext.services.catalogIngest.addFeedByUrl(server.url('/page.html'))).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(t.podtext.services.catalogIngest.addFeedByUrl(server.url('/missing.xml'))).rejects.toMatchObject({ code: 'invalid_request' });
    await expect(t.podtext.services.catalogIngest.addFeedByUrl('https://no-such-host.invalid/feed.xml')).rejects.toMatchObject({ code: 'invalid_request' });
    server.routes.set('/broken.xml', (_req, res) => res.writeHead(503).end());
    await expect(t.podtext.services.catalogIngest.addFeedByUrl(server.url('/broken.xml'))).rejects.toMatchObject({ code: 'upstream_failed' });
    await expect(t.podtext.services.catalogIngest.addFeedByUrl('not a url')).rejects.toMatchObject({ code: 'invalid_request' });
  });
});

describe('SSRF', () => {
  it.each([
    () => outsider.url('/feed.xml'),
    () => `http://127.0.0.2:${server.port}/rss/${FEEDS[0]}`,
    () => `http://[::1]:${server.port}/rss/${FEEDS[0]}`,
    () => 'http://169.254.169.254/latest/meta-data/',
    () => 'http://10.0.0.1/feed.xml',
    () => 'file:///etc/passwd',
    () => 'gopher://127.0.0.1:5432/',
  ])('refuses a feed at a private address (%#)', async (url) => {
    const hits = outsiderHits;
    await expect(t.podtext.services.catalogIngest.addFeedByUrl(url())).rejects.toMatchObject({ code: 'invalid_request' });
    expect(outsiderHits).toBe(hits);
    expect(await t.podtext.services.db.show.count({ where: { feedUrl: url() } })).toBe(0);
  });

  it('adds a feed that moved permanently at its new address, once, whichever address is searched', async () => {
    const { catalogIngest, db } = t.podtext.services;
    const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>Moved Show</title>
      <item><title>One</title><guid>moved-show-1</guid><enclosure url="https://cdn.example.com/m1.mp3" type="audio/mpeg" length="1"/></item></channel></rss>`;
    server.routes.set('/new-home.xml', serve(Buffer.from(feed)));
    server.routes.set('/old-home.xml', (_req, res) => res.writeHead(301, { location: '/new-home.xml' }).end());
    const viaOld = await catalogIngest.addFeedByUrl(server.url('/old-home.xml'));
    expect(viaOld.created).toBe(true);
    expect((await db.show.findUniqueOrThrow({ where: { id: viaOld.feedId } })).feedUrl).toBe(server.url('/new-home.xml'));
    expect(await catalogIngest.addFeedByUrl(server.url('/new-home.xml'))).toEqual({ feedId: viaOld.feedId, created: false });
    expect(await catalogIngest.addFeedByUrl(server.url('/old-home.xml'))).toEqual({ feedId: viaOld.feedId, created: false });
    expect(await db.show.count({ where: { title: 'Moved Show' } })).toBe(1);
  });

  it('finds the show it already has when the same feed comes from another address (a mirror, tracking parameters), instead of adding an empty second one', async () => {
    const { catalogIngest, db } = t.podtext.services;
    const items = [1, 2, 3].map((n) => `<item><title>Part ${n}</title><guid>mirrored-show-${n}</guid><enclosure url="https://cdn.example.com/p${n}.mp3" type="audio/mpeg" length="1"/></item>`).join('');
    const feed = Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel><title>Mirrored Show</title>${items}</channel></rss>`);
    server.routes.set('/mirrored.xml', serve(feed));
    server.routes.set('/mirror/copy.xml', serve(feed));
    const first = await catalogIngest.addFeedByUrl(server.url('/mirrored.xml'));
    expect(first.created).toBe(true);
    expect(await catalogIngest.addFeedByUrl(server.url('/mirror/copy.xml'))).toEqual({ feedId: first.feedId, created: false });
    // Searched as a user pastes it, tracking parameters and all.
    const a = await t.account();
    const res = await t.api('GET', `/search?q=${encodeURIComponent(server.url('/mirrored.xml?utm_source=newsletter'))}`, { key: a.key });
    expect(res.status).toBe(200);
    const found = (await res.json()) as { shows: { feed_id: number }[] };
    expect(found.shows.map((s) => String(s.feed_id))).toEqual([String(first.feedId)]);
    const listed = (await (await t.api('GET', `/shows/${first.feedId}/episodes`, { key: a.key })).json()) as { episodes: unknown[] };
    expect(listed.episodes).toHaveLength(3);
    expect(await db.show.count({ where: { title: 'Mirrored Show' } })).toBe(1);
  });

  it('finds a directory show not read yet under another spelling of its feed URL (https, a trailing slash), as Apple\'s lookup or an operator gives it, instead of a second show taking its episodes', async () => {
    const { catalogIngest, db } = t.podtext.services;
    const items = [1, 2].map((n) => `<item><title>Spelled ${n}</title><guid>spelled-show-${n}</guid><enclosure url="https://cdn.example.com/s${n}.mp3" type="audio/mpeg" length="1"/></item>`).join('');
    const feed = Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel><title>Spelled Show</title>${items}</channel></rss>`);
    // The host answers both spellings, as most do.
    server.routes.set('/spelled.xml', serve(feed));
    server.routes.set('/spelled.xml/', serve(feed));
    const url = server.url('/spelled.xml');
    const key = searchKey('Spelled Show');
    await db.show.create({ data: { id: 4261n, title: 'Spelled Show', feedUrl: url, source: 'podcastindex', indexed: true, nextFetchAt: clock.now(), searchName: key.name, searchCompact: key.compact } });

    for (const spelling of [`${url}/`, url.replace(/^http:/, 'https:')]) {
      expect(await catalogIngest.addFeedByUrl(spelling), spelling).toEqual({ feedId: 4261n, created: false });
    }
    expect(await db.episode.count({ where: { showId: 4261n } })).toBe(2);
    expect(await db.show.count({ where: { title: 'Spelled Show' } })).toBe(1);
  });

  it('still adds a different show that shares an episode or two with one already in the catalog', async () => {
    const { catalogIngest } = t.podtext.services;
    const item = (guid: string) => `<item><title>${guid}</title><guid>${guid}</guid><enclosure url="https://cdn.example.com/${guid}.mp3" type="audio/mpeg" length="1"/></item>`;
    server.routes.set('/main-show.xml', serve(Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel><title>Main Show</title>${item('main-1')}${item('main-2')}</channel></rss>`)));
    server.routes.set('/guest-show.xml', serve(Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel><title>Guest Show</title>${item('main-1')}${item('guest-1')}${item('guest-2')}${item('guest-3')}</channel></rss>`)));
    const main = await catalogIngest.addFeedByUrl(server.url('/main-show.xml'));
    const guest = await catalogIngest.addFeedByUrl(server.url('/guest-show.xml'));
    expect(guest.created).toBe(true);
    expect(guest.feedId).not.toBe(main.feedId);
  });

  it('a directory-only show whose first read failed is read again on a request only once its backoff has passed', async () => {
    const { db } = t.podtext.services;
    let hits = 0;
    server.routes.set('/failing.xml', (_req, res) => {
      hits += 1;
      res.writeHead(500).end();
    });
    const id = 7_700_001n;
    await db.show.create({
      data: { id, title: 'Directory Only', feedUrl: server.url('/failing.xml'), indexed: true, source: 'podcastindex', searchName: 'directory only', searchCompact: 'directoryonly', nextFetchAt: new Date(clock.now().getTime() + HOUR) },
    });
    const a = await t.account();
    for (let i = 0; i < 3; i++) expect((await t.api('GET', `/shows/${id}/episodes`, { key: a.key })).status).toBe(200);
    expect(hits).toBe(1);
    const { nextFetchAt } = await db.show.findUniqueOrThrow({ where: { id } });
    clock.set(new Date(nextFetchAt!.getTime() + 1000));
    try {
      expect((await t.api('GET', `/shows/${id}/episodes`, { key: a.key })).status).toBe(200);
      expect(hits).toBe(2);
    } finally {
      clock.set('2026-03-10T12:00:00Z');
    }
  });

  it('lists episodes that share a date, or have none, in the feed\'s own order', async () => {
    const { catalogIngest } = t.podtext.services;
    const item = (n: number, date: string | null) =>
      `<item><title>Part ${n}</title><guid>same-date-${n}</guid>${date ? `<pubDate>${date}</pubDate>` : ''}<enclosure url="https://cdn.example.com/sd${n}.mp3" type="audio/mpeg" length="1"/></item>`;
    const day = 'Tue, 03 Mar 2026 06:00:00 GMT';
    // Newest first, as feeds list them: a season of eight dropped at once, then three without a date.
    const items = [8, 7, 6, 5, 4, 3, 2, 1].map((n) => item(n, day)).concat([item(103, null), item(102, 'not a date'), item(101, null)]);
    server.routes.set('/same-date.xml', serve(Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel><title>Dropped at once</title>${items.join('')}</channel></rss>`)));
    const { feedId } = await catalogIngest.addFeedByUrl(server.url('/same-date.xml'));
    const a = await t.account();
    const titles = async (query: string) => ((await (await t.api('GET', `/shows/${feedId}/episodes${query}`, { key: a.key })).json()) as { episodes: { title: string }[] }).episodes.map((e) => e.title);
    const expected = ['Part 8', 'Part 7', 'Part 6', 'Part 5', 'Part 4', 'Part 3', 'Part 2', 'Part 1', 'Part 103', 'Part 102', 'Part 101'];
    expect(await titles('')).toEqual(expected);
    expect(await titles('?max=3')).toEqual(expected.slice(0, 3));
    const gql = await t.gql<{ episodes: { edges: { node: { title: string } }[] } }>('query ($id: Float!) { episodes(feedId: $id, first: 11) { edges { node { title } } } }', { id: Number(feedId) }, a.key);
    expect(gql.body.data?.episodes.edges.map((e) => e.node.title)).toEqual(expected);
  });

  it('reads a feed without an encoding declaration in the charset its server names, on adding it and on every refresh', async () => {
    const { catalogIngest, db } = t.podtext.services;
    const feed = (title: string) => Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title>
      <item><title>Été à Montréal</title><guid>latin1-served-1</guid><enclosure url="https://cdn.example.com/l1.mp3" type="audio/mpeg" length="1"/></item></channel></rss>`, 'latin1');
    server.routes.set('/latin1-served.xml', serve(feed('Ràdio Café'), 'application/rss+xml; charset=ISO-8859-1'));
    const { feedId } = await catalogIngest.addFeedByUrl(server.url('/latin1-served.xml'));
    expect(await db.show.findUniqueOrThrow({ where: { id: feedId } })).toMatchObject({ title: 'Ràdio Café' });
    expect(await db.episode.findFirstOrThrow({ where: { showId: feedId } })).toMatchObject({ title: 'Été à Montréal' });
    // A server that calls UTF-8 bytes Latin-1 (a default left in its configuration) is not believed.
    server.routes.set('/latin1-served.xml', serve(Buffer.from('<?xml version="1.0"?><rss version="2.0"><channel><title>Ràdio Café</title><item><title>Hivern à Girona</title><guid>latin1-served-2</guid><enclosure url="https://cdn.example.com/l2.mp3" type="audio/mpeg" length="1"/></item></channel></rss>'), 'text/xml; charset=iso-8859-1'));
    await catalogIngest.refreshShow(feedId);
    expect(await db.episode.findUniqueOrThrow({ where: { transcriptId: transcriptIdFor('latin1-served-2') } })).toMatchObject({ title: 'Hivern à Girona' });
  });

  it('lists audio addresses a transcription request takes: relative ones resolved against the feed, none for ftp: or an empty one', async () => {
    const item = (n: number, url: string) => `<item><title>Take ${n}</title><guid>addr-${n}</guid><pubDate>Tue, 0${n} Mar 2026 06:00:00 GMT</pubDate><enclosure url="${url}" type="audio/mpeg" length="1"/></item>`;
    const items = [item(4, '/media/four.mp3'), item(3, 'three.mp3'), item(2, 'ftp://files.example/two.mp3'), item(1, '')];
    server.routes.set('/shows/addresses.xml', serve(Buffer.from(`<?xml version="1.0"?><rss version="2.0"><channel><title>Addresses</title>${items.join('')}</channel></rss>`)));
    const { feedId } = await t.podtext.services.catalogIngest.addFeedByUrl(server.url('/shows/addresses.xml'));
    const a = await t.account({ credits: 5 });
    const { episodes } = (await (await t.api('GET', `/shows/${feedId}/episodes`, { key: a.key })).json()) as { episodes: { guid: string; audio_url: string }[] };
    // An episode without usable audio lists an empty address, as one without an enclosure always has.
    expect(episodes.map((e) => e.audio_url)).toEqual([server.url('/media/four.mp3'), server.url('/shows/three.mp3'), '', '']);
    // What the list gives is what a request takes.
    const dry = await t.api('POST', '/requests', { key: a.key, body: { dry_run: true, episodes: episodes.slice(0, 2).map((e) => ({ guid: e.guid, url: e.audio_url })) } });
    expect(dry.status).toBe(200);
  });

  it('refuses an endless feed as too large, saying so', async () => {
    server.routes.set('/endless.xml', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      const chunk = Buffer.alloc(1 << 20, 'a');
      const more = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', more);
      };
      res.write('<?xml version="1.0"?><rss version="2.0"><channel><title>');
      more();
    });
    await expect(t.podtext.services.catalogIngest.addFeedByUrl(server.url('/endless.xml'))).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/url: the feed is larger than 15 MB/) });
  });

  it('refuses an allowed server redirecting to a private one', async () => {
    server.routes.set('/moved.xml', (_req, res) => res.writeHead(301, { location: outsider.url('/feed.xml') }).end());
    const hits = outsiderHits;
    await expect(t.podtext.services.catalogIngest.addFeedByUrl(server.url('/moved.xml'))).rejects.toMatchObject({ code: 'invalid_request' });
    expect(outsiderHits).toBe(hits);
  });

  it('refuses a publisher transcript at a private address and leaves the episode without one', async () => {
    const { catalogIngest, db } = t.podtext.services;
    const feed = `<?xml version="1.0"?>
      <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Sneaky</title>
        <item><title>One</title><guid>sneaky-1</guid><enclosure url="https://cdn.example.com/1.mp3" type="audio/mpeg" length="1"/>
          <podcast:transcript url="${outsider.url('/secret.vtt')}" type="text/vtt"/></item>
        <item><title>Two</title><guid>sneaky-2</guid><enclosure url="https://cdn.example.com/2.mp3" type="audio/mpeg" length="1"/>
          <podcast:transcript url="http://169.254.169.254/latest/meta-data/" type="text/plain"/></item>
      </channel></rss>`;
    server.routes.set('/sneaky.xml', serve(feed));
    const hits = outsiderHits;
    const { feedId } = await catalogIngest.addFeedByUrl(server.url('/sneaky.xml'));
    expect(outsiderHits).toBe(hits);
    const episodes = await db.episode.findMany({ where: { showId: feedId }, include: { transcript: true } });
    expect(episodes).toHaveLength(2);
    for (const e of episodes) {
      expect(e.transcriptStatus).toBe('none');
      expect(e.transcript).toBeNull();
    }
    const queue = await db.publisherTranscriptFetch.findMany({ where: { showId: feedId } });
    expect(queue).toHaveLength(2);
    for (const q of queue) {
      // Refused for good: not retried until the feed names another URL.
      expect(q.nextAttemptAt).toBeNull();
      expect(q.lastError).toMatch(/blocked_address|not a public address|public addresses/);
    }
  });
});
