import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { importPodcastIndex } from '../src/core/catalog/imports/import-podcastindex.js';
import { writeGeneratedNewsfeeds } from '../test/catalog-ingest/generated-newsfeeds.js';
import { fmt, startBenchPodtext } from './bench-server.js';

/**
 * Podcast Index dump import on PGlite: rows/s for 100k generated rows in the
 * dump's CSV shape, against reading and splitting the same file (the baseline).
 * The first import copies new shows in bulk; importing the same file again
 * meets every show already there, so each batch takes the upsert path.
 * Goal: ≥ 20,000 rows/s for the first import.
 */
export async function runImportBench(rows = 100_000): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-import-bench-'));
  const app = await startBenchPodtext();
  try {
    const file = path.join(dir, 'newsfeeds.csv');
    await writeGeneratedNewsfeeds(file, rows);
    const t0 = performance.now();
    const lines = (await readFile(file, 'utf8')).split('\n').map((l) => l.split('","')).length;
    const readSeconds = (performance.now() - t0) / 1000;
    const options = { copyRows: app.podtext.db.copyRows };
    const first = await importPodcastIndex(app.podtext.services.db, file, options);
    const again = await importPodcastIndex(app.podtext.services.db, file, { ...options, restart: true });
    return [
      '## Podcast Index import (PGlite)',
      `| step | rows | copied | seconds | rows/s |`,
      `|---|---|---|---|---|`,
      `| read and split the CSV (baseline) | ${lines - 1} | | ${fmt(readSeconds, 2)} | ${fmt(rows / readSeconds, 0)} |`,
      `| import into PGlite | ${first.rows} | ${first.copied} | ${fmt(first.seconds, 1)} | ${first.rowsPerSecond} |`,
      `| import the same file again (all upserted) | ${again.rows} | ${again.copied} | ${fmt(again.seconds, 1)} | ${again.rowsPerSecond} |`,
      '',
      `import rate: ${first.rowsPerSecond} rows/s (goal ≥ 20,000); ${fmt((first.rowsPerSecond / (rows / readSeconds)) * 100, 2)}% of reading the file`,
    ];
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
}
