import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { newGuid } from './support/audio-server.js';
import { getJob, postRequest } from './support/jobs-api.js';

// No workers: the test hands a fast-lane episode over to the standard lane as a worker does when
// the fast engine fails for good, and reads the estimates as owners poll them.
let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext({ env: { FAST_ASR_ENGINE: 'openai', FAST_ASR_URL: 'http://gpu.example/v1' } });
});
afterAll(() => t.close());

const episode = (secs: number) => {
  const guid = newGuid('fallback');
  return { guid, url: `https://media.example/${guid}.mp3`, secs };
};

describe('estimates while a fast-lane episode runs on the standard lane after a fallback', () => {
  it('count its chunks as standard work, for its own job and for the standard jobs behind it', async () => {
    const a = await t.account({ credits: 10 });
    const b = await t.account({ credits: 10 });
    const hour = episode(3600);
    const fast = await postRequest(t, a.key, { episodes: [hour], fast: true });
    expect(fast.status).toBe(200);

    const { tasks } = t.podtext.services.jobs;
    const task = await tasks.claim('worker-1');
    expect(task?.transcriptId).toBe(transcriptIdFor(hour.guid));
    // The fast engine failed for good: the hour goes to the standard lane's workers as 120 chunks.
    const chunks = Array.from({ length: 120 }, (_, i) => ({ index: i, startSeconds: i * 30, endSeconds: (i + 1) * 30, audio: Buffer.alloc(64) }));
    expect(await tasks.splitIntoChunks(task!, chunks, { engineLane: 'standard', audioSeconds: 3600, splitSeconds: 5, vocabulary: [] })).toBe(true);

    // An hour on one standard slot (sphinx, 2.5 audio seconds a second before anything is measured): some 24 minutes.
    const standardHour = 3600 / 2.5;
    expect((await getJob(t, a.key, fast.body.job.id)).estimated_seconds).toBeGreaterThanOrEqual(standardHour * 0.9);

    // A minute of standard work queued behind it waits for those chunks.
    const behind = await postRequest(t, b.key, { episodes: [episode(60)] });
    expect(behind.status).toBe(200);
    expect(behind.body.job.estimated_seconds).toBeGreaterThanOrEqual(standardHour);
    expect((await getJob(t, b.key, behind.body.job.id)).estimated_seconds).toBeGreaterThanOrEqual(standardHour);
    const quote = await postRequest(t, b.key, { episodes: [episode(60)], dry_run: true });
    expect(quote.body.estimated_seconds).toBeGreaterThanOrEqual(standardHour);
  });
});
