import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNameSearch } from '../../src/core/catalog/discovery/search-index/name-search.js';
import { importCharts } from '../../src/core/catalog/imports/apple-charts.js';
import { searchKey } from '../../src/core/catalog/ingest/search-key.js';
import { createLogger } from '../../src/infra/logger.js';
import { type LocalServer, startLocalServer } from '../../src/infra/outbound/local-test-server.js';
import { hasPostgres } from '../support/databases.js';
import { graphqlClient } from '../support/graphql.js';
import { type TestAccount, type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { EpisodesQuery, SearchShowsQuery } from '../graphql/operations.js';
import { SEARCH_TARGETS, dailyEpisodes, insertEpisodes, markTranscribed, seedSearchCorpus } from './catalog-fixtures.js';

type Json = Record<string, unknown>;

describe.skipIf(!hasPostgres())('discovery on PostgreSQL', () => {
  let feeds: LocalServer;
  let a: TestPodtext;
  let b: TestPodtext;
  let key: TestAccount;

  beforeAll(async () => {
    const rss = await readFile(new URL('../fixtures/rss/apple-podcasters-guide-example.xml', import.meta.url));
    feeds = await startLocalServer((_req, res) => void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss));
    a = await startTestPodtext({ postgres: true, env: { OUTBOUND_ALLOW: feeds.endpoint } });
    // A second API process on the same database, with its own search index.
    b = await startTestPodtext({ databaseUrl: a.podtext.config.databaseUrl, env: { OUTBOUND_ALLOW: feeds.endpoint } });
    const db = a.podtext.services.db;
    await seedSearchCorpus(db);
    const ids = await insertEpisodes(db, SEARCH_TARGETS.daily.id, dailyEpisodes('daily', 1200, new Date(Date.now() - 3_600_000)));
    await markTranscribed(db, ids[0]!);
    await importCharts(db, fileURLToPath(new URL('../fixtures/apple/itunes-rss-toppodcasts-limit100-genre1310.json', import.meta.url)));
    key = await a.account();
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await feeds?.close();
  });

  const get = async (t: TestPodtext, path: string) => {
    const res = await t.api('GET', path, { key: key.key });
    return { status: res.status, body: (await res.json()) as Json };
  };

  it('name search ranks the same way', async () => {
    for (const [q, target] of [['the daly', SEARCH_TARGETS.daily], ['dhunplugged', SEARCH_TARGETS.dh], ['joe rogen', SEARCH_TARGETS.rogan], ['lennys podcast', SEARCH_TARGETS.lenny]] as const) {
      const r = await get(a, `/search?q=${encodeURIComponent(q)}`);
      expect((r.body.shows as Json[])[0]?.title, q).toBe(target.title);
    }
  });

  it('episode lists, episode info, lookup, charts and trending answer as on PGlite', async () => {
    const list = await get(a, `/shows/${SEARCH_TARGETS.daily.id}/episodes?max=1000`);
    expect((list.body.episodes as Json[]).length).toBe(1000);
    expect(list.body).toMatchObject({ ready_count: 1, truncated: true });
    const first = (list.body.episodes as Json[])[0]!;
    expect(first.transcript_status).toBe('ready');
    expect((await get(a, `/episodes/${first.transcript_id}`)).body).toMatchObject({ transcript_status: 'ready', unlock_cost: 1 });
    expect((await get(a, '/shows/lookup?apple_id=1200361736')).body.feed_id).toBe(SEARCH_TARGETS.daily.id);
    expect(((await get(a, '/charts?genre=music')).body.chart as Json[]).length).toBe(50);
    const trending = await get(a, '/trending?max=5');
    expect((trending.body.shows as Json[])[0]?.feed_id).toBe(SEARCH_TARGETS.daily.id);
    const g = await graphqlClient(a)(EpisodesQuery, { feedId: SEARCH_TARGETS.daily.id, first: 3 }, key.key);
    expect(g.data?.episodes.edges.map((e) => e.node.transcriptId)).toEqual((list.body.episodes as Json[]).slice(0, 3).map((e) => e.transcript_id));
  });

  it('a feed one process adds is found by the other: by URL at once, by name once its index pulls the change', async () => {
    const elsewhere = createNameSearch({ db: b.podtext.services.db, log: createLogger('silent'), options: { refreshSeconds: 0 } });
    const k = searchKey('all about everything');
    await elsewhere.search(k.name, k.compact, 1); // loaded before the feed exists
    const added = await get(a, `/search?q=${encodeURIComponent(feeds.url('/pg-feed.xml'))}`);
    const feedId = (added.body.shows as Json[])[0]!.feed_id;
    expect((await get(b, `/search?q=${encodeURIComponent(feeds.url('/pg-feed.xml'))}`)).body.shows).toEqual(added.body.shows);
    expect((await graphqlClient(a)(SearchShowsQuery, { q: 'all about everything' }, key.key)).data?.search.shows[0]?.feedId).toBe(feedId);
    await elsewhere.search(k.name, k.compact, 1);
    await elsewhere.settle();
    expect((await elsewhere.search(k.name, k.compact, 1))[0]?.id).toBe(feedId);
  });
});
