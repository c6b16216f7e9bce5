import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshPostgresDatabase, hasPostgres } from '../support/databases.js';
import { type StartOptions, startTestPodtext } from '../support/podtext.js';
import { type Receiver, makeCertificates, startReceiver } from './support/receiver.js';

const child = fileURLToPath(new URL('./support/enqueue-and-hang.ts', import.meta.url));
const baseEnv = { PORT: '0', SITE_URL: 'http://podtext.test', LOG_LEVEL: 'silent', SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789' };

let rx: Receiver;
let ca: string;
beforeAll(async () => {
  const tls = await makeCertificates();
  ca = tls.ca;
  rx = await startReceiver(tls);
});
afterAll(() => rx.close());

/** Runs the child until its delivery row is committed, then SIGKILLs it. */
async function killAfterCommit(env: Record<string, string>): Promise<{ jobId: string; deliveryId: string }> {
  const args = JSON.stringify({ env, webhookUrl: rx.url('/hook'), template: env.DATABASE_URL ? undefined : inject('pgliteTemplate') });
  const proc = spawn(process.execPath, ['--import', 'tsx', child, args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    proc.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.split('\n')[0]!);
    });
    proc.on('exit', (code) => reject(new Error(`child exited with ${code} before committing`)));
  });
  const exited = new Promise((r) => proc.on('exit', r));
  proc.kill('SIGKILL');
  await exited;
  return JSON.parse(line) as { jobId: string; deliveryId: string };
}

/** Boots Podtext again on the same data, runs its workers, and checks the one delivery. */
async function restartAndDeliver(options: StartOptions, killed: { jobId: string; deliveryId: string }): Promise<void> {
  const before = rx.received.length;
  const t = await startTestPodtext({ ...options, env: { OUTBOUND_ALLOW: rx.endpoint }, webhooks: { ca } });
  try {
    expect(rx.received.length).toBe(before);
    t.podtext.startWorkers();
    await rx.waitFor(before + 1);
    // Long enough for a second send, if there were going to be one.
    await new Promise((r) => setTimeout(r, 1500));
    const got = rx.received.slice(before);
    expect(got).toHaveLength(1);
    expect(got[0]!.headers['x-service-delivery']).toBe(killed.deliveryId);
    expect(got[0]!.headers['x-service-job']).toBe(killed.jobId);
    const view = (await t.podtext.services.webhooks.webhookDelivery(killed.jobId))!;
    expect(view.state).toBe('delivered');
    expect(view.attempts).toHaveLength(1);
  } finally {
    await t.close();
  }
}

describe('killed between the job turning done and the delivery', () => {
  it('PGlite: delivered once after Podtext starts again on the same data directory', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-restart-'));
    try {
      const killed = await killAfterCommit({ ...baseEnv, DATA_DIR: dataDir });
      await restartAndDeliver({ dataDir, inMemory: false, pgliteTemplate: undefined }, killed);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it.skipIf(!hasPostgres())('PostgreSQL: delivered once after Podtext starts again on the same database', async () => {
    const db = await freshPostgresDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'podtext-restart-'));
    try {
      const killed = await killAfterCommit({ ...baseEnv, DATA_DIR: dataDir, DATABASE_URL: db.url });
      await restartAndDeliver({ databaseUrl: db.url, dataDir }, killed);
    } finally {
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
