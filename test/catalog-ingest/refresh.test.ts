import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GIVE_UP_AFTER_FAILURES } from '../../src/core/catalog/ingest/show-refresh.js';
import { REQUESTED_SHOW_ID } from '../../src/core/jobs/resolve-episodes.js';
import { inTransaction } from '../../src/core/transaction.js';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { saveTranscript } from '../../src/core/transcripts/transcript-store.js';
import { runFeedRefresh } from '../../src/workers/feed-refresh.js';
import { sampleDoc } from '../support/catalog.js';
import { fakeClock } from '../support/fake-clock.js';
import { startTestPodtext, type TestPodtext } from '../support/podtext.js';
import { conditional, type FeedServer, serve, startFeedServer } from './feed-server.js';

const HOUR = 3_600_000;
// Apple's sample feed, 3 items; variants are derived from it here, the fixture stays as published.
const FIXTURE = readFileSync('test/fixtures/rss/apple-podcasters-guide-example.xml', 'utf8');
let copies = 0;

/**
 * The sample feed with guids of its own: an episode's id comes from its guid
 * alone, so two shows carrying the same guids would share episodes.
 */
function apple(): string {
  const tag = `copy-${++copies}`;
  return FIXTURE.replace(/<guid>([^<]*)<\/guid>/g, `<guid>$1#${tag}</guid>`);
}

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

const services = () => t.podtext.services;
const waitOf = (d: Date | null) => d!.getTime() - clock.now().getTime();

