import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServices } from '../../src/core/services.js';
import { inTransaction } from '../../src/core/transaction.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';
import { createHttpApp, type HttpApp } from '../../src/http-app.js';
import { pgliteExtensions } from '../../src/infra/db/open-database.js';
import { createLocalEventBus } from '../../src/infra/events/event-bus.js';
import { createLogger } from '../../src/infra/logger.js';
import { createMailTransport } from '../../src/infra/mail/mail-transport.js';
import { createSecretBox } from '../../src/infra/secret-box.js';
import { pgliteTemplate } from '../support/databases.js';
import { graphqlClient } from '../support/graphql.js';
import type { TestPodtext } from '../support/podtext.js';
import { EpisodesWithShowQuery, ShowWithEpisodesQuery } from '../graphql/operations.js';
import { dailyEpisodes, insertEpisodes, insertShows } from './catalog-fixtures.js';

// The real services and HTTP app over a Prisma client that reports every SQL
// statement it sends, so the test can count round trips per GraphQL operation.
let lite: PGlite;
let prisma: PrismaClient<'query'>;
let http: HttpApp;
let services: ReturnType<typeof createServices>;
let dir: string;
let key: string;
let statements: string[] = [];
let gql: ReturnType<typeof graphqlClient>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-querycount-'));
  lite = await PGlite.create({ loadDataDir: await pgliteTemplate(), extensions: pgliteExtensions });
  prisma = new PrismaClient({ adapter: new PrismaPGlite(lite), log: [{ emit: 'event', level: 'query' }] });
  prisma.$on('query', (e) => statements.push(e.query));
  const log = createLogger('silent');
  services = createServices({
    db: prisma as unknown as PrismaClient,
    bus: createLocalEventBus(),
    box: createSecretBox('query-count-test-secret-0123456789abcdef'),
    mail: createMailTransport({ from: 'test@example.com', outboxDir: path.join(dir, 'outbox'), log }),
    log,
    siteUrl: 'http://podtext.test',
  });
  http = createHttpApp(services, { siteUrl: 'http://podtext.test', production: false });
  const accountId = randomUUID();
  key = await inTransaction(services.db, async (tx) => {
    await tx.account.create({ data: { id: accountId, email: 'counter@example.com', plan: 'free', credits: 0, cycleStartedAt: new Date() } });
    return services.keys.issue(tx, accountId);
  });
  await insertShows(services.db, [{ id: 1, title: 'Counted Show', author: 'Someone' }]);
  await insertEpisodes(services.db, 1, dailyEpisodes('counted', 40));
  gql = graphqlClient({ request: (p: string, init?: RequestInit) => http.app.request(p, init) } as TestPodtext);
  // Warm the key cache and the request meter, so only the operation's own statements are counted.
  await gql(EpisodesWithShowQuery, { feedId: 1, first: 1 }, key);
});

afterAll(async () => {
  await services?.metering.flush().catch(() => undefined);
  services?.metering.stop();
  await prisma?.$disconnect();
  await lite?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Statements sent for one operation, leaving out the request meter's own bookkeeping. */
async function countStatements(run: () => Promise<unknown>): Promise<string[]> {
  statements = [];
  await run();
  return statements.filter((s) => /"episodes"|"shows"/.test(s));
}

describe('GraphQL loads lists without N+1 queries', () => {
  it('20 episodes with their show: at most 3 statements', async () => {
    let titles: string[] = [];
    const sent = await countStatements(async () => {
      const { data } = await gql(EpisodesWithShowQuery, { feedId: 1, first: 20 }, key);
      titles = data?.episodes.nodes.map((n) => n.show.title) ?? [];
    });
    expect(titles).toEqual(Array(20).fill('Counted Show'));
    expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(3);
    // One statement for the page of episodes, however many there are.
    expect(sent.filter((s) => /^SELECT "public"\."episodes"\./.test(s)).length).toBe(1);
  });

  it('a show with 20 of its episodes, each naming the show again: at most 3 statements', async () => {
    let feedIds: number[] = [];
    const sent = await countStatements(async () => {
      const { data } = await gql(ShowWithEpisodesQuery, { feedId: 1, first: 20 }, key);
      feedIds = data?.show.episodes.map((e) => e.show.feedId) ?? [];
    });
    expect(feedIds).toEqual(Array(20).fill(1));
    expect(sent.length, sent.join('\n')).toBeLessThanOrEqual(3);
  });
});
