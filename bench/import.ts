import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { importPodcastIndex } from '../src/core/catalog/imports/import-podcastindex.js';
import { writeGeneratedNewsfeeds } from '../test/catalog-ingest/generated-newsfeeds.js';
import { fmt, startBenchPodtext } from './bench-server.js';

/**
 * Podcast Index dump import on PGlite: rows/s for 100k generated rows in the
 * dump's CSV shape, against reading and splitting the same file (the baseline).
 * Goal: ≥ 20,000 rows/s.
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
    const result = await importPodcastIndex(app.podtext.services.db, file);
    return [
      '## Podcast Index import (PGlite)',
      `| step | rows | seconds | rows/s |`,
      `|---|---|---|---|`,
      `| read and split the CSV (baseline) | ${lines - 1} | ${fmt(readSeconds, 2)} | ${fmt(rows / readSeconds, 0)} |`,
      `| import into PGlite | ${result.rows} | ${fmt(result.seconds, 1)} | ${result.rowsPerSecond} |`,
      '',
      `import rate: ${result.rowsPerSecond} rows/s (goal ≥ 20,000); ${fmt((result.rowsPerSecond / (rows / readSeconds)) * 100, 2)}% of reading the file`,
    ];
  } finally {
    await app.close();
    await rm(dir, { recursive: true, force: true });
  }
}
