import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import type { CsvField } from '../../src/core/catalog/imports/csv-records.js';
import { readNewsfeedsSample, toCsv } from './generated-newsfeeds.js';

/** The columns of `podcasts` in Podcast Index's published `podcastindex_feeds.db`, in order. */
export const PODCASTS_COLUMNS = [
  'id', 'url', 'title', 'lastUpdate', 'link', 'lastHttpStatus', 'dead', 'contentType', 'itunesId', 'originalUrl',
  'itunesAuthor', 'itunesOwnerName', 'explicit', 'imageUrl', 'itunesType', 'generator', 'newestItemPubdate', 'language',
  'oldestItemPubdate', 'episodeCount', 'popularityScore', 'priority', 'createdOn', 'updateFrequency', 'chash', 'host',
  'newestEnclosureUrl', 'podcastGuid', 'description', 'category1', 'category2', 'category3', 'category4', 'category5',
  'category6', 'category7', 'category8', 'category9', 'category10', 'newestEnclosureDuration',
];

const INTEGER = new Set(['id', 'lastUpdate', 'lastHttpStatus', 'dead', 'itunesId', 'explicit', 'newestItemPubdate', 'oldestItemPubdate',
  'episodeCount', 'popularityScore', 'priority', 'createdOn', 'updateFrequency', 'newestEnclosureDuration']);

/** Categories given to sample rows, cycling, so the dump has category1… filled like the real one. */
export const SAMPLE_CATEGORIES = [['News', 'Daily News'], ['Arts', 'Books', 'Design'], [], ['Comedy']];

/**
 * Builds a small `podcastindex_feeds.db` with sqlite3 from the published
 * `newsfeeds` sample rows: the same feeds, in the dump's column layout, ids
 * shifted by `idOffset` and URLs tagged so they do not clash with a CSV
 * import of the same rows. popularityScore is (row index mod 30).
 */
export async function writeSqliteDump(dbFile: string, idOffset: number): Promise<CsvField[][]> {
  const { header, rows } = await readNewsfeedsSample();
  const get = (row: CsvField[], name: string) => row[header.indexOf(name)];
  const out = rows.map((row, i): CsvField[] => {
    const original = get(row, 'url')!;
    const url = `${original}${original.includes('?') ? '&' : '?'}dump=1`;
    const categories = SAMPLE_CATEGORIES[i % SAMPLE_CATEGORIES.length];
    const values: Record<string, CsvField> = {
      id: String(Number(get(row, 'id')) + idOffset), url, title: get(row, 'title'), lastUpdate: get(row, 'lastupdate'),
      link: get(row, 'link'), lastHttpStatus: get(row, 'lasthttpstatus'), dead: get(row, 'dead'), contentType: get(row, 'contenttype'),
      itunesId: get(row, 'itunes_id') === null ? null : String(Number(get(row, 'itunes_id')) + idOffset), originalUrl: get(row, 'original_url'),
      itunesAuthor: get(row, 'itunes_author'), itunesOwnerName: get(row, 'itunes_owner_name'), explicit: get(row, 'explicit'),
      imageUrl: get(row, 'image'), itunesType: get(row, 'itunes_type'), generator: get(row, 'generator'),
      newestItemPubdate: get(row, 'newest_item_pubdate'), language: get(row, 'language'), oldestItemPubdate: '0', episodeCount: '0',
      popularityScore: String(i % 30), priority: get(row, 'priority'), createdOn: get(row, 'createdon'),
      updateFrequency: get(row, 'update_frequency'), chash: get(row, 'contenthash'), host: new URL(url).host, newestEnclosureUrl: '',
      podcastGuid: '', description: get(row, 'description'), newestEnclosureDuration: '0',
    };
    categories.forEach((c, n) => (values[`category${n + 1}`] = c));
    return PODCASTS_COLUMNS.map((c) => values[c] ?? null);
  });
  const csvFile = `${dbFile}.rows.csv`;
  await writeFile(csvFile, toCsv(PODCASTS_COLUMNS, out).replace(/(^|,)NULL(?=,|\n)/gm, '$1'));
  const columns = PODCASTS_COLUMNS.map((c) => `${c} ${INTEGER.has(c) ? 'integer' : 'text'}${c === 'id' ? ' primary key' : ''}`).join(', ');
  execFileSync('sqlite3', [dbFile], { input: `CREATE TABLE podcasts (${columns});\n.import --csv --skip 1 ${csvFile} podcasts\n` });
  return out;
}
