import { afterAll, beforeAll } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type BootOverrides, type Podtext, boot } from '../../src/boot.js';
import { loadConfig } from '../../src/config.js';
import * as ledger from '../../src/core/ledger.js';
import type { PlanName } from '../../src/core/pricing.js';
import { inTransaction } from '../../src/core/transaction.js';
import { freshPostgresDatabase, pgliteTemplate } from './databases.js';

export interface TestAccount {
  accountId: string;
  email: string;
  key: string;
}

export interface TestPodtext {
  podtext: Podtext;
  dataDir: string;
  /** In-process request through the whole HTTP app (no socket). */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  /** A REST call under /api/v1 with an optional key and JSON body. */
  api(method: string, pathname: string, options?: { key?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
  /** A GraphQL operation over HTTP, as a client would send it. */
  gql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, key?: string): Promise<{ status: number; headers: Headers; body: { data?: T; errors?: { message: string; extensions?: { code?: string } }[] } }>;
  /** A fresh account with a key, `credits` and `plan`. */
  account(options?: { credits?: number; plan?: PlanName; email?: string }): Promise<TestAccount>;
  close(): Promise<void>;
}

export interface StartOptions extends BootOverrides {
  env?: Record<string, string>;
  /** Run on a fresh PostgreSQL database (needs TEST_DATABASE_URL). */
  postgres?: boolean;
  /** Use this PostgreSQL URL (shared by several instances in one test). */
  databaseUrl?: string;
  /** Reuse this data directory (a restart of the same instance). */
  dataDir?: string;
}

/** The SECRET_KEY test processes run with (what seals keys and mail bodies at rest). */
export const TEST_SECRET_KEY = 'test-secret-key-that-is-long-enough-0123456789';

/** Boots a real Podtext on a fresh database: PGlite from the migrated template, or PostgreSQL. */
export async function startTestPodtext(options: StartOptions = {}): Promise<TestPodtext> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'podtext-test-')));
  let dropDb: (() => Promise<void>) | null = null;
  let databaseUrl = options.databaseUrl;
  if (!databaseUrl && options.postgres) {
    const fresh = await freshPostgresDatabase();
    databaseUrl = fresh.url;
    dropDb = fresh.drop;
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    SITE_URL: 'http://podtext.test',
    LOG_LEVEL: 'silent',
    SECRET_KEY: TEST_SECRET_KEY,
    // Apple is not reachable from tests; the chart-refresh test points it at a local server.
    APPLE_CHARTS_URL: 'off',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });
  const podtext = await boot(config, {
    inMemory: !databaseUrl,
    pgliteTemplate: databaseUrl ? undefined : await pgliteTemplate(),
    ...options,
  });
  const request = async (pathname: string, init?: RequestInit) => podtext.http.app.request(pathname, init);

  return {
    podtext,
    dataDir,
    request,
    api(method, pathname, opts = {}) {
      const headers: Record<string, string> = { ...opts.headers };
      if (opts.key) headers.authorization = `Bearer ${opts.key}`;
      let body: string | undefined;
      if (opts.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      }
      return request(`/api/v1${pathname}`, { method, headers, body });
    },
    async gql(query, variables, key) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (key) headers.authorization = `Bearer ${key}`;
      const res = await request('/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
      return { status: res.status, headers: res.headers, body: (await res.json()) as never };
    },
    async account({ credits = 10, plan = 'free', email } = {}) {
      const accountId = randomUUID();
      const address = email ?? `user-${accountId.slice(0, 8)}@example.com`;
      const { keys, db, clock } = podtext.services;
      const key = await inTransaction(db, async (tx) => {
        await tx.account.create({ data: { id: accountId, email: address, plan, credits: 0, cycleStartedAt: clock.now() } });
        const k = await keys.issue(tx, accountId);
        if (credits > 0) await ledger.grant(tx, accountId, credits, `test-grant:${accountId}`, 'Test credits');
        return k;
      });
      return { accountId, email: address, key };
    },
    async close() {
      await podtext.stop();
      if (dropDb) await dropDb();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Two Podtexts on one fresh PostgreSQL database, as two processes would be:
 * each with its own caches, event bus and meter. Call inside a `describe`;
 * `a` and `b` are there from its `beforeAll` on.
 */
export function twoProcessesOnPostgres(): { a: TestPodtext; b: TestPodtext } {
  const pair = {} as { a: TestPodtext; b: TestPodtext };
  beforeAll(async () => {
    pair.a = await startTestPodtext({ postgres: true });
    pair.b = await startTestPodtext({ databaseUrl: pair.a.podtext.config.databaseUrl! });
  });
  afterAll(async () => {
    await pair.b?.close();
    await pair.a?.close();
  });
  return pair;
}
