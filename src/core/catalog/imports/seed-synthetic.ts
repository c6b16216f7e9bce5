import type { PrismaClient } from '../../../generated/prisma/client.js';
import { type Clock, systemClock } from '../../clock.js';
import { transcriptIdFor } from '../../transcript-id.js';
import { searchKey } from '../ingest/search-key.js';
import { APPLE_CATEGORIES } from './apple-categories.js';
import { deferShowIndexes, restoreDeferredIndexes } from './deferred-indexes.js';
import { type ImportedShow, writeShowBatch } from './show-batch.js';
import { ADJECTIVES, FIRST_NAMES, LANGUAGES, LAST_NAMES, NETWORKS, NOUNS, TITLE_TEMPLATES, TOPICS } from './synthetic-words.js';
import { seededRandom } from '../../seeded-random.js';

/**
 * First id of synthetic shows (9 × 10^12): clear of Podcast Index ids and of
 * the ids Podtext gives feeds it adds itself (from 10^12), so a benchmark
 * catalog never mixes with real shows.
 */
export const SYNTHETIC_ID_START = 9_000_000_000_000;

export interface SeedOptions {
  /** Shows to create. */
  shows: number;
  /** PRNG seed; the same seed gives the same catalog. Default: 1. */
  seed?: number;
  /** The most popular this many shows get episodes. Default: 1000. */
  showsWithEpisodes?: number;
  /** Episodes each of them gets. Default: 5. */
  episodesPerShow?: number;
  /** Rows per statement. Default: 2000. */
  batchSize?: number;
  clock?: Clock;
  onProgress?: (shows: number) => void;
}

function makeShow(id: number, rank: number, random: () => number, now: number): ImportedShow {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const title = pick(TITLE_TEMPLATES).replace(/\{([ANTFL])\}/g, (_m, k: string) =>
    pick({ A: ADJECTIVES, N: NOUNS, T: TOPICS, F: FIRST_NAMES, L: LAST_NAMES }[k as 'A' | 'N' | 'T' | 'F' | 'L']),
  );
  const author = random() < 0.6 ? `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}` : `${pick(LAST_NAMES)} ${pick(NETWORKS)}`;
  const category = pick(APPLE_CATEGORIES);
  const categories = [category.category, ...(category.subcategories.length && random() < 0.7 ? [pick(category.subcategories)] : [])];
  let language = 'en';
  let roll = random();
  for (const [code, share] of LANGUAGES) {
    if (roll < share) {
      language = code;
      break;
    }
    roll -= share;
  }
  const key = searchKey(title);
  // Popular shows publish more recently: newest episode within days for the top, months for the tail.
  const staleDays = Math.min(900, Math.floor(random() * 30 * Math.log10(rank + 9)));
  return {
    id,
    title,
    author,
    description: `${title} is a ${category.category.toLowerCase()} podcast hosted by ${author}, about ${pick(TOPICS).toLowerCase()} and ${pick(TOPICS).toLowerCase()}.`,
    artwork: `https://img.synthetic.podtext.invalid/${id}.jpg`,
    language,
    categories,
    feedUrl: `https://feeds.synthetic.podtext.invalid/${id}.xml`,
    website: `https://synthetic.podtext.invalid/${id}`,
    appleId: null,
    podcastGuid: null,
    itunesType: 'episodic',
    explicit: random() < 0.1,
    dead: false,
    // Zipf's law with exponent 1.07, scaled like Podcast Index popularity scores (top show 30).
    popularity: 30 * rank ** -1.07,
    searchName: key.name,
    searchCompact: key.compact,
    newestEpisodeAt: new Date(now - staleDays * 86_400_000),
    nextFetchAt: null,
    source: 'synthetic',
  };
}

/**
 * Fills the catalog with a realistic synthetic index for benchmarks and
 * demos: Zipf-distributed popularity, titles and authors from word lists,
 * Apple categories, a spread of languages, and a few episodes for the most
 * popular shows. Ids start at {@link SYNTHETIC_ID_START}; feed URLs are on
 * `.invalid` and never scheduled, so the refresher leaves them alone.
 * Deterministic for a seed and safe to run twice.
 */
