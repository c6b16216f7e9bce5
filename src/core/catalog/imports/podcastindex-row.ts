import { languageTag } from '../feed/feed-format.js';
import { htmlToText, plainLine } from '../feed/plain-text.js';
import { RESERVED_FEED_IDS_FROM } from '../ingest/feed-id.js';
import { searchKey } from '../ingest/search-key.js';
import type { CsvField } from './csv-records.js';
import type { ImportedShow } from './show-batch.js';

/**
 * Where each field sits in a Podcast Index record. Column names are matched
 * lower case without underscores, so the MySQL `newsfeeds` export
 * (`itunes_id`, `artwork_url_600`) and the SQLite dump `podcasts`
 * (`itunesId`, `imageUrl`, `popularityScore`, `category1`…) both fit.
 */
export interface PodcastIndexColumns {
  id: number;
  fields: Partial<Record<keyof typeof ALIASES, number>>;
  categories: number[];
}

const ALIASES = {
  url: ['url'],
  title: ['title'],
  link: ['link'],
  description: ['description'],
  author: ['itunesauthor'],
  owner: ['itunesownername'],
  artwork: ['artworkurl600', 'imageurl', 'image'],
  language: ['language'],
  appleId: ['itunesid'],
  dead: ['dead'],
  itunesType: ['itunestype'],
  explicit: ['explicit'],
  newest: ['newestitempubdate'],
  popularity: ['popularityscore', 'popularity'],
  priority: ['priority'],
  podcastGuid: ['podcastguid'],
  duplicateOf: ['duplicateof'],
} as const;

function normalise(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Reads the header row. @throws Error when there is no `id` or `url` column. */
export function podcastIndexColumns(header: CsvField[]): PodcastIndexColumns {
  const at = new Map(header.map((name, i) => [normalise(name ?? ''), i]));
  const id = at.get('id');
  if (id === undefined || !at.has('url')) throw new Error('not a Podcast Index feed list: the header has no "id" and "url" columns');
  const fields: PodcastIndexColumns['fields'] = {};
  for (const [field, names] of Object.entries(ALIASES) as [keyof typeof ALIASES, readonly string[]][]) {
    const found = names.map((n) => at.get(n)).find((i) => i !== undefined);
    if (found !== undefined) fields[field] = found;
  }
  const categories = [...at.entries()].filter(([name]) => /^category\d+$/.test(name)).sort(([a], [b]) => Number(a.slice(8)) - Number(b.slice(8))).map(([, i]) => i);
  return { id, fields, categories };
}

/** Spreading of first reads, so an import of millions is picked up over a day rather than at once. */
export interface ScheduleSpread {
  now: Date;
  /** First reads fall in [now, now + spreadMs). Default used by the importer: 86400000 (1 day). */
  spreadMs: number;
  random: () => number;
}

// C0 controls and NUL break PostgreSQL text; feeds carry them more often than one would think.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;

function text(record: CsvField[], index: number | undefined): string {
  return index === undefined ? '' : (record[index] ?? '').replace(CONTROL, '').trim();
}

function int(record: CsvField[], index: number | undefined): number | null {
  const raw = text(record, index);
  const n = Number(raw);
  return raw !== '' && Number.isSafeInteger(n) ? n : null;
}

const RESERVED_ID = Number(RESERVED_FEED_IDS_FROM);

/**
 * Turns one Podcast Index record into a show. Returns null for rows to skip:
 * no usable id (none, not positive, or in Podtext's own range), or a duplicate of another feed (`duplicateof` set).
 * Popularity is `popularityScore` (or `popularity`) plus a tenth of a
 * positive `priority`.
 */
export function podcastIndexShow(record: CsvField[], columns: PodcastIndexColumns, spread: ScheduleSpread): ImportedShow | null {
  const f = columns.fields;
  const id = int(record, columns.id);
  // An id of Podtext's own would write over one of its shows (the sample, a feed added by URL).
  if (id === null || id <= 0 || id >= RESERVED_ID || (int(record, f.duplicateOf) ?? 0) > 0) return null;
  const url = text(record, f.url);
  const title = plainLine(text(record, f.title), 768);
  const key = searchKey(title);
  const newest = int(record, f.newest);
  const explicit = text(record, f.explicit);
  const dead = int(record, f.dead) === 1;
  const categories = [...new Set(columns.categories.map((i) => text(record, i)).filter(Boolean))];
  const appleId = int(record, f.appleId);
  return {
    id,
    title,
    author: plainLine(text(record, f.author) || text(record, f.owner), 1000),
    // htmlToText drops control characters and trims by itself; descriptions are most of a row.
    description: htmlToText(f.description === undefined ? '' : (record[f.description] ?? '')),
    artwork: text(record, f.artwork),
    language: languageTag(text(record, f.language)),
    categories,
    feedUrl: /^https?:\/\//i.test(url) ? url : null,
    website: text(record, f.link) || null,
    appleId: appleId && appleId > 0 ? appleId : null,
    podcastGuid: text(record, f.podcastGuid) || null,
    itunesType: text(record, f.itunesType).toLowerCase() || null,
    explicit: explicit === '1' ? true : explicit === '0' ? false : null,
    dead,
    popularity: (int(record, f.popularity) ?? 0) + Math.max(0, int(record, f.priority) ?? 0) / 10,
    searchName: key.name,
    searchCompact: key.compact,
    newestEpisodeAt: newest && newest > 0 ? new Date(newest * 1000) : null,
    nextFetchAt: dead ? null : new Date(spread.now.getTime() + Math.floor(spread.random() * spread.spreadMs)),
    source: 'podcastindex',
  };
}
