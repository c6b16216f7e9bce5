import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CsvField } from '../../src/core/catalog/imports/csv-records.js';
import { importPodcastIndex } from '../../src/core/catalog/imports/import-podcastindex.js';
import { hasPostgres } from '../support/databases.js';
import { fakeClock } from '../support/fake-clock.js';
import { startTestPodtext, type TestPodtext } from '../support/podtext.js';
import { readNewsfeedsSample, toCsv, writeGeneratedNewsfeeds } from './generated-newsfeeds.js';

// New shows are copied in bulk; a batch that meets an existing show is upserted
// instead. These tests hold the two paths to the same outcome, on PGlite and,
// when the run has one, on PostgreSQL.

const AWKWARD = 'Tabs\there, new\nlines, CR\r, back\\slashes \\N \\. "quotes" \'single\' {braces} Ünïcødé 🎙️ עברית';

// The columns the handcrafted rows fill; the importer reads any header with id and url.
const HEADER = ['id', 'url', 'title', 'description', 'itunes_author', 'artwork_url_600', 'link', 'itunes_id', 'language',
  'podcastGuid', 'itunes_type', 'explicit', 'dead', 'popularityScore', 'newest_item_pubdate', 'category1', 'category2'];

function csvRow(values: Record<string, string>): CsvField[] {
  return HEADER.map((c) => values[c] ?? null);
}

/** Rows that are awkward to copy or that a batch must settle within itself. */
function awkwardRows(base: number): CsvField[][] {
  return [
    csvRow({ id: `${base + 1}`, url: `https://awkward.example/${base}/1?q="a"\\b`, title: `Title ${AWKWARD}`, description: `<p>${AWKWARD}</p>`,
      itunes_author: AWKWARD, artwork_url_600: AWKWARD, link: `https://site.example/\t${AWKWARD}`, itunes_id: `${base + 11}`, language: 'en-US',
      podcastGuid: AWKWARD, itunes_type: 'Serial', explicit: '1', popularityScore: '7', newest_item_pubdate: '1599770045',
      category1: AWKWARD, category2: 'News' }),
    // The same feed URL and Apple id again: the first row keeps them.
    csvRow({ id: `${base + 2}`, url: `https://awkward.example/${base}/1?q="a"\\b`, title: 'Second with the same URL', itunes_id: `${base + 11}` }),
    // One id twice: the last row read wins.
    csvRow({ id: `${base + 3}`, url: `https://awkward.example/${base}/3`, title: 'Read first' }),
    csvRow({ id: `${base + 3}`, url: `https://awkward.example/${base}/3`, title: 'Read last', dead: '1' }),
  ];
}

async function writeMixedFile(file: string, base: number): Promise<void> {
  const sample = await readNewsfeedsSample();
  const at = (name: string) => sample.header.indexOf(name);
  const rows = sample.rows.map((row) => {
    const get = (name: string) => row[at(name)] ?? '';
    return csvRow({
      id: String(base + 100 + Number(get('id'))), url: `${get('url')}#${base}`, title: get('title'), description: get('description'),
      itunes_author: get('itunes_author'), artwork_url_600: get('artwork_url_600'), link: get('link'), language: get('language'),
      itunes_type: get('itunes_type'), explicit: get('explicit'), dead: get('dead'), newest_item_pubdate: get('newest_item_pubdate'),
      ...(row[at('itunes_id')] === null ? {} : { itunes_id: String(base + 100_000 + Number(get('itunes_id'))) }),
    });
  });
  await writeFile(file, toCsv(HEADER, [...awkwardRows(base), ...rows]));
}

const targets = [{ name: 'PGlite', postgres: false }, ...(hasPostgres() ? [{ name: 'PostgreSQL', postgres: true }] : [])];

