import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { LONG_PASSAGE } from '../audio/passages.js';
import { hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { jobDone, ledger, postRequest } from './support/jobs-api.js';
import { spokenMp3 } from './support/spoken.js';
import { waitFor } from './support/wait.js';
import { killWorkerByPid, spawnWorker, type WorkerChild } from './support/worker-child.js';

const LEASE_SECONDS = 15;

// Chunk tasks shared by worker processes, as on several machines: only PostgreSQL has several processes.
describe.skipIf(!hasPostgres())('chunk tasks on PostgreSQL', () => {
  let api: TestPodtext;
  let audio: AudioServer;
  const children: WorkerChild[] = [];

  beforeAll(async () => {
    audio = await startAudioServer();
    // About a minute of speech: two or three chunks of ~30 s.
    audio.file('/long.mp3', await spokenMp3(LONG_PASSAGE));
    // The API process runs no workers: the two ROLE=worker children do all the work.
    api = await startTestPodtext({ postgres: true, env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '0' }, jobs: { options: { leaseSeconds: LEASE_SECONDS, retryDelaySeconds: 0 } } });
  });

  afterAll(async () => {
    for (const c of children) await c.dispose();
    await api?.close();
    await audio?.close();
  });

  it("two worker processes share one episode's chunks; a SIGKILLed one's chunk is reclaimed after its lease; stitched and settled once", async () => {
    const { db } = api.podtext.services;
    const spawned = await Promise.all([0, 1].map(() => spawnWorker({ databaseUrl: api.podtext.config.databaseUrl!, outboundAllow: audio.endpoint })));
    children.push(...spawned);
    await waitFor(async () => (await db.transcriptionWorker.count()) >= 2 || undefined, 60_000, () => `2 workers (${spawned.map((c) => c.output().slice(-300)).join('\n')})`);
    const a = await api.account({ credits: 5 });
    const guid = newGuid('chunks');
    const r = await postRequest(api, a.key, { episodes: [{ guid, url: audio.url('/long.mp3') }] });
    expect(r.status).toBe(200);

    type Row = { idx: number; attempt: number; worker_id: string | null; status: string };
    const attempts = new Map<number, number>();
    const holders = new Set<string>();
    let killed: { idx: number; at: number } | null = null;
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const rows = await db.$queryRaw<Row[]>`SELECT idx, attempt, worker_id, status FROM transcription_chunks`;
        for (const row of rows) {
          attempts.set(row.idx, Math.max(attempts.get(row.idx) ?? 0, row.attempt));
          if (row.status === 'running' && row.worker_id) holders.add(row.worker_id);
        }
        const running = rows.filter((x) => x.status === 'running' && x.worker_id);
        if (!killed && new Set(running.map((x) => x.worker_id)).size === 2) {
          // Both processes hold a chunk of the one episode at once: kill one of them mid-chunk.
          const victim = running[0]!;
          killed = { idx: victim.idx, at: Date.now() };
          await killWorkerByPid(spawned, Number(victim.worker_id!.split(':')[1]), 'SIGKILL');
        }
        await new Promise((res) => setTimeout(res, 50));
      }
    })();
    try {
      const done = await jobDone(api, a.key, r.body.job.id, 200_000).catch(async (err) => {
        const tasks = await db.$queryRaw<unknown[]>`SELECT status, stage, attempt, lease_until, worker_id, last_error FROM transcription_tasks`;
        const chunks = await db.$queryRaw<unknown[]>`SELECT idx, status, attempt, failures, lease_until, worker_id, last_error FROM transcription_chunks`;
        throw new Error(`${(err as Error).message}\ntasks ${JSON.stringify(tasks)}\nchunks ${JSON.stringify(chunks)}\n${spawned.map((c) => c.output().slice(-1500)).join('\n---\n')}`);
      });
      expect(done).toMatchObject({ status: 'done', done: 1, credits_refunded: 0 });
    } finally {
      watching = false;
      await watch;
    }
    expect(killed, 'both processes held a chunk at once').not.toBeNull();
    expect(holders.size).toBe(2);
    expect(attempts.size).toBeGreaterThanOrEqual(2);
    // The killed worker's chunk was claimed again (attempt 2) by the survivor, once its lease ran out.
    expect(attempts.get(killed!.idx)).toBe(2);

    const tid = transcriptIdFor(guid);
    const task = await db.transcriptionTask.findFirstOrThrow({ where: { transcriptId: tid } });
    expect(task).toMatchObject({ status: 'done', attempt: 1, engineLane: 'standard' });
    expect(task.finishedAt!.getTime()).toBeGreaterThan(killed!.at + (LEASE_SECONDS - 1) * 1000);
    expect(await db.$queryRaw<unknown[]>`SELECT 1 FROM transcription_chunks`).toHaveLength(0);
    const stored = await db.transcript.findUniqueOrThrow({ where: { transcriptId: tid } });
    expect(stored.version).toBe(1);
    // Words from every chunk, on the episode's clock, in order.
    const starts = (stored.doc as { segments: { words: { s: number }[] }[] }).segments.flatMap((s) => s.words.map((w) => w.s));
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
    expect(starts.at(-1)!).toBeGreaterThan(40);
    expect((await ledger(api, a.accountId, 'job:')).map((e) => e.amount)).toEqual([-1]);
    expect(await ledger(api, a.accountId, 'refund:')).toHaveLength(0);
    expect(await db.unlock.count({ where: { accountId: a.accountId, transcriptId: tid } })).toBe(1);
  }, 300_000);
});
