import type { PrismaClient } from '../../src/generated/prisma/client.js';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { searchKey } from '../../src/core/catalog/ingest/search-key.js';
import { syntheticShows } from './synthetic-shows.js';

export interface ShowFixture {
  id: number | bigint;
  title: string;
  author?: string;
  description?: string;
  artwork?: string;
  appleId?: number | bigint | null;
  feedUrl?: string | null;
  popularity?: number;
  language?: string | null;
  categories?: string[];
  dead?: boolean;
  lastFetchedAt?: Date | null;
}

/** Inserts shows as an import would, search columns computed by `searchKey`. */
export async function insertShows(db: PrismaClient, shows: readonly ShowFixture[]): Promise<void> {
  for (let i = 0; i < shows.length; i += 1000) {
    await db.show.createMany({
      data: shows.slice(i, i + 1000).map((s) => {
        const key = searchKey(s.title);
        return {
          id: BigInt(s.id),
          title: s.title,
          author: s.author ?? '',
          description: s.description ?? '',
          artwork: s.artwork ?? `https://img.example.com/${s.id}.jpg`,
          appleId: s.appleId === undefined || s.appleId === null ? null : BigInt(s.appleId),
          feedUrl: s.feedUrl ?? null,
          popularity: s.popularity ?? 0,
          language: s.language === undefined ? 'en' : s.language,
          categories: s.categories ?? [],
          dead: s.dead ?? false,
          source: 'podcastindex',
          searchName: key.name,
          searchCompact: key.compact,
          lastFetchedAt: s.lastFetchedAt === undefined ? new Date() : s.lastFetchedAt,
        };
      }),
    });
  }
}

export interface EpisodeFixture {
  guid: string;
  title?: string;
  publishedAt?: Date | null;
  durationSeconds?: number | null;
  transcriptStatus?: 'none' | 'processing' | 'ready';
  episodeNumber?: number | null;
  season?: number | null;
}

/** Inserts episodes of one show; returns their transcript ids in the order given. */
export async function insertEpisodes(db: PrismaClient, showId: number | bigint, episodes: readonly EpisodeFixture[]): Promise<string[]> {
  const rows = episodes.map((e) => ({
    transcriptId: transcriptIdFor(e.guid),
    showId: BigInt(showId),
    guid: e.guid,
    title: e.title ?? `Episode ${e.guid}`,
    description: `About ${e.guid}.`,
    publishedAt: e.publishedAt === undefined ? new Date() : e.publishedAt,
    durationSeconds: e.durationSeconds === undefined ? 1800 : e.durationSeconds,
    audioUrl: `https://cdn.example.com/${encodeURIComponent(e.guid)}.mp3`,
    transcriptStatus: e.transcriptStatus ?? 'none',
    episodeNumber: e.episodeNumber ?? null,
    season: e.season ?? null,
  }));
  for (let i = 0; i < rows.length; i += 1000) await db.episode.createMany({ data: rows.slice(i, i + 1000) });
  return rows.map((r) => r.transcriptId);
}

/** `count` episodes, one a day back from `newest`, guids `<prefix>-<n>`. */
export function dailyEpisodes(prefix: string, count: number, newest = new Date('2026-03-01T06:00:00Z')): EpisodeFixture[] {
  return Array.from({ length: count }, (_, i) => ({
    guid: `${prefix}-${count - i}`,
    title: `${prefix} #${count - i}`,
    publishedAt: new Date(newest.getTime() - i * 86_400_000),
    episodeNumber: count - i,
  }));
}

/** Stores a transcript row for an episode and marks it ready. */
export async function markTranscribed(db: PrismaClient, transcriptId: string, wordCount = 1234, durationSeconds = 1800): Promise<void> {
  await db.transcript.create({
    data: { transcriptId, source: 'asr', engine: 'sphinx', doc: { segments: [] }, wordCount, durationSeconds },
  });
  await db.episode.update({ where: { transcriptId }, data: { transcriptStatus: 'ready' } });
}

/**
 * The shows name searches are tested against: 2,000 realistic synthetic
 * shows (ids from 1) plus the targets and their real-world near misses,
 * with popularity on the Podcast Index scale.
 */
export const SEARCH_TARGETS = {
  lenny: { id: 5001, title: "Lenny's Podcast: Product | Growth | Career", popularity: 18, appleId: 1627920305, categories: ['Business', 'Careers'] },
  dh: { id: 5002, title: 'DH Unplugged', popularity: 6, categories: ['Business', 'Investing'] },
  daily: { id: 5003, title: 'The Daily', popularity: 29, appleId: 1200361736, feedUrl: 'https://feeds.simplecast.com/54nAGcIl', categories: ['News', 'Daily News'] },
  rogan: { id: 5004, title: 'The Joe Rogan Experience', popularity: 29, appleId: 360084272, categories: ['Comedy'] },
  cafe: { id: 5005, title: 'Café Crème Français', popularity: 7, language: 'fr', categories: ['Education', 'Language Learning'] },
  smartless: { id: 5006, title: 'SmartLess', popularity: 26, appleId: 1521578868, categories: ['Comedy'] },
  crime: { id: 5007, title: 'Crime Junkie', popularity: 27, categories: ['True Crime'] },
  huberman: { id: 5008, title: 'Huberman Lab', popularity: 27, categories: ['Health & Fitness', 'Science'] },
  serial: { id: 5009, title: 'Serial', popularity: 24, categories: ['News'] },
} as const satisfies Record<string, ShowFixture>;

export const NEAR_MISSES: readonly ShowFixture[] = [
  { id: 5101, title: 'The Dale Jr. Download', popularity: 12 },
  { id: 5102, title: 'The Daily Show: Ears Edition', popularity: 15 },
  { id: 5103, title: 'Daily Boost | Coaching and Motivation', popularity: 10 },
  { id: 5104, title: 'The Joe Budden Podcast', popularity: 22, appleId: 1535809341 },
  { id: 5105, title: 'Joe Rogers Report', popularity: 3 },
  { id: 5106, title: 'Lenny Bruce Comedy Hour', popularity: 2 },
  { id: 5107, title: 'Unplugged Conversations', popularity: 4 },
  { id: 5108, title: 'Smart Money Talk', popularity: 8 },
  { id: 5109, title: 'Serial Killers', popularity: 20 },
  { id: 5110, title: 'Crime Time Podcast', popularity: 6 },
  { id: 5111, title: 'Cafe Marriage', popularity: 1 },
  { id: 5112, title: 'Hubert Lab Notes', popularity: 0 },
  { id: 5113, title: 'Dead Old Show', popularity: 29, dead: true },
];

/** Seeds the search corpus: synthetic shows, the targets and the near misses. */
export async function seedSearchCorpus(db: PrismaClient): Promise<void> {
  const synthetic = await syntheticShows(2000, { firstId: 1, seed: 7 });
  await insertShows(db, [...synthetic, ...Object.values(SEARCH_TARGETS), ...NEAR_MISSES]);
}
