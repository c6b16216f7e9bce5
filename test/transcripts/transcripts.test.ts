import { parseSync } from 'subtitle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebVTTParser } from 'webvtt-parser';
import { parseTranscript } from '../../src/core/transcripts/formats/parse-transcript.js';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { addEpisode, sampleDoc } from '../support/catalog.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(() => t.close());

const sample = sampleEpisode.transcriptId;

describe('the public sample episode', () => {
  it.each([
    ['json', 'application/json'],
    ['text', 'text/plain'],
    ['txt', 'text/plain'],
    ['srt', 'application/x-subrip'],
    ['vtt', 'text/vtt'],
  ])('is readable without a key as %s (%s)', async (format, type) => {
    const res = await t.api('GET', `/transcripts/${sample}?format=${format}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(type);
    expect((await res.text()).length).toBeGreaterThan(100);
  });

  it('SRT and VTT are accepted by independent parsers', async () => {
    const srt = await (await t.api('GET', `/transcripts/${sample}?format=srt`)).text();
    const cues = parseSync(srt).filter((n) => n.type === 'cue');
    expect(cues.length).toBeGreaterThan(3);
    const vtt = await (await t.api('GET', `/transcripts/${sample}?format=vtt`)).text();
    const tree = new WebVTTParser().parse(vtt, 'metadata');
    expect(tree.errors).toEqual([]);
    expect(tree.cues.length).toBe(cues.length);
  });

  it('json with timestamps and words has timed segments and word starts', async () => {
    const body = (await (await t.api('GET', `/transcripts/${sample}?format=json&timestamps=1&words=1`)).json()) as {
      transcript_id: string;
      segments: { start: number; end: number; text: string; words: { w: string; s: number }[] }[];
    };
    expect(body.transcript_id).toBe(sample);
    expect(body.segments.length).toBeGreaterThan(0);
    const words = body.segments.flatMap((s) => s.words);
    expect(words.length).toBeGreaterThan(20);
    for (let i = 1; i < words.length; i++) expect(words[i]!.s).toBeGreaterThanOrEqual(words[i - 1]!.s);
  });
});

describe('locked transcripts and unlock', () => {
  it('402 when locked, unlock charges 1 once, then every format reads; survives rotation', async () => {
    const a = await t.account({ credits: 2 });
    const ep = await addEpisode(t, { doc: sampleDoc() });
    const locked = await t.api('GET', `/transcripts/${ep.transcriptId}`, { key: a.key });
    expect(locked.status).toBe(402);
    expect(((await locked.json()) as { error: { code: string } }).error.code).toBe('transcript_locked');

    const first = await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } });
    expect(await first.json()).toEqual({ unlocked: ep.transcriptId, credits: 1, credits_remaining: 1, formats: ['json', 'text', 'txt', 'srt', 'vtt'] });
    const again = await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } });
    expect(await again.json()).toMatchObject({ credits: 0, credits_remaining: 1 });

    const vtt = await (await t.api('GET', `/transcripts/${ep.transcriptId}?format=vtt`, { key: a.key })).text();
    expect(vtt).toContain('<v Ada>Welcome to the show.');
    const { key } = (await (await t.api('POST', '/key/rotate', { key: a.key })).json()) as { key: string };
    expect((await t.api('GET', `/transcripts/${ep.transcriptId}?format=srt`, { key })).status).toBe(200);
    const me = (await (await t.api('GET', '/me', { key })).json()) as { credits: number; unlocks: { transcript: string; url: string }[] };
    expect(me.credits).toBe(1);
    expect(me.unlocks).toEqual([expect.objectContaining({ transcript: ep.transcriptId, url: `http://podtext.test/api/v1/transcripts/${ep.transcriptId}` })]);
  });

  it('402 on unlock without credits, nothing written', async () => {
    const a = await t.account({ credits: 0 });
    const ep = await addEpisode(t, { doc: sampleDoc() });
    const res = await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } });
    expect(res.status).toBe(402);
    expect(await t.podtext.services.db.unlock.count({ where: { accountId: a.accountId } })).toBe(0);
  });

  it('404 before a transcript exists; 400 for a malformed id', async () => {
    const a = await t.account();
    const ep = await addEpisode(t);
    expect((await t.api('GET', `/transcripts/${ep.transcriptId}`, { key: a.key })).status).toBe(404);
    expect((await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } })).status).toBe(404);
    const bad = await t.api('GET', '/transcripts/XYZ', { key: a.key });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^transcript_id:/);
    const badFormat = await t.api('GET', `/transcripts/${sample}?format=docx`);
    expect(badFormat.status).toBe(400);
  });

  it('a key is needed for anything but the sample', async () => {
    const ep = await addEpisode(t, { doc: sampleDoc() });
    expect((await t.api('GET', `/transcripts/${ep.transcriptId}`)).status).toBe(401);
  });

  it('concurrent unlocks of one episode by one account charge once', async () => {
    const a = await t.account({ credits: 5 });
    const ep = await addEpisode(t, { doc: sampleDoc() });
    const results = await Promise.all(Array.from({ length: 10 }, () => t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } }).then((r) => r.json() as Promise<{ credits: number }>)));
    expect(results.reduce((n, r) => n + r.credits, 0)).toBe(1);
    expect((await t.podtext.services.db.account.findUniqueOrThrow({ where: { id: a.accountId } })).credits).toBe(4);
  });

  it('GraphQL reads the same transcript and unlocks the same way', async () => {
    const a = await t.account({ credits: 3 });
    const ep = await addEpisode(t, { doc: sampleDoc() });
    const locked = await t.gql('query($id: String!) { transcript(transcriptId: $id) { title } }', { id: ep.transcriptId }, a.key);
    expect(locked.body.errors?.[0]?.extensions?.code).toBe('transcript_locked');
    // The way out is named for a GraphQL client too, not only as a REST path.
    expect(locked.body.errors?.[0]?.message).toMatch(/GraphQL: unlock\b/);
    const none = await t.gql('query($id: String!) { transcript(transcriptId: $id) { title } }', { id: 'fedcba9876543210' }, a.key);
    expect(none.body.errors?.[0]?.extensions?.code).toBe('not_found');
    expect(none.body.errors?.[0]?.message).toMatch(/GraphQL: requestTranscription\b/);
    const un = await t.gql('mutation($id: String!) { unlock(transcriptId: $id) { unlocked credits creditsRemaining formats } }', { id: ep.transcriptId }, a.key);
    expect(un.body.data).toEqual({ unlock: { unlocked: ep.transcriptId, credits: 1, creditsRemaining: 2, formats: ['json', 'text', 'txt', 'srt', 'vtt'] } });
    const read = await t.gql<{ transcript: { segments: { speaker: string; words: { w: string; s: number }[] }[]; rendered: string } }>(
      'query($id: String!) { transcript(transcriptId: $id) { segments { speaker words { w s } } rendered(format: SRT) } }',
      { id: ep.transcriptId },
      a.key,
    );
    expect(read.body.data?.transcript.segments[1]).toEqual({ speaker: 'Bob', words: [{ w: 'Glad', s: 2.5 }, { w: 'to', s: 3 }, { w: 'be', s: 3.3 }, { w: 'here.', s: 3.7 }] });
    const restSrt = await (await t.api('GET', `/transcripts/${ep.transcriptId}?format=srt`, { key: a.key })).text();
    expect(read.body.data?.transcript.rendered).toBe(restSrt);
    // JSON too, with the same options as REST's query.
    for (const [args, query] of [['', ''], ['timestamps: true', '&timestamps=1'], ['timestamps: true, words: true', '&timestamps=1&words=1']]) {
      const json = await t.gql<{ transcript: { rendered: string } }>(`query($id: String!) { transcript(transcriptId: $id) { rendered(format: JSON${args ? `, ${args}` : ''}) } }`, { id: ep.transcriptId }, a.key);
      const rest = await (await t.api('GET', `/transcripts/${ep.transcriptId}?format=json${query}`, { key: a.key })).json();
      expect(JSON.parse(json.body.data!.transcript.rendered), args).toEqual(rest);
    }
    const sampleNoKey = await t.gql('query($id: String!) { transcript(transcriptId: $id) { transcriptId } }', { id: sample });
    expect(sampleNoKey.body.data).toEqual({ transcript: { transcriptId: sample } });
  });

  it('GraphQL times a transcript without times as REST does, laid out over the episode', async () => {
    const a = await t.account({ credits: 1 });
    const doc = parseTranscript('Ada: Welcome to the show.\n\nBob: Glad to be here, and glad you came.\n', 'text/plain');
    const ep = await addEpisode(t, { doc, durationSeconds: 600 });
    await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } });
    const rest = (await (await t.api('GET', `/transcripts/${ep.transcriptId}?format=json&timestamps=1&words=1`, { key: a.key })).json()) as {
      segments: { start: number; end: number; text: string; speaker?: string; words: { w: string; s: number }[] }[];
    };
    const read = await t.gql<{ transcript: { segments: { start: number; end: number; text: string; speaker: string; words: { w: string; s: number }[] }[] } }>(
      'query($id: String!) { transcript(transcriptId: $id) { segments { start end text speaker words { w s } } } }',
      { id: ep.transcriptId },
      a.key,
    );
    const segments = read.body.data!.transcript.segments;
    expect(segments.at(-1)!.end).toBe(600);
    expect(segments[1]!.start).toBeGreaterThan(0);
    expect(segments).toEqual(rest.segments);
  });

  it('Episode.transcript is the transcript once unlocked, null while locked', async () => {
    const a = await t.account({ credits: 1 });
    const ep = await addEpisode(t, { doc: sampleDoc() });
    const q = 'query($id: String!) { episode(transcriptId: $id) { transcriptStatus } }';
    expect((await t.gql(q, { id: ep.transcriptId }, a.key)).body.errors).toBeUndefined();
    const list = `query($feed: Float!) { episodes(feedId: $feed, first: 5) { edges { node { transcriptId transcript { segments { speaker } } } } } }`;
    const before = await t.gql<{ episodes: { edges: { node: { transcript: unknown } }[] } }>(list, { feed: Number(ep.feedId) }, a.key);
    expect(before.body.errors).toBeUndefined();
    expect(before.body.data?.episodes.edges[0]?.node.transcript).toBeNull();
    await t.api('POST', '/unlock', { key: a.key, body: { transcript: ep.transcriptId } });
    const after = await t.gql<{ episodes: { edges: { node: { transcript: { segments: { speaker: string }[] } } }[] } }>(list, { feed: Number(ep.feedId) }, a.key);
    expect(after.body.data?.episodes.edges[0]?.node.transcript.segments.map((s) => s.speaker)).toEqual(['Ada', 'Bob']);
  });
});
