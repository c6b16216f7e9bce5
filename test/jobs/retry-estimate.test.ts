import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryTaskLater } from '../../src/core/jobs/task-queue.js';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { newGuid } from './support/audio-server.js';
import { getJob, postRequest } from './support/jobs-api.js';

// No workers: the failed attempt is recorded as a worker records it, and the job is read as its owner polls it.
let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext({ jobs: { options: { retryDelaySeconds: 600 } } });
});
afterAll(() => t.close());

describe('a job whose episode waits out the backoff after a failed attempt', () => {
  it('is not estimated ready before the retry can run, and polling is paced by that', async () => {
    const a = await t.account({ credits: 3 });
    const guid = newGuid('retried');
    const made = await postRequest(t, a.key, { episodes: [{ guid, url: `https://media.example/${guid}.mp3`, secs: 60 }] });
    expect(made.status).toBe(200);
    // A minute of audio with nothing ahead: ready within a minute or so.
    expect(made.body.job.estimated_seconds).toBeLessThan(120);

    const { db } = t.podtext.services;
    const task = await db.transcriptionTask.findFirstOrThrow({ where: { transcriptId: transcriptIdFor(guid) } });
    await db.$transaction((tx) => retryTaskLater(tx, task.id, 'download: server answered 503'));
    const retryAt = (await db.transcriptionTask.findUniqueOrThrow({ where: { id: task.id } })).nextAttemptAt.getTime();
    expect(retryAt).toBeGreaterThan(Date.now() + 500_000);

    const polled = await getJob(t, a.key, made.body.job.id);
    expect(polled.status).not.toBe('done');
    expect(polled.estimated_seconds).toBeGreaterThanOrEqual(600 - 5);
    expect(Date.parse(polled.estimated_ready_at)).toBeGreaterThanOrEqual(retryAt - 1000);
    expect(polled.poll_after_seconds).toBeGreaterThanOrEqual(145);
    // Its list shows the same.
    const listed = (await (await t.api('GET', '/jobs', { key: a.key })).json()) as { jobs: { id: string; estimated_seconds: number }[] };
    expect(listed.jobs.find((j) => j.id === made.body.job.id)!.estimated_seconds).toBe(polled.estimated_seconds);
  });
});
