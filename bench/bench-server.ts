import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { type Podtext, boot } from '../src/boot.js';
import { adminConfig } from '../src/cli/admin-config.js';
import { loadConfig } from '../src/config.js';
import { inTransaction } from '../src/core/transaction.js';
import * as ledger from '../src/core/ledger.js';

/**
 * A Podtext on PGlite in a scratch directory, listening on a free port.
 * `seeding`: booted as an admin command is, without the statement time limit
 * (a bulk seed rebuilds its indexes in one statement each).
 */
export async function startBenchPodtext(env: Record<string, string> = {}, options: { seeding?: boolean } = {}): Promise<{ podtext: Podtext; url: string; close(): Promise<void> }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-bench-'));
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', ...env });
  const podtext = await boot(options.seeding ? adminConfig(config) : config);
  const url = await podtext.listen();
  return {
    podtext,
    url,
    async close() {
      await podtext.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** An account on `plan` with a key, made through the core. */
export async function benchAccount(podtext: Podtext, plan: 'business' | 'free' = 'business', credits = 100): Promise<string> {
  const { db, keys, clock } = podtext.services;
  const id = crypto.randomUUID();
  return inTransaction(db, async (tx) => {
    await tx.account.create({ data: { id, email: `${id}@bench.test`, plan, cycleStartedAt: clock.now() } });
    const key = await keys.issue(tx, id);
    await ledger.grant(tx, id, credits, `bench:${id}`, 'bench');
    return key;
  });
}

/** A bare node:http server answering every request with the same bytes: the baseline. */
export async function startBareServer(body: Buffer | string, headers: Record<string, string>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
}

/**
 * Makes one call with each key, so that every key's account is warm before a
 * timed run. A timed warm-up alone is not enough: on a busy machine it may
 * not reach every key of a pool, and each cold key costs database reads.
 */
export async function warmKeys(url: string, keys: readonly string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += 10) {
    await Promise.all(keys.slice(i, i + 10).map((k) => fetch(url, { headers: { authorization: `Bearer ${k}` } }).then((r) => r.arrayBuffer())));
  }
}

/** autocannon against one URL; `rate` caps requests per second overall. */
export async function load(url: string, options: { headers?: Record<string, string>; keys?: string[]; rotateKeys?: string[]; amount?: number; duration?: number; connections?: number; rate?: number }): Promise<LoadResult> {
  const r = await autocannon({
    url,
    headers: options.headers,
    // Each connection cycles through the keys.
    ...(options.keys ? { requests: options.keys.map((k) => ({ method: 'GET' as const, headers: { authorization: `Bearer ${k}` } })) } : {}),
    // All connections together take the next key in turn: every key is used equally often.
    ...(options.rotateKeys ? { requests: [{ method: 'GET' as const, setupRequest: rotating(options.rotateKeys) }] } : {}),
    connections: options.connections ?? 10,
    ...(options.amount ? { amount: options.amount } : { duration: options.duration ?? 10 }),
    ...(options.rate ? { overallRate: options.rate } : {}),
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total, errors: r.errors, non2xx: r.non2xx };
}

function rotating(keys: string[]) {
  let next = 0;
  return (req: autocannon.Request): autocannon.Request => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${keys[next++ % keys.length]}` } });
}

export function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}
