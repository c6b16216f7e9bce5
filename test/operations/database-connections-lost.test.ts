import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventBus, type PodtextEvent, createPgEventBus } from '../../src/infra/events/event-bus.js';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { newGuid, startAudioServer } from '../jobs/support/audio-server.js';
import { jobDone, postRequest } from '../jobs/support/jobs-api.js';
import { spokenMp3 } from '../jobs/support/spoken.js';
import { waitFor } from '../jobs/support/wait.js';
import { spawnWorker } from '../jobs/support/worker-child.js';
import { freshPostgresDatabase, hasPostgres } from '../support/databases.js';
import type { TestPodtext } from '../support/podtext.js';
import { startResettingProxy } from '../support/resetting-proxy.js';

// A database restart, a failover or an operator's pg_terminate_backend ends the
// bus's connections: the process must go on, and hear the other processes again.
describe.skipIf(!hasPostgres())('the event bus when PostgreSQL ends its connections', () => {
  let db: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let a: EventBus;
  let b: EventBus;
  const heardByA: PodtextEvent[] = [];

  beforeAll(async () => {
    db = await freshPostgresDatabase();
    [a, b] = await Promise.all([createPgEventBus(db.url), createPgEventBus(db.url)]);
    a.subscribe((e) => heardByA.push(e));
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  async function terminate(which: 'LISTEN' | 'SELECT pg_notify'): Promise<number> {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      const r = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE $1`,
        [`${which}%`],
      );
      return r.rowCount ?? 0;
    } finally {
      await admin.end();
    }
  }

  const heard = (id: string) => heardByA.some((e) => e.type === 'account.changed' && e.accountId === id);

  it('survives losing its LISTEN and sending connections, listens again, and tells its caches to start over', async () => {
    await b.publish({ type: 'account.changed', accountId: 'before' });
    await expect.poll(() => heard('before')).toBe(true);
    expect(await terminate('SELECT pg_notify')).toBeGreaterThan(0);
    expect(await terminate('LISTEN')).toBeGreaterThan(0);
    await expect.poll(() => heardByA.some((e) => e.type === 'bus.reconnected'), { timeout: 10_000 }).toBe(true);
    // Events from the other process arrive again, and this one can still publish.
    await b.publish({ type: 'account.changed', accountId: 'after' });
    await expect.poll(() => heard('after'), { timeout: 5_000 }).toBe(true);
    await a.publish({ type: 'transcript.stored', transcriptId: '0123456789abcdef' });
  });

  it("ignores what others NOTIFY on its channel (not JSON, not Podtext's shape) and goes on hearing the other processes", async () => {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    try {
      for (const payload of ['not json', 'null', '42', '{"o":"x","e":null}', '{"o":"x","e":{"type":"nonsense"}}', '{"e":{"type":"account.changed"}}', '{"o":"x","ack":7}']) {
        await admin.query(`SELECT pg_notify('podtext_events', $1)`, [payload]);
      }
    } finally {
      await admin.end();
    }
    await b.publish({ type: 'account.changed', accountId: 'after-garbage' });
    await expect.poll(() => heard('after-garbage'), { timeout: 5_000 }).toBe(true);
  });
});

// A link cut without a close (a failover's vanished host, a NAT dropping an
// idle flow) carries nothing and reports nothing: the LISTEN connection would
// wait forever, and this process would never hear a key retired elsewhere.
describe.skipIf(!hasPostgres())('the event bus when its LISTEN connection goes silent', () => {
  it('notices that not even its own announcements come back, listens again once the link is back, and tells its caches to start over', async () => {
    const db = await freshPostgresDatabase();
    const proxy = await startResettingProxy(new URL(db.url));
    const heard: PodtextEvent[] = [];
    const a = await createPgEventBus(proxy.url(db.url), undefined, 200);
    const b = await createPgEventBus(db.url, undefined, 200);
    try {
      a.subscribe((e) => heard.push(e));
      await b.publish({ type: 'account.changed', accountId: 'before' });
      await expect.poll(() => heard.some((e) => e.type === 'account.changed' && e.accountId === 'before')).toBe(true);
      proxy.silent = true;
      await new Promise((r) => setTimeout(r, 1_500));
      proxy.silent = false;
      await expect.poll(() => heard.some((e) => e.type === 'bus.reconnected'), { timeout: 15_000 }).toBe(true);
      await b.publish({ type: 'account.changed', accountId: 'after' });
      await expect.poll(() => heard.some((e) => e.type === 'account.changed' && e.accountId === 'after'), { timeout: 5_000 }).toBe(true);
    } finally {
      await a.close();
      await b.close();
      await proxy.close();
      await db.drop();
    }
  });
});

/**
 * Runs `down` while PostgreSQL refuses connections to `url`'s database (its
 * sessions ended, as in a restart), then `up` once it accepts them again.
 * From the server's default database: a database cannot refuse connections to itself.
 */
async function whileRefusing(url: string, down: () => Promise<void>, up: () => Promise<void>): Promise<void> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const name = new URL(url).pathname.slice(1);
  try {
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
    await down();
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    await up();
  } finally {
    await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin.end();
  }
}

/**
 * Podtext on a fresh PostgreSQL database for `run`; both are closed after.
 * `connect` turns the database's URL into the one Podtext is given (through a proxy, say).
 */
async function onFreshPostgres(run: (t: TestPodtext, dbUrl: string) => Promise<void>, options: { env?: Record<string, string>; connect?: (url: string) => string } = {}): Promise<void> {
  const db = await freshPostgresDatabase();
  const { startTestPodtext } = await import('../support/podtext.js');
  const t = await startTestPodtext({ databaseUrl: options.connect?.(db.url) ?? db.url, env: options.env });
  try {
    await run(t, db.url);
  } finally {
    await t.close();
    await db.drop();
  }
}

describe.skipIf(!hasPostgres())('/metrics while the database refuses connections', () => {
  it('still answers with the process figures, says podtext_database_up 0, leaves the database gauges out, and recovers', async () => {
    await onFreshPostgres(async (t, dbUrl) => {
      const scrape = async () => {
        const res = await t.request('/metrics', { headers: { authorization: 'Bearer tok' } });
        return { status: res.status, text: await res.text() };
      };
      expect((await scrape()).text).toMatch(/^podtext_database_up 1$/m);
      await whileRefusing(
        dbUrl,
        async () => {
          const down = await scrape();
          expect(down.status).toBe(200);
          expect(down.text).toMatch(/^podtext_database_up 0$/m);
          expect(down.text).toMatch(/^process_resident_memory_bytes /m);
          expect(down.text).not.toMatch(/^podtext_jobs\{/m);
        },
        async () => {
          await expect.poll(async () => (await scrape()).text, { timeout: 15_000 }).toMatch(/^podtext_database_up 1$/m);
          expect((await scrape()).text).toMatch(/^podtext_jobs\{/m);
        },
      );
    }, { env: { METRICS_TOKEN: 'tok' } });
  });
});

describe.skipIf(!hasPostgres())('a key checked while the database refuses connections', () => {
  it('is not called bad: graphql-ws closes with 4500 (try again), not 4403, and the same key connects once the database is back', async () => {
    const { default: WebSocket } = await import('ws');
    await onFreshPostgres(async (t, dbUrl) => {
      const wsUrl = `${(await t.podtext.listen()).replace('http', 'ws')}/graphql`;
      // A key never used yet: no process has it cached, so the handshake reads the database.
      const a = await t.account();
      const handshake = () =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(wsUrl, 'graphql-transport-ws');
          socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${a.key}` } })));
          socket.on('message', (m) => {
            if (JSON.parse(String(m)).type === 'connection_ack') {
              socket.close();
              resolve('ack');
            }
          });
          socket.on('close', (code) => resolve(String(code)));
        });
      await whileRefusing(
        dbUrl,
        async () => expect(await handshake()).toBe('4500'),
        async () => expect.poll(handshake, { timeout: 15_000 }).toBe('ack'),
      );
    });
  });
});