describe.each(targets)('copying new shows on $name', ({ postgres }) => {
  const clock = fakeClock('2026-03-10T12:00:00Z');
  let t: TestPodtext;
  let dir: string;
  const db = () => t.podtext.services.db;
  const copyRows = () => t.podtext.db.copyRows;
  const inRange = (base: number) => ({ id: { gt: BigInt(base), lt: BigInt(base + 10_000) } });
  // Every column an import writes; not the ones other features keep on shows.
  const snapshot = (base: number) => db().show.findMany({
    where: inRange(base),
    orderBy: { id: 'asc' },
    select: { id: true, title: true, author: true, description: true, artwork: true, language: true, categories: true, feedUrl: true,
      website: true, appleId: true, podcastGuid: true, itunesType: true, explicit: true, indexed: true, dead: true, source: true,
      popularity: true, searchName: true, searchCompact: true, newestEpisodeAt: true, nextFetchAt: true, createdAt: true, updatedAt: true },
  });

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-pi-copy-'));
    t = await startTestPodtext({ clock, postgres });
  });

  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes every byte of awkward text, and the same rows as the upsert would', async () => {
    const base = 100_000;
    const file = path.join(dir, 'mixed.csv');
    await writeMixedFile(file, base);
    // No spread, so both runs schedule the same first reads.
    const copied = await importPodcastIndex(db(), file, { clock, copyRows: copyRows(), batchSize: 300, spreadMs: 0 });
    expect(copied).toMatchObject({ rows: 1004, copied: 1004, finished: true });
    const viaCopy = await snapshot(base);
    expect(viaCopy).toHaveLength(1003);

    const [awkward, sameUrl, twice] = viaCopy;
    expect(awkward).toMatchObject({
      feedUrl: `https://awkward.example/${base}/1?q="a"\\b`,
      artwork: AWKWARD.trim(),
      website: `https://site.example/\t${AWKWARD}`,
      podcastGuid: AWKWARD,
      categories: [AWKWARD, 'News'],
      appleId: BigInt(base + 11),
      itunesType: 'serial',
      language: 'en-us',
      explicit: true,
      popularity: 7,
    });
    // Titles, names and descriptions are plain text on one line.
    expect(awkward.title).toBe(`Title ${AWKWARD.replace(/\s+/g, ' ')}`);
    expect(awkward.author).toBe(AWKWARD.replace(/\s+/g, ' '));
    expect(awkward.description).toBe(AWKWARD.replace(/\s+/g, ' '));
    expect(sameUrl).toMatchObject({ feedUrl: null, appleId: null, title: 'Second with the same URL' });
    expect(twice).toMatchObject({ title: 'Read last', dead: true, nextFetchAt: null });

    await db().show.deleteMany({ where: inRange(base) });
    const upserted = await importPodcastIndex(db(), file, { clock, batchSize: 300, spreadMs: 0, restart: true });
    expect(upserted).toMatchObject({ rows: 1004, copied: 0, finished: true });
    expect(await snapshot(base)).toEqual(viaCopy);
  });

  it('reruns batches written before a crash that lost their progress, without losing or changing a row', async () => {
    const base = 200_000;
    const file = path.join(dir, 'newsfeeds-2500.csv');
    await writeGeneratedNewsfeeds(file, 2500, base / 1000);
    const stop = new AbortController();
    const options = { clock, copyRows: copyRows(), batchSize: 400 };
    const first = await importPodcastIndex(db(), file, { ...options, signal: stop.signal, onProgress: (p) => p.rows >= 800 && stop.abort() });
    expect(first).toMatchObject({ rows: 800, copied: 800, finished: false });
    // The crashed run had written on to row 1400, mid-batch, without recording it.
    const ahead = path.join(dir, 'newsfeeds-1400.csv');
    await writeGeneratedNewsfeeds(ahead, 1400, base / 1000);
    await importPodcastIndex(db(), ahead, { clock, copyRows: copyRows(), batchSize: 400 });
    const written = await snapshot(base);
    expect(written).toHaveLength(1400);

    const second = await importPodcastIndex(db(), file, options);
    // Rows 801–1600 met shows already there and were upserted; the rest were copied.
    expect(second).toMatchObject({ rows: 1700, totalRows: 2500, copied: 900, finished: true });
    const after = await snapshot(base);
    expect(after).toHaveLength(2500);
    expect(after.slice(0, 1400)).toEqual(written);
    expect(new Set(after.map((s) => s.feedUrl)).size).toBe(2500);
  });

  it('hands a feed URL from an earlier dump row to the newer one, the rest of the batch copied or not', async () => {
    const base = 300_000;
    const url = `https://moved.example/${base}.xml`;
    const older = path.join(dir, 'older.csv');
    await writeFile(older, toCsv(HEADER, [csvRow({ id: `${base + 1}`, url, title: 'Older', itunes_id: `${base + 9}` })]));
    expect(await importPodcastIndex(db(), older, { clock, copyRows: copyRows() })).toMatchObject({ copied: 1 });
    const newer = path.join(dir, 'newer.csv');
    await writeFile(newer, toCsv(HEADER, [
      csvRow({ id: `${base + 2}`, url: `https://fresh.example/${base}.xml`, title: 'Fresh' }),
      csvRow({ id: `${base + 3}`, url, title: 'Newer', itunes_id: `${base + 9}` }),
    ]));
    expect(await importPodcastIndex(db(), newer, { clock, copyRows: copyRows() })).toMatchObject({ rows: 2, copied: 0 });
    const shows = await snapshot(base);
    expect(shows.map((s) => [s.title, s.feedUrl, s.appleId])).toEqual([
      ['Older', null, BigInt(base + 9)],
      ['Fresh', `https://fresh.example/${base}.xml`, null],
      // The Apple id stays with the show that had it.
      ['Newer', url, null],
    ]);
  });
});
