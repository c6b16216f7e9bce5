import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvRecords } from '../../src/core/catalog/imports/csv-records.js';
import { deferShowIndexes, restoreDeferredIndexes } from '../../src/core/catalog/imports/deferred-indexes.js';
import { importPodcastIndex } from '../../src/core/catalog/imports/import-podcastindex.js';
import { searchKey } from '../../src/core/catalog/ingest/search-key.js';
import { fakeClock } from '../support/fake-clock.js';
import { startTestPodtext, type TestPodtext } from '../support/podtext.js';
import { type FeedServer, serve, startFeedServer } from './feed-server.js';
import { NEWSFEEDS_SAMPLE, writeGeneratedNewsfeeds } from './generated-newsfeeds.js';
import { SAMPLE_CATEGORIES, writeSqliteDump } from './sqlite-dump.js';

const DAY = 86_400_000;
let t: TestPodtext;
let dir: string;
let server: FeedServer;
const clock = fakeClock('2026-03-10T12:00:00Z');
const db = () => t.podtext.services.db;
// Every import here goes through the bulk copy, so its fallback keeps each rule.
const copy = () => ({ clock, copyRows: t.podtext.db.copyRows });

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-pi-import-'));
  server = await startFeedServer();
  t = await startTestPodtext({ clock, env: { OUTBOUND_ALLOW: server.endpoint } });
});

