import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { type FakeClock, fakeClock } from '../support/fake-clock.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { jobDone, ledger, postRequest } from './support/jobs-api.js';
import { type SpeechApi, startSpeechApi } from './support/speech-api.js';
import { spokenMp3 } from './support/spoken.js';
import { waitFor } from './support/wait.js';

let t: TestPodtext;
let audio: AudioServer;
let speech: SpeechApi;
let clock: FakeClock;

beforeAll(async () => {
  audio = await startAudioServer();
  speech = await startSpeechApi(SHORT_PASSAGE);
  clock = fakeClock('2026-03-10T12:00:00Z');
  audio.file('/spoken.mp3', await spokenMp3(SHORT_PASSAGE));
  t = await startTestPodtext({
    clock,
    env: { OUTBOUND_ALLOW: `${audio.endpoint},${speech.endpoint}`, WORKERS: '2', FAST_ASR_ENGINE: 'openai', FAST_ASR_URL: speech.url },
    // A failing endpoint is tried again after 20 ms rather than 1 s: the fallback comes quickly.
    jobs: { workers: { pollMs: 200, fastRetryDelayMs: 20 } },
  });
  t.podtext.startWorkers();
});

afterAll(async () => {
  await t?.close();
  await audio?.close();
  await speech?.close();
});

async function fastJob(key: string) {
  const guid = newGuid('fast');
  const r = await postRequest(t, key, { episodes: [{ guid, url: audio.url('/spoken.mp3'), secs: 12 }], fast: true });
  expect(r.status).toBe(200);
  return { guid, job: r.body.job, promise: r.body.job.promise_seconds as number };
}

describe('the fast lane', () => {
  it('runs on the fast engine through the guarded client; done 1 s late refunds the premium once, 1 s early does not', async () => {
    const a = await t.account({ credits: 10 });
    const calls = speech.calls();

    let release = speech.hold();
    const late = await fastJob(a.key);
    expect(late.promise).toBeGreaterThanOrEqual(300);
    clock.set(new Date(Date.parse(late.job.created_at) + late.promise * 1000 + 1000));
    release();
    const lateDone = await jobDone(t, a.key, late.job.id);
    expect(lateDone).toMatchObject({ credits_refunded: 1, promise_seconds: null });
    const refunds = await ledger(t, a.accountId, 'refund:');
    expect(refunds.map((e) => [e.reference, e.amount])).toEqual([[`refund:job:${late.job.id}:${transcriptIdFor(late.guid)}:premium`, 1]]);
    expect(refunds[0]!.memo).toContain('later than promised');

    release = speech.hold();
    const onTime = await fastJob(a.key);
    clock.set(new Date(Date.parse(onTime.job.created_at) + onTime.promise * 1000 - 1000));
    release();
    expect(await jobDone(t, a.key, onTime.job.id)).toMatchObject({ credits_refunded: 0 });
    expect(await ledger(t, a.accountId, 'refund:')).toHaveLength(1);

    expect(speech.calls() - calls).toBe(2);
    const stored = await t.podtext.services.db.transcript.findUniqueOrThrow({ where: { transcriptId: transcriptIdFor(onTime.guid) } });
    expect(stored).toMatchObject({ source: 'asr', engine: 'openai', model: 'whisper-1' });
    const fresh = await t.podtext.services.db.laneThroughput.findUnique({ where: { lane: 'fast:openai' } });
    expect(fresh?.samples).toBe(2);
  });

  it('an episode that falls back to the standard lane gets its premium refunded', async () => {
    const a = await t.account({ credits: 10 });
    speech.mode = 'fail';
    try {
      const { guid, job } = await fastJob(a.key);
      const done = await jobDone(t, a.key, job.id);
      expect(done).toMatchObject({ credits_refunded: 1, done: 1 });
      expect(done.episodes[0].status).toBe('ready');
      expect((await ledger(t, a.accountId, 'refund:')).map((e) => e.reference)).toEqual([`refund:job:${job.id}:${transcriptIdFor(guid)}:premium`]);
      const stored = await t.podtext.services.db.transcript.findUniqueOrThrow({ where: { transcriptId: transcriptIdFor(guid) } });
      expect(stored.engine).toBe('sphinx');
    } finally {
      speech.mode = 'ok';
    }
  }, 60_000);

  it('a transcript from a server that answers text alone says its word times are estimates', async () => {
    const a = await t.account({ credits: 10 });
    const timed = await fastJob(a.key);
    await jobDone(t, a.key, timed.job.id);
    speech.mode = 'text';
    try {
      const untimed = await fastJob(a.key);
      await jobDone(t, a.key, untimed.job.id);
      const read = async (guid: string) =>
        (await (await t.api('GET', `/transcripts/${transcriptIdFor(guid)}?timestamps=1&words=1`, { key: a.key })).json()) as {
          word_times_estimated: boolean;
          segments: { words: { w: string }[] }[];
        };
      const [measured, spread] = [await read(timed.guid), await read(untimed.guid)];
      expect(measured.word_times_estimated).toBe(false);
      // Every word is there, with times, but none was heard at its time: the reader must be told.
      expect(spread.segments.flatMap((x) => x.words.map((w) => w.w)).length).toBeGreaterThan(5);
      expect(spread.word_times_estimated).toBe(true);
    } finally {
      speech.mode = 'ok';
    }
  }, 60_000);
});

