import { CopyBinaryReader, CopyBinaryWriter } from './pg-copy-binary.js';
import type { ImportedShow } from './show-batch.js';

/** The `shows` columns a COPY of imported shows fills, in the order of each row. */
export const SHOW_COPY_COLUMNS = [
  'id', 'title', 'author', 'description', 'artwork', 'language', 'categories', 'feed_url', 'website', 'apple_id',
  'podcast_guid', 'itunes_type', 'explicit', 'indexed', 'dead', 'source', 'popularity', 'search_name', 'search_compact',
  'newest_episode_at', 'next_fetch_at', 'created_at', 'updated_at',
] as const;

/**
 * Shows as binary COPY data for {@link SHOW_COPY_COLUMNS}, each row as new:
 * `indexed` unless dead, created and updated at `now`, no first read for a
 * dead show. {@link showsFromCopyRows} reads it back.
 */
export function showCopyRows(rows: readonly ImportedShow[], now: Date, capacity?: number): Uint8Array {
  const out = new CopyBinaryWriter(capacity);
  for (const r of rows) {
    out.row(SHOW_COPY_COLUMNS.length);
    out.int8(r.id);
    out.text(r.title);
    out.text(r.author);
    out.text(r.description);
    out.text(r.artwork);
    out.text(r.language);
    out.textArray(r.categories);
    out.text(r.feedUrl);
    out.text(r.website);
    out.int8(r.appleId);
    out.text(r.podcastGuid);
    out.text(r.itunesType);
    out.bool(r.explicit);
    // `indexed`: refreshed by Podtext, which a dead feed, or a row with no feed to read, is not.
    out.bool(!r.dead && r.feedUrl !== null);
    out.bool(r.dead);
    out.text(r.source);
    out.float4(r.popularity);
    out.text(r.searchName);
    out.text(r.searchCompact);
    out.timestamptz(r.newestEpisodeAt);
    out.timestamptz(r.dead ? null : r.nextFetchAt);
    out.timestamptz(now);
    out.timestamptz(now);
  }
  return out.finish();
}

/** The shows of {@link showCopyRows} data, for a batch that is upserted rather than copied. */
export function showsFromCopyRows(data: Uint8Array): ImportedShow[] {
  const input = new CopyBinaryReader(data);
  const shows: ImportedShow[] = [];
  while (input.row() !== null) {
    // Fields in SHOW_COPY_COLUMNS order; object literals evaluate in source order.
    const show = {
      id: input.int8()!,
      title: input.text()!,
      author: input.text()!,
      description: input.text()!,
      artwork: input.text()!,
      language: input.text(),
      categories: input.textArray()!,
      feedUrl: input.text(),
      website: input.text(),
      appleId: input.int8(),
      podcastGuid: input.text(),
      itunesType: input.text(),
      explicit: input.bool(),
      indexed: input.bool(),
      dead: input.bool()!,
      source: input.text()!,
      popularity: input.float4()!,
      searchName: input.text()!,
      searchCompact: input.text()!,
      newestEpisodeAt: input.timestamptz(),
      nextFetchAt: input.timestamptz(),
      createdAt: input.timestamptz(),
      updatedAt: input.timestamptz(),
    };
    const { indexed, createdAt, updatedAt, ...imported } = show;
    shows.push(imported);
  }
  return shows;
}
