import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogIngest } from '../../src/core/catalog/ingest/catalog-ingest.js';
import { createPodcastIndexClient, PodcastIndexError } from '../../src/core/catalog/imports/podcastindex-client.js';
import { createOutboundClient } from '../../src/infra/outbound/outbound-client.js';
import { fakeClock } from '../support/fake-clock.js';
import { startTestPodtext, type TestPodtext } from '../support/podtext.js';
import { type FeedServer, serve, startFeedServer } from './feed-server.js';
import { documentedResponse, podcastIndexStandIn } from './podcastindex-api.js';

const KEY = 'UXKCGDSYGUUEVQJSYDZH';
const SECRET = 'yzJe2eE7XV-3eY576dyRZ6wXyAbndh6LUrCZ8KN|';
const clock = fakeClock('2026-03-10T12:00:00Z');
const documentedFeed = documentedResponse('podcasts_byfeedid').feed as Record<string, unknown>;

let api: FeedServer;
let feeds: FeedServer;
let t: TestPodtext;
const known = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
  api = await startFeedServer();
  feeds = await startFeedServer();
  for (const path of ['/podcasts/byfeedurl', '/podcasts/byfeedid', '/podcasts/byitunesid', '/episodes/byfeedid', '/nope']) {
    api.routes.set(`/api/1.0${path}`, podcastIndexStandIn(KEY, SECRET, known, () => clock.now()));
  }
  known.set(documentedFeed.url as string, documentedFeed);
  t = await startTestPodtext({ clock });
});

afterAll(async () => {
  await t?.close();
  await api?.close();
  await feeds?.close();
});

const outbound = () => createOutboundClient({ allow: [api.endpoint, feeds.endpoint] });
const client = (key = KEY) => createPodcastIndexClient({ key, secret: SECRET, outbound: outbound(), baseUrl: api.url('/api/1.0'), clock });

describe('Podcast Index client', () => {
  it('looks feeds up with the documented authentication', async () => {
    const pi = client();
    const byUrl = await pi.byFeedUrl('https://feeds.theincomparable.com/batmanuniversity');
    expect(byUrl).toMatchObject({ id: 75075, title: 'Batman University', itunesId: 1441923632, url: 'https://feeds.theincomparable.com/batmanuniversity' });
    expect(await pi.byFeedId(75075)).toEqual(byUrl);
    expect(await pi.byItunesId(1441923632)).toEqual(byUrl);
    expect(await pi.byFeedUrl('https://example.com/unknown.xml')).toBeNull();
    const seen = api.seen.at(-1)!;
    expect(seen.headers['user-agent']).toBe('Podtext/0.1');
    expect(seen.headers['x-auth-date']).toBe(String(clock.now().getTime() / 1000));
  });

  it('reads a full page of episodes', async () => {
    const items = await client().episodesByFeedId(743229);
    expect(items).toHaveLength(999);
    expect(items[0]).toMatchObject({ feedId: 743229, guid: expect.any(String), enclosureUrl: expect.stringMatching(/^https:/) });
    expect(await client().episodesByFeedId(1)).toEqual([]);
  });

  it('reports a bad key as an error', async () => {
    await expect(client('WRONGKEY').byFeedId(75075)).rejects.toBeInstanceOf(PodcastIndexError);
    await expect(client('WRONGKEY').byFeedId(75075)).rejects.toMatchObject({ status: 401 });
  });

  it('keeps the key to itself when the API redirects to another host', async () => {
    api.routes.set('/moved/podcasts/byfeedid', (_req, res) => res.writeHead(302, { location: feeds.url('/elsewhere/podcasts/byfeedid?id=75075') }).end());
    feeds.routes.set('/elsewhere/podcasts/byfeedid', serve('{"status":"true","feed":[]}', 'application/json'));
    const pi = createPodcastIndexClient({ key: KEY, secret: SECRET, outbound: outbound(), baseUrl: api.url('/moved'), clock });

    expect(await pi.byFeedId(75075)).toBeNull();
    const elsewhere = feeds.seen.filter((s) => s.path === '/elsewhere/podcasts/byfeedid');
    expect(elsewhere).toHaveLength(1);
    expect(elsewhere[0]!.headers).not.toHaveProperty('x-auth-key');
    expect(elsewhere[0]!.headers).not.toHaveProperty('authorization');
  });

  it('gives a new feed its Podcast Index id and Apple id', async () => {
    const feedXml = readFileSync('test/fixtures/rss/apple-podcasters-guide-example.xml', 'utf8').replace(/<guid>([^<]*)<\/guid>/g, '<guid>$1#pi</guid>');
    feeds.routes.set('/batman.xml', serve(feedXml));
    feeds.routes.set('/unknown.xml', serve(feedXml.replace(/#pi</g, '#pi-unknown<')));
    known.set(feeds.url('/batman.xml'), { ...documentedFeed, id: 75076, url: feeds.url('/batman.xml') });
    const { db, log } = t.podtext.services;
    const ingest = createCatalogIngest({ db, outbound: outbound(), clock, log, podcastIndex: client(), onTranscriptStored: t.podtext.services.transcripts.stored });

    expect(await ingest.addFeedByUrl(feeds.url('/batman.xml'))).toEqual({ feedId: 75076n, created: true });
    expect(await db.show.findUniqueOrThrow({ where: { id: 75076n } })).toMatchObject({ appleId: 1441923632n, title: 'All About Everything' });
    expect((await ingest.addFeedByUrl(feeds.url('/unknown.xml'))).feedId).toBeGreaterThanOrEqual(1_000_000_000_000n);
    // By Apple id, through the index: the show is found, not added twice.
    expect(await ingest.addFeedByAppleId(1441923632n)).toEqual({ feedId: 75076n, created: false });
  });
});
