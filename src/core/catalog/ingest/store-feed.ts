import type { Tx } from '../../transaction.js';
import type { ParsedEpisode, ParsedShow } from '../feed/feed-types.js';
import { searchKey } from './search-key.js';
import { bestTranscriptLink } from './transcript-link.js';
import { recheckAudioSoon, verifyRecordingSoon } from '../../transcripts/alignment/audio-check-schedule.js';
import { REQUESTED_SHOW_ID } from '../../jobs/resolve-episodes.js';

/** Episodes written per statement. */
const EPISODE_BATCH = 500;

/** The `shows` columns a feed's channel fills, in Prisma's names. */
export function showDetails(show: ParsedShow, fallbackTitle = '') {
  const title = show.title.trim() || fallbackTitle;
  const key = searchKey(title);
  return {
    title,
    author: show.author ?? '',
    description: show.description ?? '',
    artwork: show.artwork ?? '',
    language: show.language,
    categories: show.categories,
    website: show.website,
    itunesType: show.itunesType,
    podcastGuid: show.podcastGuid,
    explicit: show.explicit,
    searchName: key.name,
    searchCompact: key.compact,
  };
}

/** `feedOrder`: the episode's place in the feed's newest-first list, counted from the oldest. */
function episodeRow(e: ParsedEpisode, feedOrder: number, showLanguage: string | null) {
  const transcript = bestTranscriptLink(e.transcripts, showLanguage);
  return {
    transcript_id: e.transcriptId,
    feed_order: feedOrder,
    guid: e.guid,
    title: e.title,
    description: e.description,
    episode_number: e.episode,
    season: e.season,
    published_at: e.publishedAt?.toISOString() ?? null,
    duration_seconds: e.durationSeconds,
    audio_url: e.audioUrl,
    audio_type: e.audioType,
    audio_bytes: e.audioBytes,
    image: e.image,
    link: e.link,
    pt_url: transcript?.url ?? null,
    pt_type: transcript?.type ?? null,
    persons: e.persons,
  };
}

// Episodes are keyed by transcript_id, which comes from the guid alone; a guid such
// as "1" can appear in two feeds, and the show that had it first keeps it, except the
// shared show of episodes requested by audio URL ($4): a feed that publishes such a
// guid takes the episode (its transcript, kept only if the feed's audio is the same recording,
// and its unlocks are keyed by it), so its show lists it. Rows that
// did not change are not rewritten, so an hourly refresh of a quiet feed writes nothing
// (`feed_order` is written once, when the episode is first seen, for the same reason).
// `retitled` flags an episode with a transcript whose title, audio or duration
// changed: what a served transcript carries besides its text; `adopted` one with a
// transcript that this feed took over from the requested show. (Every part of the
// statement reads the rows as they were before it.)
const UPSERT_EPISODES = `
WITH prior AS (
  SELECT e.transcript_id, e.show_id, e.title, e.audio_url, e.duration_seconds FROM episodes e
  JOIN transcripts t ON t.transcript_id = e.transcript_id
  WHERE e.show_id IN ($2::bigint, $4::bigint) AND e.transcript_id IN (SELECT r.transcript_id FROM json_to_recordset($1::json) AS r(transcript_id text))
), written AS (
INSERT INTO episodes AS e (transcript_id, show_id, guid, title, description, episode_number, season, published_at,
  duration_seconds, audio_url, audio_type, audio_bytes, image, link, publisher_transcript_url, publisher_transcript_type,
  persons, feed_order, created_at, updated_at)
SELECT r.transcript_id, $2::bigint, r.guid, r.title, r.description, r.episode_number, r.season, r.published_at,
  r.duration_seconds, r.audio_url, r.audio_type, r.audio_bytes, r.image, r.link, r.pt_url, r.pt_type,
  COALESCE(r.persons, '[]'::jsonb), r.feed_order, $3::timestamptz, $3::timestamptz
FROM json_to_recordset($1::json) AS r(transcript_id text, guid text, title text, description text, episode_number integer,
  season integer, published_at timestamptz, duration_seconds integer, audio_url text, audio_type text, audio_bytes bigint,
  image text, link text, pt_url text, pt_type text, persons jsonb, feed_order integer)
ON CONFLICT (transcript_id) DO UPDATE SET
  guid = EXCLUDED.guid, title = EXCLUDED.title, description = EXCLUDED.description,
  episode_number = EXCLUDED.episode_number, season = EXCLUDED.season, published_at = EXCLUDED.published_at,
  duration_seconds = EXCLUDED.duration_seconds, audio_url = EXCLUDED.audio_url, audio_type = EXCLUDED.audio_type,
  audio_bytes = EXCLUDED.audio_bytes, image = EXCLUDED.image, link = EXCLUDED.link,
  publisher_transcript_url = EXCLUDED.publisher_transcript_url,
  publisher_transcript_type = EXCLUDED.publisher_transcript_type,
  persons = EXCLUDED.persons, updated_at = EXCLUDED.updated_at,
  show_id = EXCLUDED.show_id,
  feed_order = CASE WHEN e.show_id = EXCLUDED.show_id THEN e.feed_order ELSE EXCLUDED.feed_order END
WHERE e.show_id = $4::bigint OR (e.show_id = EXCLUDED.show_id AND
  (e.guid, e.title, e.description, e.episode_number, e.season, e.published_at, e.duration_seconds, e.audio_url,
   e.audio_type, e.audio_bytes, e.image, e.link, e.publisher_transcript_url, e.publisher_transcript_type, e.persons)
  IS DISTINCT FROM
  (EXCLUDED.guid, EXCLUDED.title, EXCLUDED.description, EXCLUDED.episode_number, EXCLUDED.season, EXCLUDED.published_at,
   EXCLUDED.duration_seconds, EXCLUDED.audio_url, EXCLUDED.audio_type, EXCLUDED.audio_bytes, EXCLUDED.image,
   EXCLUDED.link, EXCLUDED.publisher_transcript_url, EXCLUDED.publisher_transcript_type, EXCLUDED.persons))
RETURNING e.transcript_id, (xmax = 0) AS inserted, e.title, e.audio_url, e.duration_seconds)
SELECT w.transcript_id, w.inserted,
  (p.transcript_id IS NOT NULL AND (p.title, p.audio_url, p.duration_seconds) IS DISTINCT FROM (w.title, w.audio_url, w.duration_seconds)) AS retitled,
  (p.show_id = $4::bigint) AS adopted
FROM written w LEFT JOIN prior p ON p.transcript_id = w.transcript_id`;