afterAll(async () => {
  await t?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

async function showIndexes(): Promise<string[]> {
  const rows = await db().$queryRawUnsafe<{ indexname: string }[]>(`SELECT indexname FROM pg_indexes WHERE tablename = 'shows' ORDER BY indexname`);
  return rows.map((r) => r.indexname);
}

/** A newsfeeds CSV in `dir` with the sample's columns, holding `rows` (columns left out are NULL). */
async function newsfeedsCsv(name: string, rows: Record<string, string>[]): Promise<string> {
  const file = path.join(dir, name);
  const header = (await readFile(NEWSFEEDS_SAMPLE, 'utf8')).split('\n')[0]!;
  const columns = header.split(',').map((c) => JSON.parse(c) as string);
  const row = (values: Record<string, string>) => columns.map((c) => (c in values ? `"${values[c]}"` : 'NULL')).join(',');
  await writeFile(file, [header, ...rows.map(row)].join('\n'));
  return file;
}

const snapshot = () => db().show.findMany({ where: { source: 'podcastindex' }, orderBy: { id: 'asc' } });

describe('Podcast Index CSV (newsfeeds export)', () => {
  it('has the columns of the published newsfeeds table', async () => {
    const ddl = await readFile('test/fixtures/podcastindex/mysql-newsfeeds-create-table.sql', 'utf8');
    const tableColumns = [...ddl.matchAll(/^\s+`(\w+)` /gm)].map((m) => m[1]);
    const header = (await csvRecords((async function* () { yield (await readFile(NEWSFEEDS_SAMPLE, 'utf8')).split('\n')[0]; })()).next()).value!;
    expect(tableColumns).toEqual(expect.arrayContaining(header as string[]));
  });

  it('imports the sample, every row a show', async () => {
    const progress: number[] = [];
    const result = await importPodcastIndex(db(), NEWSFEEDS_SAMPLE, { ...copy(), batchSize: 250, onProgress: (p) => progress.push(p.rows) });
    expect(result).toMatchObject({ format: 'csv', rows: 1000, totalRows: 1000, copied: 1000, skipped: 0, finished: true, alreadyDone: false });
    expect(progress).toEqual([250, 500, 750, 1000]);
    expect(await db().show.count({ where: { source: 'podcastindex' } })).toBe(1000);

    const rahdo = await db().show.findUniqueOrThrow({ where: { id: 2n } });
    expect(rahdo).toMatchObject({
      title: 'Rahdo Talks Through',
      author: 'Richard Ham',
      description: 'A podcast all about boardgames, hosted by Richard "Rahdo" Ham',
      feedUrl: 'https://anchor.fm/s/19ccb320/podcast/rss',
      website: 'https://patreon.com/rahdo',
      appleId: 1000016089n,
      language: 'en',
      itunesType: 'episodic',
      explicit: false,
      indexed: true,
      dead: false,
      source: 'podcastindex',
      searchName: 'rahdo talks through',
      searchCompact: 'rahdotalksthrough',
      newestEpisodeAt: new Date(1599770045 * 1000),
      lastFetchedAt: null,
    });
    const shows = await snapshot();
    for (const show of shows) expect(show.searchName).toBe(searchKey(show.title).name);
    // First reads are spread over the next day, not all at once.
    const waits = shows.map((s) => s.nextFetchAt!.getTime() - clock.now().getTime());
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...waits)).toBeLessThan(DAY);
    expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(DAY / 2);
    expect(await db().importProgress.findUniqueOrThrow({ where: { name: result.name } })).toMatchObject({ rowsDone: 1000n, position: 1000n });
  });

  it('skips a finished file, and rewriting it changes nothing', async () => {
    const before = await snapshot();
    expect(await importPodcastIndex(db(), NEWSFEEDS_SAMPLE, copy())).toMatchObject({ rows: 0, totalRows: 1000, alreadyDone: true });
    clock.advance(DAY);
    // Every row exists: no batch can be copied, each is upserted and changes nothing.
    expect(await importPodcastIndex(db(), NEWSFEEDS_SAMPLE, { ...copy(), restart: true })).toMatchObject({ rows: 1000, copied: 0, finished: true });
    expect(await snapshot()).toEqual(before);
  });

  it('resumes after a stop where it left off', async () => {
    const file = path.join(dir, 'newsfeeds-2500.csv');
    await writeGeneratedNewsfeeds(file, 2500, 10);
    const stop = new AbortController();
    const first = await importPodcastIndex(db(), file, {
      ...copy(), batchSize: 400, signal: stop.signal, onProgress: (p) => p.rows >= 800 && stop.abort(),
    });
    expect(first).toMatchObject({ rows: 800, totalRows: 800, finished: false });
    const range = { id: { gte: 10_000n, lt: 20_000n } };
    expect(await db().show.count({ where: range })).toBe(800);

    const second = await importPodcastIndex(db(), file, { ...copy(), batchSize: 400 });
    expect(second).toMatchObject({ rows: 1700, totalRows: 2500, copied: 1700, finished: true });
    expect(await db().show.count({ where: range })).toBe(2500);
    expect(await db().show.count({ where: { id: 12_002n, feedUrl: 'https://anchor.fm/s/19ccb320/podcast/rss?copy=12' } })).toBe(1);
  });

  it('stops with the reason when the file is not a feed list, read on a worker thread or not', async () => {
    const file = path.join(dir, 'not-a-feed-list.csv');
    await writeFile(file, `"name","link"\n${'"x","https://example.com/"\n'.repeat(200)}`);
    // Big enough for a worker at one row a batch; read here at the default batch size.
    for (const batchSize of [1, undefined]) {
      await expect(importPodcastIndex(db(), file, { ...copy(), batchSize })).rejects.toThrow('not a Podcast Index feed list');
    }
    expect((await db().importProgress.findMany({ where: { name: { contains: 'not-a-feed-list' } } })).filter((p) => p.finishedAt)).toEqual([]);
    // An empty file (a download cut short) is not finished as a list of nothing, so the whole file is read once it is there.
    const empty = path.join(dir, 'empty-feed-list.csv');
    await writeFile(empty, '');
    await expect(importPodcastIndex(db(), empty, copy())).rejects.toThrow('the file is empty');
    expect((await db().importProgress.findMany({ where: { name: { contains: 'empty-feed-list' } } })).filter((p) => p.finishedAt)).toEqual([]);
  });

  it('hands a feed added by URL over to its Podcast Index id, episodes and all; Apple ids stay with their holder', async () => {
    const feed = (await readFile('test/fixtures/rss/apple-podcasters-guide-example.xml', 'utf8')).replace(/<guid>([^<]*)<\/guid>/g, '<guid>$1#handover</guid>');
    server.routes.set('/handover.xml', serve(feed));
    const url = server.url('/handover.xml');
    const { feedId } = await t.podtext.services.catalogIngest.addFeedByUrl(url);
    const csv = await newsfeedsCsv('handover.csv', [
      { id: '4242', url, title: 'From the index' },
      // Rahdo's Apple id, already held by show 2: this row yields it.
      { id: '4243', url: 'https://feeds.example.com/clash.xml', title: 'Apple id clash', itunes_id: '1000016089' },
    ]);

    expect(await importPodcastIndex(db(), csv, copy())).toMatchObject({ rows: 2, copied: 0 });
    expect(await db().show.findUnique({ where: { id: feedId } })).toBeNull();
    const moved = await db().show.findUniqueOrThrow({ where: { id: 4242n } });
    // The feed was read already, so its own details stay.
    expect(moved).toMatchObject({ feedUrl: url, title: 'All About Everything', episodeCountTracked: 3 });
    expect(await db().episode.count({ where: { showId: 4242n } })).toBe(3);
    expect((await t.podtext.services.catalogIngest.addFeedByUrl(url)).feedId).toBe(4242n);
    expect(await db().show.findUniqueOrThrow({ where: { id: 4243n } })).toMatchObject({ title: 'Apple id clash', appleId: null });
    expect((await db().show.findUniqueOrThrow({ where: { id: 2n } })).appleId).toBe(1000016089n);
  });

  it('hands a feed added by URL over to its Podcast Index id when the index spells the URL otherwise (a trailing slash, https), instead of an empty twin', async () => {
    const cases = [
      { path: '/spelled-slash.xml', spell: (url: string) => `${url}/`, id: 4251n },
      { path: '/spelled-https.xml', spell: (url: string) => url.replace(/^http:/, 'https:'), id: 4252n },
    ];
    const added: bigint[] = [];
    for (const c of cases) {
      const feed = (await readFile('test/fixtures/rss/apple-podcasters-guide-example.xml', 'utf8')).replace(/<guid>([^<]*)<\/guid>/g, `<guid>$1#${c.path}</guid>`);
      server.routes.set(c.path, serve(feed));
      added.push((await t.podtext.services.catalogIngest.addFeedByUrl(server.url(c.path))).feedId);
    }
    const csv = await newsfeedsCsv('spellings.csv', cases.map((c) => ({ id: String(c.id), url: c.spell(server.url(c.path)), title: 'From the index' })));

    await importPodcastIndex(db(), csv, copy());
    for (const [i, c] of cases.entries()) {
      expect(await db().show.findUnique({ where: { id: added[i]! } })).toBeNull();
      expect(await db().show.findUniqueOrThrow({ where: { id: c.id } })).toMatchObject({ feedUrl: c.spell(server.url(c.path)), title: 'All About Everything' });
      expect(await db().episode.count({ where: { showId: c.id } })).toBe(3);
      expect(await db().show.count({ where: { title: 'All About Everything', feedUrl: { contains: c.path } } })).toBe(1);
    }
  });
});

