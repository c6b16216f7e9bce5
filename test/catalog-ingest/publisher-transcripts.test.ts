import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { createCatalogIngest } from '../../src/core/catalog/ingest/catalog-ingest.js';
import { parseTranscript } from '../../src/core/transcripts/formats/parse-transcript.js';
import { fakeClock } from '../support/fake-clock.js';
import { startTestPodtext, type TestPodtext } from '../support/podtext.js';
import { type FeedServer, serve, serveMikeNeumannShow, startFeedServer } from './feed-server.js';

const SRT = readFileSync('test/fixtures/transcripts/pc20-example.srt');
const VTT = readFileSync('test/fixtures/transcripts/pc20-example.vtt');
const JSON_TRANSCRIPT = readFileSync('test/fixtures/transcripts/pc20-example.json');
const HOUR = 3_600_000;

let server: FeedServer;
let t: TestPodtext;
const clock = fakeClock('2026-03-10T12:00:00Z');

beforeAll(async () => {
  server = await startFeedServer();
  t = await startTestPodtext({ clock, env: { OUTBOUND_ALLOW: server.endpoint } });
});

afterAll(async () => {
  await t?.close();
  await server?.close();
});

function feed(items: string): string {
  return `<?xml version="1.0"?><rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel>
    <title>Transcribed</title><language>en</language>${items}</channel></rss>`;
}

