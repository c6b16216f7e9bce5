import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/core/catalog/feed/parse-feed.js';
import { EPISODE_SENTENCES, encodeMp3, speakEpisode } from '../audio/spliced-episode.js';
import { type AudioServer, newGuid, startAudioServer } from '../jobs/support/audio-server.js';
import { jobDone, postRequest } from '../jobs/support/jobs-api.js';
import { waitFor } from '../jobs/support/wait.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// The transcription pipeline fingerprints the file it downloaded: the first
// audio check after it must ask the host whether that file is still served,
// not download it again, from a host that sends ETag and Last-Modified as
// static hosts and CDNs do.

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