describe('rows that cannot be imported', () => {
  it('are counted as skipped, not dropped in silence', async () => {
    const csv = await newsfeedsCsv('bad-ids.csv', [
      { id: 'abc', url: 'https://feeds.example.com/bad-1.xml', title: 'Bad id' },
      { id: '-3', url: 'https://feeds.example.com/bad-2.xml', title: 'Negative id' },
      { id: '12345678901234567890', url: 'https://feeds.example.com/bad-3.xml', title: 'Too long an id' },
      { id: '4250', url: 'https://feeds.example.com/good.xml', title: 'Good row' },
      // Podtext's own ids: the public sample's show, and the range of feeds added by URL.
      { id: '999999999999', url: 'https://feeds.example.com/over-sample.xml', title: 'Over the sample' },
      { id: '1000000000000', url: 'https://feeds.example.com/over-own.xml', title: 'Over our own' },
    ]);
    const sample = await db().show.findUniqueOrThrow({ where: { id: 999_999_999_999n } });
    expect(await importPodcastIndex(db(), csv, copy())).toMatchObject({ rows: 1, skipped: 5 });
    expect(await db().show.findUniqueOrThrow({ where: { id: 999_999_999_999n } })).toEqual(sample);
    expect(await db().show.count({ where: { feedUrl: { startsWith: 'https://feeds.example.com/over-' } } })).toBe(0);
  });
});

