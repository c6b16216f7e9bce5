import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { asrDoc } from '../../src/core/jobs/asr-doc.js';
import type { ClaimedTask } from '../../src/core/jobs/task-queue.js';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { postRequest } from './support/jobs-api.js';
import { spokenMp3 } from './support/spoken.js';
import { waitFor } from './support/wait.js';
import { spawnWorker, type WorkerChild } from './support/worker-child.js';

// Crashes, races and several processes only mean something on PostgreSQL.
describe.skipIf(!hasPostgres())('transcription workers on PostgreSQL', () => {
  let api: TestPodtext;
  let other: TestPodtext;
  let audio: AudioServer;
  let mp3: Buffer;
  const children: WorkerChild[] = [];

  beforeAll(async () => {
    mp3 = await spokenMp3(SHORT_PASSAGE);
    audio = await startAudioServer();
    audio.file('/spoken.mp3', mp3);
    // Neither instance runs workers of its own: the ROLE=worker child does the work.
    api = await startTestPodtext({ postgres: true, env: { OUTBOUND_ALLOW: audio.endpoint }, jobs: { options: { leaseSeconds: 60 } } });
    other = await startTestPodtext({ databaseUrl: api.podtext.config.databaseUrl!, jobs: { options: { leaseSeconds: 60 } } });
  });

  afterAll(async () => {
    for (const c of children) await c.dispose();
    await other?.close();
    await api?.close();
    await audio?.close();
  });

  const task = (guid: string) => api.podtext.services.db.transcriptionTask.findFirstOrThrow({ where: { transcriptId: transcriptIdFor(guid) } });

  it('SIGTERM: the worker hands its task back, nothing stays leased', async () => {
    const a = await api.account({ credits: 5 });
    const guid = newGuid('term');
    await postRequest(api, a.key, { episodes: [{ guid, url: audio.url('/spoken.mp3') }] });
    const child = await spawnWorker({ databaseUrl: api.podtext.config.databaseUrl!, outboundAllow: audio.endpoint });
    children.push(child);
    await waitFor(async () => ((await task(guid)).stage === 'recognise' ? true : undefined), 60_000, 'recognition', 10);
    child.kill('SIGTERM');
    // The recogniser below the worker gets the signal too, and may die of it first: still a hand-back.
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
});