describe('one episode is transcribed once', () => {
  it('two accounts asking at the same moment: one task, one download, both charged and unlocked', async () => {
    const [a, b] = await Promise.all([t.account({ credits: 3 }), t.account({ credits: 3 })]);
    const guid = newGuid('shared');
    const calls = speech.calls();
    const release = speech.hold();
    const [ra, rb] = await Promise.all([a, b].map((acc) => postRequest(t, acc.key, { episodes: [{ guid, url: audio.url('/spoken.mp3') }], fast: true })));
    expect([ra!.body.credits_charged, rb!.body.credits_charged]).toEqual([2, 2]);
    const tasks = await t.podtext.services.db.transcriptionTask.findMany({ where: { transcriptId: transcriptIdFor(guid) } });
    expect(tasks).toHaveLength(1);
    // Both jobs wait on the one task, which is claimed once.
    await waitFor(async () => (await t.podtext.services.db.transcriptionTask.findUniqueOrThrow({ where: { id: tasks[0]!.id } })).stage === 'recognise' || undefined, 20_000, 'recognition');
    release();
    await Promise.all([jobDone(t, a.key, ra!.body.job.id), jobDone(t, b.key, rb!.body.job.id)]);
    expect(speech.calls() - calls).toBe(1);
    for (const acc of [a, b]) {
      expect((await t.api('GET', `/transcripts/${transcriptIdFor(guid)}`, { key: acc.key })).status).toBe(200);
      expect((await ledger(t, acc.accountId, 'job:')).map((e) => e.amount)).toEqual([-1, -1]);
    }
    const task = await t.podtext.services.db.transcriptionTask.findUniqueOrThrow({ where: { id: tasks[0]!.id } });
    expect(task).toMatchObject({ attempt: 1, status: 'done' });
  });
});

describe('an episode the key already pays for on the standard lane, asked for on the fast lane', () => {
  it('costs the premium only: the standard charge is not taken twice', async () => {
    const a = await t.account({ credits: 5 });
    const guid = newGuid('upgrade');
    // The host holds the file until told: the standard task stays at its download meanwhile.
    let send = () => undefined as void;
    const sent = new Promise<void>((resolve) => (send = resolve));
    const mp3 = await spokenMp3(SHORT_PASSAGE);
    audio.handle('/held.mp3', (_req, res) => void sent.then(() => res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(mp3)));
    const item = { guid, url: audio.url('/held.mp3'), secs: 12 };

    const standard = await postRequest(t, a.key, { episodes: [item] });
    expect(standard.body.credits_charged).toBe(1);
    const quote = await postRequest(t, a.key, { episodes: [item], fast: true, dry_run: true });
    expect(quote.body).toMatchObject({ credits_required: 1, episodes: [{ charged: 1 }] });
    const fast = await postRequest(t, a.key, { episodes: [item], fast: true });
    expect(fast.body).toMatchObject({ credits_charged: 1, credits_remaining: 3 });
    expect(fast.body.job.episodes[0].charged).toBe(1);
    // Asked once more on the fast lane: already paid for.
    const again = await postRequest(t, a.key, { episodes: [item], fast: true });
    expect(again.body.credits_charged).toBe(0);

    send();
    await Promise.all([standard, fast, again].map((r) => jobDone(t, a.key, r.body.job.id)));
    // One standard charge and one premium, never a second standard charge.
    const charges = await ledger(t, a.accountId, 'job:');
    expect(charges.map((e) => [e.reference.endsWith(':premium') ? 'premium' : 'standard', e.amount])).toEqual([
      ['standard', -1],
      ['premium', -1],
    ]);
    expect((await t.api('GET', `/transcripts/${transcriptIdFor(guid)}`, { key: a.key })).status).toBe(200);
  }, 60_000);
});
