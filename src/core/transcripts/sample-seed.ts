import type { PrismaClient } from '../../generated/prisma/client.js';
import { countWords } from './transcript-store.js';
import { loadSampleTranscript, sampleEpisode } from './sample/sample-episode.js';

/** The sample show's feed_id: just below the range Podtext allocates for feeds it adds itself. */
export const SAMPLE_FEED_ID = 999_999_999_999n;

/**
 * Puts the public sample episode and its transcript in the index once, so it is
 * served like any other episode. Safe to run on every start and from several
 * processes at once: Prisma's upsert reads, then inserts, so two first starts
 * can both insert; the one that loses finds the rows when it runs again.
 */
export async function ensureSampleEpisode(db: PrismaClient, audioUrl: string | null = null): Promise<void> {
  try {
    await upsertSample(db, audioUrl);
  } catch (err) {
    if ((err as { code?: string }).code !== 'P2002') throw err;
    await upsertSample(db, audioUrl);
  }
}

async function upsertSample(db: PrismaClient, audioUrl: string | null): Promise<void> {
  const doc = loadSampleTranscript();
  await db.$transaction([
    db.show.upsert({
      where: { id: SAMPLE_FEED_ID },
      update: {},
      create: {
        id: SAMPLE_FEED_ID,
        title: sampleEpisode.showTitle,
        author: 'LibriVox volunteers',
        description: 'Public-domain readings, served by Podtext as its open sample.',
        language: 'en',
        categories: ['Arts', 'Books'],
        indexed: false,
        source: 'sample',
        searchName: 'podtext sample public domain readings',
        searchCompact: 'podtextsamplepublicdomainreadings',
        episodeCountTracked: 1,
        newestEpisodeAt: new Date(sampleEpisode.publishedAt),
      },
    }),
    db.episode.upsert({
      where: { transcriptId: sampleEpisode.transcriptId },
      // Follows SITE_URL from start to start.
      update: { audioUrl },
      create: {
        transcriptId: sampleEpisode.transcriptId,
        showId: SAMPLE_FEED_ID,
        guid: sampleEpisode.guid,
        title: sampleEpisode.title,
        description: 'Jane Austen, Sense and Sensibility, chapter 1, read for LibriVox.',
        publishedAt: new Date(sampleEpisode.publishedAt),
        durationSeconds: Math.round(sampleEpisode.durationSeconds),
        audioUrl,
        transcriptStatus: 'ready',
      },
    }),
    db.transcript.upsert({
      where: { transcriptId: sampleEpisode.transcriptId },
      update: {},
      create: {
        transcriptId: sampleEpisode.transcriptId,
        source: 'publisher',
        language: 'en',
        wordTimesEstimated: doc.wordTimesEstimated,
        doc: doc as never,
        wordCount: countWords(doc),
        durationSeconds: sampleEpisode.durationSeconds,
      },
    }),
  ]);
}
