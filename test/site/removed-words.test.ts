import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptDoc } from '../../src/core/transcripts/formats/transcript-doc.js';
import { addEpisode } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// A transcript re-timed to re-spliced audio keeps the words cut out of it, marked
// `removed`: the episode page shows them struck through, with nothing to seek to.
let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(() => t.close());

const retimed: TranscriptDoc = {
  language: 'en',
  wordTimesEstimated: false,
  alignment: { audioSeconds: 20, checkedAt: '2026-11-25T03:00:00.000Z', adBreaks: [], removed: [{ at: 4, seconds: 3 }] },
  segments: [
    {
      start: 0, end: 8, text: 'kept words gone forever kept again', speaker: null,
      words: [{ w: 'kept', s: 0.5 }, { w: 'words', s: 1 }, { w: 'gone', s: 4, removed: true }, { w: 'forever', s: 4, removed: true }, { w: 'kept', s: 4.2 }, { w: 'again', s: 5 }],
    },
  ],
};

describe('the episode page of a re-timed transcript', () => {
  it('strikes through the words cut from the audio, and gives them no time to seek to', async () => {
    const ep = await addEpisode(t, { doc: retimed });
    const a = await t.account({ credits: 5 });
    expect((await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } })).status).toBe(200);
    const signin = await t.request('/signin', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ key: a.key }).toString(), redirect: 'manual' });
    const cookie = signin.headers.getSetCookie().find((c) => c.startsWith('podtext_session='))!.split(';')[0]!;
    const html = await (await t.request(`/t/${ep.transcriptId}`, { headers: { cookie } })).text();
    expect(html).toContain('<del class="cut" title="Cut from the audio served now">gone</del>');
    expect(html).toContain('<del class="cut" title="Cut from the audio served now">forever</del>');
    expect(html).toContain('data-start="4.2">kept</span>');
    expect(html).not.toMatch(/data-start="4">(gone|forever)/);
  });
});
