import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import { type Clock, systemClock } from '../../clock.js';
import type { CopyRows } from '../../../infra/db/open-database.js';
import { deferShowIndexes, restoreDeferredIndexes } from './deferred-indexes.js';
import { podcastIndexBatches } from './podcastindex-batches.js';
import { podcastIndexBatchesInWorker } from './podcastindex-batches-thread.js';
import { podcastIndexFormat, sqliteRowCount } from './podcastindex-source.js';
import { adoptDirectorySpellings, ownFeedSpellings } from './own-feed-spellings.js';
import { writeShowCopyBatch } from './show-batch-copy.js';

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
  /** Shows per batch, written as one statement. Default: 5000. */
  batchSize?: number;
  /**
   * The database's bulk copy (`Database.copyRows`): batches of new shows are
   * copied rather than upserted, several times faster. Default: none; every
   * batch is upserted through `db`.
   */
  copyRows?: CopyRows;
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
  /** Of `rows`, those copied as new shows (the rest were upserted). */
  copied: number;
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
 * streamed, never loaded whole, and parsed on a worker thread while the
 * main thread writes. Shows are written in batches (copied when new, else
 * upserted), indexed, with first reads spread over a day so the refresher
 * takes them on gradually.
 *
 * Resumable: `import_progress` (named after the file's name and size) holds
 * the position reached: the CSV rows done, or the last SQLite id. A rerun
 * continues there; a finished file is not read again unless `restart`.
 * Idempotent: writing a row twice changes nothing.
 *
 * @example await importPodcastIndex(database.prisma, 'podcastindex_feeds.db', { copyRows: database.copyRows, onProgress: (p) => console.log(p.rows) })
 */
export async function importPodcastIndex(db: PrismaClient, file: string, options: PodcastIndexImportOptions = {}): Promise<PodcastIndexImportResult> {
  const clock = options.clock ?? systemClock;
  const now = () => clock.now();
  const batchSize = options.batchSize ?? 5000;
  const format = await podcastIndexFormat(file);
  const { size } = await stat(file);
  const name = `podcastindex:${path.basename(file)}:${size}`;
  if (options.restart) await db.importProgress.deleteMany({ where: { name } });
  const progress = await db.importProgress.findUnique({ where: { name } });
  const started = performance.now();
  let totalRows = Number(progress?.rowsDone ?? 0);
  let rows = 0;
  let copied = 0;
  let skipped = 0;
  let finished = false;
  const result = (alreadyDone = false): PodcastIndexImportResult => {
    const seconds = (performance.now() - started) / 1000;
    return { name, format, rows, totalRows, copied, skipped, seconds, rowsPerSecond: Math.round(rows / Math.max(seconds, 1e-3)), finished, alreadyDone };
  };
  if (progress?.finishedAt) {
    finished = true;
    return result(true);
  }

  const position = Number(progress?.position ?? 0);
  const expected = format === 'sqlite' ? await sqliteRowCount(file, position) : Math.max(0, size / CSV_BYTES_PER_ROW - position);
  const read = { file, format, position, batchSize, spreadFrom: clock.now().getTime(), spreadMs: options.spreadMs ?? 86_400_000 };
  // A worker costs a few hundred ms to start: worth it from two batches on.
  const batches = expected >= 2 * batchSize ? podcastIndexBatchesInWorker(read, now) : podcastIndexBatches(read, now);
  // Asked for now, the first batch is read while the indexes are seen to.
  const first = batches.next();
  first.catch(() => undefined);
  let defer = false;
  try {
    // An earlier run that died mid-way may have left indexes aside.
    await restoreDeferredIndexes(db);
    const [{ n: existing }] = await db.$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM shows`);
    defer = options.deferIndexes ?? (expected >= 10_000 && expected > existing);
    if (defer) options.log?.info({ indexes: await deferShowIndexes(db) }, 'show indexes set aside for the import');
    const own = await ownFeedSpellings(db);
    for (let next = await first; !next.done; next = await batches.next()) {
      const batch = next.value;
      if (options.signal?.aborted) break;
      skipped += batch.skipped;
      if (batch.rows === 0) continue;
      await adoptDirectorySpellings(db, batch.feedUrls, own);
      if ((await writeShowCopyBatch(db, options.copyRows, batch.data, clock.now(), options.log)) === 'copied') copied += batch.rows;
      rows += batch.rows;
      totalRows += batch.rows;
      const data = { position: BigInt(batch.reached), rowsDone: BigInt(totalRows), updatedAt: clock.now() };
      await db.importProgress.upsert({ where: { name }, create: { name, ...data }, update: data });
      const seconds = (performance.now() - started) / 1000;
      options.onProgress?.({ rows: totalRows, rowsThisRun: rows, rowsPerSecond: Math.round(rows / Math.max(seconds, 1e-3)) });
    }
    if (!options.signal?.aborted) {
      finished = true;
      const data = { rowsDone: BigInt(totalRows), finishedAt: clock.now(), updatedAt: clock.now() };
      await db.importProgress.upsert({ where: { name }, create: { name, ...data }, update: data });
    }
  } finally {
    await batches.return(undefined);
    if (defer) options.log?.info({ indexes: await restoreDeferredIndexes(db) }, 'show indexes rebuilt');
  }
  return result();
}
