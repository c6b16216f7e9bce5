import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { queueOrJoinTask } from '../../src/core/jobs/task-queue.js';
import { inTransaction } from '../../src/core/transaction.js';
import { hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// 1,000 queued tasks, 8 workers in two processes claiming as fast as they can
// (none finishing, so every claim holds its lease): each task is claimed by
// exactly one worker. Races only mean something on PostgreSQL.
const TASKS = 1000;
const WORKERS = 8;

describe.skipIf(!hasPostgres())('task claims on PostgreSQL', () => {
  let a: TestPodtext;
  let b: TestPodtext;
  beforeAll(async () => {
    a = await startTestPodtext({ postgres: true });
    b = await startTestPodtext({ databaseUrl: a.podtext.config.databaseUrl! });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it(`${TASKS} tasks, ${WORKERS} workers in two processes: none claimed twice, none left`, async () => {
    const { db } = a.podtext.services;
    const guids = Array.from({ length: TASKS }, (_, i) => `claim-race-${i}`);
    await db.show.create({ data: { id: 7_100_001, title: 'Claims', searchName: 'claims', searchCompact: 'claims' } });
    await db.episode.createMany({ data: guids.map((guid) => ({ transcriptId: transcriptIdFor(guid), showId: 7_100_001, guid, title: guid })) });
    await inTransaction(db, async (tx) => {
      for (const guid of guids) {
        const queued = await queueOrJoinTask(tx, {
          transcriptId: transcriptIdFor(guid), lane: 'standard', audioUrl: 'https://media.example/a.mp3',
          audioSeconds: 10, maxSeconds: 100, maxAttempts: 3, leaseSeconds: 600, retryDelaySeconds: 1,
        });
        expect(queued?.created).toBe(true);
      }
    });
    const claims = new Map<string, string[]>();
    await Promise.all(
      Array.from({ length: WORKERS }, async (_, w) => {
        const instance = w % 2 ? a : b;
        for (;;) {
          const task = await instance.podtext.services.jobs.tasks.claim(`claimer-${w}`);
          if (!task) return;
          claims.set(task.id, [...(claims.get(task.id) ?? []), `claimer-${w}`]);
        }
      }),
    );
    const twice = [...claims.entries()].filter(([, by]) => by.length > 1);
    expect(twice).toEqual([]);
    expect(claims.size).toBe(TASKS);
    expect(await db.transcriptionTask.count({ where: { status: 'queued' } })).toBe(0);
    // Every worker took part: a race, not one worker draining the queue alone.
    const perWorker = new Set([...claims.values()].flat());
    expect(perWorker.size).toBe(WORKERS);
  }, 180_000);
});
