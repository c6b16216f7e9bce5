import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/core/catalog/feed/parse-feed.js';
import { EPISODE_SENTENCES, encodeMp3, speakEpisode, spokenPcm } from '../audio/spliced-episode.js';
import { type AudioServer, newGuid, startAudioServer } from '../jobs/support/audio-server.js';
import { jobDone, postRequest } from '../jobs/support/jobs-api.js';
import { waitFor } from '../jobs/support/wait.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// Audio checks ask a host that sends ETag and Last-Modified (as static hosts
// and CDNs do) before downloading: the file the pipeline transcribed, or one
// already refused, is not downloaded again while it is served unchanged.

let t: TestPodtext;
let audio: AudioServer;
let downloads = 0;

beforeAll(async () => {
  audio = await startAudioServer();
  t = await startTestPodtext({ env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '1', AUDIO_CHECK_INTERVAL: '1' } });
  t.podtext.startWorkers();
}, 120_000);

afterAll(async () => {
  await t?.close();
  await audio?.close();
});

describe('the first audio check after a transcription', () => {
  it('asks the host with the validators the file was downloaded with instead of downloading it again', async () => {
    const mp3 = await encodeMp3((await speakEpisode(EPISODE_SENTENCES.slice(0, 2))).pcm);
    const etag = '"v1-episode"';
    const lastModified = 'Tue, 10 Mar 2026 12:00:00 GMT';
    audio.handle('/episode.mp3', (req, res) => {
      const headers = { 'content-type': 'audio/mpeg', 'accept-ranges': 'bytes', etag, 'last-modified': lastModified };
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, headers).end();
      if (req.headers.range === 'bytes=0-0') return void res.writeHead(206, { ...headers, 'content-length': '1', 'content-range': `bytes 0-0/${mp3.length}` }).end(mp3.subarray(0, 1));
      downloads += 1;
      res.writeHead(200, { ...headers, 'content-length': String(mp3.length) }).end(mp3);
    });
    audio.feed('/feed.xml', [{ guid: newGuid('validators'), title: 'Downloaded once', path: '/episode.mp3', seconds: 10 }]);
    const item = parseFeed(await (await fetch(audio.url('/feed.xml'))).text()).episodes[0]!;
    const account = await t.account({ credits: 3 });
    const created = await postRequest(t, account.key, { episodes: [{ guid: item.guid, url: item.audioUrl, title: item.title }] });
    expect(created.status).toBe(200);
    await jobDone(t, account.key, created.body.job.id, 300_000);
    const checked = await waitFor(async () => {
      const rows = await t.podtext.services.db.$queryRaw<{ last_result: string }[]>`
        SELECT last_result FROM audio_checks WHERE transcript_id = ${item.transcriptId} AND checked_at IS NOT NULL AND last_result <> 'reference taken'`;
      return rows[0]?.last_result;
    }, 60_000, 'the first audio check');
    expect(checked).toBe('unchanged');
    expect(downloads).toBe(1);
  }, 400_000);
});

describe('another recording served at the address', () => {
  it('is downloaded and refused once, not again at every check while the host serves it unchanged', async () => {
    let served = await encodeMp3((await speakEpisode(EPISODE_SENTENCES.slice(2, 4))).pcm);
    let etag = '"first"';
    let fetched = 0;
    audio.handle('/recorded.mp3', (req, res) => {
      const headers = { 'content-type': 'audio/mpeg', 'accept-ranges': 'bytes', etag, 'last-modified': 'Tue, 10 Mar 2026 12:00:00 GMT' };
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, headers).end();
      if (req.headers.range === 'bytes=0-0') return void res.writeHead(206, { ...headers, 'content-length': '1', 'content-range': `bytes 0-0/${served.length}` }).end(served.subarray(0, 1));
      fetched += 1;
      res.writeHead(200, { ...headers, 'content-length': String(served.length) }).end(served);
    });
    audio.feed('/recorded.xml', [{ guid: newGuid('recorded'), title: 'Recorded again', path: '/recorded.mp3', seconds: 10 }]);
    const item = parseFeed(await (await fetch(audio.url('/recorded.xml'))).text()).episodes[0]!;
    const account = await t.account({ credits: 3 });
    const created = await postRequest(t, account.key, { episodes: [{ guid: item.guid, url: item.audioUrl, title: item.title }] });
    await jobDone(t, account.key, created.body.job.id, 300_000);
    const db = t.podtext.services.db;
    const state = async () =>
      (await db.$queryRaw<{ last_result: string | null; checked_at: Date | null }[]>`SELECT last_result, checked_at FROM audio_checks WHERE transcript_id = ${item.transcriptId}`)[0]!;
    await waitFor(async () => (await state()).last_result === 'unchanged', 60_000, 'the first audio check');

    served = await encodeMp3(await spokenPcm('Completely different words about mountains, rivers and a long journey across the sea by boat. The captain sang loudly every night.', 'awb'));
    etag = '"re-recorded"';
    const before = fetched;
    const refused = await waitFor(async () => {
      const s = await state();
      return s.last_result?.startsWith('refused') ? s : undefined;
    }, 60_000, 'the refusal');
    // Three more checks of the same file.
    for (let i = 0; i < 3; i++) {
      const seen = (await state()).checked_at!.getTime();
      await waitFor(async () => (await state()).checked_at!.getTime() > seen, 30_000, 'another check');
    }
    expect(fetched - before).toBe(1);
    expect((await state()).last_result).toBe(refused.last_result);
    const outcomes = await db.$queryRaw<{ outcome: string }[]>`SELECT outcome FROM audio_alignments WHERE transcript_id = ${item.transcriptId}`;
    expect(outcomes.map((o) => o.outcome)).toEqual(['refused']);
  }, 400_000);
});
