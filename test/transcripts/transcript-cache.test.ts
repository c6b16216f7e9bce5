import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/core/transaction.js';
import type { TranscriptDoc } from '../../src/core/transcripts/formats/transcript-doc.js';
import { saveTranscript } from '../../src/core/transcripts/transcript-store.js';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { addEpisode, sampleDoc } from '../support/catalog.js';
import { hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext, twoProcessesOnPostgres } from '../support/podtext.js';

// Warm reads are served from caches (unlocks, versions, rendered bytes) and,
// for the plain request shape, by an early handler: these tests pin down what
// the caches must never do, and that both handlers answer alike.

function retranscribed(words: string): TranscriptDoc {
  return { language: 'en', wordTimesEstimated: false, segments: [{ start: 0, end: 2, text: words, speaker: 'Cy', words: words.split(' ').map((w, i) => ({ w, s: i * 0.5 })) }] };
}

/** Stores a new version as a worker does: commit, then announce. */
async function storeNewVersion(t: TestPodtext, transcriptId: string, doc: TranscriptDoc): Promise<void> {
  await inTransaction(t.podtext.services.db, (tx) => saveTranscript(tx, { transcriptId, doc, source: 'asr', engine: 'sphinx' }));
  t.podtext.services.transcripts.stored(transcriptId);
}

const FORMATS = ['format=json', 'format=json&timestamps=1&words=1', 'format=text', 'format=srt', 'format=vtt'];

