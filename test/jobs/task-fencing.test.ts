import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { asrDoc } from '../../src/core/jobs/asr-doc.js';
import type { JobDonePayload } from '../../src/core/jobs/job-done-payload.js';
import type { TaskResult } from '../../src/core/jobs/settle-task.js';
import { createSecretBox } from '../../src/infra/secret-box.js';
import { TEST_SECRET_KEY, type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { newGuid } from './support/audio-server.js';
import { getJob, ledger, postRequest } from './support/jobs-api.js';

// Leases of one second, no workers: the test plays the workers itself.
let t: TestPodtext;
const hooked: { payload: JobDonePayload; webhookUrl: string; statusInTx: string }[] = [];
beforeAll(async () => {
  t = await startTestPodtext({
    jobs: {
      options: { leaseSeconds: 1, retryDelaySeconds: 0 },
      // What the webhooks module will do: write its delivery in the same transaction.
      onJobDone: async (tx, job) => {
        const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM jobs WHERE id = ${job.jobId}::uuid`;
        hooked.push({ payload: job.payload, webhookUrl: job.webhookUrl, statusInTx: row!.status });
      },
    },
  });
});
afterAll(() => t.close());

const result = (text: string): TaskResult => ({
  doc: asrDoc(text.split(' ').map((w, i) => ({ w, s: i, e: i + 0.5 })), 'en'),
  engine: 'sphinx',
  model: 'en-us',
  language: 'en',
  durationSeconds: 10,
  engineLane: 'standard',
  slotSeconds: 4,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the attempt number fences late writers', () => {
  it('a worker past its lease cannot commit; the worker that reclaimed it can, once', async () => {
    const { tasks } = t.podtext.services.jobs;
    const a = await t.account({ credits: 3 });
    const guid = newGuid();
    const job = (await postRequest(t, a.key, { episodes: [{ guid, url: `https://media.example/${guid}.mp3` }] })).body.job;

    const first = await tasks.claim('worker-1');
    expect(first).toMatchObject({ transcriptId: transcriptIdFor(guid), attempt: 1, failures: 0 });
    expect((await getJob(t, a.key, job.id)).status).toBe('processing');
    expect(await tasks.claim('worker-2')).toBeNull();

    await sleep(1300);
    expect(await tasks.heartbeat(first!, { stage: 'recognise', progress: 0.5 })).toBe(false);
    // Even before anyone reclaims it, a worker past its lease has lost the task.
    expect(await tasks.complete(first!, result('too late'), 'sphinx')).toBe('stale');
    const second = await tasks.claim('worker-2');
    expect(second).toMatchObject({ id: first!.id, attempt: 2, failures: 1 });

    expect(await tasks.complete(first!, result('too late'), 'sphinx')).toBe('stale');
    expect(await tasks.fail(first!, { message: 'late failure', permanent: true })).toBe('stale');
    expect(await tasks.complete(second!, result('on time'), 'sphinx')).toBe('stored');
    expect(await tasks.complete(second!, result('twice'), 'sphinx')).toBe('stale');

    const done = await getJob(t, a.key, job.id);
    expect(done).toMatchObject({ status: 'done', done: 1 });
    const stored = await t.podtext.services.db.transcript.findUniqueOrThrow({ where: { transcriptId: transcriptIdFor(guid) } });
    expect(stored.version).toBe(1);
    expect(JSON.stringify(stored.doc)).toContain('on time');
    expect((await ledger(t, a.accountId, 'job:')).length).toBe(1);
    expect(await ledger(t, a.accountId, 'refund:')).toEqual([]);
  });

  it('a task whose workers keep dying is given up after its attempts, refunded once', async () => {
    const { tasks } = t.podtext.services.jobs;
    const a = await t.account({ credits: 3 });
    const guid = newGuid();
    const job = (await postRequest(t, a.key, { episodes: [{ guid, url: `https://media.example/${guid}.mp3` }] })).body.job;
    for (let i = 1; i <= 3; i++) {
      const claimed = await tasks.claim(`dying-${i}`);
      expect(claimed?.attempt).toBe(i);
      await sleep(1200);
    }
    const last = await tasks.claim('survivor');
    expect(last).toMatchObject({ attempt: 4, failures: 3, maxAttempts: 3 });
    expect(await tasks.fail(last!, { message: 'gave up', permanent: true })).toBe('failed');
    const done = await getJob(t, a.key, job.id);
    expect(done).toMatchObject({ status: 'done', done: 1, credits_refunded: 1 });
    expect(done.episodes[0]).toMatchObject({ status: 'failed', url: null, transcript_url: null, error: 'gave up' });
    expect((await ledger(t, a.accountId, 'refund:')).map((e) => [e.reference, e.amount])).toEqual([[`refund:job:${job.id}:${transcriptIdFor(guid)}`, 1]]);
    const episode = await t.podtext.services.db.episode.findUniqueOrThrow({ where: { transcriptId: transcriptIdFor(guid) } });
    expect(episode.transcriptStatus).toBe('none');
  });
});

describe('job.done', () => {
  it('calls onJobDone inside the transaction that sets the job done, with the spec-6 job object', async () => {
    const { tasks } = t.podtext.services.jobs;
    const a = await t.account({ credits: 5 });
    const [good, bad] = [newGuid('good'), newGuid('bad')];
    // A hosted test inbox: webhook URLs are checked where they resolve, and no public name resolves here.
    const hook = ((await (await t.api('POST', '/webhooks/inbox', { key: a.key })).json()) as { url: string }).url;
    const r = await postRequest(t, a.key, {
      episodes: [{ guid: good, url: 'https://media.example/g.mp3', title: 'Good' }, { guid: bad, url: 'https://media.example/b.mp3', title: 'Bad' }],
      webhook_url: hook,
    });
    const jobId = r.body.job.id as string;
    const first = (await tasks.claim('w'))!;
    const second = (await tasks.claim('w'))!;
    const [ok, broken] = first.transcriptId === transcriptIdFor(good) ? [first, second] : [second, first];
    expect(await tasks.complete(ok, result('fine'), 'sphinx')).toBe('stored');
    expect(hooked).toHaveLength(0);
    expect(await tasks.fail(broken, { message: 'download: server answered 404', permanent: true })).toBe('failed');
    expect(hooked).toEqual([
      {
        webhookUrl: hook,
        statusInTx: 'done',
        payload: {
          id: jobId,
          status: 'done',
          poll_url: `http://podtext.test/api/v1/jobs/${jobId}`,
          episodes: [
            { transcript_id: transcriptIdFor(good), title: 'Good', status: 'ready', url: `http://podtext.test/t/${transcriptIdFor(good)}`, transcript_url: `http://podtext.test/api/v1/transcripts/${transcriptIdFor(good)}` },
            { transcript_id: transcriptIdFor(bad), title: 'Bad', status: 'failed', url: null, transcript_url: null },
          ],
          done: 2,
          total: 2,
        },
      },
    ]);
    const mail = await t.podtext.services.db.mail.findFirstOrThrow({ where: { to: a.email } });
    // Sealed at rest, as keys are.
    expect(createSecretBox(TEST_SECRET_KEY).open(mail.text)).toContain(`http://podtext.test/api/v1/transcripts/${transcriptIdFor(good)}`);
    expect(mail.subject).toBe('Your Podtext job is done: 1 of 2 ready');
  });
});

describe('a job joining work under way', () => {
  it('is processing from the start when its episode is already being transcribed for another job', async () => {
    const { tasks } = t.podtext.services.jobs;
    const [a, b] = [await t.account({ credits: 3 }), await t.account({ credits: 3 })];
    const guid = newGuid('shared');
    const episode = { episodes: [{ guid, url: `https://media.example/${guid}.mp3` }] };
    const first = (await postRequest(t, a.key, episode)).body.job;
    const claimed = (await tasks.claim('worker-1'))!;
    expect((await getJob(t, a.key, first.id)).status).toBe('processing');
    const joined = (await postRequest(t, b.key, episode)).body.job;
    expect(joined.status).toBe('processing');
    expect((await getJob(t, b.key, joined.id)).status).toBe('processing');
    expect(await tasks.complete(claimed, result('both of them'), 'sphinx')).toBe('stored');
    expect((await getJob(t, b.key, joined.id)).status).toBe('done');
    // Not yet claimed: a job joining a queued task waits with it.
    const queuedGuid = newGuid('waiting');
    const waiting = { episodes: [{ guid: queuedGuid, url: `https://media.example/${queuedGuid}.mp3` }] };
    await postRequest(t, a.key, waiting);
    expect((await postRequest(t, b.key, waiting)).body.job.status).toBe('queued');
    expect(await tasks.complete((await tasks.claim('worker-1'))!, result('later'), 'sphinx')).toBe('stored');
  });

  it('a task that has run long with nothing done is not promised in a few seconds: its ready time follows its own pace', async () => {
    const { tasks } = t.podtext.services.jobs;
    const a = await t.account({ credits: 3 });
    const guid = newGuid('slow');
    const job = (await postRequest(t, a.key, { episodes: [{ guid, url: `https://media.example/${guid}.mp3`, secs: 60 }] })).body.job;
    const claimed = (await tasks.claim('worker-1'))!;
    const readyIn = async () => (Date.parse((await getJob(t, a.key, job.id)).estimated_ready_at as string) - Date.now()) / 1000;
    expect(await readyIn()).toBeLessThan(600);
    // The worker has been at it for an hour without finishing a chunk.
    await t.podtext.services.db.$executeRaw`UPDATE transcription_tasks SET claimed_at = now() - interval '1 hour' WHERE id = ${claimed.id}::uuid`;
    expect(await readyIn()).toBeGreaterThan(3600);
    expect(await tasks.complete(claimed, result('at last'), 'sphinx')).toBe('stored');
  });
});
