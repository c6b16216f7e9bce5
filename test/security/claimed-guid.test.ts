import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { type AudioServer, newGuid, startAudioServer } from '../jobs/support/audio-server.js';
import { jobDone, postRequest } from '../jobs/support/jobs-api.js';
import { spokenMp3 } from '../jobs/support/spoken.js';
import { waitFor } from '../jobs/support/wait.js';
import { type TestAccount, type TestPodtext, startTestPodtext } from '../support/podtext.js';

// Anyone can ask for an episode by a guid the index does not know yet, with
// audio of their choosing. When the show's feed later publishes that guid, the
// feed's episode takes over: the transcript made from the requester's file
// stays only if the feed serves the same recording.
const OTHER_PASSAGE = 'The lighthouse keeper counted the ships every evening and wrote their names in a green book by the window.';

let t: TestPodtext;
let audio: AudioServer;
let requester: TestAccount;
let reader: TestAccount;
let spoken: Buffer;
let other: Buffer;

beforeAll(async () => {
  [spoken, other, audio] = await Promise.all([spokenMp3(SHORT_PASSAGE), spokenMp3(OTHER_PASSAGE), startAudioServer()]);
  t = await startTestPodtext({ env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '1', AUDIO_CHECK_INTERVAL: '1' } });
  t.podtext.startWorkers();
  [requester, reader] = await Promise.all([t.account({ credits: 10 }), t.account({ credits: 10 })]);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await audio?.close();
});

/** Requests `guid` with the audio at `path`, transcribed by the worker, and waits for its reference fingerprint. */
async function transcribedOnRequest(guid: string, path: string): Promise<string> {
  const created = await postRequest(t, requester.key, { episodes: [{ guid, url: audio.url(path), title: 'As requested' }] });
  expect(created.status).toBe(200);
  await jobDone(t, requester.key, created.body.job.id, 120_000);
  const transcriptId = transcriptIdFor(guid);
  await waitFor(async () => (await t.podtext.services.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM audio_checks WHERE transcript_id = ${transcriptId} AND reference IS NOT NULL`)[0]!.n > 0 || undefined, 30_000, 'the reference fingerprint');
  return transcriptId;
}

/** Adds the feed at `feedPath` by searching its URL, as a user does, and waits for the audio check's outcome. */
async function publishedAndChecked(transcriptId: string, feedPath: string): Promise<string> {
  expect((await t.api('GET', `/search?q=${encodeURIComponent(audio.url(feedPath))}`, { key: reader.key })).status).toBe(200);
  return waitFor(async () => {
    const [row] = await t.podtext.services.db.$queryRaw<{ outcome: string }[]>`SELECT outcome FROM audio_alignments WHERE transcript_id = ${transcriptId} ORDER BY id DESC LIMIT 1`;
    if (row) return row.outcome;
    const [check] = await t.podtext.services.db.$queryRaw<{ verify: boolean; last: string | null }[]>`SELECT verify_recording AS verify, last_result AS last FROM audio_checks WHERE transcript_id = ${transcriptId}`;
    return check && !check.verify ? (check.last ?? undefined) : undefined;
  }, 60_000, 'the check of the feed\'s audio');
}

describe('a guid requested with audio of the requester’s choosing', () => {
  it('loses its transcript when the show’s feed publishes that guid with another recording: no one reads the requester’s words as the episode', async () => {
    const guid = newGuid('claimed');
    audio.file('/claimed.mp3', spoken);
    const transcriptId = await transcribedOnRequest(guid, '/claimed.mp3');
    audio.file('/real.mp3', other);
    audio.feed('/real.xml', [{ guid, title: 'The real episode', path: '/real.mp3', seconds: 8 }]);
    expect(await publishedAndChecked(transcriptId, '/real.xml')).toBe('withdrawn');
    const info = (await (await t.api('GET', `/episodes/${transcriptId}`, { key: reader.key })).json()) as { title: string; transcript_status: string; show: { title: string } | null };
    expect(info).toMatchObject({ title: 'The real episode', transcript_status: 'none' });
    expect((await t.api('POST', '/unlock', { key: reader.key, body: { transcript: transcriptId } })).status).not.toBe(200);
    const read = await t.api('GET', `/transcripts/${transcriptId}`, { key: requester.key });
    expect(read.status).not.toBe(200);
    expect(await read.text()).not.toMatch(/children|park|weather/i);
    // Nothing of it left to be aligned: the episode waits for a transcript of its own audio.
    expect((await t.podtext.services.db.$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM audio_checks WHERE transcript_id = ${transcriptId}`)[0]!.n).toBe(0);
  }, 200_000);

  it('keeps its transcript when the feed serves the same recording at its own address (an early copy)', async () => {
    const guid = newGuid('early');
    audio.file('/early-copy.mp3', spoken);
    const transcriptId = await transcribedOnRequest(guid, '/early-copy.mp3');
    audio.file('/published.mp3', spoken);
    audio.feed('/published.xml', [{ guid, title: 'Published later', path: '/published.mp3', seconds: 8 }]);
    expect(await publishedAndChecked(transcriptId, '/published.xml')).not.toBe('withdrawn');
    const info = (await (await t.api('GET', `/episodes/${transcriptId}`, { key: reader.key })).json()) as { title: string; transcript_status: string };
    expect(info).toMatchObject({ title: 'Published later', transcript_status: 'ready' });
    expect((await t.api('POST', '/unlock', { key: reader.key, body: { transcript: transcriptId } })).status).toBe(200);
    expect((await t.api('GET', `/transcripts/${transcriptId}`, { key: reader.key })).status).toBe(200);
  }, 200_000);
});
