import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/core/catalog/feed/parse-feed.js';
import { wordErrorRate } from '../../src/infra/asr/word-error-rate.js';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type Inbox, startSmtpInbox } from '../support/smtp.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { jobDone, ledger, postRequest } from './support/jobs-api.js';
import { spokenMp3 } from './support/spoken.js';

let t: TestPodtext;
let audio: AudioServer;
let inbox: Inbox;
let mp3: Buffer;

beforeAll(async () => {
  mp3 = await spokenMp3(SHORT_PASSAGE);
  audio = await startAudioServer();
  inbox = await startSmtpInbox();
  t = await startTestPodtext({ env: { OUTBOUND_ALLOW: audio.endpoint, SMTP_URL: inbox.url, WORKERS: '2' } });
  t.podtext.startWorkers();
});

afterAll(async () => {
  await t?.close();
  await audio?.close();
  await inbox?.close();
});

describe('a requested episode, from feed to transcript', () => {
  it('is transcribed from spoken audio, readable with matching words and times, and mailed', async () => {
    const guid = newGuid('feed');
    audio.file('/ep1.mp3', mp3);
    audio.feed('/feed.xml', [{ guid, title: 'The weather report', path: '/ep1.mp3', seconds: 10 }]);
    const feed = parseFeed(await (await fetch(audio.url('/feed.xml'))).text());
    const item = feed.episodes[0]!;
    const a = await t.account({ credits: 5 });

    const created = await postRequest(t, a.key, {
      episodes: [{ guid: item.guid, url: item.audioUrl, title: item.title, date: item.publishedAt?.toISOString(), secs: item.durationSeconds }],
    });
    expect(created.status).toBe(200);
    const r = created.body;
    expect(r).toMatchObject({ queued: 1, credits_charged: 1, credits_remaining: 4, notify: a.email, already_transcribed: [], dry_run: false });
    expect(r.request_id).toBe(r.job.id);
    expect(r.job).toMatchObject({ status: 'queued', fast: false, promise_seconds: null, total: 1, done: 0, webhook_url: null });
    expect(r.job.poll_url).toBe(`http://podtext.test/api/v1/jobs/${r.job.id}`);
    expect(r.job.episodes).toEqual([{ transcript_id: item.transcriptId, title: 'The weather report', status: 'queued', url: null, transcript_url: null, charged: 1, error: null }]);
    expect(r.job.poll_after_seconds).toBeGreaterThanOrEqual(30);
    expect(r.delivery).toContain(a.email);

    const job = await jobDone(t, a.key, r.job.id);
    expect(job).toMatchObject({ status: 'done', done: 1, total: 1, poll_after_seconds: null, estimated_ready_at: null, credits_refunded: 0 });
    expect(job.episodes[0]).toMatchObject({ status: 'ready', url: `http://podtext.test/t/${item.transcriptId}`, transcript_url: `http://podtext.test/api/v1/transcripts/${item.transcriptId}` });

    const res = await t.api('GET', `/transcripts/${item.transcriptId}?format=json&timestamps=1&words=1`, { key: a.key });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { source: string; engine: string; duration_seconds: number; segments: { start: number; end: number; text: string; words: { w: string; s: number }[] }[] };
    expect(doc).toMatchObject({ source: 'asr', engine: 'sphinx' });
    const words = doc.segments.flatMap((s) => s.words);
    expect(wordErrorRate(SHORT_PASSAGE, words.map((w) => w.w).join(' '))).toBeLessThanOrEqual(0.15);
    let previous = 0;
    for (const w of words) {
      expect(w.s).toBeGreaterThanOrEqual(previous);
      expect(w.s).toBeLessThanOrEqual(doc.duration_seconds);
      previous = w.s;
    }
    expect(doc.duration_seconds).toBeGreaterThan(5);

    const mail = await inbox.next(a.email, 15_000);
    expect(mail.subject).toBe('Your Podtext transcripts are ready');
    expect(mail.text).toContain(`http://podtext.test/api/v1/transcripts/${item.transcriptId}`);
    expect(mail.text).toContain('The weather report');

    const charges = await ledger(t, a.accountId, 'job:');
    expect(charges.map((c) => [c.reference, c.amount])).toEqual([[`job:${r.job.id}:${item.transcriptId}`, -1]]);
    const unlock = await t.podtext.services.db.unlock.findUniqueOrThrow({ where: { accountId_transcriptId: { accountId: a.accountId, transcriptId: item.transcriptId } } });
    expect(unlock.ledgerId).toBe(charges[0]!.id);

    // Asked again: already in the library, unlocked already, so free and never re-queued.
    const again = await postRequest(t, a.key, { episodes: [{ guid, url: audio.url('/ep1.mp3') }] });
    expect(again.body).toMatchObject({ request_id: null, job: null, queued: 0, credits_charged: 0 });
    expect(again.body.already_transcribed).toEqual([{ transcript_id: item.transcriptId, title: 'The weather report', charged: 0, url: `http://podtext.test/t/${item.transcriptId}`, transcript_url: `http://podtext.test/api/v1/transcripts/${item.transcriptId}` }]);
    const b = await t.account({ credits: 2 });
    const other = await postRequest(t, b.key, { episodes: [{ guid, url: audio.url('/ep1.mp3') }] });
    expect(other.body).toMatchObject({ queued: 0, credits_charged: 1, credits_remaining: 1 });
    expect((await t.api('GET', `/transcripts/${item.transcriptId}`, { key: b.key })).status).toBe(200);
    expect(audio.hits('/ep1.mp3')).toBe(1);
  }, 90_000);
});
