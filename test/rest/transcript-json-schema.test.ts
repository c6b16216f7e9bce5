import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderJson } from '../../src/core/transcripts/formats/render-json.js';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { TranscriptJsonSchema } from '../../src/rest/schemas/transcript.js';
import { addEpisode, sampleDoc } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// openapi.json describes the transcript's JSON body field by field (generated
// clients rely on it): every shape the server sends must fit it exactly.
describe('the transcript JSON body and its openapi schema', () => {
  let t: TestPodtext;
  beforeAll(async () => {
    t = await startTestPodtext();
  });
  afterAll(() => t?.close());

  it('fit for every option, a speaker, removed words and an alignment (no field undocumented, none missing)', () => {
    const doc = sampleDoc();
    doc.segments[0]!.words[1] = { w: 'to', s: 0.6, removed: true };
    doc.alignment = { audioSeconds: 90, checkedAt: '2026-11-26T10:00:00.000Z', adBreaks: [{ start: 10, end: 40 }], removed: [{ at: 5, seconds: 2 }] };
    const meta = { transcriptId: 'aaaaaaaaaaaaaaaa', title: 'T', audioUrl: null, language: null, source: 'asr' as const, engine: 'sphinx', model: 'en-us', version: 3, durationSeconds: 60 };
    for (const options of [{ timestamps: false, words: false }, { timestamps: true, words: false }, { timestamps: true, words: true }]) {
      expect(() => TranscriptJsonSchema.parse(renderJson(doc, meta, options)), JSON.stringify(options)).not.toThrow();
    }
  });

  it('fit the answers of GET /transcripts/{id} as served', async () => {
    const a = await t.account({ credits: 2 });
    const ep = await addEpisode(t, { doc: sampleDoc() });
    expect((await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } })).status).toBe(200);
    for (const id of [sampleEpisode.transcriptId, ep.transcriptId]) {
      for (const query of ['', '?timestamps=1', '?timestamps=1&words=1']) {
        const res = await t.api('GET', `/transcripts/${id}${query}`, { key: a.key });
        expect(res.status).toBe(200);
        expect(TranscriptJsonSchema.safeParse(await res.json()).error?.issues ?? [], `${id}${query}`).toEqual([]);
      }
    }
  });
});
