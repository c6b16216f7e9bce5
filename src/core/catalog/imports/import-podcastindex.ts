import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import { type Clock, systemClock } from '../../clock.js';
import type { CsvField } from './csv-records.js';
import { deferShowIndexes, restoreDeferredIndexes } from './deferred-indexes.js';
import { podcastIndexColumns, podcastIndexShow } from './podcastindex-row.js';
import { csvFileRecords, podcastIndexFormat, sqliteRecords, sqliteRowCount } from './podcastindex-source.js';
import { type ImportedShow, writeShowBatch } from './show-batch.js';

export interface ImportProgressReport {
  /** Rows written so far by this import, earlier interrupted runs included. */
  rows: number;
  /** Rows written by this run. */
  rowsThisRun: number;
  rowsPerSecond: number;
}

export interface PodcastIndexImportOptions {
  /** Called after every batch. */
  onProgress?: (report: ImportProgressReport) => void;
  /** Rows per upsert statement. Default: 1000. */
  batchSize?: number;
  /** Forget earlier progress of this file and import it all again. Default: false. */
  restart?: boolean;
  /** Stops after the batch in flight; a later run resumes there. */
  signal?: AbortSignal;
  /**
   * Drop the non-unique show indexes during the import and rebuild them at
   * the end. Default: when the file holds at least 10,000 rows and more than
   * the catalog already has.
   */
  deferIndexes?: boolean;
  /** First feed reads are spread over this many ms from now. Default: 86400000 (1 day). */
  spreadMs?: number;
  clock?: Clock;
  random?: () => number;
  log?: Logger;
}

export interface PodcastIndexImportResult {
  /** The `import_progress` row of this file. */
  name: string;
  format: 'csv' | 'sqlite';
  /** Shows written by this run. */
  rows: number;
  /** Shows written by every run of this import. */
  totalRows: number;
  /** Rows skipped this run (no id, or a duplicate of another feed). */
  skipped: number;
  seconds: number;
  rowsPerSecond: number;
  /** False when stopped by the signal; run again to resume. */
  finished: boolean;
  /** True when the file had been imported completely before, so nothing was done. */
  alreadyDone: boolean;
}

/** Average size of one row of the CSV export, to guess a file's row count. */
const CSV_BYTES_PER_ROW = 1000;

/**
 * Imports the Podcast Index feed list: the `newsfeeds` CSV export or the
 * SQLite dump `podcastindex_feeds.db` (read through the `sqlite3` command),
 * streamed, never loaded whole. Shows are upserted in batches, indexed, with
 * first reads spread over a day so the refresher takes them on gradually.
 *
 * Resumable: `import_progress` (named after the file's name and size) holds
 * the position reached: the CSV rows done, or the last SQLite id. A rerun
 * continues there; a finished file is not read again unless `restart`.
 * Idempotent: writing a row twice changes nothing.
 *
 * @example await importPodcastIndex(db, 'podcastindex_feeds.db', { onProgress: (p) => console.log(p.rows) })
 */
export async function importPodcastIndex(db: PrismaClient, file: string, options: PodcastIndexImportOptions = {}): Promise<PodcastIndexImportResult> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const batchSize = options.batchSize ?? 1000;
  const format = await podcastIndexFormat(file);
  const { size } = await stat(file);
  const name = `podcastindex:${path.basename(file)}:${size}`;
  if (options.restart) await db.importProgress.deleteMany({ where: { name } });
  const progress = await db.importProgress.findUnique({ where: { name } });
  const started = performance.now();
  let totalRows = Number(progress?.rowsDone ?? 0);
  const result = (rows: number, skipped: number, finished: boolean, alreadyDone = false): PodcastIndexImportResult => {
    const seconds = (performance.now() - started) / 1000;
    return { name, format, rows, totalRows, skipped, seconds, rowsPerSecond: Math.round(rows / Math.max(seconds, 1e-3)), finished, alreadyDone };
  };
  if (progress?.finishedAt) return result(0, 0, true, true);

  // An earlier run that died mid-way may have left indexes aside.
  await restoreDeferredIndexes(db);
  const position = Number(progress?.position ?? 0);
  const expected = format === 'sqlite' ? await sqliteRowCount(file, position) : Math.max(0, size / CSV_BYTES_PER_ROW - position);
  const [{ n: existing }] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM shows`);
  const defer = options.deferIndexes ?? (expected >= 10_000 && expected > existing);
  if (defer) options.log?.info({ indexes: await deferShowIndexes(db) }, 'show indexes set aside for the import');

  const records: AsyncGenerator<CsvField[]> = format === 'sqlite' ? sqliteRecords(file, position) : csvFileRecords(file);
  let rows = 0;
  let skipped = 0;
  let finished = false;
  let writing: Promise<void> | null = null;
  try {
    const first = await records.next();
    if (first.done) {
      finished = true;
    } else {
      const columns = podcastIndexColumns(first.value);
      const spread = { now: clock.now(), spreadMs: options.spreadMs ?? 86_400_000, random };
      let row = 0;
      let reached = position;
      let batch: ImportedShow[] = [];
      const flush = async (rowsToWrite: ImportedShow[], upTo: number): Promise<void> => {
        await writeShowBatch(db, rowsToWrite, clock.now(), options.log);
        rows += rowsToWrite.length;
        totalRows += rowsToWrite.length;
        const data = { position: BigInt(upTo), rowsDone: BigInt(totalRows), updatedAt: clock.now() };
        await db.importProgress.upsert({ where: { name }, create: { name, ...data }, update: data });
        const seconds = (performance.now() - started) / 1000;
        options.onProgress?.({ rows: totalRows, rowsThisRun: rows, rowsPerSecond: Math.round(rows / Math.max(seconds, 1e-3)) });
      };
      for await (const record of records) {
        row += 1;
        if (format === 'csv' && row <= position) continue;
        const show = podcastIndexShow(record, columns, spread);
        if (show) batch.push(show);
        else skipped += 1;
        reached = format === 'csv' ? row : Number(record[columns.id] ?? reached);
        if (batch.length >= batchSize) {
          if (writing) await writing;
          if (options.signal?.aborted) break;
          // This batch is written while the next one is read and parsed; on PostgreSQL the two overlap.
          writing = flush(batch, reached);
          writing.catch(() => undefined);
          batch = [];
        }
      }
      if (writing) await writing;
      if (!options.signal?.aborted) {
        if (batch.length > 0) await flush(batch, reached);
        finished = true;
      }
    }
    if (finished) {
      const data = { rowsDone: BigInt(totalRows), finishedAt: clock.now(), updatedAt: clock.now() };
      await db.importProgress.upsert({ where: { name }, create: { name, ...data }, update: data });
    }
  } finally {
    await (writing as Promise<void> | null)?.catch(() => undefined);
    await records.return(undefined);
    if (defer) options.log?.info({ indexes: await restoreDeferredIndexes(db) }, 'show indexes rebuilt');
  }
  return result(rows, skipped, finished);
}
