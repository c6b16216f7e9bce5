import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { boot } from '../src/boot.js';
import { loadConfig } from '../src/config.js';
import { inTransaction } from '../src/core/transaction.js';
import type { JobDonePayload } from '../src/core/webhooks/delivery-log.js';
import { fmt } from './bench-server.js';

/** A throwaway CA (dir/ca.pem) and a certificate for 127.0.0.1 (dir/server.pem, dir/server.key). */
async function certificates(dir: string): Promise<{ ca: string; key: string; cert: string }> {
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '1', '-subj', '/CN=Bench CA');
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  await writeFile(path.join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '1', '-extfile', 'san.ext');
  const read = (f: string) => readFile(path.join(dir, f), 'utf8');
  return { ca: await read('ca.pem'), key: await read('server.key'), cert: await read('server.pem') };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function payload(jobId: string): JobDonePayload {
  const episodes = Array.from({ length: 3 }, (_, i) => ({
    transcript_id: `00000000000000a${i}`, title: `Episode ${i}`, status: 'ready' as const,
    url: `https://podtext.example/t/00000000000000a${i}`, transcript_url: `https://podtext.example/api/v1/transcripts/00000000000000a${i}`,
  }));
  return { id: jobId, status: 'done', poll_url: `https://podtext.example/api/v1/jobs/${jobId}`, episodes, done: 3, total: 3 };
}

interface Measured {
  latencies: number[];
  rate: number;
  bareRate: number;
  lanes: number;
  backlog: number;
}

/**
 * One run against one database (`env` adds DATABASE_URL for PostgreSQL), in a
 * process started with NODE_EXTRA_CA_CERTS=dir/ca.pem: the documented way to
 * trust a receiver's private CA, and the one a deployment would use.
 */
async function measure(dir: string, env: Record<string, string>): Promise<Measured> {
  const tls = { key: await readFile(path.join(dir, 'server.key'), 'utf8'), cert: await readFile(path.join(dir, 'server.pem'), 'utf8') };
  const arrivals = new Map<string, number>();
  const receiver = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    req.resume();
    req.on('end', () => {
      const job = req.headers['x-service-job'];
      if (typeof job === 'string') arrivals.set(job, performance.now());
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as AddressInfo).port;
  const hook = `https://127.0.0.1:${port}/hook`;
  const start = () =>
    boot(loadConfig({ PORT: '0', LOG_LEVEL: 'warn', OUTBOUND_ALLOW: `127.0.0.1:${port}`, ...env }));
  let podtext = await start();
  let running = true;
  try {
    const { db, webhooks, bus, clock } = podtext.services;
    const accountId = randomUUID();
    await db.account.create({ data: { id: accountId, email: `${accountId}@bench.test`, cycleStartedAt: clock.now() } });
    await webhooks.getSecret({ accountId, keyId: randomUUID(), plan: 'free' });

    // Latency through the running loop, one job at a time, woken as the jobs module wakes it.
    podtext.startWorkers();
    const latencies: number[] = [];
    for (let i = 0; i < 220; i++) {
      const jobId = randomUUID();
      const started = performance.now();
      await inTransaction(db, (tx) => webhooks.enqueueJobDone(tx, { jobId, accountId, webhookUrl: hook, payload: payload(jobId) }));
      await bus.publish({ type: 'job.updated', accountId, jobId, status: 'done' });
      while (!arrivals.has(jobId)) await new Promise((r) => setImmediate(r));
      if (i >= 20) latencies.push(arrivals.get(jobId)! - started);
      await new Promise((r) => setTimeout(r, 5));
    }
    latencies.sort((a, b) => a - b);
    // Let the last results be recorded before the loop stops.
    await new Promise((r) => setTimeout(r, 200));
    running = false;
    await podtext.stop();

    // Throughput: a backlog drained by one process (workers not started, so nothing else sends).
    podtext = await start();
    running = true;
    const s = podtext.services;
    const backlog = 2000;
    for (let i = 0; i < backlog; i++) {
      const jobId = randomUUID();
      await inTransaction(s.db, (tx) => s.webhooks.enqueueJobDone(tx, { jobId, accountId, webhookUrl: hook, payload: payload(jobId) }));
    }
    const lanes = s.webhooks.settings.concurrency;
    const drainStarted = performance.now();
    const sent = await s.webhooks.drain();
    const rate = sent / ((performance.now() - drainStarted) / 1000);
    if (sent !== backlog) throw new Error(`drained ${sent} of ${backlog}`);

    // Baseline: the same POSTs, same lanes and a fresh TLS connection each, with nothing around them.
    const body = JSON.stringify({ event: 'job.done', job: payload(randomUUID()), sent_at: new Date().toISOString() });
    const post = () =>
      new Promise<void>((resolve, reject) => {
        const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
        const req = https.request(hook, { method: 'POST', agent: false, headers }, (res) => {
          res.resume();
          res.on('end', resolve);
        });
        req.on('error', reject);
        req.end(body);
      });
    let posted = 0;
    const bareStarted = performance.now();
    await Promise.all(Array.from({ length: lanes }, async () => {
      while (posted < backlog) {
        posted++;
        await post();
      }
    }));
    const bareRate = backlog / ((performance.now() - bareStarted) / 1000);
    return { latencies, rate, bareRate, lanes, backlog };
  } finally {
    if (running) await podtext.stop();
    await new Promise<void>((r) => receiver.close(() => r()));
  }
}

/** Runs `measure` in a child process that trusts the CA in `dir`. */
function measureInChild(dir: string, env: Record<string, string>): Promise<Measured> {
  const script = fileURLToPath(import.meta.url);
  const child = spawn(process.execPath, ['--import', 'tsx', script, '--measure', dir, JSON.stringify(env)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, 'ca.pem') },
  });
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', (line) => resolve(JSON.parse(line) as Measured));
    child.once('exit', (code) => reject(new Error(`webhook bench child exited with ${code}`)));
  });
}

