import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { newGuid } from './support/audio-server.js';
import { getJob, postRequest } from './support/jobs-api.js';

// No workers: the test splits a long standard-lane episode into chunks as a worker does, and
// reads the quotes and estimates as clients see them.
let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext({ env: { FAST_ASR_ENGINE: 'openai', FAST_ASR_URL: 'http://gpu.example/v1' } });
});
afterAll(() => t.close());

const episode = (secs: number) => {
  const guid = newGuid('behind');
  return { guid, url: `https://media.example/${guid}.mp3`, secs };
};

describe('a fast-lane request while a long standard episode is being transcribed', () => {
  it('is quoted and promised as the workers claim it: after the split and the chunks in hand, not after the whole episode', async () => {
    const a = await t.account({ credits: 10 });
    const b = await t.account({ credits: 10 });
    const hour = episode(3600);
    expect((await postRequest(t, a.key, { episodes: [hour] })).status).toBe(200);
    const { tasks } = t.podtext.services.jobs;
    const task = await tasks.claim('worker-1');
    expect(task?.transcriptId).toBe(transcriptIdFor(hour.guid));
    // While it is still downloading, the worker holds its slot until the split, then takes the fast task next.
    expect((await postRequest(t, b.key, { episodes: [episode(60)], fast: true, dry_run: true })).body.estimated_seconds).toBeLessThan(120);
    const chunks = Array.from({ length: 120 }, (_, i) => ({ index: i, startSeconds: i * 30, endSeconds: (i + 1) * 30, audio: Buffer.alloc(64) }));
    expect(await tasks.splitIntoChunks(task!, chunks, { engineLane: 'standard', audioSeconds: 3600, splitSeconds: 5, vocabulary: [] })).toBe(true);

    // Workers claim a fast-lane task before any chunk: a minute of fast audio waits for a chunk, not for the hour.
    const quote = await postRequest(t, b.key, { episodes: [episode(60)], fast: true, dry_run: true });
    expect(quote.body.estimated_seconds).toBeLessThan(120);
    expect(quote.body.promise_seconds).toBe(300);
    const fast = await postRequest(t, b.key, { episodes: [episode(60)], fast: true });
    expect(fast.body.job).toMatchObject({ promise_seconds: 300 });
    expect(fast.body.job.estimated_seconds).toBeLessThan(120);
    expect((await getJob(t, b.key, fast.body.job.id)).estimated_seconds).toBeLessThan(120);

    // A standard request still waits for every chunk of the hour (some 24 minutes on one slot).
    const standard = await postRequest(t, b.key, { episodes: [episode(60)], dry_run: true });
    expect(standard.body.estimated_seconds).toBeGreaterThanOrEqual(3600 / 2.5);
  });
});
