import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleEpisode } from '../../src/core/transcripts/sample/sample-episode.js';
import { type TestAccount, type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { dailyEpisodes, insertEpisodes, insertShows, markTranscribed } from './catalog-fixtures.js';

type Json = Record<string, unknown>;
type ErrorOut = { error: { code: string; message: string } };

let t: TestPodtext;
let a: TestAccount;
let busy: string[];

const SHOW = {
  id: 743229,
  title: 'The Daily',
  author: 'The New York Times',
  description: 'This is what the news should sound like.',
  appleId: 1200361736,
  feedUrl: 'https://feeds.simplecast.com/54nAGcIl',
  language: 'en',
  categories: ['News', 'Daily News'],
  popularity: 29,
};

beforeAll(async () => {
  t = await startTestPodtext();
  const db = t.podtext.services.db;
  await insertShows(db, [
    SHOW,
    { id: 12, title: 'Stale Apple', appleId: 99999999, feedUrl: 'https://example.com/stale.xml' },
    { id: 13, title: 'Feed Only', feedUrl: 'https://example.com/feed-only.rss' },
    { id: 14, title: 'Quiet Show', feedUrl: 'https://example.com/quiet.xml' },
  ]);
  busy = await insertEpisodes(db, SHOW.id, dailyEpisodes('daily', 1200));
  await insertEpisodes(db, SHOW.id, [{ guid: 'undated', publishedAt: null, durationSeconds: null }]);
  await markTranscribed(db, busy[0]!, 4321, 1500);
  await markTranscribed(db, busy[1]!);
  await db.episode.update({ where: { transcriptId: busy[2]! }, data: { transcriptStatus: 'processing' } });
  a = await t.account();
});
afterAll(() => t?.close());

const get = async (path: string, key = a.key) => {
  const res = await t.api('GET', path, { key });
  return { status: res.status, body: (await res.json()) as Json & ErrorOut };
};

function expect400(r: { status: number; body: ErrorOut }, field: string) {
  expect(r.status).toBe(400);
  expect(r.body.error.code).toBe('invalid_request');
  expect(r.body.error.message.startsWith(`${field}:`)).toBe(true);
}

describe('GET /shows/lookup', () => {
  it('finds a show by apple_id, feed_url or url', async () => {
    for (const q of [
      `apple_id=${SHOW.appleId}`,
      `feed_url=${encodeURIComponent(SHOW.feedUrl)}`,
      `feed_url=${encodeURIComponent('http://feeds.simplecast.com/54nAGcIl/')}`,
      `url=${encodeURIComponent('https://podcasts.apple.com/us/podcast/the-daily/id1200361736')}`,
      `url=${encodeURIComponent('https://podcastindex.org/podcast/743229')}`,
      `url=${encodeURIComponent(SHOW.feedUrl)}`,
    ]) {
      const r = await get(`/shows/lookup?${q}`);
      expect(r.status, q).toBe(200);
      expect(r.body.feed_id).toBe(SHOW.id);
    }
  });

  it('precedence: apple_id, then feed_url, then url; the first that matches wins', async () => {
    const both = await get(`/shows/lookup?apple_id=${SHOW.appleId}&feed_url=${encodeURIComponent('https://example.com/feed-only.rss')}`);
    expect(both.body.feed_id).toBe(SHOW.id);
    const staleApple = await get(`/shows/lookup?apple_id=123456789&feed_url=${encodeURIComponent('https://example.com/feed-only.rss')}`);
    expect(staleApple.body.feed_id).toBe(13);
    const feedOverUrl = await get(`/shows/lookup?feed_url=${encodeURIComponent('https://example.com/quiet.xml')}&url=${encodeURIComponent(SHOW.feedUrl)}`);
    expect(feedOverUrl.body.feed_id).toBe(14);
    const urlLast = await get(`/shows/lookup?feed_url=${encodeURIComponent('https://example.com/none.xml')}&url=${encodeURIComponent(SHOW.feedUrl)}`);
    expect(urlLast.body.feed_id).toBe(SHOW.id);
  });

  it('400 without parameters or with a malformed one; 404 when nothing matches', async () => {
    const none = await get('/shows/lookup');
    expect400(none, 'apple_id, feed_url, url');
    expect400(await get('/shows/lookup?apple_id=abc'), 'apple_id');
    expect400(await get('/shows/lookup?feed_url=ftp%3A%2F%2Fx'), 'feed_url');
    expect400(await get('/shows/lookup?url=the%20daily'), 'url');
    const spotify = await get(`/shows/lookup?url=${encodeURIComponent('https://open.spotify.com/show/3IM0lmZxpFAY7CwMuv9H4g')}`);
    expect(spotify.status).toBe(400);
    expect(spotify.body.error.code).toBe('unsupported_link');
    const missing = await get('/shows/lookup?apple_id=42424242');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
  });
});

describe('GET /shows/{feed_id}', () => {
  it('returns the show (spec 2.4)', async () => {
    const r = await get(`/shows/${SHOW.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      feed_id: SHOW.id,
      title: SHOW.title,
      author: SHOW.author,
      description: SHOW.description,
      artwork: `https://img.example.com/${SHOW.id}.jpg`,
      language: 'en',
      categories: SHOW.categories,
      episode_count_tracked: null,
      newest_episode_at: null,
      feed_url: SHOW.feedUrl,
      website: null,
      apple_id: SHOW.appleId,
      indexed: true,
      url: `http://podtext.test/shows/${SHOW.id}`,
      episodes_url: `http://podtext.test/api/v1/shows/${SHOW.id}/episodes`,
    });
  });

  it('404 for an unknown show, 400 for a non-integer id', async () => {
    const missing = await get('/shows/987654321');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('not_found');
    expect400(await get('/shows/abc'), 'feed_id');
    expect400(await get('/shows/0'), 'feed_id');
  });
});