describe.skipIf(!hasPostgres())('REST calls while the database refuses connections', () => {
  it('answer 503 with Retry-After and the error body (not 500, not 401), and the same calls succeed once the database is back', async () => {
    await onFreshPostgres(async (t, dbUrl) => {
      // A key never used yet (no process has it cached) and one already checked.
      const fresh = await t.account();
      const warm = await t.account();
      expect((await t.api('GET', '/me', { key: warm.key })).status).toBe(200);
      await whileRefusing(
        dbUrl,
        async () => {
          const calls = [
            { key: fresh.key, method: 'GET', path: '/me' },
            { key: warm.key, method: 'GET', path: '/search?q=history' },
            { key: undefined, method: 'POST', path: '/register/start', body: { email: 'outage@example.com' } },
          ];
          for (const { key, method, path, body } of calls) {
            const res = await t.api(method, path, { key, body });
            expect(res.status, `${method} ${path}`).toBe(503);
            expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
            expect(await res.json()).toMatchObject({ error: { code: 'unavailable', message: expect.stringMatching(/database/i) } });
          }
          // The website: its own page, with the same advice.
          const page = await t.request('/');
          expect(page.status).toBe(503);
          expect(page.headers.get('retry-after')).toBe('5');
          expect(await page.text()).toMatch(/cannot reach its database/);
          // GraphQL over HTTP says the same: the code, the status and when to retry.
          const gql = await t.gql('{ search(q: "history") { query } }', {}, warm.key);
          expect(gql.body.errors?.[0]?.extensions?.code).toBe('unavailable');
          expect(gql.status).toBe(503);
          expect(Number(gql.headers.get('retry-after'))).toBeGreaterThan(0);
        },
        async () => {
          await expect.poll(async () => (await t.api('GET', '/me', { key: fresh.key })).status, { timeout: 15_000 }).toBe(200);
          expect((await t.api('GET', '/search?q=history', { key: warm.key })).status).toBe(200);
        },
      );
    });
  });
});

