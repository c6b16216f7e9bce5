import type { Show } from '../generated/prisma/client.js';
import type { ChartEntryView, ChartGenreView, Charts } from '../core/catalog/discovery/charts.js';
import type { EpisodeInfo } from '../core/catalog/discovery/episode-info.js';
import type { EpisodeList, EpisodeRow } from '../core/catalog/discovery/episode-list.js';
import { type ShowSummaryRow, showUrls } from '../core/catalog/discovery/show-finders.js';
import { prices } from '../core/pricing.js';
import { TRANSCRIPT_ID_PATTERN } from '../core/transcript-id.js';
import { type Field, field, pick, shape } from './shape.js';

/** GraphQL has no 53-bit integer: ids that pass 2^31 are Float there. */
const FLOAT_ID = { graphqlKind: 'float', graphqlNote: 'An integer; typed Float because ids pass 2^31.' } as const;

const feedId = <V>(get: (v: V) => bigint | number | string) =>
  field.int<V>("The show's number in the open podcast directory (Podcast Index); Podtext's own from 10^12.", (v) => Number(get(v)), { ...FLOAT_ID, example: 743229 });

/** A show as search results and lists carry it (spec 2.3). */
const summaryFields = {
  feed_id: feedId<ShowSummaryRow>((s) => s.id),
  title: field.string<ShowSummaryRow>(undefined, (s) => s.title),
  author: field.string<ShowSummaryRow>(undefined, (s) => s.author),
  artwork: field.string<ShowSummaryRow>('Image URL (may be empty).', (s) => s.artwork),
  apple_id: field.int<ShowSummaryRow>('Apple Podcasts (iTunes) collection id.', (s) => (s.appleId === null ? null : Number(s.appleId)), { ...FLOAT_ID, nullable: true, example: 1200361736 }),
  indexed: field.boolean<ShowSummaryRow>('True when Podtext keeps the show refreshed (episode lists hourly, details daily).', (s) => s.indexed),
  url: field.string<ShowSummaryRow>("The show's page on the site.", (s, ctx) => showUrls(ctx.links, s.id).url),
  episodes_url: field.string<ShowSummaryRow>("The REST episode list: GET it for the show's episodes.", (s, ctx) => showUrls(ctx.links, s.id).episodesUrl),
  categories: field.strings<ShowSummaryRow>('Directory categories.', (s) => s.categories),
  language: field.string<ShowSummaryRow>('Language tag from the feed, e.g. `en-us`.', (s) => s.language, { nullable: true }),
};

/** Spec 2.3, with `categories` and `language`. REST only: GraphQL lists whole `Show`s. */
export const showSummaryShape = shape<ShowSummaryRow>({ rest: 'ShowSummary' }, summaryFields);

const showFields: Record<string, Field<Show>> = {
  ...summaryFields,
  description: field.string<Show>(undefined, (s) => s.description),
  episode_count_tracked: field.int<Show>('Episodes the index holds for the show.', (s) => s.episodeCountTracked, { nullable: true }),
  newest_episode_at: field.datetime<Show>('When the newest episode was published.', (s) => s.newestEpisodeAt, { nullable: true }),
  feed_url: field.string<Show>(undefined, (s) => s.feedUrl, { nullable: true }),
  website: field.string<Show>(undefined, (s) => s.website, { nullable: true }),
};

/** Spec 2.4; GraphQL `Show` adds its episodes (graphql/types/show.ts). */
export const showShape = shape<Show>(
  { rest: 'Show', description: 'A show in the index.' },
  pick(showFields, [
    'feed_id', 'title', 'author', 'description', 'artwork', 'language', 'categories', 'episode_count_tracked',
    'newest_episode_at', 'feed_url', 'website', 'apple_id', 'indexed', 'url', 'episodes_url',
  ]),
);

/** Spec 2.5; GraphQL `Episode` adds its show and transcript (graphql/types/episode.ts). */
export const episodeShape = shape<EpisodeRow>(
  { rest: 'Episode', description: "An episode in a show's list." },
  {
    guid: field.string(undefined, (e) => e.guid),
    transcript_id: field.string('First 16 hex characters of SHA-1 of the guid.', (e) => e.transcriptId, { pattern: TRANSCRIPT_ID_PATTERN }),
    title: field.string(undefined, (e) => e.title),
    description: field.string(undefined, (e) => e.description, { nullable: true }),
    episode: field.int('Episode number.', (e) => e.episodeNumber, { nullable: true }),
    season: field.int(undefined, (e) => e.season, { nullable: true }),
    published_at: field.datetime(undefined, (e) => e.publishedAt, { nullable: true }),
    duration_seconds: field.int(undefined, (e) => e.durationSeconds, { nullable: true }),
    audio_url: field.string('Original audio location: send it as `url` in a transcription request (POST /requests, `requestTranscription`).', (e) => e.audioUrl ?? ''),
    transcript_status: field.string('ready, processing or none.', (e) => e.transcriptStatus, { values: ['ready', 'processing', 'none'] }),
    transcript_url: field.string(undefined, (e, ctx) => ctx.links.transcript(e.transcriptId)),
    page_url: field.string(undefined, (e, ctx) => ctx.links.episodePage(e.transcriptId)),
  },
);

