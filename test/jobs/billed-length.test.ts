import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { jobDone, ledger, postRequest } from './support/jobs-api.js';
import { spokenMp3 } from './support/spoken.js';

let t: TestPodtext;
let audio: AudioServer;

beforeAll(async () => {
  audio = await startAudioServer();
  // A fast lane that cannot be reached: fast tasks run on the standard lane and get their premium back.
  t = await startTestPodtext({ env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '1', FAST_ASR_ENGINE: 'openai', FAST_ASR_URL: 'http://127.0.0.1:9/v1' } });
  audio.file('/short.mp3', await spokenMp3(SHORT_PASSAGE));
  t.podtext.startWorkers();
});

afterAll(async () => {
  await t?.close();
  await audio?.close();
});

// The price is set by the length a request names (`secs`); the audio turns out
// to be a few seconds long, so the hours billed beyond it come back.
describe('an episode shorter than the length it was billed for', () => {
  it('gets the hours billed beyond its real length refunded when the job is done, once', async () => {
    const a = await t.account({ credits: 10 });
    const r = await postRequest(t, a.key, { episodes: [{ guid: newGuid('long-claim'), url: audio.url('/short.mp3'), secs: 9000 }] });
    expect(r.status).toBe(200);
    expect(r.body.credits_charged).toBe(3);
    const job = await jobDone(t, a.key, r.body.job.id, 120_000);
    expect(job).toMatchObject({ status: 'done', done: 1, credits_refunded: 2 });
    expect(job.episodes[0].status).toBe('ready');
    const [refund, ...more] = await ledger(t, a.accountId, 'refund:');
    expect(more).toEqual([]);
    expect(refund).toMatchObject({ amount: 2, reference: `refund:job:${r.body.job.id}:${job.episodes[0].transcript_id}`, memo: expect.stringContaining('billed as 3 h; 1 h apply') });
    // One hour, the minimum, is what the transcript cost; the unlock stays.
    expect((await t.podtext.services.db.account.findUniqueOrThrow({ where: { id: a.accountId } })).credits).toBe(9);
    expect((await t.api('GET', `/transcripts/${job.episodes[0].transcript_id}?format=text`, { key: a.key })).status).toBe(200);
    // No feed says how long it is: the episode now shows the length measured, not the 9000 s claimed.
    const episode = (await (await t.api('GET', `/episodes/${job.episodes[0].transcript_id}`, { key: a.key })).json()) as { duration_seconds: number };
    expect(episode.duration_seconds).toBeGreaterThan(3);
    expect(episode.duration_seconds).toBeLessThan(30);
  }, 150_000);

  it('on the fast lane, the premium comes back whole once and the base charge in part: nothing refunded twice', async () => {
    const a = await t.account({ credits: 10 });
    const r = await postRequest(t, a.key, { episodes: [{ guid: newGuid('long-claim-fast'), url: audio.url('/short.mp3'), secs: 9000 }], fast: true });
    expect(r.status).toBe(200);
    expect(r.body.credits_charged).toBe(6);
    const job = await jobDone(t, a.key, r.body.job.id, 120_000);
    expect(job).toMatchObject({ status: 'done', credits_refunded: 5 });
    const refunds = await ledger(t, a.accountId, 'refund:');
    expect(refunds.map((e) => e.amount).sort()).toEqual([2, 3]);
    expect((await t.podtext.services.db.account.findUniqueOrThrow({ where: { id: a.accountId } })).credits).toBe(9);
  }, 150_000);
});
