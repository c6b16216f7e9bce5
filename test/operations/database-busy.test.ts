import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runCatalogCommand } from '../../src/cli/catalog-commands.js';
import { loadConfig } from '../../src/config.js';
import { MIGRATION_LOCK } from '../../src/infra/db/migrate.js';
import { freshPostgresDatabase, hasPostgres } from '../support/databases.js';
import { TEST_SECRET_KEY, startTestPodtext } from '../support/podtext.js';
import { transcriptIdFor } from '../../src/core/transcript-id.js';
import { SHORT_PASSAGE } from '../audio/passages.js';
import { newGuid, startAudioServer } from '../jobs/support/audio-server.js';
import { jobDone, postRequest } from '../jobs/support/jobs-api.js';
import { spokenMp3 } from '../jobs/support/spoken.js';
import { waitFor } from '../jobs/support/wait.js';
import { spawnWorker } from '../jobs/support/worker-child.js';

/** Holds `lock` on `table` from another session until the returned function is called. */
async function holdLock(url: string, table: string, lock = 'ACCESS EXCLUSIVE'): Promise<() => Promise<void>> {
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  await other.query('BEGIN');
  await other.query(`LOCK TABLE ${table} IN ${lock} MODE`);
  return async () => {
    await other.query('COMMIT');
    await other.end();
  };
}

// A migration, a long report or an operator's LOCK TABLE holds a table: calls
// that need it must not hang for as long and take every pooled connection.
describe.skipIf(!hasPostgres())('calls while another session holds a lock they need', () => {
  it('answer 503 "busy" with Retry-After within the statement limit, /readyz says busy (not unreachable), and the pool recovers', async () => {
    const t = await startTestPodtext({ postgres: true, env: { DATABASE_STATEMENT_TIMEOUT: '1' } });
    try {
      const user = await t.account();
      expect((await t.api('GET', '/charts', { key: user.key })).status).toBe(200);
      const release = await holdLock(t.podtext.config.databaseUrl!, 'chart_genres');
      let released = false;
      try {
        const started = Date.now();
        // More calls than the pool has connections (10): some queue for one.
        const calls = Array.from({ length: 12 }, () => t.api('GET', '/charts', { key: user.key }));
        await new Promise((resolve) => setTimeout(resolve, 300));
        const ready = await t.request('/readyz');
        expect(ready.status).toBe(503);
        const readyBody = (await ready.json()) as { problems: string[] };
        expect(readyBody.problems).toEqual([expect.stringMatching(/^database: busy: /)]);
        for (const res of await Promise.all(calls)) {
          expect(res.status).toBe(503);
          expect(res.headers.get('retry-after')).toBe('5');
          const body = (await res.json()) as { error: { code: string; message: string } };
          expect(body.error).toEqual({ code: 'unavailable', message: 'The database is too busy to answer right now; try again in 5 seconds.' });
        }
        // Two rounds of the one-second limit at most, not the lock's whole length.
        expect(Date.now() - started).toBeLessThan(5_000);
        // GraphQL over HTTP says the same.
        const gql = await t.gql('{ charts { chart { appleId } } }', {}, user.key);
        expect(gql.status).toBe(503);
        expect(gql.body.errors?.[0]).toMatchObject({ message: expect.stringMatching(/too busy/), extensions: { code: 'unavailable' } });
        // The website's home page (the charts) too, with its own page.
        const page = await t.request('/');
        expect(page.status).toBe(503);
        expect(page.headers.get('retry-after')).toBe('5');
        expect(await page.text()).toMatch(/too busy to answer/);
        await release();
        released = true;
      } finally {
        if (!released) await release();
      }
      // Every connection is back: as many calls as the pool holds, and more, all answered.
      const after = await Promise.all(Array.from({ length: 12 }, () => t.api('GET', '/charts', { key: user.key })));
      expect(after.map((r) => r.status)).toEqual(Array(12).fill(200));
      expect((await t.request('/readyz')).status).toBe(200);
    } finally {
      await t.close();
    }
  }, 60_000);
});

