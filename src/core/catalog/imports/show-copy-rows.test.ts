import { describe, expect, it } from 'vitest';
import type { ImportedShow } from './show-batch.js';
import { showCopyRows, showsFromCopyRows } from './show-copy-rows.js';

const show = (over: Partial<ImportedShow>): ImportedShow => ({
  id: 1, title: 'A', author: '', description: '', artwork: '', language: null, categories: [], feedUrl: null, website: null,
  appleId: null, podcastGuid: null, itunesType: null, explicit: null, dead: false, popularity: 0, searchName: 'a',
  searchCompact: 'a', newestEpisodeAt: null, nextFetchAt: null, source: 'podcastindex', ...over,
});

describe('shows as binary COPY rows', () => {
  it('reads back exactly what it wrote, awkward text and extreme values included', () => {
    const rows = [
      show({
        id: Number.MAX_SAFE_INTEGER,
        title: 'Tabs\tnew\nlines\r\\back\\slashes "quotes" \\N \\. ,{}',
        author: 'Ünïcødé 🎙️ עברית',
        description: 'x'.repeat(70_000),
        categories: ['News', 'A "quoted", {braced} \\ one', '', 'NULL'],
        feedUrl: 'https://example.com/feed?a=1&b="2"',
        appleId: 4_294_967_297,
        explicit: true,
        popularity: 1.5,
        newestEpisodeAt: new Date('1969-07-20T20:17:40.123Z'),
        nextFetchAt: new Date('2026-03-10T12:00:00.001Z'),
      }),
      show({ id: 2, explicit: false, dead: true, newestEpisodeAt: new Date('9999-12-31T23:59:59.999Z') }),
      show({ id: 3, language: 'en-us', website: '', podcastGuid: 'c7e6d5a2', itunesType: 'serial', popularity: 12 }),
    ];
    const back = showsFromCopyRows(showCopyRows(rows, new Date('2026-03-10T12:00:00Z'), 16));
    // A dead show is never scheduled.
    expect(back).toEqual([rows[0], { ...rows[1], nextFetchAt: null }, rows[2]]);
  });

  it('writes an invalid date as NULL, as JSON does', () => {
    const [back] = showsFromCopyRows(showCopyRows([show({ newestEpisodeAt: new Date(Number.NaN) })], new Date()));
    expect(back.newestEpisodeAt).toBeNull();
  });

  it('stores popularity as a real, as PostgreSQL would round it', () => {
    const [back] = showsFromCopyRows(showCopyRows([show({ popularity: 0.1 })], new Date()));
    expect(back.popularity).toBe(Math.fround(0.1));
  });
});
