import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { asrDoc } from '../../src/core/jobs/asr-doc.js';
import type { ClaimedTask } from '../../src/core/jobs/task-queue.js';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { jobDone, ledger, postRequest } from './support/jobs-api.js';
import { spokenMp3 } from './support/spoken.js';
import { waitFor } from './support/wait.js';
import { killWorkerByPid, spawnWorker, type WorkerChild } from './support/worker-child.js';

const LEASE_SECONDS = 15;

// Crashes, races and several processes only mean something on PostgreSQL.
describe.skipIf(!hasPostgres())('transcription workers on PostgreSQL', () => {
  let api: TestPodtext;
  let other: TestPodtext;
  let audio: AudioServer;
  let mp3: Buffer;
  let stalled = true;
  const children: WorkerChild[] = [];

  beforeAll(async () => {
    mp3 = await spokenMp3(SHORT_PASSAGE);
    audio = await startAudioServer();
    audio.file('/spoken.mp3', mp3);
    // Half the file, then nothing until the test lets go: a worker caught mid-download.
    audio.handle('/stall.mp3', (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(mp3.length) });
      res.write(mp3.subarray(0, mp3.length >> 1));
      const finish = () => (stalled ? setTimeout(finish, 50) : res.end(mp3.subarray(mp3.length >> 1)));
      finish();
    });
    api = await startTestPodtext({ postgres: true, env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '2' }, jobs: { options: { leaseSeconds: LEASE_SECONDS, retryDelaySeconds: 0 }, workers: { pollMs: 200 } } });
    other = await startTestPodtext({ databaseUrl: api.podtext.config.databaseUrl!, jobs: { options: { leaseSeconds: 60 } } });
  });

  afterAll(async () => {
    stalled = false;
    for (const c of children) await c.dispose();
    await other?.close();
    await api?.close();
    await audio?.close();
  });

  const task = (guid: string) => api.podtext.services.db.transcriptionTask.findFirstOrThrow({ where: { transcriptId: transcriptIdFor(guid) } });

  it('SIGKILL of a ROLE=worker process at each stage: reclaimed after the lease, finished once, charged once', async () => {
    const a = await api.account({ credits: 20 });
    const scenarios: { path: string; killAt: string[] }[] = [
      { path: '/stall.mp3', killAt: ['download'] },
      { path: '/spoken.mp3', killAt: ['decode', 'split', 'recognise'] },
      { path: '/spoken.mp3', killAt: ['recognise'] },
      // The commit follows its heartbeat at once: the kill lands just before or just after it.
      { path: '/spoken.mp3', killAt: ['commit', 'done'] },
    ];
    // One idle worker process per scenario, started together; leases outlast all the kills,
    // so no child picks up a killed task: the API's own workers reclaim them at the end.
    const { db } = api.podtext.services;
    const spawned = await Promise.all(scenarios.map(() => spawnWorker({ databaseUrl: api.podtext.config.databaseUrl!, outboundAllow: audio.endpoint })));
    children.push(...spawned);
    await waitFor(async () => (await db.transcriptionWorker.count()) >= scenarios.length || undefined, 60_000, () => `4 workers (${spawned.map((c) => c.output().slice(-300)).join('\n')})`);
    const runs: { guid: string; jobId: string; killedAt: number; stage: string }[] = [];
    for (const s of scenarios) {
      const guid = newGuid('kill');
      const r = await postRequest(api, a.key, { episodes: [{ guid, url: audio.url(s.path) }] });
      const row = await waitFor(async () => {
        const t = await task(guid);
        return t.workerId && s.killAt.includes(t.stage ?? '') ? t : undefined;
      }, 60_000, () => `stage ${s.killAt.join('/')}`, 5);
      const killed = await killWorkerByPid(spawned, Number(row.workerId!.split(':')[1]), 'SIGKILL');
      runs.push({ guid, jobId: r.body.job.id, killedAt: Date.now(), stage: row.stage! });
      await killed.exited;
      stalled = false;
    }
    api.podtext.startWorkers();
    for (const run of runs) {
      await jobDone(api, a.key, run.jobId, 60_000);
      const row = await task(run.guid);
      expect(row.status).toBe('done');
      if (row.attempt === 2) {
        expect(row.failures).toBe(1);
        // Not reclaimed before its lease ran out: heartbeats renew it every third of its length.
        expect(row.claimedAt!.getTime()).toBeGreaterThan(run.killedAt + ((LEASE_SECONDS * 2) / 3 - 1) * 1000);
        // The first one had free slots waiting: reclaimed as soon as its lease ran out.
        if (run === runs[0]) expect(row.claimedAt!.getTime()).toBeLessThan(run.killedAt + (LEASE_SECONDS + 3) * 1000);
      } else {
        expect(['commit', 'done']).toContain(run.stage);
        expect(row.attempt).toBe(1);
      }
      const stored = await db.transcript.findUniqueOrThrow({ where: { transcriptId: transcriptIdFor(run.guid) } });
      expect(stored.version).toBe(1);
      expect(await db.unlock.count({ where: { accountId: a.accountId, transcriptId: transcriptIdFor(run.guid) } })).toBe(1);
    }
    expect(runs.slice(0, 3).map((r) => r.stage)).toEqual(['download', expect.stringMatching(/decode|split|recognise/), 'recognise']);
    expect(await ledger(api, a.accountId, 'job:')).toHaveLength(4);
    expect(await ledger(api, a.accountId, 'refund:')).toHaveLength(0);
    expect((await db.account.findUniqueOrThrow({ where: { id: a.accountId } })).credits).toBe(16);
  }, 180_000);

  it('SIGTERM: the worker hands its task back, nothing stays leased', async () => {
    const a = await api.account({ credits: 5 });
    const guid = newGuid('term');
    // This instance's own workers are running; keep them off this task by giving it to a child first.
    await api.podtext.stop().catch(() => undefined);
    api = await startTestPodtext({ databaseUrl: other.podtext.config.databaseUrl!, env: { OUTBOUND_ALLOW: audio.endpoint }, jobs: { options: { leaseSeconds: 60 } } });
    await postRequest(api, a.key, { episodes: [{ guid, url: audio.url('/spoken.mp3') }] });
    const child = await spawnWorker({ databaseUrl: api.podtext.config.databaseUrl!, outboundAllow: audio.endpoint });
    children.push(child);
    await waitFor(async () => ((await task(guid)).stage === 'recognise' ? true : undefined), 60_000, 'recognition', 10);
    child.kill('SIGTERM');
    // npx and tsx die of the signal itself; the node process below them stops gracefully.
    await waitFor(async () => ((await task(guid)).status === 'queued' ? true : undefined), 20_000, () => `release (child log: ${child.output().slice(-800)})`);
    expect(await task(guid)).toMatchObject({ status: 'queued', leaseUntil: null, workerId: null, failures: 0, attempt: 1 });
    await child.exited;
  }, 120_000);

  it('two processes, many requests for the same episodes at once, tasks completing meanwhile: one task per episode, nobody lost', async () => {
    const [a, b] = [await api.account({ credits: 50 }), await other.account({ credits: 50 })];
    const guids = Array.from({ length: 12 }, () => newGuid('race'));
    const stop = { done: false };
    const completer = (async () => {
      while (!stop.done) {
        const claimed = await other.podtext.services.jobs.tasks.claim('racer');
        if (!claimed) {
          await new Promise((r) => setTimeout(r, 5));
          continue;
        }
        const result = { doc: asrDoc([{ w: 'hello', s: 0, e: 0.4 }], 'en'), engine: 'sphinx', model: 'en-us', language: 'en', durationSeconds: 1, engineLane: 'standard' as const, slotSeconds: 1 };
        expect(await other.podtext.services.jobs.tasks.complete(claimed as ClaimedTask, result, 'sphinx')).toBe('stored');
      }
    })();
    const requests = guids.flatMap((guid) => [
      postRequest(api, a.key, { episodes: [{ guid, url: `https://media.example/${guid}.mp3` }] }),
      postRequest(other, b.key, { episodes: [{ guid, url: `https://media.example/${guid}.mp3` }] }),
    ]);
    const answers = await Promise.all(requests);
    expect(answers.map((x) => x.status)).toEqual(answers.map(() => 200));
    await waitFor(async () => (await api.podtext.services.db.transcriptionTask.count({ where: { transcriptId: { in: guids.map(transcriptIdFor) }, status: { not: 'done' } } })) === 0 || undefined, 30_000, 'all tasks done');
    stop.done = true;
    await completer;
    const { db } = api.podtext.services;
    for (const guid of guids) expect(await db.transcriptionTask.count({ where: { transcriptId: transcriptIdFor(guid) } })).toBe(1);
    for (const acc of [a, b]) {
      // Every episode unlocked, every job done, 1 credit each whichever way it went.
      expect(await db.unlock.count({ where: { accountId: acc.accountId, transcriptId: { in: guids.map(transcriptIdFor) } } })).toBe(12);
      expect(await db.job.count({ where: { accountId: acc.accountId, status: { not: 'done' } } })).toBe(0);
      expect((await db.account.findUniqueOrThrow({ where: { id: acc.accountId } })).credits).toBe(38);
    }
  }, 60_000);

  it('200 tasks claimed by 8 workers in two processes: none claimed twice', async () => {
    const { db } = api.podtext.services;
    await db.$executeRaw`INSERT INTO shows (id, title) VALUES (7000001, 'Claims') ON CONFLICT DO NOTHING`;
    for (let i = 0; i < 200; i++) {
      const guid = newGuid('claim');
      await db.$executeRaw`INSERT INTO episodes (transcript_id, show_id, guid, title) VALUES (${transcriptIdFor(guid)}, 7000001, ${guid}, ${guid})`;
      await db.$executeRaw`
        INSERT INTO transcription_tasks (id, transcript_id, lane, audio_url, audio_seconds, max_seconds, max_attempts, lease_seconds, retry_delay_seconds)
        VALUES (gen_random_uuid(), ${transcriptIdFor(guid)}, 'standard', 'https://x.example/a.mp3', 10, 100, 3, 600, 1)`;
    }
    const claimed: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, w) => {
        const instance = w % 2 ? api : other;
        for (;;) {
          const c = await instance.podtext.services.jobs.tasks.claim(`claimer-${w}`);
          if (!c) return;
          claimed.push(c.id);
        }
      }),
    );
    expect(claimed.length).toBeGreaterThanOrEqual(200);
    expect(new Set(claimed).size).toBe(claimed.length);
  }, 60_000);
});
