import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/core/catalog/feed/parse-feed.js';
import { AD_TEXTS, EPISODE_SENTENCES, type Episode, type Pcm, encodeMp3, speakEpisode, splice, spokenPcm } from '../audio/spliced-episode.js';
import { type AudioServer, newGuid, startAudioServer } from '../jobs/support/audio-server.js';
import { jobDone, postRequest } from '../jobs/support/jobs-api.js';
import { waitFor } from '../jobs/support/wait.js';
import { type TestAccount, type TestPodtext, startTestPodtext } from '../support/podtext.js';

interface Body {
  version: number;
  duration_seconds: number;
  segments: { start: number; end: number; words: { w: string; s: number; removed?: true }[] }[];
  alignment?: { audio_seconds: number; checked_at: string; ad_breaks: { start: number; end: number }[]; removed: { at: number; seconds: number }[] };
}

let t: TestPodtext;
let audio: AudioServer;
let episode: Episode;
let ads: { long: Pcm; medium: Pcm; short: Pcm };
let account: TestAccount;
let transcriptId: string;
let original: Body;

const words = (b: Body) => b.segments.flatMap((s) => s.words);

async function read(): Promise<Body> {
  const res = await t.api('GET', `/transcripts/${transcriptId}?format=json&timestamps=1&words=1`, { key: account.key });
  expect(res.status).toBe(200);
  return (await res.json()) as Body;
}

async function checkState() {
  const rows = await t.podtext.services.db.$queryRaw<{ last_result: string | null; has_reference: boolean; checked_at: Date | null }[]>`
    SELECT last_result, reference IS NOT NULL AS has_reference, checked_at FROM audio_checks WHERE transcript_id = ${transcriptId}`;
  return rows[0];
}

async function outcomes(): Promise<string[]> {
  const rows = await t.podtext.services.db.$queryRaw<{ outcome: string }[]>`SELECT outcome FROM audio_alignments WHERE transcript_id = ${transcriptId} ORDER BY id`;
  return rows.map((r) => r.outcome);
}

/**
 * Serves `mp3` in place of the episode's audio and waits for the outcome of a
 * check that saw it (one already running may still have fetched the old file).
 */
async function swapAndWaitForCheck(mp3: Buffer): Promise<string> {
  const seen = (await outcomes()).length;
  audio.file('/episode.mp3', mp3);
  return waitFor(async () => (await outcomes())[seen], 60_000, 'an audio check of the swapped file');
}

/** Every word kept its text and now starts within 0.3 s of where it is heard. */
function expectWordsFollow(now: Body, heardAt: (t: number) => number) {
  const before = words(original);
  const after = words(now);
  expect(after.map((w) => w.w)).toEqual(before.map((w) => w.w));
  before.forEach((w, i) => {
    expect(Math.abs(after[i]!.s - heardAt(w.s)), `"${w.w}" at ${w.s} s: now ${after[i]!.s} s, heard at ${heardAt(w.s)} s`).toBeLessThanOrEqual(0.3);
    expect(after[i]!.removed).toBeUndefined();
  });
}

beforeAll(async () => {
  episode = await speakEpisode(EPISODE_SENTENCES.slice(0, 5));
  ads = { long: await spokenPcm(AD_TEXTS.long, 'slt'), medium: await spokenPcm(AD_TEXTS.medium, 'awb'), short: await spokenPcm(AD_TEXTS.short, 'kal16') };
  audio = await startAudioServer();
  t = await startTestPodtext({ env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '1', AUDIO_CHECK_INTERVAL: '1' } });
  t.podtext.startWorkers();
  account = await t.account({ credits: 5 });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await audio?.close();
});

