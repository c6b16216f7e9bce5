import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCharts } from '../../src/core/catalog/imports/apple-charts.js';
import { REQUESTED_SHOW_ID } from '../../src/core/jobs/resolve-episodes.js';
import { type TestAccount, type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { insertEpisodes, insertShows } from './catalog-fixtures.js';

type Json = Record<string, unknown>;
type ErrorOut = { error: { code: string; message: string } };

const CHART = fileURLToPath(new URL('../fixtures/apple/itunes-rss-toppodcasts-limit100-genre1310.json', import.meta.url));
const DAY = 86_400_000;

let t: TestPodtext;
let a: TestAccount;

const get = async (path: string) => {
  const res = await t.api('GET', path, { key: a.key });
  return { status: res.status, body: (await res.json()) as Json & ErrorOut };
};

beforeAll(async () => {
  t = await startTestPodtext();
  a = await t.account();
  const db = t.podtext.services.db;
  await importCharts(db, CHART);
  await importCharts(db, CHART, { genre: 'overall' });
  await insertShows(db, [{ id: 77, title: 'No Jumper', appleId: 1001659715 }]);
});
afterAll(() => t?.close());

describe('GET /charts', () => {
  it('the overall chart: 100 entries by rank, lookup URLs, every valid genre listed', async () => {
    const r = await get('/charts');
    expect(r.status).toBe(200);
    expect(r.body.genre).toBeNull();
    const chart = r.body.chart as Json[];
    expect(chart).toHaveLength(100);
    expect(chart.map((e) => e.rank)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(chart[0]).toEqual({
      rank: 1,
      apple_id: expect.stringMatching(/^\d+$/),
      title: 'No Jumper',
      author: expect.any(String),
      artwork: expect.stringMatching(/^https:/),
      lookup_url: `http://podtext.test/api/v1/shows/lookup?apple_id=${chart[0]!.apple_id}`,
    });
    const genres = r.body.genres as { slug: string; name: string }[];
    expect(genres).toContainEqual({ slug: 'music', name: 'Music' });
    expect(genres).toContainEqual({ slug: 'true-crime', name: 'True Crime' });
  });

  it('a genre chart has 50 entries and names its genre', async () => {
    const r = await get('/charts?genre=music');
    expect(r.body.genre).toEqual({ slug: 'music', name: 'Music' });
    expect((r.body.chart as Json[]).length).toBe(50);
    const empty = await get('/charts?genre=true-crime');
    expect(empty.status).toBe(200);
    expect(empty.body.chart).toEqual([]);
  });

  it('an unknown genre is a 400 that lists the valid slugs', async () => {
    const r = await get('/charts?genre=polka');
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_request');
    expect(r.body.error.message).toMatch(/^genre: /);
    expect(r.body.error.message).toContain('music');
    expect(r.body.error.message).toContain('true-crime');
  });

  it('an import lists each show once, leaves out entries without a usable Apple id, and keeps the chart it has when Apple answers none', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-charts-'));
    try {
      const current = (results: unknown[]) => JSON.stringify({ feed: { title: 'Top Shows', results } });
      const odd = path.join(dir, 'odd.json');
      await writeFile(odd, current([
        { id: '1000101673', name: 'First', artistName: 'A', artworkUrl100: 'https://a.example/1.png' },
        { id: '1000101673', name: 'First again', artistName: 'A' },
        { id: 'abc', name: 'Not an id' },
        { name: 'No id at all' },
        { id: '1.5', name: 'Not a whole id' },
        { id: '1001659715', name: 'Second', artistName: null, artworkUrl100: null },
      ]));
      expect(await importCharts(t.podtext.services.db, odd, { genre: 'comedy' })).toEqual({ genre: 'comedy', entries: 2 });
      const comedy = (await get('/charts?genre=comedy')).body.chart as Json[];
      expect(comedy.map((e) => [e.rank, e.apple_id, e.title, e.author])).toEqual([[1, '1000101673', 'First', 'A'], [2, '1001659715', 'Second', '']]);

      const empty = path.join(dir, 'empty.json');
      await writeFile(empty, current([]));
      await expect(importCharts(t.podtext.services.db, empty, { genre: 'comedy' })).rejects.toMatchObject({ code: 'invalid_request' });
      expect((await get('/charts?genre=comedy')).body.chart).toEqual(comedy);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("an entry's lookup_url finds the show when the index has it", async () => {
    const chart = (await get('/charts')).body.chart as { apple_id: string; lookup_url: string }[];
    const noJumper = chart.find((e) => e.apple_id === '1001659715')!;
    const res = await t.request(new URL(noJumper.lookup_url).pathname + new URL(noJumper.lookup_url).search, { headers: { authorization: `Bearer ${a.key}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).feed_id).toBe(77);
  });
});

describe('GET /trending', () => {
  beforeAll(async () => {
    const db = t.podtext.services.db;
    const now = Date.now();
    await insertShows(db, [
      { id: 101, title: 'Three New Episodes', categories: ['News'] },
      { id: 102, title: 'Much Unlocked', categories: ['Comedy'] },
      { id: 103, title: 'Famous But Quiet', popularity: 29, categories: ['Comedy'] },
      { id: 104, title: 'Daily Grind', categories: ['Business'] },
      { id: 105, title: 'Requested A Lot', categories: ['Science'] },
      { id: 106, title: 'Deutsche Welle Sendung', language: 'de', categories: ['News'] },
      { id: 107, title: 'Dead But Busy', dead: true, categories: ['News'] },
      { id: 108, title: 'Old News', categories: ['News'] },
    ]);
    const recent = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ guid: `${prefix}-${i}`, publishedAt: new Date(now - (i + 1) * DAY / 2) }));
    await insertEpisodes(db, 101, recent('three', 3));
    const unlocked = await insertEpisodes(db, 102, recent('unl', 1));
    await insertEpisodes(db, 104, recent('grind', 10));
    const requested = await insertEpisodes(db, 105, [...recent('req', 1), { guid: 'req-old-1', publishedAt: new Date(now - 40 * DAY) }, { guid: 'req-old-2', publishedAt: new Date(now - 41 * DAY) }]);
    await insertEpisodes(db, 106, recent('dw', 7));
    await insertEpisodes(db, 107, recent('dead', 7));
    await insertEpisodes(db, 108, [{ guid: 'old-1', publishedAt: new Date(now - 30 * DAY) }]);
    for (let i = 0; i < 5; i++) {
      const other = await t.account();
      await db.unlock.create({ data: { accountId: other.accountId, transcriptId: unlocked[0]!, createdAt: new Date(now - DAY) } });
    }
    const jobId = randomUUID();
    await db.job.create({ data: { id: jobId, accountId: a.accountId, notifyEmail: a.email, total: 3, createdAt: new Date(now - 2 * DAY) } });
    await db.jobEpisode.createMany({
      data: requested.map((transcriptId, position) => ({ jobId, transcriptId, position, title: 'x', billedHours: 1, charged: 1 })),
    });
  });

  it('ranks by unlocks, requests and new episodes this week, with popularity as the prior', async () => {
    const r = await get('/trending');
    expect(r.status).toBe(200);
    // 2·ln6+ln2 = 4.28; 2·ln4+ln2 = 3.47; ln8 = 2.08; 1.5·pop(29) = 1.48; ln4 = 1.39; then nothing this week
    const ids = (r.body.shows as Json[]).map((s) => s.feed_id);
    expect(ids.slice(0, 5)).toEqual([102, 105, 104, 103, 101]);
    // Then the shows with nothing this week, by popularity and id.
    expect(ids.slice(5, 7)).toEqual([77, 108]);
    expect(ids).not.toContain(106);
    expect(r.body.categories).toEqual(expect.arrayContaining(['Comedy', 'News', 'Business', 'Science']));
    expect((r.body.categories as string[]).slice(0, 2)).toEqual(['Comedy', 'News']);
    expect((r.body.shows as Json[])[0]).toMatchObject({ title: 'Much Unlocked', url: 'http://podtext.test/shows/102', categories: ['Comedy'] });
  });

  it('filters by category (any case) and language; max bounds the list', async () => {
    const comedy = await get('/trending?category=comedy');
    expect((comedy.body.shows as Json[]).map((s) => s.feed_id)).toEqual([102, 103]);
    const de = await get('/trending?lang=de');
    expect((de.body.shows as Json[]).map((s) => s.feed_id)).toEqual([106]);
    const all = await get('/trending?lang=all&max=2');
    expect((all.body.shows as Json[]).map((s) => s.feed_id)).toEqual([102, 105]);
    const allWide = await get('/trending?lang=all&max=100');
    expect((allWide.body.shows as Json[]).map((s) => s.feed_id)).toContain(106);
    expect((allWide.body.shows as Json[]).map((s) => s.feed_id)).not.toContain(107);
  });

  it('never lists the holder of episodes requested by audio URL, whose links answer 404', async () => {
    const buyer = await t.account({ credits: 5 });
    const made = await t.api('POST', '/requests', { key: buyer.key, body: { episodes: [{ guid: `unknown-${randomUUID()}`, url: 'https://media.example/unknown.mp3' }] } });
    expect(made.status).toBe(200);
    // A list not asked for before (trending answers are cached for a minute).
    const wide = await get('/trending?lang=all&max=99');
    expect((wide.body.shows as Json[]).map((s) => s.feed_id)).not.toContain(Number(REQUESTED_SHOW_ID));
  });

  it('max is 1..100 and lang a language tag; otherwise 400 naming them', async () => {
    for (const [q, field] of [['max=0', 'max'], ['max=101', 'max'], ['max=x', 'max'], ['lang=%20%3B%20drop', 'lang']] as const) {
      const r = await get(`/trending?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.message.startsWith(`${field}:`)).toBe(true);
    }
  });
});
