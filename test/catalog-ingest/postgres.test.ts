import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCharts } from '../../src/core/catalog/imports/apple-charts.js';
import { importPodcastIndex } from '../../src/core/catalog/imports/import-podcastindex.js';
import { hasPostgres } from '../support/databases.js';
import { fakeClock } from '../support/fake-clock.js';
import { startTestPodtext, type TestPodtext } from '../support/podtext.js';
import { type FeedServer, serve, startFeedServer } from './feed-server.js';
import { NEWSFEEDS_SAMPLE } from './generated-newsfeeds.js';

const FEED = readFileSync('test/fixtures/rss/apple-podcasters-guide-example.xml', 'utf8');

describe.skipIf(!hasPostgres())('on PostgreSQL', () => {
  let server: FeedServer;
  let a: TestPodtext;
  let b: TestPodtext;
  const clock = fakeClock('2026-03-10T12:00:00Z');

  beforeAll(async () => {
    server = await startFeedServer();
    a = await startTestPodtext({ clock, postgres: true, env: { OUTBOUND_ALLOW: server.endpoint } });
    // A second process on the same database.
    b = await startTestPodtext({ clock, databaseUrl: a.podtext.config.databaseUrl, env: { OUTBOUND_ALLOW: server.endpoint } });
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await server?.close();
  });

  it('adds feeds, and two processes refreshing at once never read one feed twice', async () => {
    const ids: bigint[] = [];
    for (let i = 0; i < 12; i++) {
      server.routes.set(`/pg-${i}.xml`, serve(FEED.replace(/<guid>([^<]*)<\/guid>/g, `<guid>$1#pg-${i}</guid>`)));
      ids.push((await a.podtext.services.catalogIngest.addFeedByUrl(server.url(`/pg-${i}.xml`))).feedId);
    }
    expect(await a.podtext.services.db.episode.count({ where: { showId: { in: ids } } })).toBe(36);
    clock.advance(2 * 3_600_000);
    server.seen.length = 0;
    const [x, y] = await Promise.all([a.podtext.services.catalogIngest.refreshDue(12), b.podtext.services.catalogIngest.refreshDue(12)]);
    expect(x.shows + y.shows).toBe(12);
    const paths = server.seen.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toHaveLength(12);
  });

  it('imports the Podcast Index CSV and a chart', async () => {
    const { db } = a.podtext.services;
    const { copyRows } = a.podtext.db;
    expect(await importPodcastIndex(db, NEWSFEEDS_SAMPLE, { clock, copyRows, batchSize: 300 })).toMatchObject({ rows: 1000, copied: 1000, finished: true });
    // Every row is there now: each batch's COPY fails and is upserted instead.
    expect(await importPodcastIndex(db, NEWSFEEDS_SAMPLE, { clock, copyRows, restart: true })).toMatchObject({ rows: 1000, copied: 0, finished: true });
    expect(await db.show.count({ where: { source: 'podcastindex' } })).toBe(1000);
    expect(await importCharts(db, 'test/fixtures/apple/itunes-rss-toppodcasts-limit100-genre1310.json', { clock })).toEqual({ genre: 'music', entries: 50 });
  });
});