describe.skipIf(!hasPostgres())('REST calls whose database connection is reset on the way', () => {
  it('answer 503 with Retry-After (a reset from the database side is not the client going away), and succeed once connections pass again', async () => {
    const proxy = await startResettingProxy(new URL(process.env.TEST_DATABASE_URL!));
    try {
      await onFreshPostgres(async (t) => {
        // A key no process has checked yet: the call must read the database.
        const fresh = await t.account();
        proxy.resetting = true;
        const res = await t.api('GET', '/me', { key: fresh.key });
        expect(res.status).toBe(503);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        expect(await res.json()).toMatchObject({ error: { code: 'unavailable' } });
        proxy.resetting = false;
        await expect.poll(async () => (await t.api('GET', '/me', { key: fresh.key })).status, { timeout: 15_000 }).toBe(200);
      }, { connect: (url) => proxy.url(url) });
    } finally {
      await proxy.close();
    }
  });
});

// A partition, or a host gone without a close: pooled connections stay open
// and nothing answers on them; TCP keepalive would notice only after minutes.
describe.skipIf(!hasPostgres())('REST calls while the database goes silent on open connections', () => {
  it('answer 503 unreachable some seconds past the statement limit, not after minutes, and succeed once it answers again', async () => {
    const proxy = await startResettingProxy(new URL(process.env.TEST_DATABASE_URL!));
    try {
      await onFreshPostgres(async (t) => {
        const user = await t.account();
        expect((await t.api('GET', '/charts', { key: user.key })).status).toBe(200);
        proxy.silent = true;
        const started = Date.now();
        // The limit is 1 s: a server that answers has cancelled the statement by then; 10 s more, and it is gone.
        let timer: NodeJS.Timeout | undefined;
        const res = await Promise.race([t.api('GET', '/charts', { key: user.key }), new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), 25_000)))]);
        clearTimeout(timer);
        expect(res, 'an answer within 25 s').not.toBeNull();
        expect(Date.now() - started).toBeLessThan(20_000);
        expect(res!.status).toBe(503);
        expect(res!.headers.get('retry-after')).toBe('5');
        expect(await res!.json()).toMatchObject({ error: { code: 'unavailable', message: expect.stringMatching(/unreachable/) } });
        proxy.silent = false;
        await expect.poll(async () => (await t.api('GET', '/charts', { key: user.key })).status, { timeout: 15_000 }).toBe(200);
      }, { connect: (url) => proxy.url(url), env: { DATABASE_STATEMENT_TIMEOUT: '1' } });
    } finally {
      proxy.silent = false;
      await proxy.close();
    }
  }, 90_000);
});

describe.skipIf(!hasPostgres())('a transcription finished while the database refuses connections', () => {
  it('is kept by the worker and stored once the database is back: recognised once, charged once', async () => {
    const audio = await startAudioServer();
    audio.file('/spoken.mp3', await spokenMp3(SHORT_PASSAGE));
    try {
      // The API process runs no workers; a ROLE=worker process does the work, as an operator runs it.
      await onFreshPostgres(async (t, dbUrl) => {
        const worker = await spawnWorker({ databaseUrl: dbUrl, outboundAllow: audio.endpoint });
        try {
          const a = await t.account({ credits: 5 });
          const guid = newGuid('outage');
          const created = await postRequest(t, a.key, { episodes: [{ guid, url: audio.url('/spoken.mp3') }] });
          expect(created.status).toBe(200);
          const task = () => t.podtext.services.db.transcriptionTask.findFirstOrThrow({ where: { transcriptId: transcriptIdFor(guid) } });
          await waitFor(async () => ((await task()).stage === 'recognise' ? true : undefined), 60_000, 'recognition', 10);
          await whileRefusing(
            dbUrl,
            // The recogniser finishes with the database gone: the worker says it keeps the result.
            async () => void (await waitFor(() => worker.output().includes('keeping the result'), 60_000, () => `the worker to keep its result (log: ${worker.output().slice(-1500)})`, 100)),
            async () => {
              const job = await jobDone(t, a.key, created.body.job.id, 60_000);
              expect(job).toMatchObject({ status: 'done', done: 1, credits_refunded: 0 });
              // Logged just after the commit the API already shows.
              await waitFor(() => worker.output().includes('result stored once the database answered again'), 10_000, 'the worker to say it stored the result', 100);
            },
          );
          // The outage is logged as warnings, once a minute per loop, not as an error at every tick.
          const errors = worker.output().split('\n').filter((l) => l.startsWith('{') && (JSON.parse(l) as { level: number }).level >= 50);
          expect(errors).toEqual([]);
          // Stored by the first attempt: nothing recognised twice, nothing left to a lease running out.
          expect(await task()).toMatchObject({ status: 'done', attempt: 1, failures: 0 });
          expect((await (await t.api('GET', '/me', { key: a.key })).json()) as { credits: number }).toMatchObject({ credits: 4 });
        } finally {
          await worker.dispose();
        }
      }, { env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '0' } });
    } finally {
      await audio.close();
    }
  }, 180_000);
});