describe('rows with no feed to read', () => {
  it('are not indexed: nothing keeps them refreshed, by the bulk copy or by batches, first time or again', async () => {
    const rows = [
      { id: '4260', url: 'not a feed address', title: 'No feed here' },
      { id: '4261', url: 'https://feeds.example.com/has-feed.xml', title: 'Has a feed' },
    ];
    for (const how of [copy(), { clock }]) {
      await db().show.deleteMany({ where: { id: { in: [4260n, 4261n] } } });
      for (const pass of ['first', 'again']) {
        const csv = await newsfeedsCsv(`no-feed-${pass}-${'copyRows' in how ? 'copy' : 'batch'}.csv`, rows);
        await importPodcastIndex(db(), csv, how);
        const shows = await db().show.findMany({ where: { id: { in: [4260n, 4261n] } }, orderBy: { id: 'asc' }, select: { id: true, indexed: true } });
        expect(shows, `${pass}, ${'copyRows' in how ? 'copy' : 'batch'}`).toEqual([{ id: 4260n, indexed: false }, { id: 4261n, indexed: true }]);
      }
    }
  });
});

describe('Podcast Index SQLite dump (podcastindex_feeds.db)', () => {
  const OFFSET = 5_000_000;
  let file: string;

  beforeAll(async () => {
    file = path.join(dir, 'podcastindex_feeds.db');
    await writeSqliteDump(file, OFFSET);
  });

  it('imports through sqlite3, resuming after a stop, and skips the file once done', async () => {
    const range = { id: { gt: BigInt(OFFSET), lt: BigInt(OFFSET + 10_000) } };
    const stop = new AbortController();
    const first = await importPodcastIndex(db(), file, { ...copy(), batchSize: 300, signal: stop.signal, onProgress: () => stop.abort() });
    expect(first).toMatchObject({ format: 'sqlite', rows: 300, finished: false });
    const progress = await db().importProgress.findUniqueOrThrow({ where: { name: first.name } });
    expect(progress.position).toBe(BigInt(OFFSET + 300));
    expect(await db().show.count({ where: range })).toBe(300);

    const second = await importPodcastIndex(db(), file, { ...copy(), batchSize: 300 });
    expect(second).toMatchObject({ rows: 700, totalRows: 1000, copied: 700, finished: true });
    expect(await db().show.count({ where: range })).toBe(1000);
    expect(await importPodcastIndex(db(), file, copy())).toMatchObject({ alreadyDone: true, rows: 0 });

    const rahdo = await db().show.findUniqueOrThrow({ where: { id: BigInt(OFFSET + 2) } });
    expect(rahdo).toMatchObject({
      title: 'Rahdo Talks Through',
      author: 'Richard Ham',
      feedUrl: 'https://anchor.fm/s/19ccb320/podcast/rss?dump=1',
      appleId: BigInt(1000016089 + OFFSET),
      categories: SAMPLE_CATEGORIES[1],
      popularity: 1,
      source: 'podcastindex',
    });
    expect((await db().show.findUniqueOrThrow({ where: { id: BigInt(OFFSET + 1) } })).categories).toEqual(SAMPLE_CATEGORIES[0]);
  });
});

describe('indexes during a bulk import', () => {
  it('sets the non-unique indexes aside and always gets them back', async () => {
    const all = await showIndexes();
    expect(all).toEqual(expect.arrayContaining(['shows_popularity_idx', 'shows_next_fetch_at_idx', 'shows_search_changed_xid_idx']));
    // A run that died after setting them aside …
    await deferShowIndexes(db());
    expect(await showIndexes()).toEqual(['shows_apple_id_key', 'shows_feed_url_key', 'shows_pkey']);
    // … is healed by the next import, which can defer them again itself.
    const file = path.join(dir, 'deferred.csv');
    await writeGeneratedNewsfeeds(file, 1200, 30);
    const result = await importPodcastIndex(db(), file, { ...copy(), deferIndexes: true });
    expect(result).toMatchObject({ rows: 1200, finished: true });
    expect(await showIndexes()).toEqual(all);
    expect(await restoreDeferredIndexes(db())).toEqual([]);
  });
});
