import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCharts } from '../../src/core/catalog/imports/apple-charts.js';
import { graphqlClient } from '../support/graphql.js';
import { type TestAccount, type TestPodtext, startTestPodtext } from '../support/podtext.js';
import {
  ChartsQuery,
  EpisodeInfoQuery,
  EpisodesQuery,
  SearchShowsQuery,
  ShowLookupQuery,
  ShowQuery,
  TrendingQuery,
} from '../graphql/operations.js';
import { dailyEpisodes, insertEpisodes, insertShows, markTranscribed } from './catalog-fixtures.js';

type Json = Record<string, unknown>;

let t: TestPodtext;
let a: TestAccount;
let gql: ReturnType<typeof graphqlClient>;
let ids: string[];

beforeAll(async () => {
  t = await startTestPodtext();
  gql = graphqlClient(t);
  a = await t.account();
  const db = t.podtext.services.db;
  await insertShows(db, [
    { id: 743229, title: 'The Daily', author: 'The New York Times', appleId: 1200361736, feedUrl: 'https://feeds.simplecast.com/54nAGcIl', popularity: 29, categories: ['News'] },
    { id: 2_000_000_000_001, title: 'Own Range Show', feedUrl: 'https://example.com/own.xml', categories: ['Comedy'] },
    { id: 5, title: 'Daily Boost', popularity: 10, categories: ['Education'] },
  ]);
  ids = await insertEpisodes(db, 743229, dailyEpisodes('daily', 30, new Date(Date.now() - 3_600_000)));
  await markTranscribed(db, ids[0]!, 999, 1200);
  await importCharts(db, fileURLToPath(new URL('../fixtures/apple/itunes-rss-toppodcasts-limit100-genre1310.json', import.meta.url)));
});
afterAll(() => t?.close());

const camel = (k: string) => k.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
/** The REST body with keys in GraphQL's spelling, to compare like with like. */
function camelise(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(camelise);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [camel(k), camelise(x)]));
  return v;
}

async function rest(path: string): Promise<{ status: number; body: Json }> {
  const res = await t.api('GET', path, { key: a.key });
  return { status: res.status, body: (await res.json()) as Json };
}

describe('REST and GraphQL discovery give the same answers', () => {
  it('search', async () => {
    const r = await rest('/search?q=the%20daly');
    const g = await gql(SearchShowsQuery, { q: 'the daly' }, a.key);
    expect(g.data?.search).toEqual(camelise(r.body));
    expect(g.data?.search.shows[0]?.feedId).toBe(743229);
  });

  it('show lookup', async () => {
    const r = await rest('/shows/lookup?apple_id=1200361736');
    const g = await gql(ShowLookupQuery, { appleId: 1200361736 }, a.key);
    expect(g.data?.showLookup).toEqual(camelise({ feed_id: r.body.feed_id, title: r.body.title, apple_id: r.body.apple_id, url: r.body.url, episodes_url: r.body.episodes_url }));
  });

  it('show, including ids past 2^31', async () => {
    for (const id of [743229, 2_000_000_000_001]) {
      const r = await rest(`/shows/${id}`);
      const g = await gql(ShowQuery, { feedId: id }, a.key);
      expect(g.data?.show).toEqual(camelise(r.body));
      expect(g.data?.show.feedId).toBe(id);
    }
  });

  it('episodes: the first page, then the next by cursor, match the REST list', async () => {
    const r = await rest('/shows/743229/episodes?max=30');
    const first = await gql(EpisodesQuery, { feedId: 743229, first: 20 }, a.key);
    const page = first.data!.episodes;
    expect(page.readyCount).toBe(r.body.ready_count);
    expect(page.truncated).toBe(r.body.truncated);
    expect(page.hasNextPage).toBe(true);
    expect(page.show).toEqual({ feedId: 743229, title: 'The Daily' });
    const next = await gql(EpisodesQuery, { feedId: 743229, first: 20, after: page.endCursor }, a.key);
    expect(next.data!.episodes.hasNextPage).toBe(false);
    const nodes = [...page.edges, ...next.data!.episodes.edges].map((e) => e.node);
    expect(nodes).toEqual(camelise(r.body.episodes));
  });

  it('episode info', async () => {
    const r = await rest(`/episodes/${ids[0]}`);
    const g = await gql(EpisodeInfoQuery, { transcriptId: ids[0]! }, a.key);
    expect(g.data?.episode).toEqual(camelise(r.body));
    expect(g.data?.episode.unlockCost).toBe(1);
  });

  it('charts, overall and by genre', async () => {
    for (const genre of [undefined, 'music']) {
      const r = await rest(genre ? `/charts?genre=${genre}` : '/charts');
      const g = await gql(ChartsQuery, { genre }, a.key);
      expect(g.data?.charts).toEqual(camelise(r.body));
    }
  });

  it('trending', async () => {
    const r = await rest('/trending?lang=all&max=10');
    const g = await gql(TrendingQuery, { lang: 'all', max: 10 }, a.key);
    const shows = (r.body.shows as Json[]).map((s) => ({ feedId: s.feed_id, title: s.title, categories: s.categories, language: s.language }));
    expect(g.data?.trending).toEqual({ categories: r.body.categories, shows });
    expect(shows[0]?.feedId).toBe(743229);
  });

  it('errors carry the same code on both', async () => {
    const cases: [string, () => Promise<{ errors?: readonly { extensions?: Record<string, unknown> }[] }>][] = [
      ['/search?q=https%3A%2F%2Fopen.spotify.com%2Fshow%2Fabc', () => gql(SearchShowsQuery, { q: 'https://open.spotify.com/show/abc' }, a.key)],
      ['/search?q=', () => gql(SearchShowsQuery, { q: '' }, a.key)],
      ['/shows/987654', () => gql(ShowQuery, { feedId: 987654 }, a.key)],
      ['/shows/1.5', () => gql(ShowQuery, { feedId: 1.5 }, a.key)],
      ['/shows/lookup', () => gql(ShowLookupQuery, {}, a.key)],
      ['/shows/743229/episodes?max=1001', () => gql(EpisodesQuery, { feedId: 743229, first: 1001 }, a.key)],
      ['/shows/987654/episodes', () => gql(EpisodesQuery, { feedId: 987654 }, a.key)],
      ['/episodes/XYZ', () => gql(EpisodeInfoQuery, { transcriptId: 'XYZ' }, a.key)],
      ['/episodes/0123456789abcdef', () => gql(EpisodeInfoQuery, { transcriptId: '0123456789abcdef' }, a.key)],
      ['/charts?genre=polka', () => gql(ChartsQuery, { genre: 'polka' }, a.key)],
      ['/trending?max=0', () => gql(TrendingQuery, { max: 0 }, a.key)],
    ];
    for (const [path, run] of cases) {
      const r = await rest(path);
      const g = await run();
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(g.errors?.[0]?.extensions?.code, path).toBe((r.body.error as Json).code);
    }
  });

  it('a GraphQL cursor from another show is refused', async () => {
    const first = await gql(EpisodesQuery, { feedId: 743229, first: 1 }, a.key);
    const other = await gql(EpisodesQuery, { feedId: 5, first: 1, after: first.data!.episodes.endCursor }, a.key);
    expect(other.errors?.[0]?.extensions?.code).toBe('invalid_request');
    const junk = await gql(EpisodesQuery, { feedId: 5, after: 'bm9wZQ' }, a.key);
    expect(junk.errors?.[0]?.extensions?.code).toBe('invalid_request');
  });
});