/** `GET /shows/{feed_id}/episodes`; GraphQL pages it as `EpisodeConnection`, with these descriptions. */
export const episodeListShape = shape<EpisodeList>(
  { rest: 'EpisodeList' },
  {
    show: field.object(showSummaryShape, undefined, (l) => l.show),
    ready_count: field.int("The show's episodes with a transcript ready (all, not only those listed).", (l) => l.readyCount),
    truncated: field.boolean('True when the directory stops tracking further back: the show has more episodes than the 1000 a list can hold, or its feed carried more than were kept. A list cut short by `max` alone is not truncated.', (l) => l.truncated),
    episodes: field.list(episodeShape, 'Newest first.', (l) => l.episodes),
  },
);

const episodeInfoShowShape = shape<NonNullable<EpisodeInfo['show']>>(
  { graphql: 'EpisodeInfoShow' },
  {
    feed_id: feedId((s) => s.feedId),
    title: field.string(undefined, (s) => s.title),
    author: field.string(undefined, (s) => s.author),
    artwork: field.string(undefined, (s) => s.artwork),
    url: field.string(undefined, (s, ctx) => showUrls(ctx.links, s.feedId).url),
  },
);

/** Spec 2.6. */
export const episodeInfoShape = shape<EpisodeInfo>(
  { rest: 'EpisodeInfo', description: 'Whether and at what price the calling key can read an episode.' },
  {
    transcript_id: field.string(undefined, (i) => i.transcriptId),
    title: field.string(undefined, (i) => i.title),
    transcript_status: field.string('`ready` when a transcript can be read now; otherwise `none`.', (i) => i.transcriptStatus, { values: ['ready', 'none'] }),
    unlocked: field.boolean('Whether the calling key has unlocked it (always true for the public sample episode).', (i) => i.unlocked),
    unlock_cost: field.int(`Credits an unlock costs now: 0 when already unlocked or the public sample, ${prices.unlock} when a transcript is ready, null while there is none.`, (i) => i.unlockCost, { nullable: true }),
    word_count: field.int('Words in the transcript; 0 while there is none.', (i) => i.wordCount),
    duration_seconds: field.float(undefined, (i) => i.durationSeconds),
    published_at: field.datetime('The episode date: when it was published, per its feed; null when the feed gives no usable date.', (i) => i.publishedAt, { nullable: true }),
    show: field.object(episodeInfoShowShape, 'The show the episode belongs to; null for an episode added by `POST /requests` from an audio URL that no show in the index lists.', (i) => i.show, { nullable: true }),
  },
);

const chartGenreShape = shape<ChartGenreView>(
  { rest: 'ChartGenre' },
  {
    slug: field.string(undefined, (g) => g.slug, { example: 'true-crime' }),
    name: field.string(undefined, (g) => g.name, { example: 'True Crime' }),
  },
);

const chartEntryShape = shape<ChartEntryView>(
  { rest: 'ChartEntry' },
  {
    rank: field.int(undefined, (e) => e.rank),
    apple_id: field.string(undefined, (e) => e.appleId),
    title: field.string(undefined, (e) => e.title),
    author: field.string(undefined, (e) => e.author),
    artwork: field.string(undefined, (e) => e.artwork),
    lookup_url: field.string('REST GET /shows/lookup for this entry; in GraphQL, showLookup(appleId:).', (e) => e.lookupUrl),
  },
);

/** Spec 2.11. */
export const chartsShape = shape<Charts>(
  { rest: 'Charts', description: 'The US top podcast chart of a major directory: 100 entries overall, 50 per genre, imported daily.' },
  {
    genre: field.object(chartGenreShape, 'The genre shown; null for the overall chart.', (c) => c.genre, { nullable: true }),
    genres: field.list(chartGenreShape, 'Every slug `genre` accepts.', (c) => c.genres),
    chart: field.list(chartEntryShape, undefined, (c) => c.chart),
  },
);
