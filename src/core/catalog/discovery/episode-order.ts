import type { Prisma } from '../../../generated/prisma/client.js';

// Newest first; episodes without a date last; ties of date in the feed's own order (newer
// first), then the transcript id, so pages are stable.
const ORDER = [
  { field: 'publishedAt', column: 'published_at', sort: 'desc', nullsLast: true },
  { field: 'feedOrder', column: 'feed_order', sort: 'desc', nullsLast: true },
  { field: 'transcriptId', column: 'transcript_id', sort: 'asc', nullsLast: false },
] as const;

/** The order of every episode list (REST, GraphQL `episodes` and `Show.episodes`), for Prisma. */
export const EPISODES_NEWEST_FIRST: Prisma.EpisodeOrderByWithRelationInput[] = ORDER.map((o) => ({
  [o.field]: o.nullsLast ? { sort: o.sort, nulls: 'last' } : o.sort,
}));

/** The same order as an SQL `ORDER BY` list over `episodes`. */
export const EPISODES_NEWEST_FIRST_SQL = ORDER.map((o) => `${o.column} ${o.sort.toUpperCase()}${o.nullsLast ? ' NULLS LAST' : ''}`).join(', ');
