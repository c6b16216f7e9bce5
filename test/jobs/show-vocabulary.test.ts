import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { jobDone, postRequest } from './support/jobs-api.js';
import { type SpeechApi, startSpeechApi } from './support/speech-api.js';
import { spokenMp3 } from './support/spoken.js';

/** About 7 s of flite's `rms` voice; without the show's vocabulary sphinx writes "she'd come close" for the name. */
const SCRIPT = 'Hello and welcome. Our guest this week is Chidi Okonkwo, a marine biologist. Thank you for joining us.';

let t: TestPodtext;
let audio: AudioServer;
let speech: SpeechApi;
let chunksDone = 0;

/** A show's feed naming its host and, with `podcast:person`, each episode's guest; the titles do not name them. */
function feed(items: { guid: string; path: string }[]): string {
  const entries = items.map(
    (i, n) => `<item><title>Life under the waves, part ${n + 1}</title><guid isPermaLink="false">${i.guid}</guid>
      <description>A conversation about coral.</description><pubDate>Tue, 10 Mar 2026 12:00:00 GMT</pubDate>
      <podcast:person role="guest">Chidi Okonkwo</podcast:person>
      <enclosure url="${audio.url(i.path)}" type="audio/mpeg" length="1"/><itunes:duration>8</itunes:duration></item>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" xmlns:podcast="https://podcastindex.org/namespace/1.0">
    <channel><title>The Reef Hour</title><itunes:author>Dana Hale</itunes:author>${entries.join('')}</channel></rss>`;
}

beforeAll(async () => {
  audio = await startAudioServer();
  speech = await startSpeechApi(SCRIPT);
  audio.file('/guest.mp3', await spokenMp3(SCRIPT));
  t = await startTestPodtext({
    env: { OUTBOUND_ALLOW: `${audio.endpoint},${speech.endpoint}`, WORKERS: '2', FAST_ASR_ENGINE: 'openai', FAST_ASR_URL: speech.url },
    // Chunks of a few seconds: the episode is split into chunk tasks, claimed from the database as another process would.
    jobs: { workers: { pollMs: 200, chunkSeconds: 3, maxChunkSeconds: 6 }, onChunkTimings: () => void (chunksDone += 1) },
  });
  t.podtext.startWorkers();
});

afterAll(async () => {
  await t?.close();
  await audio?.close();
  await speech?.close();
});

async function indexShow(): Promise<{ standard: string; fast: string }> {
  const items = [
    { guid: newGuid('reef'), path: '/guest.mp3' },
    { guid: newGuid('reef'), path: '/guest.mp3' },
  ];
  const path = `/reef-${items[0]!.guid}.xml`;
  audio.handle(path, (_req, res) => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(feed(items)));
  await t.podtext.services.catalogIngest.addFeedByUrl(audio.url(path));
  return { standard: items[0]!.guid, fast: items[1]!.guid };
}

describe("the show's vocabulary in transcription", { timeout: 180_000 }, () => {
  it("a guest named in the feed is written by name in the transcript of an episode that mentions them", async () => {
    const { standard } = await indexShow();
    const a = await t.account({ credits: 5 });
    const r = await postRequest(t, a.key, { episodes: [{ guid: standard, url: audio.url('/guest.mp3'), secs: 8 }] });
    expect(r.status).toBe(200);
    const job = await jobDone(t, a.key, r.body.job.id, 150_000);
    expect(job.episodes[0]).toMatchObject({ status: 'ready' });
    expect(chunksDone).toBeGreaterThan(1);

    const res = await t.api('GET', `/transcripts/${transcriptIdFor(standard)}?format=json&timestamps=1&words=1`, { key: a.key });
    const doc = (await res.json()) as { engine: string; segments: { text: string }[] };
    expect(doc.engine).toBe('sphinx');
    const text = doc.segments.map((s) => s.text).join(' ');
    expect(text).toContain('Chidi Okonkwo');
    expect(text.toLowerCase()).toContain('marine biologist');
  });

  it('the fast engine is sent the same names as its prompt', async () => {
    const { fast } = await indexShow();
    const a = await t.account({ credits: 5 });
    const before = speech.prompts().length;
    const r = await postRequest(t, a.key, { episodes: [{ guid: fast, url: audio.url('/guest.mp3'), secs: 8 }], fast: true });
    expect(r.status).toBe(200);
    const job = await jobDone(t, a.key, r.body.job.id, 60_000);
    expect(job.episodes[0]).toMatchObject({ status: 'ready' });
    const prompts = speech.prompts().slice(before);
    expect(prompts.length).toBeGreaterThan(0);
    for (const prompt of prompts) {
      expect(prompt).toContain('Chidi Okonkwo');
      expect(prompt).toContain('Dana Hale');
      expect(prompt).toContain('The Reef Hour');
    }
  });
});
