import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCatalogCommand } from '../../src/cli/catalog-commands.js';
import { loadConfig } from '../../src/config.js';
import { SYNTHETIC_ID_START, seedSynthetic } from '../../src/core/catalog/imports/seed-synthetic.js';
import { searchKey } from '../../src/core/catalog/ingest/search-key.js';
import { openDatabase } from '../../src/infra/db/open-database.js';
import { fakeClock } from '../support/fake-clock.js';
import { startTestPodtext, type TestPodtext } from '../support/podtext.js';

let t: TestPodtext;
const clock = fakeClock('2026-03-10T12:00:00Z');

beforeAll(async () => {
  t = await startTestPodtext({ clock });
});

afterAll(async () => {
  await t?.close();
});

describe('seed-synthetic', () => {
  it('makes a realistic, deterministic synthetic index', async () => {
    const { db } = t.podtext.services;
    const result = await seedSynthetic(db, { shows: 3000, showsWithEpisodes: 20, episodesPerShow: 4, clock });
    expect(result).toMatchObject({ shows: 3000, episodes: 80 });
    const shows = await db.show.findMany({ where: { source: 'synthetic' }, orderBy: { popularity: 'desc' } });
    expect(shows).toHaveLength(3000);
    expect(shows[0].id).toBeGreaterThan(BigInt(SYNTHETIC_ID_START));
    // Zipf: the n-th most popular show has 1/n^1.07 of the top one's popularity.
    expect(shows[0].popularity).toBeCloseTo(30, 3);
    expect(shows[9].popularity / shows[0].popularity).toBeCloseTo(10 ** -1.07, 3);
    expect(new Set(shows.map((s) => s.title)).size).toBeGreaterThan(2000);
    expect(new Set(shows.map((s) => s.language)).size).toBeGreaterThan(8);
    expect(shows.filter((s) => s.language === 'en').length / 3000).toBeGreaterThan(0.4);
    for (const s of shows.slice(0, 50)) {
      expect(s.searchName).toBe(searchKey(s.title).name);
      expect(s.categories.length).toBeGreaterThan(0);
      expect(s.nextFetchAt).toBeNull();
    }
    expect(shows.slice(0, 20).every((s) => s.episodeCountTracked === 4)).toBe(true);
    expect(shows[20].episodeCountTracked).toBeNull();
    expect(await db.episode.count({ where: { show: { source: 'synthetic' } } })).toBe(80);

    // The same seed gives the same catalog, and a rerun adds nothing.
    const before = await db.show.findMany({ where: { source: 'synthetic' }, orderBy: { id: 'asc' } });
    await seedSynthetic(db, { shows: 3000, showsWithEpisodes: 20, episodesPerShow: 4, clock });
    expect(await db.show.findMany({ where: { source: 'synthetic' }, orderBy: { id: 'asc' } })).toEqual(before);
    // Never scheduled: the refresher does not try .invalid feeds.
    expect((await t.podtext.services.catalogIngest.refreshDue(10)).shows).toBe(0);
  });

  it('runs from the command line', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-cli-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789' });
      expect(await runCatalogCommand(config, 'seed-synthetic', ['--shows', '250', '--seed', '7'])).toBe(0);
      expect(await runCatalogCommand(config, 'import', ['podcastindex', 'test/fixtures/podcastindex/newsfeeds-sample-1000rows.csv'])).toBe(0);
      expect(await runCatalogCommand(config, 'seed-synthetic', ['--bogus'])).toBe(2);
      const db = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
      try {
        expect(await db.prisma.show.count({ where: { source: 'synthetic' } })).toBe(250);
        expect(await db.prisma.show.count({ where: { source: 'podcastindex' } })).toBe(1000);
      } finally {
        await db.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
