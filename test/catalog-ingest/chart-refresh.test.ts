import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/fake-clock.js';
import { type TestAccount, type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type FeedServer, startFeedServer } from './feed-server.js';

// Apple's charts replayed from a local server: the legacy iTunes RSS capture
// answers every genre; the overall chart answers as the test decides.
const LEGACY = readFileSync('test/fixtures/apple/itunes-rss-toppodcasts-limit100-genre1310.json');
const OVERALL_PATH = '/api/v2/us/podcasts/top/100/podcasts.json';
const HOUR = 3_600_000;

let server: FeedServer;
let t: TestPodtext;
let a: TestAccount;
let overallStatus = 200;
/** Genre charts asked for in one pass: the 19 top-level ones and sub-genres the charts revealed. */
let perPass = 0;
const clock = fakeClock('2026-03-10T12:00:00Z');

const overallFetches = () => server.seen.filter((r) => r.path === OVERALL_PATH).length;
const genreFetches = () => server.seen.filter((r) => r.path.startsWith('/us/rss/toppodcasts/')).length;

async function chart(genre?: string): Promise<{ rank: number; title: string }[]> {
  const res = await t.api('GET', genre ? `/charts?genre=${genre}` : '/charts', { key: a.key });
  expect(res.status).toBe(200);
  return ((await res.json()) as { chart: { rank: number; title: string }[] }).chart;
}

async function until(what: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until `count` has not moved for a while: a pass has finished. */
async function settled(count: () => number): Promise<void> {
  for (let last = -1; count() !== last; ) {
    last = count();
    await new Promise((r) => setTimeout(r, 300));
  }
}

beforeAll(async () => {
  server = await startFeedServer();
  server.routes.set(OVERALL_PATH, (_req, res) => {
    if (overallStatus !== 200) return res.writeHead(overallStatus).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(LEGACY);
  });
  for (const id of [1301, 1310, 1488]) {
    server.routes.set(`/us/rss/toppodcasts/limit=50/genre=${id}/json`, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(LEGACY));
  }
  t = await startTestPodtext({
    clock,
    env: {
      OUTBOUND_ALLOW: server.endpoint,
      APPLE_CHARTS_URL: server.url(OVERALL_PATH),
      APPLE_GENRE_CHARTS_URL: server.url('/us/rss/toppodcasts/limit=50/genre={genre}/json'),
      WORKERS: '0',
    },
    charts: { pollMs: 20 },
  });
  a = await t.account();
  t.podtext.startWorkers();
});

afterAll(async () => {
  await t?.close();
  await server?.close();
});

describe('the daily chart import', () => {
  it('imports the overall chart and every genre chart Apple answers, once a day', async () => {
    await until(async () => (await chart()).length === 100 && genreFetches() >= 19);
    await settled(genreFetches);
    expect(await chart('true-crime')).toHaveLength(50);
    expect((await chart('music'))[0]).toMatchObject({ rank: 1, title: 'No Jumper' });
    expect(await chart('arts')).toHaveLength(50);
    // Genres Apple did not answer (404 here) are skipped, not emptied by mistake.
    expect(await chart('comedy')).toEqual([]);
    perPass = genreFetches();
    expect(perPass).toBeGreaterThanOrEqual(19);

    // Nothing more until a day has passed.
    await new Promise((r) => setTimeout(r, 200));
    expect(overallFetches()).toBe(1);
    clock.advance(25 * HOUR);
    await until(() => overallFetches() === 2 && genreFetches() === 2 * perPass);
  });

  it('keeps the charts it has while Apple fails, and tries again an hour later', async () => {
    await until(() => genreFetches() === 2 * perPass);
    overallStatus = 503;
    clock.advance(25 * HOUR);
    await until(() => overallFetches() === 3);
    expect(await chart()).toHaveLength(100);
    expect(genreFetches()).toBe(2 * perPass);

    await new Promise((r) => setTimeout(r, 200));
    expect(overallFetches()).toBe(3);
    overallStatus = 200;
    clock.advance(HOUR + 1000);
    await until(() => overallFetches() === 4 && genreFetches() === 3 * perPass);
  });
});