describe('transcript caches', () => {
  let t: TestPodtext;
  beforeAll(async () => {
    t = await startTestPodtext();
  });
  afterAll(() => t.close());

  it('a new version is served at once in every format, never the cached old one', async () => {
    const a = await t.account({ credits: 1 });
    const ep = await addEpisode(t, { doc: sampleDoc() });
    await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } });
    for (const q of FORMATS) {
      // Twice: the second read is the warm one.
      for (let i = 0; i < 2; i++) expect(await (await t.api('GET', `/transcripts/${ep.transcriptId}?${q}`, { key: a.key })).text()).toContain('Welcome');
    }
    await storeNewVersion(t, ep.transcriptId, retranscribed('Entirely new words here'));
    for (const q of FORMATS) {
      const res = await t.api('GET', `/transcripts/${ep.transcriptId}?${q}`, { key: a.key });
      const body = await res.text();
      expect(body, q).toContain('Entirely new words');
      expect(body, q).not.toContain('Welcome');
      expect(res.headers.get('etag'), q).toMatch(/-v2-/);
    }
    // The documented route (an extra parameter sends the request there) reads the same cache.
    expect(await (await t.api('GET', `/transcripts/${ep.transcriptId}?format=text&x=1`, { key: a.key })).text()).toContain('Entirely new words');
  });

  it('one account\'s unlock, warm in every cache, opens nothing to another account or to no key', async () => {
    const owner = await t.account({ credits: 1 });
    const other = await t.account({ credits: 5 });
    const ep = await addEpisode(t, { doc: sampleDoc() });
    await t.api('POST', '/unlock', { key: owner.key, body: { transcript: ep.transcriptId } });
    for (const q of FORMATS) expect((await t.api('GET', `/transcripts/${ep.transcriptId}?${q}`, { key: owner.key })).status).toBe(200);
    for (const q of [...FORMATS, 'format=json&x=1']) {
      const locked = await t.api('GET', `/transcripts/${ep.transcriptId}?${q}`, { key: other.key });
      expect(locked.status, q).toBe(402);
      expect(await locked.json()).toMatchObject({ error: { code: 'transcript_locked' } });
      expect(locked.headers.get('x-ratelimit-limit'), q).toBe('1000');
      expect(locked.headers.get('x-ratelimit-remaining'), q).toMatch(/^\d+$/);
      expect((await t.api('GET', `/transcripts/${ep.transcriptId}?${q}`)).status, q).toBe(401);
      expect((await t.api('GET', `/transcripts/${ep.transcriptId}?${q}`, { headers: { 'x-api-key': 'ptk_not-a-real-key' } })).status, q).toBe(401);
    }
    // Nothing was charged or unlocked for the other account by trying.
    expect(await t.podtext.services.db.unlock.count({ where: { accountId: other.accountId } })).toBe(0);
  });

  it('an extra query parameter changes nothing, and each keyed read counts once, the public sample too', async () => {
    const a = await t.account({ credits: 1 });
    const ready = await addEpisode(t, { doc: sampleDoc() });
    const locked = await addEpisode(t, { doc: sampleDoc() });
    const none = await addEpisode(t);
    await t.api('POST', '/unlock', { key: a.key, body: { transcript: ready.transcriptId } });
    const cases: [string, string | undefined][] = [
      ...FORMATS.map((q): [string, string] => [`${ready.transcriptId}?${q}`, a.key]),
      [`${ready.transcriptId}?format=txt&words=1`, a.key],
      [`${ready.transcriptId}`, a.key],
      [`${locked.transcriptId}?format=srt`, a.key],
      [`${none.transcriptId}?format=json`, a.key],
      [`${ready.transcriptId}?format=vtt`, undefined],
      [`${sampleEpisode.transcriptId}?format=vtt`, undefined],
      [`${sampleEpisode.transcriptId}?format=json&timestamps=1`, a.key],
    ];
    for (const [path, key] of cases) {
      const plain = await t.api('GET', `/transcripts/${path}`, { key });
      const routed = await t.api('GET', `/transcripts/${path}${path.includes('?') ? '&' : '?'}utm=1`, { key });
      expect(plain.status, path).toBe(routed.status);
      expect(await plain.text(), path).toBe(await routed.text());
      for (const h of ['content-type', 'etag', 'x-ratelimit-limit']) expect(plain.headers.get(h), `${path} ${h}`).toBe(routed.headers.get(h));
      const remaining = [plain, routed].map((r) => Number(r.headers.get('x-ratelimit-remaining')));
      // Every call made with a key counts once, the public sample's included; keyless ones not at all.
      expect(remaining[0]! - remaining[1]!, path).toBe(key ? 1 : 0);
    }
  });

  it('If-None-Match with the ETag: 304 with no body, counted; a new version or another shape: 200', async () => {
    const a = await t.account({ credits: 1 });
    const b = await t.account({ credits: 0 });
    const ep = await addEpisode(t, { doc: sampleDoc() });
    await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } });
    const tags = new Set<string>();
    for (const q of FORMATS) {
      const first = await t.api('GET', `/transcripts/${ep.transcriptId}?${q}`, { key: a.key });
      const etag = first.headers.get('etag')!;
      tags.add(etag);
      const again = await t.api('GET', `/transcripts/${ep.transcriptId}?${q}`, { key: a.key, headers: { 'if-none-match': `"other", W/${etag}` } });
      expect(again.status, q).toBe(304);
      expect(await again.text(), q).toBe('');
      expect(again.headers.get('etag'), q).toBe(etag);
      expect(Number(first.headers.get('x-ratelimit-remaining')) - Number(again.headers.get('x-ratelimit-remaining')), q).toBe(1);
      // A key that has not unlocked it learns nothing from a matching tag.
      expect((await t.api('GET', `/transcripts/${ep.transcriptId}?${q}`, { key: b.key, headers: { 'if-none-match': etag } })).status, q).toBe(402);
    }
    // Every shape has its own tag: the bodies differ.
    expect(tags.size).toBe(FORMATS.length);
    // …and the same body has the same tag, whatever options that change nothing were sent.
    const tagOf = async (q: string) => (await t.api('GET', `/transcripts/${ep.transcriptId}?${q}`, { key: a.key })).headers.get('etag');
    for (const [q, same] of [['format=txt', 'format=text'], ['format=json&words=1', 'format=json'], ['format=srt&timestamps=1&words=1', 'format=srt']]) {
      expect(await tagOf(q!), q).toBe(await tagOf(same!));
    }
    const [plain] = FORMATS;
    const old = (await t.api('GET', `/transcripts/${ep.transcriptId}?${plain}`, { key: a.key })).headers.get('etag')!;
    await storeNewVersion(t, ep.transcriptId, retranscribed('Entirely new words here'));
    const fresh = await t.api('GET', `/transcripts/${ep.transcriptId}?${plain}`, { key: a.key, headers: { 'if-none-match': old } });
    expect(fresh.status).toBe(200);
    expect(await fresh.text()).toContain('Entirely new words');
  });

  it('anything but the plain shape is still validated by the documented route', async () => {
    const a = await t.account();
    for (const q of ['format=docx', 'format=json&format=srt', 'timestamps=yes', 'format=%6Ason']) {
      const res = await t.api('GET', `/transcripts/${sampleEpisode.transcriptId}?${q}`, { key: a.key });
      if (q === 'format=%6Ason') expect(res.status, q).toBe(200);
      else expect(res.status, q).toBe(400);
    }
    expect((await t.api('GET', `/transcripts/${sampleEpisode.transcriptId}?format=json%00`)).status).toBe(400);
  });
});

describe.skipIf(!hasPostgres())('transcript caches across processes (PostgreSQL)', () => {
  const pair = twoProcessesOnPostgres();

  it('a version stored by another process replaces the one this process had cached', async () => {
    const reader = await pair.a.account({ credits: 1 });
    const ep = await addEpisode(pair.a, { doc: sampleDoc() });
    await pair.a.api('POST', '/unlock', { key: reader.key, body: { transcript: ep.transcriptId } });
    expect(await (await pair.a.api('GET', `/transcripts/${ep.transcriptId}?format=text`, { key: reader.key })).text()).toContain('Welcome');
    await storeNewVersion(pair.b, ep.transcriptId, retranscribed('Stored by the other process'));
    // The announcement travels over LISTEN/NOTIFY; the cache keeps the old version for a minute without it.
    await expect.poll(async () => (await pair.a.api('GET', `/transcripts/${ep.transcriptId}?format=text`, { key: reader.key })).text(), { timeout: 5000, interval: 50 }).toContain('Stored by the other process');
  });
});
