import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOpenAiEngine } from '../../src/infra/asr/openai-engine.js';
import { decodeToPcm } from '../../src/infra/audio/decode-to-pcm.js';
import { fanOutChunks } from '../../src/workers/transcription-fan-out.js';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { LONG_PASSAGE, SHORT_PASSAGE } from '../audio/passages.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { jobDone, ledger, postRequest } from './support/jobs-api.js';
import { type SpeechApi, startSpeechApi } from './support/speech-api.js';
import { spokenMp3 } from './support/spoken.js';

// The fast lane sends an episode's chunks to the GPU endpoint FAST_ASR_CONCURRENCY at a time.
let t: TestPodtext;
let audio: AudioServer;
let speech: SpeechApi;

beforeAll(async () => {
  audio = await startAudioServer();
  speech = await startSpeechApi(SHORT_PASSAGE);
  audio.file('/long.mp3', await spokenMp3(LONG_PASSAGE));
  audio.file('/short.mp3', await spokenMp3(SHORT_PASSAGE));
  t = await startTestPodtext({
    env: { OUTBOUND_ALLOW: `${audio.endpoint},${speech.endpoint}`, WORKERS: '1', FAST_ASR_ENGINE: 'openai', FAST_ASR_URL: speech.url, FAST_ASR_CONCURRENCY: '4' },
    // Short chunks so that a one-minute episode is many of them; short waits so that failures come quickly.
    jobs: { workers: { pollMs: 200, chunkSeconds: 3, maxChunkSeconds: 6, fastChunkAttempts: 2, fastRetryDelayMs: 20, fastChunkTimeoutMs: 1500 } },
  });
  t.podtext.startWorkers();
});

afterAll(async () => {
  await t?.close();
  await audio?.close();
  await speech?.close();
});

const stored = (guid: string) => t.podtext.services.db.transcript.findUniqueOrThrow({ where: { transcriptId: transcriptIdFor(guid) } });

describe('fast-lane fan-out', () => {
  it("a long episode's chunks go out 4 at a time, stitched in order, settled once", async () => {
    const a = await t.account({ credits: 10 });
    speech.delayMs = 150;
    speech.resetPeak();
    const calls = speech.calls();
    const guid = newGuid('fanout');
    const r = await postRequest(t, a.key, { episodes: [{ guid, url: audio.url('/long.mp3'), secs: 60 }], fast: true });
    expect(r.status).toBe(200);
    const done = await jobDone(t, a.key, r.body.job.id);
    speech.delayMs = 0;
    expect(done).toMatchObject({ done: 1, credits_refunded: 0 });
    expect(done.episodes[0].status).toBe('ready');
    const chunks = speech.calls() - calls;
    expect(chunks).toBeGreaterThanOrEqual(8);
    // One worker slot, yet four requests at once: the endpoint is the parallelism, and no more than asked.
    expect(speech.peakInFlight()).toBe(4);
    const transcript = await stored(guid);
    expect(transcript.engine).toBe('openai');
    // Every chunk's words, on the episode's clock, in chunk order whatever order the answers came in.
    const doc = transcript.doc as { segments: { start: number; words: { s: number }[] }[] };
    const starts = doc.segments.flatMap((s) => s.words.map((w) => w.s));
    expect(starts.length).toBe(chunks * SHORT_PASSAGE.split(/\s+/).length);
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
    expect(starts.at(-1)!).toBeGreaterThan(40);
    expect((await ledger(t, a.accountId, 'job:')).map((e) => e.amount)).toEqual([-1, -1]);
    expect(await ledger(t, a.accountId, 'refund:')).toHaveLength(0);
    const task = await t.podtext.services.db.transcriptionTask.findFirstOrThrow({ where: { transcriptId: transcriptIdFor(guid) } });
    expect(task).toMatchObject({ status: 'done', attempt: 1, engineLane: 'fast' });
  });

  it('an endpoint that dies mid-episode: the episode falls back to the standard lane, premium refunded once', async () => {
    for (const fault of ['dies'] as const) {
      const a = await t.account({ credits: 10 });
      speech.failAfter(1);
      try {
        const guid = newGuid(fault);
        const r = await postRequest(t, a.key, { episodes: [{ guid, url: audio.url('/short.mp3') }], fast: true });
        const done = await jobDone(t, a.key, r.body.job.id, 90_000);
        expect(done, fault).toMatchObject({ done: 1, credits_refunded: 1 });
        expect(done.episodes[0].status).toBe('ready');
        expect((await ledger(t, a.accountId, 'refund:')).map((e) => e.reference)).toEqual([`refund:job:${r.body.job.id}:${transcriptIdFor(guid)}:premium`]);
        expect((await stored(guid)).engine).toBe('sphinx');
        const task = await t.podtext.services.db.transcriptionTask.findFirstOrThrow({ where: { transcriptId: transcriptIdFor(guid) } });
        expect(task).toMatchObject({ status: 'done', attempt: 1, engineLane: 'standard' });
      } finally {
        speech.mode = 'ok';
        speech.failAfter(Number.POSITIVE_INFINITY);
      }
    }
  }, 120_000);

  it('a stalled endpoint: each chunk request times out, is tried again, then the episode gives up on it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'podtext-fanout-'));
    const mp3 = join(dir, 'a.mp3');
    await writeFile(mp3, await spokenMp3(SHORT_PASSAGE));
    await decodeToPcm(mp3, join(dir, 'a.wav'), { maxSeconds: 60 });
    const engine = createOpenAiEngine({ url: speech.url, timeoutMs: 300 });
    const chunks = [0, 1, 2].map((index) => ({ index, startSeconds: index * 3, endSeconds: index * 3 + 3 }));
    speech.mode = 'stall';
    const calls = speech.calls();
    try {
      const run = fanOutChunks(chunks, (_c, signal) => engine.transcribe(join(dir, 'a.wav'), { signal }), { concurrency: 2, attempts: 2, retryDelayMs: 10, signal: new AbortController().signal });
      await expect(run).rejects.toMatchObject({ name: 'AsrError', retryable: true, message: expect.stringContaining('within 300 ms') });
      // The first two chunks, twice each; the third never sent once the episode gave up.
      expect(speech.calls() - calls).toBe(4);
    } finally {
      speech.mode = 'ok';
      await rm(dir, { recursive: true, force: true });
    }
  });
});
