import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { seededRandom } from '../../src/core/seeded-random.js';
import { LONG_PASSAGE, SHORT_PASSAGE } from '../audio/passages.js';
import { hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type AudioServer, newGuid, startAudioServer } from '../jobs/support/audio-server.js';
import { jobDone, ledger, postRequest } from '../jobs/support/jobs-api.js';
import { spokenMp3 } from '../jobs/support/spoken.js';
import { waitFor } from '../jobs/support/wait.js';
import { killWorkerByPid, spawnWorker, type WorkerChild } from '../jobs/support/worker-child.js';

// ROLE=worker processes SIGKILLed at seeded-random stages of their work; each
// killed task (or chunk) is claimed again once its lease runs out, and every
// episode ends transcribed once, unlocked once, charged once. CI runs 5 kills
// (every stage once); `npm run bench -- chaos` runs 20. PODTEXT_CHAOS_SEED
// replays a run's stages.
const FULL = process.env.PODTEXT_CHAOS_FULL === '1';
const KILLS = FULL ? 20 : 5;
const SEED = Number(process.env.PODTEXT_CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** Short, so that a kill costs seconds; heartbeats renew it every third. */
const LEASE_SECONDS = 10;
/** Worker processes alive at once, one slot each: a kill takes exactly one task or chunk with it. */
const PROCESSES = 3;

const STAGES = ['download', 'decode/split', 'recognise', 'commit', 'chunk'] as const;
type Stage = (typeof STAGES)[number];

/** Every stage once, the rest drawn at random, in a shuffled order: the same for the same seed. */
function killPlan(seed: number, kills: number): Stage[] {
  const random = seededRandom(seed);
  const plan: Stage[] = [...STAGES, ...Array.from({ length: Math.max(0, kills - STAGES.length) }, () => STAGES[Math.floor(random() * STAGES.length)]!)];
  for (let i = plan.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [plan[i], plan[j]] = [plan[j]!, plan[i]!];
  }
  return plan.slice(0, kills);
}

/** Task stages each planned stage accepts; the first one seen is where the kill lands. */
const TASK_STAGES: Record<Exclude<Stage, 'chunk'>, string[]> = {
  download: ['download'],
  'decode/split': ['decode', 'split'],
  recognise: ['recognise'],
  // The commit follows its heartbeat at once: the kill lands just before or just after it.
  commit: ['commit', 'done'],
};

interface Kill {
  planned: Stage;
  /** The stage the worker was in when it was killed (`chunk` for a chunk in hand). */
  hit: string;
  guid: string;
  jobId: string;
  attempt: number;
  /** The lease the killed worker held, as last seen (database clock). */
  leaseUntil: Date;
  chunkIdx?: number;
  /** When the killed work was claimed again (database clock), once seen. */
  reclaimedAt?: Date;
}

describe.skipIf(!hasPostgres())('worker processes killed at random stages (PostgreSQL)', () => {
  let api: TestPodtext;
  let audio: AudioServer;
  const stalled: ServerResponse[] = [];
  const children: WorkerChild[] = [];

  beforeAll(async () => {
    audio = await startAudioServer();
    audio.file('/spoken.mp3', await spokenMp3(SHORT_PASSAGE));
    // About a minute: split into chunk tasks that any process may claim.
    audio.file('/long.mp3', await spokenMp3(LONG_PASSAGE));
    // The API process runs no workers: the killed processes and their replacements do all the work.
    api = await startTestPodtext({ postgres: true, env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '0' }, jobs: { options: { leaseSeconds: LEASE_SECONDS, retryDelaySeconds: 0 } } });
  }, 120_000);

  afterAll(async () => {
    for (const res of stalled) res.destroy();
    for (const c of children) await c.dispose();
    await api?.close();
    await audio?.close();
  });

  /** An episode whose first download stalls halfway (a worker caught mid-download); later ones get the file. */
  async function stallingEpisode(guid: string): Promise<string> {
    const mp3 = await spokenMp3(SHORT_PASSAGE);
    let first = true;
    audio.handle(`/stall-${guid}.mp3`, (_req, res) => {
      res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': String(mp3.length) });
      if (!first) return void res.end(mp3);
      first = false;
      res.write(mp3.subarray(0, mp3.length >> 1));
      stalled.push(res);
    });
    return audio.url(`/stall-${guid}.mp3`);
  }

  const plan = killPlan(SEED, KILLS);

  it(`${KILLS} SIGKILLs at seeded-random stages (PODTEXT_CHAOS_SEED=${SEED}): reclaimed after the lease, settled and charged once`, async () => {
    console.log(`worker kills: seed ${SEED}, plan ${plan.join(', ')} (replay with PODTEXT_CHAOS_SEED=${SEED})`);
    const started = Date.now();
    const { db } = api.podtext.services;
    const dbUrl = api.podtext.config.databaseUrl!;
    const alive = new Set<WorkerChild>();
    const spawnOne = async () => {
      const c = await spawnWorker({ databaseUrl: dbUrl, outboundAllow: audio.endpoint });
      children.push(c);
      alive.add(c);
    };
    for (let i = 0; i < PROCESSES; i++) await spawnOne();
    await waitFor(async () => (await db.transcriptionWorker.count()) >= PROCESSES || undefined, 90_000, () => `${PROCESSES} worker processes (${[...alive].map((c) => c.output().slice(-300)).join('\n')})`);

    const a = await api.account({ credits: KILLS + 5 });
    const kills: Kill[] = [];
    let killPhaseSeconds = 0;
    // Notes when each killed task or chunk is claimed again, before a chunk's row goes with its episode.
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        for (const k of kills.filter((x) => !x.reclaimedAt)) {
          const tid = transcriptIdFor(k.guid);
          if (k.chunkIdx === undefined) {
            const t = await db.transcriptionTask.findFirst({ where: { transcriptId: tid } });
            if (t && t.attempt > k.attempt) k.reclaimedAt = t.claimedAt!;
          } else {
            const rows = await db.$queryRaw<{ attempt: number; lease_until: Date | null }[]>`
              SELECT c.attempt, c.lease_until FROM transcription_chunks c JOIN transcription_tasks t ON t.id = c.task_id
              WHERE t.transcript_id = ${tid} AND c.idx = ${k.chunkIdx}`;
            // A new claim sets lease_until = now() + lease: its claim time, on the database's clock.
            const r = rows[0];
            if (r && r.attempt > k.attempt && r.lease_until) k.reclaimedAt = new Date(r.lease_until.getTime() - LEASE_SECONDS * 1000);
          }
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    try {
      for (const planned of plan) {
        const guid = newGuid(`kill-${planned.replace('/', '-')}`);
        const url = planned === 'download' ? await stallingEpisode(guid) : audio.url(planned === 'chunk' ? '/long.mp3' : '/spoken.mp3');
        const r = await postRequest(api, a.key, { episodes: [{ guid, url }] });
        expect(r.status).toBe(200);
        const tid = transcriptIdFor(guid);
        let target: { workerId: string; hit: string; attempt: number; leaseUntil: Date; chunkIdx?: number };
        if (planned === 'chunk') {
          target = await waitFor(async () => {
            const rows = await db.$queryRaw<{ idx: number; worker_id: string | null; attempt: number; lease_until: Date }[]>`
              SELECT c.idx, c.worker_id, c.attempt, c.lease_until FROM transcription_chunks c JOIN transcription_tasks t ON t.id = c.task_id
              WHERE t.transcript_id = ${tid} AND c.status = 'running' AND c.worker_id IS NOT NULL ORDER BY c.idx LIMIT 1`;
            const c = rows[0];
            return c ? { workerId: c.worker_id!, hit: 'chunk', attempt: c.attempt, leaseUntil: c.lease_until, chunkIdx: c.idx } : undefined;
          }, 180_000, `a chunk of ${guid} in a worker's hands`, 5);
        } else {
          // Any stage at or past the planned one: a kill never waits for a stage already gone by.
          const order = ['download', 'decode', 'split', 'recognise', 'commit', 'done'];
          const from = order.indexOf(TASK_STAGES[planned][0]!);
          target = await waitFor(async () => {
            const t = await db.transcriptionTask.findFirst({ where: { transcriptId: tid } });
            if (!t?.workerId || t.attempt !== 1 || order.indexOf(t.stage ?? '') < from) return undefined;
            return { workerId: t.workerId, hit: t.stage!, attempt: t.attempt, leaseUntil: t.leaseUntil ?? new Date(0) };
          }, 180_000, `${guid} at ${planned}`, 2);
        }
        const victim = await killWorkerByPid([...alive], Number(target.workerId.split(':')[1]), 'SIGKILL');
        alive.delete(victim);
        kills.push({ planned, guid, jobId: r.body.job.id, ...target });
        await victim.exited;
        await spawnOne();
      }

      killPhaseSeconds = (Date.now() - started) / 1000;
      for (const k of kills) await jobDone(api, a.key, k.jobId, 300_000);
    } finally {
      watching = false;
      await watcher;
    }
    const seconds = (Date.now() - started) / 1000;

    const settledBeforeKill: string[] = [];
    for (const k of kills) {
      const tid = transcriptIdFor(k.guid);
      const task = await db.transcriptionTask.findFirstOrThrow({ where: { transcriptId: tid } });
      const what = `${k.planned} → ${k.hit} (${k.guid}, seed ${SEED})`;
      expect(task.status, what).toBe('done');
      if (k.chunkIdx !== undefined) {
        // The task was split once; its killed chunk was claimed again by another process.
        expect(task.attempt, what).toBe(1);
        expect(k.reclaimedAt, `${what}: chunk claimed again`).toBeDefined();
      } else if (task.attempt === 1) {
        // Killed after its result was stored: nothing to redo.
        expect(['commit', 'done'], what).toContain(k.hit);
        settledBeforeKill.push(k.guid);
      } else {
        expect({ attempt: task.attempt, failures: task.failures }, what).toEqual({ attempt: 2, failures: 1 });
        expect(k.reclaimedAt, what).toBeDefined();
      }
      // Claimed again only once the killed worker's lease had run out.
      if (k.reclaimedAt) expect(k.reclaimedAt.getTime(), what).toBeGreaterThanOrEqual(k.leaseUntil.getTime());
      const stored = await db.transcript.findUniqueOrThrow({ where: { transcriptId: tid } });
      expect(stored.version, what).toBe(1);
      expect(await db.unlock.count({ where: { accountId: a.accountId, transcriptId: tid } }), what).toBe(1);
    }
    expect((await ledger(api, a.accountId, 'job:')).map((e) => e.amount)).toEqual(kills.map(() => -1));
    expect(await ledger(api, a.accountId, 'refund:')).toHaveLength(0);
    expect((await db.account.findUniqueOrThrow({ where: { id: a.accountId } })).credits).toBe(5);
    // Nothing left leased or half done.
    expect(await db.transcriptionTask.count({ where: { status: { not: 'done' } } })).toBe(0);
    expect(await db.$queryRaw<unknown[]>`SELECT 1 FROM transcription_chunks`).toHaveLength(0);

    const delays = kills.filter((k) => k.reclaimedAt).map((k) => (k.reclaimedAt!.getTime() - k.leaseUntil.getTime()) / 1000);
    const hits: Record<string, number> = {};
    for (const k of kills) hits[k.hit] = (hits[k.hit] ?? 0) + 1;
    console.log(
      `WORKER-KILLS ${JSON.stringify({
        seed: SEED,
        kills: kills.length,
        leaseSeconds: LEASE_SECONDS,
        planned: plan,
        hit: hits,
        reclaimed: delays.length,
        settledBeforeKill: settledBeforeKill.length,
        reclaimAfterLeaseSeconds: { min: Math.min(...delays), max: Math.max(...delays) },
        killPhaseSeconds: Math.round(killPhaseSeconds),
        seconds: Math.round(seconds),
      })}`,
    );
  }, FULL ? 1_800_000 : 600_000);
});
