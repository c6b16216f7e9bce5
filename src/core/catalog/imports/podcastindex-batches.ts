import type { CsvField } from './csv-records.js';
import { type PodcastIndexColumns, podcastIndexColumns, podcastIndexShow } from './podcastindex-row.js';
import { csvFileRecords, type PodcastIndexFormat, sqliteRecords } from './podcastindex-source.js';
import { type ImportedShow, settleWithinBatch } from './show-batch.js';
import { showCopyRows } from './show-copy-rows.js';

/** What to read; plain data, so it can be handed to a worker thread. */
export interface PodcastIndexReadOptions {
  file: string;
  format: PodcastIndexFormat;
  /** Where an earlier run stopped: CSV rows done, or the last SQLite id. */
  position: number;
  /** Shows per batch. */
  batchSize: number;
  /** First feed reads fall in [spreadFrom, spreadFrom + spreadMs), epoch ms. */
  spreadFrom: number;
  spreadMs: number;
}

/** A batch of shows ready to write, as binary COPY data of `shows` (see show-copy-rows.ts). */
export interface EncodedShowBatch {
  /** The batch's shows, settled within the batch, as `showCopyRows` data. */
  data: Uint8Array;
  /** Shows read into the batch (before in-batch duplicates are dropped). */
  rows: number;
  /** The feed URLs of the batch's shows (after settling), to find shows Podtext added under its own id. */
  feedUrls: string[];
  /** Rows skipped since the previous batch (no id, or a duplicate feed). */
  skipped: number;
  /** The position to resume from once this batch is written. */
  reached: number;
}

/**
 * Reads a Podcast Index feed list from `position` on and turns it into
 * batches of `batchSize` shows: parsed, settled within the batch, encoded.
 * The last batch may hold no shows, only skipped rows. `now` stamps each
 * batch's created and updated times.
 */
export async function* podcastIndexBatches(options: PodcastIndexReadOptions, now: () => Date): AsyncGenerator<EncodedShowBatch> {
  const { format, position, batchSize } = options;
  const records: AsyncGenerator<CsvField[]> = format === 'sqlite' ? sqliteRecords(options.file, position) : csvFileRecords(options.file);
  const spread = { now: new Date(options.spreadFrom), spreadMs: options.spreadMs, random: Math.random };
  // Each batch's buffer starts at the size of the one before, so it rarely grows.
  let capacity: number | undefined;
  let columns: PodcastIndexColumns | undefined;
  let row = 0;
  let reached = position;
  let skipped = 0;
  let shows: ImportedShow[] = [];
  const batch = (): EncodedShowBatch => {
    const settled = settleWithinBatch(shows);
    const data = showCopyRows(settled, now(), capacity);
    capacity = data.length + (data.length >> 3);
    const feedUrls = settled.flatMap((s) => (s.feedUrl ? [s.feedUrl] : []));
    const done = { data, feedUrls, rows: shows.length, skipped, reached };
    shows = [];
    skipped = 0;
    return done;
  };
  for await (const record of records) {
    if (!columns) {
      columns = podcastIndexColumns(record);
      continue;
    }
    row += 1;
    // The SQLite query starts after `position` by itself; a CSV is read again from its top.
    if (format === 'csv' && row <= position) continue;
    const show = podcastIndexShow(record, columns, spread);
    if (show) shows.push(show);
    else skipped += 1;
    reached = format === 'csv' ? row : Number(record[columns.id] ?? reached);
    if (shows.length >= batchSize) yield batch();
  }
  // An empty CSV (a download cut short) is no list of nothing: say so instead of finishing it. (sqlite3
  // prints no header when no row is left after the position, so an import resumed at its end reads nothing.)
  if (!columns && format === 'csv') throw new Error('not a Podcast Index feed list: the file is empty');
  if (shows.length > 0 || skipped > 0) yield batch();
}
