import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLE_CATEGORIES, genreSlug } from '../../src/core/catalog/imports/apple-categories.js';
import { importCharts, OVERALL_CHART } from '../../src/core/catalog/imports/apple-charts.js';
import { lookupApple } from '../../src/core/catalog/imports/apple-lookup.js';
import { createOutboundClient } from '../../src/infra/outbound/outbound-client.js';
import { fakeClock } from '../support/fake-clock.js';
import { startTestPodtext, type TestPodtext } from '../support/podtext.js';
import { type FeedServer, serve, startFeedServer } from './feed-server.js';

const LEGACY_FILE = 'test/fixtures/apple/itunes-rss-toppodcasts-limit100-genre1310.json';
const LEGACY = JSON.parse(readFileSync(LEGACY_FILE, 'utf8'));
const LOOKUP = readFileSync('test/fixtures/apple/itunes-lookup-1535809341-podcastEpisode.json');
const CATEGORIES = JSON.parse(readFileSync('test/fixtures/apple/apple-podcast-categories-names.json', 'utf8'));

/**
 * The current marketing-tools chart shape ({feed:{results:[…]}}), of which no
 * capture was found, built here from the legacy capture's entries.
 */
function currentShapeChart() {
  return {
    feed: {
      title: 'Top Shows',
      id: 'https://rss.marketingtools.apple.com/api/v2/us/podcasts/top/100/podcasts.json',
      results: LEGACY.feed.entry.map((e: Record<string, any>) => ({
        artistName: e['im:artist'].label,
        id: e.id.attributes['im:id'],
        name: e['im:name'].label,
        kind: 'podcasts',
        artworkUrl100: e['im:image'][2].label.replace('170x170', '100x100'),
        genres: [{ genreId: e.category.attributes['im:id'], name: e.category.attributes.label, url: e.category.attributes.scheme }],
        url: e.link.attributes.href,
      })),
    },
  };
}

let server: FeedServer;
let t: TestPodtext;
const clock = fakeClock('2026-03-10T12:00:00Z');

beforeAll(async () => {
  server = await startFeedServer();
  server.routes.set('/api/v2/us/podcasts/top/100/podcasts.json', serve(JSON.stringify(currentShapeChart()), 'application/json'));
  server.routes.set('/lookup', (req, res) => {
    const id = new URL(req.url ?? '/', 'http://x').searchParams.get('id');
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
    res.end(id === '1535809341' ? LOOKUP : JSON.stringify({ resultCount: 0, results: [] }));
  });
  t = await startTestPodtext({ clock, env: { OUTBOUND_ALLOW: server.endpoint } });
});

afterAll(async () => {
  await t?.close();
  await server?.close();
});

describe('Apple charts', () => {
  it('ships the published category tree', () => {
    expect(APPLE_CATEGORIES).toEqual(CATEGORIES);
  });

  it('imports a legacy genre chart: 50 entries, the genre list with slugs and the genre ids it reveals', async () => {
    const { db } = t.podtext.services;
    expect(await importCharts(db, LEGACY_FILE, { clock })).toEqual({ genre: 'music', entries: 50 });
    const chart = await db.chartEntry.findMany({ where: { genreSlug: 'music' }, orderBy: { rank: 'asc' } });
    expect(chart).toHaveLength(50);
    expect(chart[0]).toMatchObject({
      rank: 1,
      appleId: 1001659715n,
      title: 'No Jumper',
      author: 'No Jumper',
      artwork: expect.stringContaining('170x170bb.png'),
      fetchedAt: clock.now(),
    });
    expect(chart.map((e) => e.rank)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));

    const genres = await db.chartGenre.findMany();
    expect(genres).toHaveLength(CATEGORIES.reduce((n: number, c: { subcategories: string[] }) => n + 1 + c.subcategories.length, 0));
    const slug = (s: string) => genres.find((g) => g.slug === s);
    expect(slug('true-crime')).toMatchObject({ name: 'True Crime' });
    expect(slug('health-fitness')).toMatchObject({ name: 'Health & Fitness' });
    expect(slug('tv-film')).toMatchObject({ name: 'TV & Film' });
    expect(slug('non-profit')).toMatchObject({ name: 'Non-Profit' });
    expect(slug('music')).toMatchObject({ appleGenreId: 1310 });
    expect(slug('music-interviews')).toMatchObject({ appleGenreId: 1525 });
    for (const g of genres) expect(g.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('keeps 100 entries for the overall chart, and replaces a chart on re-import', async () => {
    const { db } = t.podtext.services;
    expect(await importCharts(db, LEGACY_FILE, { clock, genre: OVERALL_CHART })).toEqual({ genre: OVERALL_CHART, entries: 100 });
    expect(await importCharts(db, LEGACY_FILE, { clock, genre: OVERALL_CHART })).toEqual({ genre: OVERALL_CHART, entries: 100 });
    expect(await db.chartEntry.count({ where: { genreSlug: OVERALL_CHART } })).toBe(100);
    await expect(importCharts(db, LEGACY_FILE, { genre: 'no-such-genre' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('imports the current chart shape from a URL through the guarded client', async () => {
    const { db, outbound } = t.podtext.services;
    clock.advance(86_400_000);
    const url = server.url('/api/v2/us/podcasts/top/100/podcasts.json');
    expect(await importCharts(db, url, { outbound, clock })).toEqual({ genre: OVERALL_CHART, entries: 100 });
    const top = await db.chartEntry.findMany({ where: { genreSlug: OVERALL_CHART }, orderBy: { rank: 'asc' } });
    expect(top[99]).toMatchObject({ rank: 100, appleId: BigInt(LEGACY.feed.entry[99].id.attributes['im:id']), fetchedAt: clock.now() });
    expect(top[0].artwork).toContain('100x100bb');
    await expect(importCharts(db, 'http://169.254.169.254/chart.json', { outbound })).rejects.toMatchObject({ code: 'upstream_failed' });
  });

  it('slugs genre names', () => {
    expect(['True Crime', 'Religion & Spirituality', 'Self-Improvement', 'Pets & Animals', 'Éducation'].map(genreSlug)).toEqual([
      'true-crime', 'religion-spirituality', 'self-improvement', 'pets-animals', 'education',
    ]);
  });
});

describe('Apple lookup', () => {
  it('reads the podcast of a lookup answer', async () => {
    const outbound = createOutboundClient({ allow: [server.endpoint] });
    const show = await lookupApple(outbound, 1535809341, { baseUrl: server.url('/') });
    expect(show).toEqual({
      appleId: 1535809341,
      title: 'The Joe Budden Podcast',
      author: 'The Joe Budden Network',
      feedUrl: 'https://jbpod.libsyn.com/applepodcast',
      artwork: expect.stringContaining('600x600bb.jpg'),
      genres: ['Music'],
      genreIds: [1310],
      episodeCount: 381,
      explicit: false,
      releaseDate: '2023-04-15T07:00:00Z',
      storeUrl: 'https://podcasts.apple.com/us/podcast/the-joe-budden-podcast/id1535809341?uo=4',
    });
    expect(server.seen.at(-1)!.path).toBe('/lookup');
    expect(await lookupApple(outbound, 1, { baseUrl: server.url('/') })).toBeNull();
  });

  it('goes through the address guard', async () => {
    await expect(lookupApple(createOutboundClient(), 1535809341, { baseUrl: server.url('/') })).rejects.toMatchObject({ code: 'blocked_address' });
  });
});