/** A scratch database on the PostgreSQL server at `url`, dropped by `drop`. */
async function scratchPostgres(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `podtext_bench_${randomUUID().slice(0, 8)}`;
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * Webhook delivery to a local HTTPS receiver (private CA, a fresh TLS
 * connection per request, as the guarded client makes them), on PGlite and,
 * given `postgresUrl`, on PostgreSQL too.
 * - latency: from the job's transaction starting to the receiver reading the
 *   request, 200 jobs one after another through the running delivery loop.
 *   Goal: p99 ≤ 1 s.
 * - throughput: a backlog of 2,000 drained by one process's worker, against a
 *   bare POST loop with the same lanes and connection policy.
 */
export async function runWebhooksBench(options: { postgresUrl?: string } = {}): Promise<string[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-bench-webhooks-'));
  const runs: [string, Measured][] = [];
  try {
    await certificates(dir);
    runs.push(['PGlite', await measureInChild(dir, { DATA_DIR: path.join(dir, 'pglite-run') })]);
    if (options.postgresUrl) {
      const db = await scratchPostgres(options.postgresUrl);
      try {
        runs.push(['PostgreSQL', await measureInChild(dir, { DATA_DIR: path.join(dir, 'pg-run'), DATABASE_URL: db.url })]);
      } finally {
        await db.drop();
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const lines = [
    '## Webhook delivery (HTTPS receiver on 127.0.0.1)',
    '| database | job done → received p50 ms | p99 ms | deliveries/s, one worker | bare POST loop/s | ratio |',
    '|---|---|---|---|---|---|',
  ];
  for (const [name, m] of runs) {
    lines.push(`| ${name} | ${fmt(percentile(m.latencies, 50))} | ${fmt(percentile(m.latencies, 99))} | ${fmt(m.rate, 0)} | ${fmt(m.bareRate, 0)} | ${fmt((m.rate / m.bareRate) * 100)}% |`);
  }
  const worst = Math.max(...runs.map(([, m]) => percentile(m.latencies, 99)));
  lines.push('', `${runs[0]![1].latencies.length} jobs for latency, a backlog of ${runs[0]![1].backlog} with ${runs[0]![1].lanes} lanes for throughput; worst p99 ${fmt(worst)} ms (goal ≤ 1000 ms)`);
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv[2] === '--measure') {
    const measured = await measure(process.argv[3]!, JSON.parse(process.argv[4]!) as Record<string, string>);
    process.stdout.write(`${JSON.stringify(measured)}\n`);
    process.exit(0);
  }
  // `tsx bench/webhooks.ts [postgres://…]`: PGlite, and PostgreSQL when a server URL is given.
  console.log((await runWebhooksBench({ postgresUrl: process.argv[2] })).join('\n'));
}
