import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { type CsvField, csvRecords } from '../../src/core/catalog/imports/csv-records.js';

export const NEWSFEEDS_SAMPLE = 'test/fixtures/podcastindex/newsfeeds-sample-1000rows.csv';

/** The header and rows of the published 1000-row `newsfeeds` sample. */
export async function readNewsfeedsSample(): Promise<{ header: string[]; rows: CsvField[][] }> {
  const all: CsvField[][] = [];
  for await (const record of csvRecords(createReadStream(NEWSFEEDS_SAMPLE))) all.push(record);
  return { header: all[0] as string[], rows: all.slice(1) };
}

/** Writes records the way the MySQL export does: every value quoted, NULL bare. */
export function toCsv(header: string[], rows: CsvField[][]): string {
  const field = (v: CsvField) => (v === null ? 'NULL' : `"${v.replace(/"/g, '""')}"`);
  return [header, ...rows].map((r) => r.map(field).join(',')).join('\n') + '\n';
}

/**
 * A `newsfeeds` CSV of `count` rows made of copies of the real sample: copy
 * k (counting from `firstCopy`) of sample row i gets id k·1000 + i, its own
 * feed URL and Apple id, the rest (titles, descriptions, NULLs, line breaks)
 * as published. Copy 0 is the sample itself.
 */
export async function writeGeneratedNewsfeeds(file: string, count: number, firstCopy = 0): Promise<void> {
  const { header, rows } = await readNewsfeedsSample();
  const col = (name: string) => header.indexOf(name);
  const [id, url, itunes] = [col('id'), col('url'), col('itunes_id')];
  const out: CsvField[][] = [];
  for (let n = 0; n < count; n++) {
    const copy = firstCopy + Math.floor(n / rows.length);
    const row = [...rows[n % rows.length]];
    row[id] = String(copy * 1000 + Number(row[id]));
    if (copy > 0) {
      row[url] = `${row[url]}${row[url]!.includes('?') ? '&' : '?'}copy=${copy}`;
      if (row[itunes] !== null) row[itunes] = String(Number(row[itunes]) + copy * 10_000_000);
    }
    out.push(row);
  }
  await writeFile(file, toCsv(header, out));
}