describe('GET /shows/{feed_id}/episodes', () => {
  it('lists 100 newest first by default, with status and links (spec 2.5)', async () => {
    const r = await get(`/shows/${SHOW.id}/episodes`);
    expect(r.status).toBe(200);
    const episodes = r.body.episodes as Json[];
    expect(episodes).toHaveLength(100);
    expect(r.body.truncated).toBe(true);
    expect(r.body.ready_count).toBe(2);
    expect((r.body.show as Json).feed_id).toBe(SHOW.id);
    const dates = episodes.map((e) => Date.parse(e.published_at as string));
    expect([...dates].sort((x, y) => y - x)).toEqual(dates);
    expect(episodes[0]).toEqual({
      guid: 'daily-1200',
      transcript_id: busy[0],
      title: 'daily #1200',
      description: 'About daily-1200.',
      episode: 1200,
      season: null,
      published_at: '2026-03-01T06:00:00.000Z',
      duration_seconds: 1800,
      audio_url: 'https://cdn.example.com/daily-1200.mp3',
      transcript_status: 'ready',
      transcript_url: `http://podtext.test/api/v1/transcripts/${busy[0]}`,
      page_url: `http://podtext.test/t/${busy[0]}`,
    });
    expect(episodes.slice(0, 4).map((e) => e.transcript_status)).toEqual(['ready', 'ready', 'processing', 'none']);
  });

  it('max takes 1..1000; the list holds at most 1000', async () => {
    const one = await get(`/shows/${SHOW.id}/episodes?max=1`);
    expect((one.body.episodes as Json[]).length).toBe(1);
    const all = await get(`/shows/${SHOW.id}/episodes?max=1000`);
    expect((all.body.episodes as Json[]).length).toBe(1000);
    expect(all.body.truncated).toBe(true);
    for (const bad of ['0', '1001', '-3', 'abc', '2.5']) expect400(await get(`/shows/${SHOW.id}/episodes?max=${bad}`), 'max');
  });

  it('an undated episode comes last; a short list is not truncated', async () => {
    const db = t.podtext.services.db;
    await insertEpisodes(db, 14, [{ guid: 'q-undated', publishedAt: null }, ...dailyEpisodes('quiet', 3)]);
    const r = await get('/shows/14/episodes');
    expect((r.body.episodes as Json[]).map((e) => e.guid)).toEqual(['quiet-3', 'quiet-2', 'quiet-1', 'q-undated']);
    expect(r.body.truncated).toBe(false);
    expect(r.body.ready_count).toBe(0);
  });

  it('404 for an unknown show', async () => {
    const r = await get('/shows/987654321/episodes');
    expect(r.status).toBe(404);
  });
});

describe('GET /episodes/{transcript_id}', () => {
  it('a ready episode not unlocked costs 1; unlocked costs 0', async () => {
    const r = await get(`/episodes/${busy[0]}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      transcript_id: busy[0],
      title: 'daily #1200',
      transcript_status: 'ready',
      unlocked: false,
      unlock_cost: 1,
      word_count: 4321,
      duration_seconds: 1800,
      published_at: '2026-03-01T06:00:00.000Z',
      show: { feed_id: SHOW.id, title: SHOW.title, author: SHOW.author, artwork: `https://img.example.com/${SHOW.id}.jpg`, url: `http://podtext.test/shows/${SHOW.id}` },
    });
    await t.podtext.services.db.unlock.create({ data: { accountId: a.accountId, transcriptId: busy[0]! } });
    const after = await get(`/episodes/${busy[0]}`);
    expect(after.body).toMatchObject({ unlocked: true, unlock_cost: 0 });
    const other = await t.account();
    expect((await get(`/episodes/${busy[0]}`, other.key)).body).toMatchObject({ unlocked: false, unlock_cost: 1 });
  });

  it('without a transcript: status none, cost null, 0 words', async () => {
    const r = await get(`/episodes/${busy[5]}`);
    expect(r.body).toMatchObject({ transcript_status: 'none', unlocked: false, unlock_cost: null, word_count: 0 });
    const processing = await get(`/episodes/${busy[2]}`);
    expect(processing.body).toMatchObject({ transcript_status: 'none', unlock_cost: null });
  });

  it('the public sample is unlocked for everyone at no cost', async () => {
    const r = await get(`/episodes/${sampleEpisode.transcriptId}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ transcript_id: sampleEpisode.transcriptId, transcript_status: 'ready', unlocked: true, unlock_cost: 0 });
    expect(r.body.word_count).toBeGreaterThan(0);
  });

  it('validates transcript_id; 404 for an unknown one', async () => {
    for (const bad of ['ABCDEF0123456789', '0123', 'zzzzzzzzzzzzzzzz', '0123456789abcdef0']) expect400(await get(`/episodes/${bad}`), 'transcript_id');
    const r = await get('/episodes/0123456789abcdef');
    expect(r.status).toBe(404);
    expect(r.body.error.code).toBe('not_found');
  });
});
