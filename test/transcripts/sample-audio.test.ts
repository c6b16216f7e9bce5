import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

const SAMPLE = '97ab7f764b594d58';

// The one episode every visitor can open plays: its audio is served by Podtext itself.
let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(() => t.close());

describe('the public sample has audio', () => {
  it('one audio_url, at the site, in the episode list, the transcript and the page', async () => {
    const site = t.podtext.services.links.site;
    const expected = `${site}/sample/audio.mp3`;
    const transcript = (await (await t.api('GET', `/transcripts/${SAMPLE}`)).json()) as { audio_url: string | null };
    expect(transcript.audio_url).toBe(expected);
    const a = await t.account();
    const list = (await (await t.api('GET', '/shows/999999999999/episodes', { key: a.key })).json()) as { episodes: { audio_url: string }[] };
    expect(list.episodes[0]?.audio_url).toBe(expected);
    const page = await (await t.request(`/t/${SAMPLE}`)).text();
    expect(page).toContain(`<audio id="player"`);
    expect(page).toContain(expected);
  });

  it('serves the MP3 whole and by byte range, as players seek', async () => {
    const whole = await t.request('/sample/audio.mp3');
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    const bytes = new Uint8Array(await whole.arrayBuffer());
    expect(bytes.length).toBeGreaterThan(100_000);
    // MP3: an ID3v2 tag or an MPEG audio frame sync at the start.
    const id3 = Buffer.from(bytes.subarray(0, 3)).toString('latin1') === 'ID3';
    expect(id3 || (bytes[0] === 0xff && (bytes[1]! & 0xe0) === 0xe0)).toBe(true);
    const part = await t.request('/sample/audio.mp3', { headers: { range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-199/${bytes.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.subarray(100, 200));
    const tail = await t.request('/sample/audio.mp3', { headers: { range: 'bytes=-10' } });
    expect(new Uint8Array(await tail.arrayBuffer())).toEqual(bytes.subarray(bytes.length - 10));
    expect((await t.request('/sample/audio.mp3', { headers: { range: `bytes=${bytes.length}-` } })).status).toBe(416);
  });
});