describe.skipIf(!hasPostgres())('an import while the tables it writes are held longer than the statement limit', () => {
  it('waits for the lock and completes: admin commands run without the limit', async () => {
    const db = await freshPostgresDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-busy-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir, DATABASE_URL: db.url, LOG_LEVEL: 'silent', SECRET_KEY: TEST_SECRET_KEY, DATABASE_STATEMENT_TIMEOUT: '0.5' });
      // Readers may go on; the import's reads and writes wait until the other session commits.
      const release = await holdLock(db.url, 'shows', 'EXCLUSIVE');
      const imported = runCatalogCommand(config, 'import', ['podcastindex', 'test/fixtures/podcastindex/newsfeeds-sample-1000rows.csv']);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      await release();
      expect(await imported).toBe(0);
      const check = new pg.Client({ connectionString: db.url });
      await check.connect();
      const { rows } = await check.query<{ n: string }>(`SELECT count(*) AS n FROM shows WHERE source = 'podcastindex'`);
      await check.end();
      expect(Number(rows[0]!.n)).toBe(1000);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
      await db.drop();
    }
  }, 120_000);
});

describe.skipIf(!hasPostgres())('a process starting while another one migrates for longer than the statement limit', () => {
  it('waits its turn and starts, and its calls keep the limit afterwards', async () => {
    const db = await freshPostgresDatabase();
    const other = new pg.Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const starting = startTestPodtext({ databaseUrl: db.url, env: { DATABASE_STATEMENT_TIMEOUT: '0.5' } });
      // Past the limit, and past the further 10 s after which a silent server counts as gone.
      await new Promise((resolve) => setTimeout(resolve, 11_500));
      await other.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
      const t = await starting;
      try {
        // The migrating session went back to the pool with the pool's own limit.
        const limits = await Promise.all(Array.from({ length: 10 }, () => t.podtext.db.sql.query<{ statement_timeout: string }>('SHOW statement_timeout')));
        expect(new Set(limits.map((rows) => rows[0]!.statement_timeout))).toEqual(new Set(['500ms']));
        expect((await t.request('/readyz')).status).toBe(200);
      } finally {
        await t.close();
      }
    } finally {
      await other.end();
      await db.drop();
    }
  }, 60_000);
});

describe.skipIf(!hasPostgres())('a transcription finished while the table it is stored in is held past the statement limit', () => {
  it('is kept by the worker and stored once the lock is released: recognised once, charged once', async () => {
    const audio = await startAudioServer();
    audio.file('/spoken.mp3', await spokenMp3(SHORT_PASSAGE));
    // The API process runs no workers; a ROLE=worker process with a one-second limit does the work.
    const t = await startTestPodtext({ postgres: true, env: { OUTBOUND_ALLOW: audio.endpoint, WORKERS: '0' } });
    const url = t.podtext.config.databaseUrl!;
    const worker = await spawnWorker({ databaseUrl: url, outboundAllow: audio.endpoint, extra: { DATABASE_STATEMENT_TIMEOUT: '1' } });
    try {
      const a = await t.account({ credits: 5 });
      const guid = newGuid('busy');
      const created = await postRequest(t, a.key, { episodes: [{ guid, url: audio.url('/spoken.mp3') }] });
      expect(created.status).toBe(200);
      const task = () => t.podtext.services.db.transcriptionTask.findFirstOrThrow({ where: { transcriptId: transcriptIdFor(guid) } });
      await waitFor(async () => ((await task()).stage === 'recognise' ? true : undefined), 60_000, 'recognition', 10);
      // Readers go on; the worker's write of the finished transcript waits, and is cancelled after a second.
      const release = await holdLock(url, 'transcripts', 'EXCLUSIVE');
      try {
        await waitFor(() => worker.output().includes('keeping the result'), 60_000, () => `the worker to keep its result (log: ${worker.output().slice(-1500)})`, 100);
        await new Promise((resolve) => setTimeout(resolve, 2_000));
      } finally {
        await release();
      }
      const job = await jobDone(t, a.key, created.body.job.id, 60_000);
      expect(job).toMatchObject({ status: 'done', done: 1, credits_refunded: 0 });
      await waitFor(() => worker.output().includes('result stored once the database answered again'), 10_000, 'the worker to say it stored the result', 100);
      expect(worker.output()).toMatch(/database busy; keeping the result/);
      // Stored by the first attempt: nothing recognised twice, nothing left to a lease running out.
      expect(await task()).toMatchObject({ status: 'done', attempt: 1, failures: 0 });
      expect((await (await t.api('GET', '/me', { key: a.key })).json()) as { credits: number }).toMatchObject({ credits: 4 });
    } finally {
      await worker.dispose();
      await t.close();
      await audio.close();
    }
  }, 180_000);
});
