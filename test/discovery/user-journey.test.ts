import { readFileSync } from 'node:fs';
import { parseSync } from 'subtitle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebVTTParser } from 'webvtt-parser';
import { type FeedServer, serveMikeNeumannShow, startFeedServer } from '../catalog-ingest/feed-server.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// A whole visit through the REST API only, as a developer makes it: add a real
// feed by its URL, find it misspelled, list it, unlock a publisher transcript
// and read it in every format.
const SRT = readFileSync('test/fixtures/transcripts/pc20-example.srt');
const VTT = readFileSync('test/fixtures/transcripts/pc20-example.vtt');

let server: FeedServer;
let feedUrl: string;
let t: TestPodtext;

beforeAll(async () => {
  server = await startFeedServer();
  feedUrl = serveMikeNeumannShow(server, { srt: SRT, vtt: VTT });
  t = await startTestPodtext({ env: { OUTBOUND_ALLOW: server.endpoint } });
});

afterAll(async () => {
  await t?.close();
  await server?.close();
});

type Show = { feed_id: number; title: string };
type Episode = { transcript_id: string; title: string; transcript_status: string; transcript_url: string };

describe('a developer finds a show and reads its transcript', () => {
  it('adds a feed by URL, finds it misspelled, lists it, unlocks once and reads all four formats', async () => {
    const { key } = await t.account({ credits: 3 });
    const get = async (path: string) => {
      const res = await t.api('GET', path, { key });
      return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
    };
    const getJson = async <T>(path: string) => {
      const res = await get(path);
      return { ...res, json: JSON.parse(res.text) as T };
    };

    const added = await getJson<{ shows: Show[] }>(`/search?q=${encodeURIComponent(feedUrl)}`);
    expect(added.status).toBe(200);
    const show = added.json.shows[0]!;
    expect(show.title).toBe('The Mike Neumann Show');

    const misspelled = await getJson<{ shows: Show[] }>('/search?q=mike+nueman+show');
    expect(misspelled.json.shows[0]?.feed_id).toBe(show.feed_id);

    const list = await getJson<{ ready_count: number; truncated: boolean; episodes: Episode[] }>(`/shows/${show.feed_id}/episodes?max=10`);
    expect(list.status).toBe(200);
    expect(list.json.episodes).toHaveLength(10);
    // Cut by max, not by the directory: the index holds every episode of this feed (spec 4.2).
    expect(list.json.truncated).toBe(false);
    // The newest episodes' publisher transcripts are read while the feed is added.
    expect(list.json.ready_count).toBeGreaterThanOrEqual(10);
    const episode = list.json.episodes.find((e) => e.transcript_status === 'ready')!;
    expect(episode).toBeDefined();

    const locked = await getJson<{ error: { code: string } }>(`/transcripts/${episode.transcript_id}`);
    expect(locked.status).toBe(402);
    expect(locked.json.error.code).toBe('transcript_locked');
    const info = await getJson<{ unlock_cost: number }>(`/episodes/${episode.transcript_id}`);
    expect(info.json.unlock_cost).toBe(1);

    const unlock = () => t.api('POST', '/unlock', { key, body: { transcript: episode.transcript_id } }).then((r) => r.json());
    expect(await unlock()).toMatchObject({ unlocked: episode.transcript_id, credits: 1, credits_remaining: 2 });
    expect(await unlock()).toMatchObject({ credits: 0, credits_remaining: 2 });
    expect((await getJson<{ unlock_cost: number }>(`/episodes/${episode.transcript_id}`)).json.unlock_cost).toBe(0);

    const json = await getJson<{ title: string; source: string; text: string; paragraphs: { speaker: string | null }[] }>(
      `/transcripts/${episode.transcript_id}?format=json`,
    );
    expect(json.type).toContain('application/json');
    expect(json.json).toMatchObject({ title: episode.title, source: 'publisher' });
    expect(json.json.paragraphs.some((p) => p.speaker === 'Travis')).toBe(true);

    const text = await get(`/transcripts/${episode.transcript_id}?format=text`);
    expect(text.type).toContain('text/plain');
    expect(text.text).toContain('Travis: When you first get started in podcasting');

    const srt = await get(`/transcripts/${episode.transcript_id}?format=srt`);
    expect(srt.type).toContain('application/x-subrip');
    const cues = parseSync(srt.text).filter((n) => n.type === 'cue');
    expect(cues.length).toBeGreaterThan(50);

    const vtt = await get(`/transcripts/${episode.transcript_id}?format=vtt`);
    expect(vtt.type).toContain('text/vtt');
    const tree = new WebVTTParser().parse(vtt.text, 'metadata');
    expect(tree.errors).toEqual([]);
    expect(tree.cues).toHaveLength(cues.length);
    expect(vtt.text).toContain('<v Travis>');

    const me = await getJson<{ credits: number }>('/me');
    expect(me.json.credits).toBe(2);
  });
});
