import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_FEED_ID, ensureSampleEpisode } from '../../src/core/transcripts/sample-seed.js';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { type Database, openDatabase } from '../../src/infra/db/open-database.js';
import { freshPostgresDatabase, hasPostgres } from '../support/databases.js';

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

describe('the public sample, seeded at start', () => {
  it.skipIf(!hasPostgres())('is put in place once when several processes start at the same moment on a new PostgreSQL database', async () => {
    const fresh = await freshPostgresDatabase();
    cleanups.push(() => fresh.drop());
    // One pool per starting process.
    const dbs: Database[] = [];
    for (let i = 0; i < 4; i++) dbs.push(await openDatabase({ databaseUrl: fresh.url, migrate: false, poolSize: 2 }));
    cleanups.push(async () => {
      for (const db of dbs) await db.close();
    });
    const prisma = dbs[0]!.prisma;
    for (let round = 0; round < 6; round++) {
      await prisma.$transaction([prisma.transcript.deleteMany(), prisma.episode.deleteMany(), prisma.show.deleteMany()]);
      const starts = await Promise.allSettled(dbs.flatMap((db) => [ensureSampleEpisode(db.prisma, 'http://a.test/sample.mp3'), ensureSampleEpisode(db.prisma, 'http://a.test/sample.mp3')]));
      expect(starts.filter((s) => s.status === 'rejected').map((s) => String((s as PromiseRejectedResult).reason).slice(0, 200)), `round ${round}`).toEqual([]);
      expect(await prisma.show.count({ where: { id: SAMPLE_FEED_ID } })).toBe(1);
      expect(await prisma.transcript.count({ where: { transcriptId: sampleEpisode.transcriptId } })).toBe(1);
    }
  }, 60_000);
});
