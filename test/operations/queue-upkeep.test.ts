import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneFinished } from '../../src/core/jobs/queue-upkeep.js';
import { queueOrJoinTask } from '../../src/core/jobs/task-queue.js';
import { inTransaction } from '../../src/core/transaction.js';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(() => t.close());

const newTask = () =>
  inTransaction(t.podtext.services.db, (tx) =>
    queueOrJoinTask(tx, { transcriptId: sampleEpisode.transcriptId, lane: 'standard', audioUrl: 'http://audio.test/a.mp3', audioSeconds: 60, maxSeconds: 3600, maxAttempts: 3, leaseSeconds: 60, retryDelaySeconds: 1 }),
  );

describe('queue upkeep', () => {
  it('prunes tasks finished before the retention, keeps recent and live ones', async () => {
    const { db } = t.podtext.services;
    const old = (await newTask())!;
    await db.$executeRaw`UPDATE transcription_tasks SET status = 'done', finished_at = now() - interval '31 days' WHERE id = ${old.id}::uuid`;
    const recent = (await newTask())!;
    await db.$executeRaw`UPDATE transcription_tasks SET status = 'failed', finished_at = now() - interval '29 days' WHERE id = ${recent.id}::uuid`;
    const live = (await newTask())!;

    expect(await pruneFinished(db, 30)).toEqual({ tasks: 1, deliveries: 0, mails: 0, billingEvents: 0, alignments: 0 });
    const left = (await db.transcriptionTask.findMany({ select: { id: true } })).map((r) => r.id);
    expect(left).not.toContain(old.id);
    expect(left).toEqual(expect.arrayContaining([recent.id, live.id]));
    // Twice is the same as once.
    expect(await pruneFinished(db, 30)).toEqual({ tasks: 0, deliveries: 0, mails: 0, billingEvents: 0, alignments: 0 });
  });

  it('prunes mails sent or given up before the retention, with the addresses they name; keeps recent and waiting ones', async () => {
    const { db } = t.podtext.services;
    const mail = async (status: string, days: number) => {
      const id = randomUUID();
      await db.$executeRaw`
        INSERT INTO mails (id, to_address, subject, text, status, created_at)
        VALUES (${id}::uuid, ${`${id}@elsewhere.example`}, 's', '', ${status}, now() - make_interval(days => ${days}))`;
      return id;
    };
    const gone = [await mail('sent', 31), await mail('failed', 31)];
    const kept = [await mail('sent', 29), await mail('pending', 31), await mail('sending', 31)];
    expect((await pruneFinished(db, 30)).mails).toBe(2);
    const left = (await db.mail.findMany({ select: { id: true } })).map((r) => r.id);
    expect(left).toEqual(expect.arrayContaining(kept));
    for (const id of gone) expect(left).not.toContain(id);
  });

  it('forgets Stripe event ids received before the retention, never within the three days Stripe retries', async () => {
    const { db } = t.podtext.services;
    const event = async (id: string, days: number) => {
      await db.$executeRaw`INSERT INTO billing_events (id, type, received_at) VALUES (${id}, 'invoice.paid', now() - make_interval(days => ${days}))`;
    };
    await event('evt_old', 31);
    await event('evt_recent', 29);
    await event('evt_retried', 2);
    expect((await pruneFinished(db, 30)).billingEvents).toBe(1);
    // A retention shorter than Stripe's retries still keeps what a retry could repeat.
    expect((await pruneFinished(db, 1)).billingEvents).toBe(1);
    expect((await db.billingEvent.findMany({ select: { id: true } })).map((r) => r.id)).toEqual(['evt_retried']);
  });

  it("prunes audio checks' audit rows past the retention, always keeping an episode's newest", async () => {
    const { db } = t.podtext.services;
    const id = sampleEpisode.transcriptId;
    const row = async (outcome: string, days: number) => {
      await db.$executeRaw`INSERT INTO audio_alignments (transcript_id, outcome, created_at) VALUES (${id}, ${outcome}, now() - make_interval(days => ${days}))`;
    };
    await row('applied', 60);
    await row('applied', 40);
    await row('same', 35);
    expect((await pruneFinished(db, 30)).alignments).toBe(2);
    // The newest stays, however old: it is what the episode's times were last checked against.
    const history = async () =>
      (await db.$queryRaw<{ outcome: string }[]>`SELECT outcome FROM audio_alignments WHERE transcript_id = ${id} ORDER BY id`).map((r) => r.outcome);
    expect(await history()).toEqual(['same']);
    await row('applied', 1);
    expect((await pruneFinished(db, 30)).alignments).toBe(1);
    expect(await history()).toEqual(['applied']);
  });
});