describe('publisher transcripts', () => {
  it('stores the SRT and VTT transcripts a real feed links, VTT where both exist', async () => {
    const { catalogIngest, db } = t.podtext.services;
    // The feed as published, with the transcript host pointed at the local server.
    const feedUrl = serveMikeNeumannShow(server, { srt: SRT, vtt: VTT });
    server.seen.length = 0;

    const { feedId } = await catalogIngest.addFeedByUrl(feedUrl);
    const episodes = await db.episode.findMany({ where: { showId: feedId } });
    expect(episodes).toHaveLength(54);
    const ready = () => db.episode.count({ where: { showId: feedId, transcriptStatus: 'ready' } });
    // The newest are fetched at once, the rest by the refresher.
    expect(await ready()).toBe(25);
    expect(await catalogIngest.fetchTranscripts({ limit: 100 })).toEqual({ stored: 29, failed: 0 });
    expect(await ready()).toBe(54);

    const fetched = server.seen.filter((r) => r.path.startsWith('/mn/')).map((r) => r.path);
    expect(fetched).toHaveLength(54);
    expect(fetched.filter((p) => p.endsWith('.vtt'))).toHaveLength(2);

    const vttEpisode = episodes.find((e) => e.publisherTranscriptType === 'text/vtt')!;
    const vttTranscript = await db.transcript.findUniqueOrThrow({ where: { transcriptId: vttEpisode.transcriptId } });
    expect(vttTranscript).toMatchObject({ source: 'publisher', version: 1 });
    expect(vttTranscript.doc).toEqual(JSON.parse(JSON.stringify(parseTranscript(VTT, 'text/vtt'))));
    const srtEpisode = episodes.find((e) => e.publisherTranscriptType === 'application/x-subrip')!;
    const srtTranscript = await db.transcript.findUniqueOrThrow({ where: { transcriptId: srtEpisode.transcriptId } });
    const srtDoc = parseTranscript(SRT, 'application/x-subrip');
    expect(srtTranscript.wordCount).toBe(srtDoc.segments.reduce((n, s) => n + s.words.length, 0));
    expect(srtTranscript.wordCount).toBeGreaterThan(1000);
    expect(srtTranscript.language).toBe('en');
    expect(srtTranscript.durationSeconds).toBeCloseTo(srtDoc.segments.at(-1)!.end, 1);
    expect(await db.publisherTranscriptFetch.count({ where: { showId: feedId } })).toBe(0);

    // A refresh does not fetch them again.
    server.seen.length = 0;
    await catalogIngest.refreshShow(feedId);
    expect(server.seen.filter((r) => r.path.startsWith('/mn/'))).toHaveLength(0);
  });

  it('prefers JSON over VTT and SRT', async () => {
    const { catalogIngest, db } = t.podtext.services;
    server.routes.set('/t/json.json', serve(JSON_TRANSCRIPT, 'application/json'));
    server.routes.set('/t/json.vtt', serve(VTT, 'text/vtt'));
    server.routes.set('/t/json.srt', serve(SRT, 'application/srt'));
    server.routes.set('/json-feed.xml', serve(feed(`<item><title>Both</title><guid>json-pref-1</guid>
      <enclosure url="https://cdn.example.com/1.mp3" type="audio/mpeg" length="1"/>
      <podcast:transcript url="${server.url('/t/json.srt')}" type="application/srt"/>
      <podcast:transcript url="${server.url('/t/json.vtt')}" type="text/vtt"/>
      <podcast:transcript url="${server.url('/t/json.json')}" type="application/json"/></item>`)));
    const { feedId } = await catalogIngest.addFeedByUrl(server.url('/json-feed.xml'));
    const [episode] = await db.episode.findMany({ where: { showId: feedId }, include: { transcript: true } });
    expect(episode).toMatchObject({ transcriptStatus: 'ready', publisherTranscriptType: 'application/json' });
    expect(episode.transcript!.doc).toEqual(JSON.parse(JSON.stringify(parseTranscript(JSON_TRANSCRIPT, 'application/json'))));
  });

  it("stores the transcript in the show's language, not a translation in a better format", async () => {
    const { catalogIngest, db } = t.podtext.services;
    const spanish = 'WEBVTT\n\n00:00:01.000 --> 00:00:03.000\nHola a todos.\n';
    server.routes.set('/t/lang.es.vtt', serve(Buffer.from(spanish), 'text/vtt'));
    server.routes.set('/t/lang.en.srt', serve(SRT, 'application/srt'));
    server.routes.set('/lang-feed.xml', serve(feed(`<item><title>Two languages</title><guid>lang-pref-1</guid>
      <enclosure url="https://cdn.example.com/lang.mp3" type="audio/mpeg" length="1"/>
      <podcast:transcript url="${server.url('/t/lang.es.vtt')}" type="text/vtt" language="es"/>
      <podcast:transcript url="${server.url('/t/lang.en.srt')}" type="application/srt" language="en"/></item>`)));
    const { feedId } = await catalogIngest.addFeedByUrl(server.url('/lang-feed.xml'));
    const [episode] = await db.episode.findMany({ where: { showId: feedId }, include: { transcript: true } });
    expect(episode).toMatchObject({ transcriptStatus: 'ready', publisherTranscriptType: 'application/srt' });
    expect(episode.transcript!.language).toBe('en');
    expect(episode.transcript!.doc).toEqual(JSON.parse(JSON.stringify(parseTranscript(SRT, 'application/x-subrip'))));
  });

  it('stores a transcript with control characters (a NUL from a broken export), without them', async () => {
    const { catalogIngest, db } = t.podtext.services;
    const srt = '1\n00:00:01,000 --> 00:00:02,000\nHello\u0000 there\u0007.\n\n2\n00:00:02,000 --> 00:00:03,000\n\u0000\n';
    server.routes.set('/t/nul.srt', serve(Buffer.from(srt), 'application/srt'));
    server.routes.set('/nul-feed.xml', serve(feed(`<item><title>Nul</title><guid>nul-1</guid>
      <enclosure url="https://cdn.example.com/nul.mp3" type="audio/mpeg" length="1"/>
      <podcast:transcript url="${server.url('/t/nul.srt')}" type="application/srt"/></item>`)));
    const { feedId } = await catalogIngest.addFeedByUrl(server.url('/nul-feed.xml'));
    const [episode] = await db.episode.findMany({ where: { showId: feedId }, include: { transcript: true } });
    expect(episode).toMatchObject({ transcriptStatus: 'ready' });
    expect((episode.transcript!.doc as { segments: { text: string }[] }).segments.map((s) => s.text)).toEqual(['Hello there.']);
  });

  it('decodes a transcript in the charset its server names, the feed type still picking the format', async () => {
    const { catalogIngest, db } = t.podtext.services;
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    server.routes.set('/t/latin.txt', serve(latin1('caf\xe9 cr\xe8me'), 'text/plain; charset=windows-1252'));
    server.routes.set('/t/latin.json', serve(latin1('{"segments":[{"startTime":1,"endTime":2,"body":"cr\xe8me br\xfbl\xe9e \x93ok\x94"}]}'), 'text/plain; charset=windows-1252'));
    const item = (guid: string, path: string, type: string) => `<item><title>${guid}</title><guid>${guid}</guid>
      <enclosure url="https://cdn.example.com/${guid}.mp3" type="audio/mpeg" length="1"/>
      <podcast:transcript url="${server.url(path)}" type="${type}"/></item>`;
    server.routes.set('/latin.xml', serve(feed(item('latin-text', '/t/latin.txt', 'text/plain') + item('latin-json', '/t/latin.json', 'application/json'))));
    const { feedId } = await catalogIngest.addFeedByUrl(server.url('/latin.xml'));
    const episodes = await db.episode.findMany({ where: { showId: feedId }, include: { transcript: true }, orderBy: { guid: 'asc' } });
    const texts = episodes.map((e) => [e.guid, (e.transcript?.doc as { segments: { text: string }[] } | undefined)?.segments[0]?.text]);
    expect(texts).toEqual([
      ['latin-json', 'crème brûlée “ok”'],
      ['latin-text', 'café crème'],
    ]);
  });

  it('a feed that renames an episode or moves its audio: the transcript says so at once, under a new version', async () => {
    const { catalogIngest } = t.podtext.services;
    server.routes.set('/t/renamed.srt', serve(SRT, 'application/srt'));
    const item = (title: string, audio: string) => `<item><title>${title}</title><guid>renamed-1</guid>
      <enclosure url="https://cdn.example.com/${audio}" type="audio/mpeg" length="1"/><itunes:duration>61</itunes:duration>
      <podcast:transcript url="${server.url('/t/renamed.srt')}" type="application/srt"/></item>`;
    const withItunes = (xml: string) => xml.replace('<rss ', '<rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" ');
    server.routes.set('/renamed.xml', serve(withItunes(feed(item('Old name', 'old.mp3')))));
    const { feedId } = await catalogIngest.addFeedByUrl(server.url('/renamed.xml'));
    const reader = await t.account({ credits: 1 });
    const [{ transcript_id: id }] = (await (await t.api('GET', `/shows/${feedId}/episodes`, { key: reader.key })).json()).episodes;
    expect((await t.api('POST', '/unlock', { key: reader.key, body: { transcript: id } })).status).toBe(200);
    const read = async () => (await t.api('GET', `/transcripts/${id}?format=json`, { key: reader.key })).json();
    // Twice: the second answer comes from the caches.
    await read();
    expect(await read()).toMatchObject({ title: 'Old name', audio_url: 'https://cdn.example.com/old.mp3', version: 1 });

    // A refresh that changes nothing keeps the version.
    await catalogIngest.refreshShow(feedId);
    expect(await read()).toMatchObject({ title: 'Old name', version: 1 });

    server.routes.set('/renamed.xml', serve(withItunes(feed(item('New name', 'new.mp3')))));
    await catalogIngest.refreshShow(feedId);
    const renamed = await read();
    expect(renamed).toMatchObject({ title: 'New name', audio_url: 'https://cdn.example.com/new.mp3', version: 2 });
    // The words are the publisher's, untouched.
    expect(renamed.text).toBe((await read()).text);
    expect(renamed.text.length).toBeGreaterThan(1000);
  });

  it('retries a transcript server error later, and gives up after three tries', async () => {
    const { catalogIngest, db } = t.podtext.services;
    let flakyCalls = 0;
    server.routes.set('/t/flaky.srt', (_req, res) => (++flakyCalls === 1 ? res.writeHead(503).end() : res.writeHead(200).end(SRT)));
    server.routes.set('/t/down.srt', (_req, res) => res.writeHead(500).end());
    server.routes.set('/t/junk.srt', serve('', 'application/srt'));
    const item = (guid: string, path: string) => `<item><title>${guid}</title><guid>${guid}</guid>
      <enclosure url="https://cdn.example.com/${guid}.mp3" type="audio/mpeg" length="1"/>
      <podcast:transcript url="${server.url(path)}" type="application/srt"/></item>`;
    server.routes.set('/retry.xml', serve(feed(item('retry-flaky', '/t/flaky.srt') + item('retry-down', '/t/down.srt') + item('retry-junk', '/t/junk.srt'))));
    const { feedId } = await catalogIngest.addFeedByUrl(server.url('/retry.xml'));
    const episode = (guid: string) => db.episode.findFirstOrThrow({ where: { showId: feedId, guid } });
    const status = async (guid: string) => (await episode(guid)).transcriptStatus;
    const queued = async (guid: string) => db.publisherTranscriptFetch.findUniqueOrThrow({ where: { transcriptId: (await episode(guid)).transcriptId } });
    expect(await status('retry-flaky')).toBe('none');
    expect((await queued('retry-junk')).nextAttemptAt).toBeNull();

    for (let i = 0; i < 3; i++) {
      clock.advance(20 * HOUR);
      await catalogIngest.fetchTranscripts({ limit: 10 });
    }
    expect(await status('retry-flaky')).toBe('ready');
    expect(await status('retry-down')).toBe('none');
    const down = await queued('retry-down');
    expect(down).toMatchObject({ attempts: 3, nextAttemptAt: null });
    expect(down.lastError).toMatch(/500/);
    expect(server.seen.filter((r) => r.path === '/t/down.srt')).toHaveLength(3);
    expect(server.seen.filter((r) => r.path === '/t/junk.srt')).toHaveLength(1);
  });

  it('a slow transcript host holds the adding of a feed (a search by its URL) no longer than the wait; what is left is fetched on the next pass', async () => {
    const { db, outbound, log } = t.podtext.services;
    const ingest = createCatalogIngest({ db, outbound, clock, log, options: { transcriptWaitMs: 300 }, onTranscriptStored: () => undefined });
    const held: ServerResponse[] = [];
    let stuck = true;
    server.routes.set('/t/stuck.srt', (_req, res) => (stuck ? held.push(res) : res.writeHead(200, { 'content-type': 'application/srt' }).end(SRT)));
    const item = (n: number) => `<item><title>Stuck ${n}</title><guid>stuck-${n}</guid>
      <enclosure url="https://cdn.example.com/stuck-${n}.mp3" type="audio/mpeg" length="1"/>
      <podcast:transcript url="${server.url(`/t/stuck.srt?${n}`)}" type="application/srt"/></item>`;
    server.routes.set('/stuck.xml', serve(feed([1, 2, 3, 4, 5].map(item).join(''))));
    try {
      const started = performance.now();
      const { feedId } = await ingest.addFeedByUrl(server.url('/stuck.xml'));
      // Before, it waited for each transcript's 60 s timeout, two at a time to one host.
      expect(performance.now() - started).toBeLessThan(5_000);
      const fetches = await db.publisherTranscriptFetch.findMany({ where: { showId: feedId } });
      expect(fetches).toHaveLength(5);
      // Handed back untried: due now, no attempt spent.
      for (const f of fetches) expect(f).toMatchObject({ attempts: 0, lastError: null, nextAttemptAt: clock.now() });

      stuck = false;
      expect(await ingest.fetchTranscripts({ showId: feedId, limit: 10 })).toEqual({ stored: 5, failed: 0 });
      expect(await db.episode.count({ where: { showId: feedId, transcriptStatus: 'ready' } })).toBe(5);
    } finally {
      for (const res of held) res.destroy();
    }
  });
});
