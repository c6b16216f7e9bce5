import { z } from '@hono/zod-openapi';
import type { Show } from '../../generated/prisma/client.js';
import type { Charts } from '../../core/catalog/discovery/charts.js';
import type { EpisodeInfo } from '../../core/catalog/discovery/episode-info.js';
import type { EpisodeList, EpisodeRow } from '../../core/catalog/discovery/episode-list.js';
import { type ShowSummaryRow, showUrls } from '../../core/catalog/discovery/show-finders.js';
import type { Links } from '../../core/links.js';

const feedId = z.number().int().openapi({ description: "The show's number in the open podcast directory (Podcast Index); Podtext's own from 10^12.", example: 743229 });
const appleId = z.number().int().nullable().openapi({ description: 'Apple Podcasts (iTunes) collection id.', example: 1200361736 });
const timestamp = z.string().nullable().openapi({ format: 'date-time' });

export const ShowSummarySchema = z
  .object({
    feed_id: feedId,
    title: z.string(),
    author: z.string(),
    artwork: z.string().openapi({ description: 'Image URL (may be empty).' }),
    apple_id: appleId,
    indexed: z.boolean().openapi({ description: 'True when Podtext keeps the show refreshed (episode lists hourly, details daily).' }),
    url: z.string().openapi({ description: "The show's page on the site." }),
    episodes_url: z.string().openapi({ description: 'GET this for the episode list.' }),
    categories: z.array(z.string()).openapi({ description: 'Directory categories.' }),
    language: z.string().nullable().openapi({ description: 'Language tag from the feed, e.g. `en-us`.' }),
  })
  .openapi('ShowSummary');

export const ShowSchema = z
  .object({
    feed_id: feedId,
    title: z.string(),
    author: z.string(),
    description: z.string(),
    artwork: z.string(),
    language: z.string().nullable(),
    categories: z.array(z.string()),
    episode_count_tracked: z.number().int().nullable().openapi({ description: 'Episodes the index holds for the show.' }),
    newest_episode_at: timestamp,
    feed_url: z.string().nullable(),
    website: z.string().nullable(),
    apple_id: appleId,
    indexed: z.boolean(),
    url: z.string(),
    episodes_url: z.string(),
  })
  .openapi('Show');

export const EpisodeSchema = z
  .object({
    guid: z.string(),
    transcript_id: z.string().openapi({ pattern: '^[0-9a-f]{16}$', description: 'First 16 hex characters of SHA-1 of the guid.' }),
    title: z.string(),
    description: z.string().nullable(),
    episode: z.number().int().nullable().openapi({ description: 'Episode number.' }),
    season: z.number().int().nullable(),
    published_at: timestamp,
    duration_seconds: z.number().int().nullable(),
    audio_url: z.string().openapi({ description: 'Original audio location: send it as `url` in POST /requests.' }),
    transcript_status: z.enum(['ready', 'processing', 'none']),
    transcript_url: z.string(),
    page_url: z.string(),
  })
  .openapi('Episode');

export const EpisodeListSchema = z
  .object({
    show: ShowSummarySchema,
    ready_count: z.number().int().openapi({ description: "The show's episodes with a transcript ready (all, not only those listed)." }),
    truncated: z.boolean().openapi({ description: 'True when older episodes exist that this list leaves out: past `max`, or no longer in the feed.' }),
    episodes: z.array(EpisodeSchema).openapi({ description: 'Newest first.' }),
  })
  .openapi('EpisodeList');

export const EpisodeInfoSchema = z
  .object({
    transcript_id: z.string(),
    title: z.string(),
    transcript_status: z.enum(['ready', 'none']).openapi({ description: '`ready` when a transcript can be read now; otherwise `none`.' }),
    unlocked: z.boolean().openapi({ description: 'Whether the calling key has unlocked it (always true for the public sample episode).' }),
    unlock_cost: z.number().int().nullable().openapi({ description: 'Credits an unlock costs now: 0 when already unlocked or the public sample, 1 when a transcript is ready, null while there is none.' }),
    word_count: z.number().int().openapi({ description: 'Words in the transcript; 0 while there is none.' }),
    duration_seconds: z.number(),
    published_at: timestamp.openapi({ description: "The episode date: when it was published, per its feed; null when the feed gives no usable date." }),
    show: z
      .object({ feed_id: feedId, title: z.string(), author: z.string(), artwork: z.string(), url: z.string() })
      .nullable()
      .openapi({ description: 'The show the episode belongs to.' }),
  })
  .openapi('EpisodeInfo');

