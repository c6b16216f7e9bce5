import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/core/transaction.js';
import { saveTranscript } from '../../src/core/transcripts/transcript-store.js';
import { sampleDoc } from '../support/catalog.js';
import { hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext, twoProcessesOnPostgres } from '../support/podtext.js';
import { dailyEpisodes, insertEpisodes, insertShows } from './catalog-fixtures.js';

// Episode lists are cached per show and served while the list's database
// state is unchanged. These tests change that state the ways code does, and
// some ways no code should (a raw write that touches no timestamp), and
// expect the very next request to show it.

type Episode = { transcript_id: string; title: string; transcript_status: string };
type List = { show: { title: string }; ready_count: number; truncated: boolean; episodes: Episode[] };

let nextShow = 7_000_000;

async function list(t: TestPodtext, key: string, feedId: number, max = 1000): Promise<List> {
  const res = await t.api('GET', `/shows/${feedId}/episodes?max=${max}`, { key });
  expect(res.status).toBe(200);
  return (await res.json()) as List;
}

/** A show with `n` daily episodes, its list read twice (so it is cached) before `change` runs. */
async function changed(t: TestPodtext, key: string, n: number, change: (feedId: number, ids: string[]) => Promise<unknown>): Promise<{ before: List; after: List; ids: string[]; feedId: number }> {
  const feedId = nextShow++;
  const { db } = t.podtext.services;
  await insertShows(db, [{ id: feedId, title: `Cached Show ${feedId}` }]);
  const ids = await insertEpisodes(db, feedId, dailyEpisodes(`c${feedId}`, n));
  const before = await list(t, key, feedId);
  expect(await list(t, key, feedId)).toEqual(before);
  await change(feedId, ids);
  return { before, after: await list(t, key, feedId), ids, feedId };
}

describe('episode list cache (PGlite)', () => {
  let t: TestPodtext;
  let key: string;
  beforeAll(async () => {
    t = await startTestPodtext();
    key = (await t.account()).key;
  });
  afterAll(() => t.close());

  it('a transcript stored for an episode shows at once: status and ready count', async () => {
    const { db } = t.podtext.services;
    const { before, after, ids } = await changed(t, key, 30, (_f, ids) => inTransaction(db, (tx) => saveTranscript(tx, { transcriptId: ids[3]!, doc: sampleDoc(), source: 'asr' })));
    expect(before.ready_count).toBe(0);
    expect(after.ready_count).toBe(1);
    expect(after.episodes.find((e) => e.transcript_id === ids[3])?.transcript_status).toBe('ready');
  });

  it('a raw write that touches no timestamp still shows at once', async () => {
    const { db } = t.podtext.services;
    const { after, ids } = await changed(t, key, 30, (_f, ids) =>
      db.$executeRawUnsafe(`UPDATE episodes SET transcript_status = 'processing', title = 'Renamed quietly' WHERE transcript_id = $1`, ids[5]),
    );
    expect(after.episodes.find((e) => e.transcript_id === ids[5])).toMatchObject({ transcript_status: 'processing', title: 'Renamed quietly' });
  });

  it('new, deleted and moved episodes, and a renamed show, show at once', async () => {
    const { db } = t.podtext.services;
    const added = await changed(t, key, 10, (feedId) => insertEpisodes(db, feedId, [{ guid: `late-${feedId}`, publishedAt: new Date(Date.UTC(2030, 0, 1)) }]));
    expect(added.after.episodes).toHaveLength(11);
    expect(added.after.episodes[0]!.transcript_id).not.toBe(added.before.episodes[0]!.transcript_id);

    const deleted = await changed(t, key, 10, (_f, ids) => db.episode.delete({ where: { transcriptId: ids[0]! } }));
    expect(deleted.after.episodes.map((e) => e.transcript_id)).not.toContain(deleted.ids[0]);

    const other = nextShow++;
    await insertShows(db, [{ id: other, title: 'Receiving Show' }]);
    await list(t, key, other);
    const moved = await changed(t, key, 10, (feedId) => db.$executeRawUnsafe(`UPDATE episodes SET show_id = $2 WHERE show_id = $1`, feedId, other));
    expect(moved.after.episodes).toEqual([]);
    expect((await list(t, key, other)).episodes).toHaveLength(10);

    const renamed = await changed(t, key, 10, (feedId) => db.show.update({ where: { id: feedId }, data: { title: 'A New Name' } }));
    expect(renamed.after.show.title).toBe('A New Name');
  });

  it('each length is its own list; `max` alone does not make a list truncated (spec 4.2)', async () => {
    const { db } = t.podtext.services;
    const { feedId, after } = await changed(t, key, 5, (feedId) => insertEpisodes(db, feedId, [{ guid: `sixth-${feedId}` }]));
    expect(after.episodes).toHaveLength(6);
    const five = await list(t, key, feedId, 5);
    expect(five.episodes).toHaveLength(5);
    expect(five.truncated).toBe(false);
    expect((await list(t, key, feedId, 6)).truncated).toBe(false);
  });
});

describe.skipIf(!hasPostgres())('episode list cache across processes (PostgreSQL)', () => {
  const pair = twoProcessesOnPostgres();

  it('a write by another process shows on this one\'s very next request', async () => {
    const key = (await pair.a.account()).key;
    const { after, ids } = await changed(pair.a, key, 20, (_f, ids) =>
      inTransaction(pair.b.podtext.services.db, (tx) => saveTranscript(tx, { transcriptId: ids[0]!, doc: sampleDoc(), source: 'publisher' })),
    );
    expect(after.ready_count).toBe(1);
    expect(after.episodes.find((e) => e.transcript_id === ids[0])?.transcript_status).toBe('ready');
  });
});