export async function seedSynthetic(db: PrismaClient, options: SeedOptions): Promise<{ shows: number; episodes: number; seconds: number }> {
  const started = performance.now();
  const clock = options.clock ?? systemClock;
  const random = seededRandom(options.seed ?? 1);
  const batchSize = options.batchSize ?? 2000;
  const n = Math.max(0, Math.floor(options.shows));
  const now = clock.now();
  // Popularity ranks in shuffled order, so ids say nothing about popularity.
  const ranks = Uint32Array.from({ length: n }, (_, i) => i + 1);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [ranks[i], ranks[j]] = [ranks[j], ranks[i]];
  }
  const [{ c: existing }] = await db.$queryRawUnsafe<{ c: number }[]>(`SELECT count(*)::int AS c FROM shows`);
  const defer = n >= 10_000 && n > existing;
  if (defer) await deferShowIndexes(db);
  const withEpisodes: ImportedShow[] = [];
  const topCount = options.showsWithEpisodes ?? 1000;
  try {
    for (let at = 0; at < n; at += batchSize) {
      const batch: ImportedShow[] = [];
      for (let i = at; i < Math.min(n, at + batchSize); i++) {
        const show = makeShow(SYNTHETIC_ID_START + i + 1, ranks[i], random, now.getTime());
        batch.push(show);
        if (ranks[i] <= topCount) withEpisodes.push(show);
      }
      await writeShowBatch(db, batch, now);
      options.onProgress?.(Math.min(n, at + batchSize));
    }
  } finally {
    if (defer) await restoreDeferredIndexes(db);
  }
  const episodes = await seedEpisodes(db, withEpisodes, options.episodesPerShow ?? 5, random, now);
  return { shows: n, episodes, seconds: (performance.now() - started) / 1000 };
}

async function seedEpisodes(db: PrismaClient, shows: ImportedShow[], perShow: number, random: () => number, now: Date): Promise<number> {
  const rows = shows.flatMap((show) =>
    Array.from({ length: perShow }, (_, k) => {
      const guid = `synthetic:${show.id}:${k + 1}`;
      return {
        transcript_id: transcriptIdFor(guid),
        show_id: show.id,
        guid,
        title: `Episode ${perShow - k}: ${TOPICS[Math.floor(random() * TOPICS.length)]}`,
        published_at: new Date(show.newestEpisodeAt!.getTime() - k * 7 * 86_400_000).toISOString(),
        duration_seconds: 1200 + Math.floor(random() * 4800),
        audio_url: `https://cdn.synthetic.podtext.invalid/${show.id}/${k + 1}.mp3`,
      };
    }),
  );
  for (let at = 0; at < rows.length; at += 2000) {
    await db.$executeRawUnsafe(
      `INSERT INTO episodes (transcript_id, show_id, guid, title, published_at, duration_seconds, audio_url, audio_type, created_at, updated_at)
       SELECT r.transcript_id, r.show_id, r.guid, r.title, r.published_at, r.duration_seconds, r.audio_url, 'audio/mpeg', $2, $2
       FROM json_to_recordset($1::json) AS r(transcript_id text, show_id bigint, guid text, title text, published_at timestamptz,
         duration_seconds integer, audio_url text)
       ON CONFLICT (transcript_id) DO NOTHING`,
      JSON.stringify(rows.slice(at, at + 2000)),
      now,
    );
  }
  await db.$executeRawUnsafe(
    `UPDATE shows s SET episode_count_tracked = e.n, newest_episode_at = e.newest
     FROM (SELECT show_id, count(*)::int AS n, max(published_at) AS newest FROM episodes
           WHERE show_id = ANY(SELECT (jsonb_array_elements_text($1::jsonb))::bigint) GROUP BY show_id) e
     WHERE s.id = e.show_id`,
    JSON.stringify(shows.map((s) => String(s.id))),
  );
  return rows.length;
}