const GenreSchema = z.object({ slug: z.string().openapi({ example: 'true-crime' }), name: z.string().openapi({ example: 'True Crime' }) }).openapi('ChartGenre');

export const ChartsSchema = z
  .object({
    genre: GenreSchema.nullable().openapi({ description: 'The genre shown; null for the overall chart.' }),
    genres: z.array(GenreSchema).openapi({ description: 'Every slug `genre` accepts.' }),
    chart: z.array(
      z
        .object({
          rank: z.number().int(),
          apple_id: z.string(),
          title: z.string(),
          author: z.string(),
          artwork: z.string(),
          lookup_url: z.string().openapi({ description: 'GET /shows/lookup for this entry.' }),
        })
        .openapi('ChartEntry'),
    ),
  })
  .openapi('Charts');

/** Spec 2.3, with `categories` and `language` (search results carry them; so do trending lists). */
export function showSummaryWire(show: ShowSummaryRow, links: Links) {
  const urls = showUrls(links, show.id);
  return {
    feed_id: Number(show.id),
    title: show.title,
    author: show.author,
    artwork: show.artwork,
    apple_id: show.appleId === null ? null : Number(show.appleId),
    indexed: show.indexed,
    url: urls.url,
    episodes_url: urls.episodesUrl,
    categories: show.categories,
    language: show.language,
  };
}

/** Spec 2.4. */
export function showWire(show: Show, links: Links) {
  const urls = showUrls(links, show.id);
  return {
    feed_id: Number(show.id),
    title: show.title,
    author: show.author,
    description: show.description,
    artwork: show.artwork,
    language: show.language,
    categories: show.categories,
    episode_count_tracked: show.episodeCountTracked,
    newest_episode_at: show.newestEpisodeAt?.toISOString() ?? null,
    feed_url: show.feedUrl,
    website: show.website,
    apple_id: show.appleId === null ? null : Number(show.appleId),
    indexed: show.indexed,
    url: urls.url,
    episodes_url: urls.episodesUrl,
  };
}

/** Spec 2.5. */
export function episodeWire(e: EpisodeRow, links: Links) {
  return {
    guid: e.guid,
    transcript_id: e.transcriptId,
    title: e.title,
    description: e.description,
    episode: e.episodeNumber,
    season: e.season,
    published_at: e.publishedAt?.toISOString() ?? null,
    duration_seconds: e.durationSeconds,
    audio_url: e.audioUrl ?? '',
    transcript_status: e.transcriptStatus as 'ready' | 'processing' | 'none',
    transcript_url: links.transcript(e.transcriptId),
    page_url: links.episodePage(e.transcriptId),
  };
}

/** `GET /shows/{feed_id}/episodes`. */
export function episodeListWire(list: EpisodeList, links: Links): z.infer<typeof EpisodeListSchema> {
  return { show: showSummaryWire(list.show, links), ready_count: list.readyCount, truncated: list.truncated, episodes: list.episodes.map((e) => episodeWire(e, links)) };
}

/** Spec 2.6. */
export function episodeInfoWire(i: EpisodeInfo, links: Links) {
  return {
    transcript_id: i.transcriptId,
    title: i.title,
    transcript_status: i.transcriptStatus,
    unlocked: i.unlocked,
    unlock_cost: i.unlockCost,
    word_count: i.wordCount,
    duration_seconds: i.durationSeconds,
    published_at: i.publishedAt?.toISOString() ?? null,
    show: i.show && { feed_id: Number(i.show.feedId), title: i.show.title, author: i.show.author, artwork: i.show.artwork, url: showUrls(links, i.show.feedId).url },
  };
}

export function chartsWire(c: Charts) {
  return {
    genre: c.genre,
    genres: c.genres,
    chart: c.chart.map((e) => ({ rank: e.rank, apple_id: e.appleId, title: e.title, author: e.author, artwork: e.artwork, lookup_url: e.lookupUrl })),
  };
}