describe('transcript times that follow re-spliced audio', () => {
  it('are transcribed once, then follow pre-, mid- and post-rolls, re-encoding and the ads removed again; another recording is refused', async () => {
    const originalMp3 = await encodeMp3(episode.pcm);
    audio.file('/episode.mp3', originalMp3);
    audio.feed('/feed.xml', [{ guid: newGuid('dai'), title: 'Ads come and go', path: '/episode.mp3', seconds: 40 }]);
    const item = parseFeed(await (await fetch(audio.url('/feed.xml'))).text()).episodes[0]!;
    transcriptId = item.transcriptId;
    const created = await postRequest(t, account.key, { episodes: [{ guid: item.guid, url: item.audioUrl, title: item.title }] });
    expect(created.status).toBe(200);
    await jobDone(t, account.key, created.body.job.id, 300_000);
    await waitFor(async () => (await checkState())?.has_reference, 30_000, 'the reference fingerprint');
    original = await read();
    expect(original.alignment).toBeUndefined();
    expect(words(original).length).toBeGreaterThan(40);

    // A 6-8 s pre-roll.
    const pre = splice(episode.pcm, { pre: ads.long });
    expect(pre.ads[0]!.end).toBeGreaterThan(6);
    expect(pre.ads[0]!.end).toBeLessThan(8);
    expect(await swapAndWaitForCheck(await encodeMp3(pre.pcm))).toBe('applied');
    const withPre = await read();
    expect(withPre.version).toBe(original.version + 1);
    expectWordsFollow(withPre, pre.now);
    expect(withPre.alignment!.ad_breaks).toHaveLength(1);
    expect(withPre.alignment!.ad_breaks[0]!.start).toBe(0);
    expect(Math.abs(withPre.alignment!.ad_breaks[0]!.end - pre.ads[0]!.end)).toBeLessThan(0.1);
    expect(Math.abs(withPre.duration_seconds - withPre.alignment!.audio_seconds)).toBeLessThan(0.01);

    // A mid-roll of another length at a sentence break, instead of the pre-roll.
    const mid = splice(episode.pcm, { mid: [{ at: episode.breaks[2]!, ad: ads.medium }] });
    expect(await swapAndWaitForCheck(await encodeMp3(mid.pcm))).toBe('applied');
    expectWordsFollow(await read(), mid.now);

    // Two mid-rolls and a post-roll, re-encoded at another bitrate, sample rate and channel count.
    const three = splice(episode.pcm, { mid: [{ at: episode.breaks[1]!, ad: ads.short }, { at: episode.breaks[3]!, ad: ads.medium }], post: ads.long });
    expect(await swapAndWaitForCheck(await encodeMp3(three.pcm, { bitrate: '128k', rate: 44_100, channels: 2 }))).toBe('applied');
    const withThree = await read();
    expectWordsFollow(withThree, three.now);
    expect(withThree.alignment!.ad_breaks).toHaveLength(3);
    const gql = await t.gql<{ transcript: { version: number; alignment: { audioSeconds: number; adBreaks: { start: number; end: number }[] } } }>(
      'query($id: String!) { transcript(transcriptId: $id) { version alignment { audioSeconds adBreaks { start end } } } }',
      { id: transcriptId },
      account.key,
    );
    expect(gql.body.data!.transcript).toEqual({
      version: withThree.version,
      alignment: { audioSeconds: withThree.alignment!.audio_seconds, adBreaks: withThree.alignment!.ad_breaks },
    });

    // The website's player and AI Search's listen links follow: both read the re-timed transcript.
    const page = await t.request(`/t/${transcriptId}`);
    expect(page.status).toBe(200);
    const lastWords = words(original).slice(-3).map((w) => w.w).join(' ');
    const found = await t.api('POST', '/ai-search/query', { key: account.key, body: { transcript_id: transcriptId, topic: 'station' } });
    expect(found.status).toBe(200);
    const mention = ((await found.json()) as { mentions: { timestamp_seconds: number | null; listen_url: string | null }[] }).mentions[0]!;
    const station = words(original).find((w) => w.w === 'station');
    if (station) {
      expect(Math.abs(mention.timestamp_seconds! - three.now(station.s))).toBeLessThan(3);
      expect(mention.listen_url).toBe(`http://podtext.test/t/${transcriptId}#t=${Math.floor(mention.timestamp_seconds!)}`);
    }
    expect(lastWords.length).toBeGreaterThan(0);

    // The ads removed again: the original times come back.
    expect(await swapAndWaitForCheck(originalMp3)).toBe('applied');
    const clean = await read();
    expectWordsFollow(clean, (s) => s);
    expect(clean.alignment!.ad_breaks).toEqual([]);

    // Another recording at the same URL is refused: times and version stay.
    const other = await spokenPcm('Completely different words about mountains, rivers and a long journey across the sea by boat. The captain sang loudly every night while the crew slept below the deck.', 'awb');
    expect(await swapAndWaitForCheck(await encodeMp3(other))).toBe('refused');
    const after = await read();
    expect(after.version).toBe(clean.version);
    expect(words(after)).toEqual(words(clean));

    // The audit trail keeps every map with the one it replaced, and the refusal.
    const history = await t.podtext.services.db.$queryRaw<{ outcome: string; previous: unknown }[]>`
      SELECT outcome, previous FROM audio_alignments WHERE transcript_id = ${transcriptId} ORDER BY id`;
    expect(history.map((h) => h.outcome)).toEqual(['applied', 'applied', 'applied', 'applied', 'refused']);
    expect(history[0]!.previous).toBeNull();
    expect(history[1]!.previous).not.toBeNull();
  }, 600_000);
});
