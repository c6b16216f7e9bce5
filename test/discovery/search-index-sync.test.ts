import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiscovery } from '../../src/core/catalog/discovery/discovery-service.js';
import { createNameSearch } from '../../src/core/catalog/discovery/search-index/name-search.js';
import { searchKey } from '../../src/core/catalog/ingest/search-key.js';
import { createLogger } from '../../src/infra/logger.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { insertShows } from './catalog-fixtures.js';

let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(() => t?.close());

/** Runs a search, lets the background refresh it started finish, and runs it again. */
async function searchAfterRefresh(search: ReturnType<typeof createNameSearch>, q: string): Promise<number[]> {
  const k = searchKey(q);
  await search.search(k.name, k.compact, 5);
  await search.settle();
  return (await search.search(k.name, k.compact, 5)).map((r) => r.id);
}

describe('the name index follows the shows table', () => {
  it('loads on first search, then pulls changed rows: new shows, new titles, shows gone dead', async () => {
    const db = t.podtext.services.db;
    // refreshSeconds 0: every search pulls changes, so the test need not wait.
    const search = createNameSearch({ db, log: createLogger('silent'), options: { refreshSeconds: 0, pageSize: 2 } });
    await insertShows(db, [
      { id: 1, title: 'Alpha Radio' },
      { id: 2, title: 'Bravo Talk' },
      { id: 3, title: 'Charlie Hour' },
      { id: 4, title: 'Delta Weekly' },
      { id: 5, title: 'Echo Sessions' },
    ]);
    expect(await searchAfterRefresh(search, 'echo sessions')).toEqual([5]);
    expect(search.size).toBeGreaterThanOrEqual(5);

    await insertShows(db, [{ id: 6, title: 'Foxtrot Live' }]);
    expect(await searchAfterRefresh(search, 'foxtrot live')).toEqual([6]);

    await db.show.update({ where: { id: 2n }, data: { title: 'Golf Chat', searchName: 'golf chat', searchCompact: 'golfchat', updatedAt: new Date() } });
    expect(await searchAfterRefresh(search, 'golf chat')).toEqual([2]);
    expect(await searchAfterRefresh(search, 'bravo talk')).not.toContain(2);

    await db.show.update({ where: { id: 3n }, data: { dead: true, updatedAt: new Date() } });
    expect(await searchAfterRefresh(search, 'charlie hour')).not.toContain(3);
  });

  it('a show deleted by another process (an import handing it over) leaves the results at the next pull, cached row or not', async () => {
    const { db, links, catalogIngest, clock, log } = t.podtext.services;
    const discovery = createDiscovery({ db, links, catalogIngest, clock, log, sampleTranscriptId: 'none', options: { refreshSeconds: 0 } });
    const actor = { accountId: 'reader', keyId: 'key', plan: 'free' as const };
    await insertShows(db, [{ id: 9, title: 'Juliet Handed Over' }, { id: 10, title: 'Juliet Staying' }]);
    const ids = async () => (await discovery.search(actor, 'juliet')).shows.map((s) => s.id);
    await ids();
    await discovery.showSearch.settle();
    expect(await ids()).toEqual(expect.arrayContaining([9n, 10n]));
    await db.$executeRaw`DELETE FROM shows WHERE id = 9`;
    await ids(); // starts the pull
    await discovery.showSearch.settle();
    expect(await ids()).toEqual([10n]);
  });

  it('changes are found by transaction, not by timestamp: a backdated row is still pulled', async () => {
    const db = t.podtext.services.db;
    const search = createNameSearch({ db, log: createLogger('silent'), options: { refreshSeconds: 0 } });
    await search.search('x', 'x', 1);
    await insertShows(db, [{ id: 7, title: 'Hotel Backdated' }]);
    await db.show.update({ where: { id: 7n }, data: { updatedAt: new Date('2001-01-01T00:00:00Z') } });
    expect(await searchAfterRefresh(search, 'hotel backdated')).toEqual([7]);
  });

  it('reload() loads everything again', async () => {
    const search = createNameSearch({ db: t.podtext.services.db, log: createLogger('silent') });
    await search.reload();
    const k = searchKey('echo sessions');
    expect((await search.search(k.name, k.compact, 1)).map((r) => r.id)).toEqual([5]);
  });

  it('search results show a show\'s new details once the index has pulled the change, though rows are cached', async () => {
    const { db, links, catalogIngest, clock, log } = t.podtext.services;
    const discovery = createDiscovery({ db, links, catalogIngest, clock, log, sampleTranscriptId: 'none', options: { refreshSeconds: 0 } });
    const actor = { accountId: 'reader', keyId: 'key', plan: 'free' as const };
    await insertShows(db, [{ id: 8, title: 'India Unchanged', author: 'First Author' }]);
    const found = async () => (await discovery.search(actor, 'india unchanged')).shows.find((s) => s.id === 8n);
    await found();
    await discovery.showSearch.settle();
    expect(await found()).toMatchObject({ author: 'First Author', artwork: 'https://img.example.com/8.jpg' });

    // Another process edits what results show, not the name.
    await db.show.update({ where: { id: 8n }, data: { author: 'Second Author', artwork: 'https://img.example.com/8-new.jpg', categories: ['News'] } });
    await found(); // starts the pull
    await discovery.showSearch.settle();
    expect(await found()).toMatchObject({ author: 'Second Author', artwork: 'https://img.example.com/8-new.jpg', categories: ['News'] });
  });
});