export interface UpsertedEpisodes {
  /** Episodes stored for the first time. */
  inserted: number;
  /** Transcripts given a new version because their episode's title, audio or duration changed; announce them once committed. */
  transcriptsChanged: string[];
}

/**
 * Inserts new episodes and updates changed ones of `showId`. Episodes missing
 * from the feed are left alone: a show's history outlives its feed's window.
 * A transcript served with its episode's details gets a new version when
 * those change, so no cache keeps serving the old title or audio URL.
 */
export async function upsertEpisodes(tx: Tx, showId: bigint, episodes: readonly ParsedEpisode[], now: Date, showLanguage: string | null): Promise<UpsertedEpisodes> {
  const seen = new Set<string>();
  const unique = episodes.filter((e) => !seen.has(e.transcriptId) && seen.add(e.transcriptId));
  // `episodes` come newest first (parseFeed): the last is the oldest, at 0.
  const rows = unique.map((e, i) => episodeRow(e, unique.length - 1 - i, showLanguage));
  let inserted = 0;
  const transcriptsChanged: string[] = [];
  const adopted: string[] = [];
  for (let at = 0; at < rows.length; at += EPISODE_BATCH) {
    const written = await tx.$queryRawUnsafe<{ transcript_id: string; inserted: boolean; retitled: boolean; adopted: boolean | null }[]>(
      UPSERT_EPISODES,
      JSON.stringify(rows.slice(at, at + EPISODE_BATCH)),
      showId,
      now,
      REQUESTED_SHOW_ID,
    );
    for (const w of written) {
      if (w.inserted) inserted++;
      if (w.retitled) transcriptsChanged.push(w.transcript_id);
      if (w.adopted) adopted.push(w.transcript_id);
    }
  }
  // A transcript made from a requester's file is this episode's only if the feed serves the
  // same recording: anyone can name a guid before its feed does. The next audio check compares.
  if (adopted.length > 0) await verifyRecordingSoon(tx, adopted);
  if (transcriptsChanged.length > 0) {
    await tx.$executeRawUnsafe(
      `UPDATE transcripts SET version = version + 1, updated_at = $2 WHERE transcript_id = ANY($1::text[])`,
      transcriptsChanged,
      now,
    );
    // A moved or re-described enclosure may be re-spliced audio: check it now rather than at the next scheduled check.
    await recheckAudioSoon(tx, transcriptsChanged);
  }
  return { inserted, transcriptsChanged };
}

/** Recomputes `episode_count_tracked` and `newest_episode_at` from the stored episodes. */
export async function refreshEpisodeStats(tx: Tx, showId: bigint): Promise<void> {
  await tx.$executeRawUnsafe(
    `UPDATE shows SET episode_count_tracked = s.n, newest_episode_at = s.newest
     FROM (SELECT count(*)::int AS n, max(published_at) AS newest FROM episodes WHERE show_id = $1::bigint) s
     WHERE id = $1::bigint`,
    showId,
  );
}

/**
 * Queues a fetch for each episode of the feed that links a publisher
 * transcript and has none yet. A link already queued, or already given up on,
 * is left as it is unless the feed now names another URL. `showLanguage`
 * (the feed's `<language>`) picks the original over a translation.
 */
export async function queueTranscriptFetches(tx: Tx, showId: bigint, episodes: readonly ParsedEpisode[], now: Date, showLanguage: string | null): Promise<void> {
  const links = episodes.flatMap((e) => {
    const link = bestTranscriptLink(e.transcripts, showLanguage);
    return link ? [{ transcript_id: e.transcriptId, url: link.url, type: link.type, language: link.language }] : [];
  });
  if (links.length === 0) return;
  await tx.$executeRawUnsafe(
    `INSERT INTO publisher_transcript_fetches AS f (transcript_id, show_id, url, type, language, next_attempt_at, created_at)
     SELECT DISTINCT ON (e.transcript_id) e.transcript_id, e.show_id, r.url, r.type, r.language, $3, $3
     FROM json_to_recordset($1::json) AS r(transcript_id text, url text, type text, language text)
     JOIN episodes e ON e.transcript_id = r.transcript_id AND e.show_id = $2::bigint
     WHERE e.transcript_status = 'none' AND NOT EXISTS (SELECT 1 FROM transcripts t WHERE t.transcript_id = e.transcript_id)
     ON CONFLICT (transcript_id) DO UPDATE SET url = EXCLUDED.url, type = EXCLUDED.type, language = EXCLUDED.language,
       attempts = 0, next_attempt_at = EXCLUDED.next_attempt_at, last_error = NULL
     WHERE f.url IS DISTINCT FROM EXCLUDED.url`,
    JSON.stringify(links),
    showId,
    now,
  );
}