describe('refreshing feeds', () => {
  it('sends the validators back and changes nothing but the schedule on a 304', async () => {
    const etagFeed = apple();
    const modifiedFeed = apple();
    server.routes.set('/etag.xml', conditional(() => etagFeed, { etag: '"v1"' }));
    server.routes.set('/modified.xml', conditional(() => modifiedFeed, { lastModified: 'Tue, 10 Mar 2026 11:00:00 GMT' }));
    for (const [route, header, value] of [
      ['/etag.xml', 'if-none-match', '"v1"'],
      ['/modified.xml', 'if-modified-since', 'Tue, 10 Mar 2026 11:00:00 GMT'],
    ] as const) {
      const { feedId } = await services().catalogIngest.addFeedByUrl(server.url(route));
      const before = await services().db.show.findUniqueOrThrow({ where: { id: feedId } });
      const episodesBefore = await services().db.episode.findMany({ where: { showId: feedId }, orderBy: { transcriptId: 'asc' } });
      clock.advance(2 * HOUR);
      server.seen.length = 0;

      const result = await services().catalogIngest.refreshShow(feedId);
      expect(result).toMatchObject({ status: 'not_modified', newEpisodes: 0 });
      expect(server.seen).toHaveLength(1);
      expect(server.seen[0].headers[header]).toBe(value);

      const after = await services().db.show.findUniqueOrThrow({ where: { id: feedId } });
      expect({ ...after, nextFetchAt: null, lastFetchedAt: null }).toEqual({ ...before, nextFetchAt: null, lastFetchedAt: null });
      expect(after.lastFetchedAt).toEqual(clock.now());
      expect(waitOf(after.nextFetchAt)).toBeGreaterThanOrEqual(0.9 * HOUR);
      expect(await services().db.episode.findMany({ where: { showId: feedId }, orderBy: { transcriptId: 'asc' } })).toEqual(episodesBefore);
    }
  });

  it('picks up new episodes on refresh and keeps the ones that left the feed', async () => {
    const feed = apple();
    const ITEMS = feed.match(/<item>[\s\S]*?<\/item>/g)!;
    expect(ITEMS).toHaveLength(3);
    const withItems = (list: string[]) => feed.replace(/<item>[\s\S]*<\/item>/, list.join('\n'));
    let items = ITEMS.slice(1);
    server.routes.set('/growing.xml', (_req, res) => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(withItems(items)));
    const { feedId } = await services().catalogIngest.addFeedByUrl(server.url('/growing.xml'));
    expect(await services().db.episode.count({ where: { showId: feedId } })).toBe(2);

    items = ITEMS;
    clock.advance(HOUR);
    expect(await services().catalogIngest.refreshShow(feedId)).toMatchObject({ status: 'updated', newEpisodes: 1 });
    const show = await services().db.show.findUniqueOrThrow({ where: { id: feedId } });
    expect(show.episodeCountTracked).toBe(3);

    items = ITEMS.slice(0, 1);
    clock.advance(HOUR);
    expect(await services().catalogIngest.refreshShow(feedId)).toMatchObject({ status: 'updated', newEpisodes: 0 });
    expect(await services().db.episode.count({ where: { showId: feedId } })).toBe(3);
  });

  it('an episode first requested by its audio URL joins its show, with its transcript, once the feed publishes it', async () => {
    const feed = apple();
    const [, guid] = /<guid>([^<]*)<\/guid>/.exec(feed)!;
    const transcriptId = transcriptIdFor(guid!);
    const a = await t.account({ credits: 10 });
    // Asked for before Podtext knew the feed: held in the shared show of requested episodes, then transcribed.
    const asked = await t.api('POST', '/requests', { key: a.key, body: { episodes: [{ guid, url: 'https://media.example/early-copy.mp3', title: 'Early copy', secs: 600 }] } });
    expect(asked.status).toBe(200);
    await inTransaction(services().db, (tx) => saveTranscript(tx, { transcriptId, doc: sampleDoc(), source: 'asr' }));
    expect((await services().db.episode.findUniqueOrThrow({ where: { transcriptId } })).showId).toBe(REQUESTED_SHOW_ID);

    server.routes.set('/published.xml', serve(feed));
    const { feedId } = await services().catalogIngest.addFeedByUrl(server.url('/published.xml'));
    const listed = (await (await t.api('GET', `/shows/${feedId}/episodes`, { key: a.key })).json()) as { episodes: { transcript_id: string; title: string; transcript_status: string; audio_url: string }[] };
    const episode = listed.episodes.find((e) => e.transcript_id === transcriptId);
    // The feed's own details, audio included; the transcript stays.
    expect(episode).toMatchObject({ title: 'Shake Shake Shake Your Spices', transcript_status: 'ready', audio_url: 'http://example.com/podcasts/everything/AllAboutEverythingEpisode3.m4a' });
    expect(listed.episodes).toHaveLength(3);
    expect((await t.api('POST', '/unlock', { key: a.key, body: { transcript: transcriptId } })).status).toBe(200);
    const read = await t.api('GET', `/transcripts/${transcriptId}`, { key: a.key });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { title: string }).title).toBe('Shake Shake Shake Your Spices');
  });

  it('updates episode lists every time but show details only once a day', async () => {
    let title = 'First Title';
    const feed = apple();
    server.routes.set('/renamed.xml', (_req, res) => res.writeHead(200).end(feed.replace('All About Everything</title>', `${title}</title>`)));
    const { feedId } = await services().catalogIngest.addFeedByUrl(server.url('/renamed.xml'));
    title = 'Second Title';
    clock.advance(HOUR);
    await services().catalogIngest.refreshShow(feedId);
    expect((await services().db.show.findUniqueOrThrow({ where: { id: feedId } })).title).toBe('First Title');
    clock.advance(24 * HOUR);
    await services().catalogIngest.refreshShow(feedId);
    const show = await services().db.show.findUniqueOrThrow({ where: { id: feedId } });
    expect(show).toMatchObject({ title: 'Second Title', searchName: 'second title', searchCompact: 'secondtitle' });
  });

  it('backs off a failing feed exponentially and recovers', async () => {
    let failing = false;
    const feed = apple();
    server.routes.set('/flaky.xml', (_req, res) => (failing ? res.writeHead(500).end('down') : res.writeHead(200).end(feed)));
    const { feedId } = await services().catalogIngest.addFeedByUrl(server.url('/flaky.xml'));
    failing = true;
    const waits: number[] = [];
    for (let i = 1; i <= 4; i++) {
      const result = await services().catalogIngest.refreshShow(feedId);
      expect(result).toMatchObject({ status: 'failed' });
      const show = await services().db.show.findUniqueOrThrow({ where: { id: feedId } });
      expect(show.fetchFailures).toBe(i);
      expect(show.lastError).toMatch(/500/);
      waits.push(waitOf(show.nextFetchAt) / HOUR);
    }
    [1, 2, 4, 8].forEach((hours, i) => {
      expect(waits[i]).toBeGreaterThanOrEqual(hours * 0.9);
      expect(waits[i]).toBeLessThanOrEqual(hours * 1.1);
    });

    // Not due before its time; due after it.
    await services().db.show.updateMany({ where: { id: { not: feedId } }, data: { nextFetchAt: null } });
    expect((await services().catalogIngest.refreshDue(10)).shows).toBe(0);
    failing = false;
    clock.advance(9 * HOUR);
    expect(await services().catalogIngest.refreshDue(10)).toMatchObject({ shows: 1, updated: 1, failed: 0 });
    const show = await services().db.show.findUniqueOrThrow({ where: { id: feedId } });
    expect(show).toMatchObject({ fetchFailures: 0, lastError: null });
  });

  it('caps backoff and never lets a failing feed block the others', async () => {
    const feed = apple();
    let down = false;
    server.routes.set('/down.xml', (_req, res) => (down ? res.writeHead(503).end('down') : res.writeHead(200).end(feed)));
    const { feedId } = await services().catalogIngest.addFeedByUrl(server.url('/down.xml'));
    down = true;
    await services().db.show.update({ where: { id: feedId }, data: { fetchFailures: 30 } });
    await services().catalogIngest.refreshShow(feedId);
    const show = await services().db.show.findUniqueOrThrow({ where: { id: feedId } });
    // A server that keeps failing is never given up on: only a feed that is gone is.
    expect(show).toMatchObject({ fetchFailures: 31, dead: false });
    expect(waitOf(show.nextFetchAt) / HOUR).toBeLessThanOrEqual(7 * 24 * 1.1);
    expect(show.lastError).toMatch(/503/);
  });

  it('gives up a feed that is gone: at once on a 410, after a month of backoff on a 404', async () => {
    server.routes.set('/410.xml', serve(apple()));
    server.routes.set('/404.xml', serve(apple()));
    const gone = (await services().catalogIngest.addFeedByUrl(server.url('/410.xml'))).feedId;
    const missing = (await services().catalogIngest.addFeedByUrl(server.url('/404.xml'))).feedId;
    server.routes.set('/410.xml', (_req, res) => res.writeHead(410).end('gone'));
    server.routes.delete('/404.xml');
    await services().catalogIngest.refreshShow(gone);
    expect(await services().db.show.findUniqueOrThrow({ where: { id: gone } })).toMatchObject({ dead: true, nextFetchAt: null, fetchFailures: 1 });
    // `indexed` says whether Podtext keeps the show refreshed: no longer.
    const a = await t.account();
    expect(((await (await t.api('GET', `/shows/${gone}`, { key: a.key })).json()) as { indexed: boolean }).indexed).toBe(false);

    for (let i = 1; i < GIVE_UP_AFTER_FAILURES; i++) await services().catalogIngest.refreshShow(missing);
    expect(await services().db.show.findUniqueOrThrow({ where: { id: missing } })).toMatchObject({ dead: false, fetchFailures: GIVE_UP_AFTER_FAILURES - 1 });
    await services().catalogIngest.refreshShow(missing);
    expect(await services().db.show.findUniqueOrThrow({ where: { id: missing } })).toMatchObject({ dead: true, nextFetchAt: null });

    // Dead shows are never due again.
    clock.advance(30 * 24 * HOUR);
    const due = await services().db.show.count({ where: { id: { in: [gone, missing] }, nextFetchAt: { not: null } } });
    expect(due).toBe(0);
  });

  it('reads a feed that moved permanently from its new address, and one that moved for now from its old', async () => {
    const feed = apple();
    server.routes.set('/old.xml', serve(feed));
    server.routes.set('/temp.xml', serve(apple()));
    const { feedId } = await services().catalogIngest.addFeedByUrl(server.url('/old.xml'));
    const temp = (await services().catalogIngest.addFeedByUrl(server.url('/temp.xml'))).feedId;
    server.routes.set('/old.xml', (_req, res) => res.writeHead(301, { location: '/new.xml' }).end());
    server.routes.set('/new.xml', serve(feed));
    server.routes.set('/temp.xml', (_req, res) => res.writeHead(302, { location: '/new.xml' }).end());

    expect(await services().catalogIngest.refreshShow(feedId)).toMatchObject({ status: 'updated' });
    expect((await services().db.show.findUniqueOrThrow({ where: { id: feedId } })).feedUrl).toBe(server.url('/new.xml'));
    const before = server.seen.length;
    await services().catalogIngest.refreshShow(feedId);
    expect(server.seen.slice(before).map((r) => r.path)).toEqual(['/new.xml']);

    // A temporary redirect leaves the address alone; so does a move onto another show's address.
    await services().catalogIngest.refreshShow(temp);
    expect((await services().db.show.findUniqueOrThrow({ where: { id: temp } })).feedUrl).toBe(server.url('/temp.xml'));
    server.routes.set('/temp.xml', (_req, res) => res.writeHead(308, { location: '/new.xml' }).end());
    // That feed is the other show's: not stored here, so its new episodes and its name stay with that show alone.
    server.routes.set('/new.xml', serve(feed.replace('<title>All About Everything</title>', '<title>Merged Network</title>').replace('<item>', '<item><title>Merged in</title><guid>merged-in-1</guid><enclosure url="https://cdn.example.com/merged.mp3" type="audio/mpeg" length="1"/></item><item>')));
    clock.advance(2 * 24 * HOUR);
    expect(await services().catalogIngest.refreshShow(temp)).toMatchObject({ status: 'failed', error: `moved permanently to the feed of show ${feedId}` });
    const tempShow = await services().db.show.findUniqueOrThrow({ where: { id: temp } });
    expect(tempShow).toMatchObject({ feedUrl: server.url('/temp.xml'), fetchFailures: 1, dead: false });
    expect(tempShow.title).toBe('All About Everything');
    await services().catalogIngest.refreshShow(feedId);
    expect(await services().db.episode.findUniqueOrThrow({ where: { transcriptId: transcriptIdFor('merged-in-1') } })).toMatchObject({ showId: feedId });
  });

  it('never adopts an address with a user name or password that a feed moved to (feed addresses are shown to everyone)', async () => {
    const feed = apple();
    server.routes.set('/to-private.xml', serve(feed));
    const { feedId } = await services().catalogIngest.addFeedByUrl(server.url('/to-private.xml'));
    const privateUrl = server.url('/private.xml').replace('://', '://bob:hunter2@');
    server.routes.set('/to-private.xml', (_req, res) => res.writeHead(301, { location: privateUrl }).end());
    server.routes.set('/private.xml', serve(feed));
    expect(await services().catalogIngest.refreshShow(feedId)).toMatchObject({ status: 'updated' });
    const { feedUrl } = await services().db.show.findUniqueOrThrow({ where: { id: feedId } });
    expect(feedUrl).toBe(server.url('/to-private.xml'));
    expect(feedUrl).not.toContain('hunter2');
  });

  it('refreshes due shows with at most two requests at once to one host', async () => {
    const slow = (feed: string) => (_req: unknown, res: import('node:http').ServerResponse) => {
      void sleep(80).then(() => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(feed));
    };
    const ids: bigint[] = [];
    for (let i = 0; i < 6; i++) {
      const feed = apple();
      server.routes.set(`/slow-${i}.xml`, serve(feed));
      ids.push((await services().catalogIngest.addFeedByUrl(server.url(`/slow-${i}.xml`))).feedId);
      server.routes.set(`/slow-${i}.xml`, slow(feed));
    }
    await services().db.show.updateMany({ data: { nextFetchAt: null } });
    await services().db.show.updateMany({ where: { id: { in: ids } }, data: { nextFetchAt: clock.now() } });
    server.resetPeak();
    const summary = await services().catalogIngest.refreshDue(50);
    expect(summary).toMatchObject({ shows: 6, updated: 6, failed: 0 });
    expect(server.peak()).toBe(2);
    for (const id of ids) {
      const show = await services().db.show.findUniqueOrThrow({ where: { id } });
      expect(waitOf(show.nextFetchAt)).toBeGreaterThanOrEqual(0.9 * HOUR);
    }
  });

  it('runs as a loop until stopped', async () => {
    const feed = apple();
    server.routes.set('/looped.xml', serve(feed));
    const { feedId } = await services().catalogIngest.addFeedByUrl(server.url('/looped.xml'));
    await services().db.show.updateMany({ data: { nextFetchAt: null } });
    await services().db.show.update({ where: { id: feedId }, data: { nextFetchAt: clock.now() } });
    server.seen.length = 0;
    const stop = new AbortController();
    const loop = runFeedRefresh(services().catalogIngest, stop.signal, { everyMs: 20 });
    for (let i = 0; i < 200 && server.seen.length === 0; i++) await sleep(10);
    stop.abort();
    await loop;
    expect(server.seen.map((r) => r.path)).toEqual(['/looped.xml']);
    expect(waitOf((await services().db.show.findUniqueOrThrow({ where: { id: feedId } })).nextFetchAt)).toBeGreaterThan(0);
  });

  it('tells an unknown show from a failing one', async () => {
    await expect(services().catalogIngest.refreshShow(123n)).rejects.toMatchObject({ code: 'not_found' });
  });
});
