import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { type FakeClock, fakeClock } from '../support/fake-clock.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type Inbox, startSmtpInbox } from '../support/smtp.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { jobDone, postRequest } from './support/jobs-api.js';
import { type SpeechApi, startSpeechApi } from './support/speech-api.js';
import { spokenMp3 } from './support/spoken.js';

let t: TestPodtext;
let audio: AudioServer;
let speech: SpeechApi;
let inbox: Inbox;
let clock: FakeClock;

beforeAll(async () => {
  audio = await startAudioServer();
  speech = await startSpeechApi(SHORT_PASSAGE);
  inbox = await startSmtpInbox();
  clock = fakeClock('2026-03-10T12:00:00Z');
  audio.file('/spoken.mp3', await spokenMp3(SHORT_PASSAGE));
  t = await startTestPodtext({
    clock,
    env: { OUTBOUND_ALLOW: `${audio.endpoint},${speech.endpoint}`, SMTP_URL: inbox.url, WORKERS: '1', FAST_ASR_ENGINE: 'openai', FAST_ASR_URL: speech.url },
    jobs: { options: { maxAttempts: 1, retryDelaySeconds: 0.1 }, workers: { pollMs: 200 } },
  });
  t.podtext.startWorkers();
});

afterAll(async () => {
  await t?.close();
  await audio?.close();
  await speech?.close();
  await inbox?.close();
});

/** A fast job whose audio the host holds until the clock is past its promise, then answers as `answer` says. */
async function lateFastJob(key: string, email: string, answer: 'audio' | 'gone') {
  let send = () => undefined as void;
  const sent = new Promise<void>((resolve) => (send = resolve));
  const path = `/held-${answer}-${Date.now()}.mp3`;
  const mp3 = await spokenMp3(SHORT_PASSAGE);
  audio.handle(path, (_req, res) => void sent.then(() => (answer === 'audio' ? res.writeHead(200, { 'content-type': 'audio/mpeg' }).end(mp3) : res.writeHead(404).end())));
  const r = await postRequest(t, key, { episodes: [{ guid: newGuid(`late-${answer}`), url: audio.url(path), secs: 12 }], fast: true, email });
  expect(r.status).toBe(200);
  clock.set(new Date(Date.parse(r.body.job.created_at) + r.body.job.promise_seconds * 1000 + 1000));
  send();
  return jobDone(t, key, r.body.job.id, 60_000);
}

describe('the completion mail of a fast job done later than promised', () => {
  it('says the premium came back only when it came back for the lateness', async () => {
    const a = await t.account({ credits: 10 });
    const readyEmail = `late-ready-${Date.now()}@example.net`;
    expect(await lateFastJob(a.key, readyEmail, 'audio')).toMatchObject({ done: 1, credits_refunded: 1 });
    expect((await inbox.next(readyEmail, 15_000)).text).toContain('premium was refunded');

    // Its only episode failed: charge and premium came back with the failure, not for the lateness.
    const failedEmail = `late-failed-${Date.now()}@example.net`;
    expect(await lateFastJob(a.key, failedEmail, 'gone')).toMatchObject({ credits_refunded: 2, episodes: [{ status: 'failed' }] });
    const mail = (await inbox.next(failedEmail, 15_000)).text;
    expect(mail).toContain('Credits refunded for this job: 2.');
    expect(mail).not.toContain('premium was refunded');
  }, 150_000);
});
