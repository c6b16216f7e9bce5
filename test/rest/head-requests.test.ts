import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

let t: TestPodtext;
let url: string;
beforeAll(async () => {
  t = await startTestPodtext();
  url = await t.podtext.listen();
});
afterAll(() => t?.close());

// Download tools and link checkers ask HEAD for the size before they fetch.
describe('HEAD', () => {
  it('says how long the GET body would be, with no body, for the API, transcripts in every format, and pages', async () => {
    const a = await t.account();
    const headers = { authorization: `Bearer ${a.key}` };
    const paths = [...['json', 'text', 'srt', 'vtt'].map((f) => `/api/v1/transcripts/${sampleEpisode.transcriptId}?format=${f}`), '/api/v1/me', '/openapi.json', '/'];
    for (const path of paths) {
      const get = await fetch(`${url}${path}`, { headers });
      const length = (await get.arrayBuffer()).byteLength;
      const head = await fetch(`${url}${path}`, { method: 'HEAD', headers });
      expect(head.status, path).toBe(200);
      expect(head.headers.get('content-length'), path).toBe(String(length));
      expect((await head.arrayBuffer()).byteLength).toBe(0);
      expect(head.headers.get('etag'), path).toBe(get.headers.get('etag'));
    }
  });
});
