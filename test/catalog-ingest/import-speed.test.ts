import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importPodcastIndex } from '../../src/core/catalog/imports/import-podcastindex.js';
import { startTestPodtext, type TestPodtext } from '../support/podtext.js';
import { writeGeneratedNewsfeeds } from './generated-newsfeeds.js';

const ROWS = 100_000;
let t: TestPodtext;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-import-speed-'));
  t = await startTestPodtext();
});

afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

it(`imports ${ROWS.toLocaleString('en-US')} Podcast Index rows on PGlite, reporting rows/s`, async () => {
  const file = path.join(dir, 'newsfeeds-100k.csv');
  await writeGeneratedNewsfeeds(file, ROWS);
  const result = await importPodcastIndex(t.podtext.services.db, file);
  console.log(`Podcast Index CSV import: ${ROWS} rows in ${result.seconds.toFixed(1)} s = ${result.rowsPerSecond} rows/s`);
  expect(result).toMatchObject({ rows: ROWS, finished: true });
  expect(await t.podtext.services.db.show.count()).toBeGreaterThanOrEqual(ROWS);
  // Only a floor against pathologies (a statement per row): the rate depends on the machine and its load.
  expect(result.rowsPerSecond).toBeGreaterThan(1000);
}, 300_000);
