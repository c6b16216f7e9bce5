import { execFile } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type Inbox, startSmtpInbox } from '../support/smtp.js';
import { type AudioServer, newGuid, startAudioServer } from './support/audio-server.js';
import { jobDone, ledger, postRequest } from './support/jobs-api.js';
import { spokenMp3 } from './support/spoken.js';

let t: TestPodtext;
let audio: AudioServer;
let inbox: Inbox;
const timers = new Set<NodeJS.Timeout>();

beforeAll(async () => {
  audio = await startAudioServer();
  inbox = await startSmtpInbox();
  t = await startTestPodtext({
    env: { OUTBOUND_ALLOW: audio.endpoint, SMTP_URL: inbox.url, WORKERS: '2', FAST_ASR_ENGINE: 'openai', FAST_ASR_URL: 'http://127.0.0.1:9/v1' },
    jobs: {
      // Small caps and short times so that every bad download fails in seconds.
      options: { maxAttempts: 2, retryDelaySeconds: 0.1, maxEpisodeSeconds: 5 },
      workers: { maxDownloadBytes: 2_000_000, downloadTimeoutMs: 2500, downloadIdleTimeoutMs: 1000, pollMs: 200 },
    },
  });
  audio.file('/spoken.mp3', await spokenMp3(SHORT_PASSAGE));
  audio.file('/empty.mp3', Buffer.alloc(0));
  // A short recording whose bytes after the first 3 KB are garbage: a fraction of a second decodes.
  const damaged = await spokenMp3('Welcome back to the show, everyone.');
  randomFillSync(damaged, 3000);
  audio.file('/damaged.mp3', damaged);
  // Three seconds of digital silence: a file that decodes whole and holds no words.
  const silent = await promisify(execFile)('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '3', '-f', 'mp3', '-'], { encoding: 'buffer' });
  audio.file('/silent.mp3', silent.stdout);
  audio.file('/page.mp3', Buffer.from('<!doctype html><html><body>Episode moved</body></html>'), 'text/html');
  audio.handle('/endless.mp3', (_req, res) => {
    res.writeHead(200, { 'content-type': 'audio/mpeg' });
    const chunk = Buffer.alloc(64 * 1024, 0xff);
    const pump = () => {
      while (res.writableLength < 1024 * 1024 && !res.destroyed) res.write(chunk);
      if (!res.destroyed) timers.add(setTimeout(pump, 5));
    };
    pump();
  });
  audio.handle('/trickle.mp3', (_req, res) => {
    res.writeHead(200, { 'content-type': 'audio/mpeg' });
    const drip = () => {
      if (res.destroyed) return;
      res.write(Buffer.from([0xff]));
      timers.add(setTimeout(drip, 400));
    };
    drip();
  });
  t.podtext.startWorkers();
});

afterAll(async () => {
  await t?.close();
  for (const timer of timers) clearTimeout(timer);
  await audio?.close();
  await inbox?.close();
});

describe('audio that cannot be transcribed', () => {
  it('404, zero bytes, not audio, endless, trickling, too long, damaged: bounded attempts, failed, refunded once, job done', async () => {
    const a = await t.account({ credits: 20 });
    const cases = ['/gone.mp3', '/empty.mp3', '/page.mp3', '/endless.mp3', '/trickle.mp3', '/spoken.mp3', '/damaged.mp3'];
    const guids = cases.map((p) => newGuid(p.slice(1, -4)));
    const r = await postRequest(t, a.key, { episodes: cases.map((p, i) => ({ guid: guids[i], url: audio.url(p), title: p })), fast: true });
    expect(r.status).toBe(200);
    expect(r.body.credits_charged).toBe(14);

    const job = await jobDone(t, a.key, r.body.job.id, 60_000);
    expect(job).toMatchObject({ status: 'done', done: 7, total: 7, credits_refunded: 14 });
    const reasons = Object.fromEntries(job.episodes.map((e: { title: string; status: string; error: string }) => [e.title, [e.status, e.error]]));
    // A requested episode's address is its supplier's: another account's job may wait on the same task.
    expect(reasons['/gone.mp3']).toEqual(['failed', 'download: server answered 404']);
    expect(reasons['/empty.mp3']).toEqual(['failed', expect.stringContaining('empty')]);
    expect(reasons['/page.mp3']).toEqual(['failed', expect.stringMatching(/^audio: /)]);
    expect(reasons['/endless.mp3']).toEqual(['failed', expect.stringContaining('byte cap')]);
    expect(reasons['/trickle.mp3']).toEqual(['failed', expect.stringContaining('within 2500 ms')]);
    expect(reasons['/spoken.mp3']).toEqual(['failed', expect.stringContaining('the limit is 5 s')]);
    // Not transcribed as a fraction of a second of words and charged.
    expect(reasons['/damaged.mp3']).toEqual(['failed', expect.stringMatching(/^audio: only 0\.\d s of the \d s the file states could be decoded/)]);

    // Retryable faults were tried twice, facts about the file (over the cap, too long, damaged) once.
    expect([audio.hits('/gone.mp3'), audio.hits('/empty.mp3'), audio.hits('/page.mp3'), audio.hits('/trickle.mp3')]).toEqual([2, 2, 2, 2]);
    expect([audio.hits('/endless.mp3'), audio.hits('/spoken.mp3'), audio.hits('/damaged.mp3')]).toEqual([1, 1, 1]);

    // Every charge (base and premium) refunded exactly once, each refund pointing at its charge.
    const charges = await ledger(t, a.accountId, 'job:');
    const refunds = await ledger(t, a.accountId, 'refund:');
    expect(charges).toHaveLength(14);
    expect(refunds).toHaveLength(14);
    expect(new Set(refunds.map((x) => String(x.refundOf)))).toEqual(new Set(charges.map((c) => String(c.id))));
    const account = await t.podtext.services.db.account.findUniqueOrThrow({ where: { id: a.accountId } });
    expect(account.credits).toBe(20);
    const tasks = await t.podtext.services.db.transcriptionTask.findMany({ where: { transcriptId: { in: guids.map(transcriptIdFor) } } });
    expect(tasks.every((x) => x.status === 'failed' && x.leaseUntil === null)).toBe(true);

    const mail = await inbox.next(a.email, 15_000);
    expect(mail.subject).toBe('Your Podtext job is done: 0 of 7 ready');
    expect(mail.text).toContain('Credits refunded for this job: 14.');
  }, 90_000);

  it('audio in which no word is heard: failed and refunded, no empty transcript left for anyone to unlock', async () => {
    const a = await t.account({ credits: 3 });
    const guid = newGuid('silent');
    const r = await postRequest(t, a.key, { episodes: [{ guid, url: audio.url('/silent.mp3'), title: 'Silent' }] });
    expect(r.status).toBe(200);
    expect(r.body.credits_charged).toBe(1);

    const job = await jobDone(t, a.key, r.body.job.id, 30_000);
    expect(job).toMatchObject({ status: 'done', done: 1, total: 1, credits_refunded: 1 });
    expect(job.episodes[0]).toMatchObject({ status: 'failed', url: null, transcript_url: null, error: expect.stringContaining('no speech') });
    // Not retried: silence stays silent.
    expect(audio.hits('/silent.mp3')).toBe(1);
    expect((await t.podtext.services.db.account.findUniqueOrThrow({ where: { id: a.accountId } })).credits).toBe(3);

    // Nobody else pays to unlock a transcript without words: there is none, and the episode can be requested again.
    const b = await t.account({ credits: 3 });
    const id = transcriptIdFor(guid);
    const unlock = await t.api('POST', '/unlock', { key: b.key, body: { transcript: id } });
    expect(unlock.status).toBe(404);
    const episode = await t.podtext.services.db.episode.findUniqueOrThrow({ where: { transcriptId: id } });
    expect(episode.transcriptStatus).toBe('none');
  }, 60_000);

  it('an episode the index knows under another audio URL: the failure names the URL fetched, not its query', async () => {
    const a = await t.account({ credits: 5 });
    const guid = newGuid('moved');
    audio.feed('/moved.xml', [{ guid, title: 'Moved', path: '/moved.mp3?token=tok_s3cret', seconds: 3 }]);
    await t.podtext.services.catalogIngest.addFeedByUrl(audio.url('/moved.xml'));
    // The URL given works; the index's own is the one transcribed, and it is gone.
    const r = await postRequest(t, a.key, { episodes: [{ guid, url: audio.url('/spoken.mp3') }] });
    expect(r.status).toBe(200);
    const job = await jobDone(t, a.key, r.body.job.id, 30_000);
    expect(job.episodes[0]).toMatchObject({ status: 'failed', error: `download of ${audio.url('/moved.mp3')}: server answered 404` });
  }, 60_000);
});
