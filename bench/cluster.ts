// `npm run bench -- cluster`: two API processes and two workers of the built
// bundle on one PostgreSQL under mixed traffic, against one API process in the
// same run; a key's last N requests spread over both; then one API process
// SIGTERMed mid-run under clients that retry on a refused connection.
// Needs BENCH_DATABASE_URL or TEST_DATABASE_URL (a role that may create
// databases); BENCH_CLUSTER_SECONDS shortens each phase (default 60).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { utcDay } from '../src/core/clock.js';
import { seedSynthetic } from '../src/core/catalog/imports/seed-synthetic.js';
import * as ledger from '../src/core/ledger.js';
import { plans } from '../src/core/pricing.js';
import { inTransaction } from '../src/core/transaction.js';
import { saveTranscript } from '../src/core/transcripts/transcript-store.js';
import { unlockInTransaction } from '../src/core/unlock.js';
import { SHORT_PASSAGE } from '../test/audio/passages.js';
import { type AudioServer, newGuid, startAudioServer } from '../test/jobs/support/audio-server.js';
import { type SpeechApi, startSpeechApi } from '../test/jobs/support/speech-api.js';
import { spokenMp3 } from '../test/jobs/support/spoken.js';
import { sampleDoc } from '../test/support/catalog.js';
import { benchAccount, fmt, startBenchPodtext } from './bench-server.js';

const SECONDS = Number(process.env.BENCH_CLUSTER_SECONDS ?? 60);
/** Requests left on the key whose allowance runs out across both processes. */
const LEFT = 200;
const KEYS = 20;
const TRANSCRIPTS = 20;
/** autocannon connections per route and API process in the two-process phase. */
const CONNECTIONS = 3;
/** Seconds between transcription requests from each requesting client. */
const REQUEST_EVERY_MS = 3000;

const bundle = fileURLToPath(new URL('../dist/podtext.mjs', import.meta.url));

interface Proc {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
  stop(): Promise<number | null>;
}

/** `node dist/podtext.mjs <command>`, ready once `ready` matches a log line. */
async function spawnBuilt(command: 'serve' | 'worker', env: Record<string, string>, ready: (line: Record<string, unknown>) => boolean): Promise<Proc> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'podtext-cluster-'));
  const child = spawn(process.execPath, [bundle, command], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', APPLE_CHARTS_URL: 'off', SECRET_KEY: 'bench-secret-key-shared-by-every-process-0123', ...env } });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => rm(dataDir, { recursive: true, force: true }));
  let url = '';
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (l) => {
      if (!l.startsWith('{')) return;
      const line = JSON.parse(l) as Record<string, unknown>;
      if (typeof line.url === 'string') url = line.url;
      if (Number(line.level) >= 50) process.stderr.write(`${command}: ${l}\n`);
      if (ready(line)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}`)));
  });
  return {
    child,
    url,
    exited,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
      return exited;
    },
  };
}

/** A fresh database on the server of `adminUrl`; dropped by the returned function. */
async function freshDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `podtext_bench_cluster_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

interface Catalog {
  keys: string[];
  spent: string;
  titles: string[];
  feedIds: string[];
  transcripts: string[];
}

/** Shows, episodes, ready transcripts unlocked for every key, and a free key with LEFT requests left today. */
async function seed(databaseUrl: string): Promise<Catalog> {
  const app = await startBenchPodtext({ DATABASE_URL: databaseUrl }, { seeding: true });
  try {
    const { db, keys: keyService, clock } = app.podtext.services;
    await seedSynthetic(db, { shows: 5000, showsWithEpisodes: 300, episodesPerShow: 5 });
    // Read already: an episode list would otherwise try the (unreachable) synthetic feed first.
    await db.$executeRawUnsafe(`UPDATE shows SET last_fetched_at = now()`);
    const shows = await db.$queryRawUnsafe<{ id: bigint; title: string }[]>(`SELECT s.id, s.title FROM shows s WHERE EXISTS (SELECT 1 FROM episodes e WHERE e.show_id = s.id) ORDER BY s.id LIMIT 300`);
    const episodes = await db.$queryRawUnsafe<{ transcript_id: string }[]>(`SELECT transcript_id FROM episodes ORDER BY transcript_id LIMIT ${TRANSCRIPTS}`);
    const transcripts = episodes.map((e) => e.transcript_id);
    await inTransaction(db, async (tx) => {
      for (const transcriptId of transcripts) await saveTranscript(tx, { transcriptId, doc: sampleDoc(), source: 'publisher' });
    });
    await db.$executeRawUnsafe(`UPDATE episodes SET transcript_status = 'ready' WHERE transcript_id = ANY($1)`, transcripts);
    const keys: string[] = [];
    for (let i = 0; i < KEYS; i++) {
      const id = crypto.randomUUID();
      keys.push(
        await inTransaction(db, async (tx) => {
          await tx.account.create({ data: { id, email: `${id}@bench.test`, plan: 'business', cycleStartedAt: clock.now() } });
          const key = await keyService.issue(tx, id);
          await ledger.grant(tx, id, 100_000, `bench:${id}`, 'bench');
          for (const t of transcripts) await unlockInTransaction(tx, id, t, '');
          return key;
        }),
      );
    }
    const spent = await benchAccount(app.podtext, 'free');
    const actor = await keyService.authenticate(spent);
    const day = utcDay(clock.now());
    await db.requestCounter.create({ data: { accountId: actor.accountId, day: new Date(`${day}T00:00:00Z`), count: plans.free.dailyRequests - LEFT } });
    return { keys, spent, titles: shows.map((s) => s.title), feedIds: shows.map((s) => String(s.id)), transcripts };
  } finally {
    await app.close();
  }
}

type Route = 'search' | 'show' | 'episodes' | 'transcript' | 'unlock';
const ROUTES: Route[] = ['search', 'show', 'episodes', 'transcript', 'unlock'];

/** The i-th request of a route: method, path and body. */
function routeRequest(route: Route, c: Catalog, i: number): { method: 'GET' | 'POST'; path: string; body?: string } {
  const pick = <T>(xs: T[]) => xs[i % xs.length]!;
  switch (route) {
    case 'search':
      return { method: 'GET', path: `/api/v1/search?q=${encodeURIComponent(pick(c.titles))}` };
    case 'show':
      return { method: 'GET', path: `/api/v1/shows/${pick(c.feedIds)}` };
    case 'episodes':
      return { method: 'GET', path: `/api/v1/shows/${pick(c.feedIds)}/episodes` };
    case 'transcript':
      return { method: 'GET', path: `/api/v1/transcripts/${pick(c.transcripts)}` };
    case 'unlock':
      return { method: 'POST', path: '/api/v1/unlock', body: JSON.stringify({ transcript: pick(c.transcripts) }) };
  }
}

interface RouteLoad {
  requests: number;
  p99: number;
  non2xx: number;
  fiveXx: number;
  errors: number;
}

/** One route against one process for `seconds`, keys and targets taken in turn. */
async function loadRoute(url: string, route: Route, c: Catalog, seconds: number, connections: number): Promise<RouteLoad> {
  let n = 0;
  const r = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (req) => {
          const i = n++;
          const { method, path: p, body } = routeRequest(route, c, i);
          return { ...req, method, path: p, body, headers: { ...req.headers, 'content-type': 'application/json', authorization: `Bearer ${c.keys[i % c.keys.length]}` } };
        },
      },
    ],
  });
  return { requests: r.requests.total, p99: r.latency.p99, non2xx: r.non2xx, fiveXx: r['5xx'], errors: r.errors };
}

/** Every route against every URL at once; per route: req/s summed, p99 the worst. */
async function mixedLoad(urls: string[], c: Catalog, seconds: number, connections: number): Promise<Map<Route, RouteLoad & { rps: number }>> {
  const runs = await Promise.all(urls.flatMap((u) => ROUTES.map(async (route) => ({ route, r: await loadRoute(u, route, c, seconds, connections) }))));
  const out = new Map<Route, RouteLoad & { rps: number }>();
  for (const route of ROUTES) {
    const rs = runs.filter((x) => x.route === route).map((x) => x.r);
    const sum = (f: (r: RouteLoad) => number) => rs.reduce((a, r) => a + f(r), 0);
    out.set(route, { requests: sum((r) => r.requests), rps: sum((r) => r.requests) / seconds, p99: Math.max(...rs.map((r) => r.p99)), non2xx: sum((r) => r.non2xx), fiveXx: sum((r) => r.fiveXx), errors: sum((r) => r.errors) });
  }
  return out;
}

/** The spent key's last LEFT requests, raced for from both processes at once. */
async function exhaust(urls: string[], c: Catalog): Promise<{ ok: number; refused: number; other: number }> {
  const runs = await Promise.all(
    urls.map((u) =>
      autocannon({ url: `${u}/api/v1/shows/${c.feedIds[0]}`, connections: 10, amount: LEFT * 2, headers: { authorization: `Bearer ${c.spent}` } }),
    ),
  );
  const ok = runs.reduce((n, r) => n + r['2xx'], 0);
  const refused = runs.reduce((n, r) => n + ((r as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats?.['429']?.count ?? 0), 0);
  return { ok, refused, other: runs.reduce((n, r) => n + r.requests.total, 0) - ok - refused };
}

/** Connection-level failures: no answer came, so a client may send the request elsewhere. */
function connectionFailure(err: unknown): string | null {
  const cause = (err as { cause?: { code?: string } }).cause;
  const code = cause?.code ?? (err as { code?: string }).code;
  return code && /ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET|EPIPE/.test(code) ? code : null;
}

interface RetryingStats {
  answered: number;
  failed: number;
  fiveXx: number;
  retries: Record<string, number>;
  jobIds: string[];
}

/**
 * Clients that send each request to a live API process and, when the
 * connection is refused (or dropped before any answer), to the next one.
 * GETs and unlocks (idempotent) retry on any connection failure; a
 * transcription request only on a refused connection, where nothing was sent.
 */
function retryingClients(urls: string[], c: Catalog, clients: number, stop: AbortSignal, stats: RetryingStats): Promise<void[]> {
  let n = 0;
  const send = async (req: { method: string; path: string; body?: string }, key: string, idempotent: boolean): Promise<Response | null> => {
    const start = n % urls.length;
    for (let attempt = 0; attempt < urls.length * 3; attempt++) {
      const url = urls[(start + attempt) % urls.length]!;
      try {
        return await fetch(`${url}${req.path}`, { method: req.method, body: req.body, headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` } });
      } catch (err) {
        const code = connectionFailure(err);
        if (!code || (!idempotent && code !== 'ECONNREFUSED')) return null;
        stats.retries[code] = (stats.retries[code] ?? 0) + 1;
      }
    }
    return null;
  };
  const count = async (res: Response | null): Promise<Response | null> => {
    if (!res) stats.failed++;
    else {
      stats.answered++;
      if (res.status >= 500) stats.fiveXx++;
    }
    return res;
  };
  const browse = async () => {
    while (!stop.aborted) {
      const i = n++;
      const route = ROUTES[i % ROUTES.length]!;
      const res = await count(await send(routeRequest(route, c, i), c.keys[i % c.keys.length]!, true));
      await res?.arrayBuffer();
    }
  };
  const request = async () => {
    while (!stop.aborted) {
      await requestOne(send, count, c, stats);
      await new Promise((r) => setTimeout(r, REQUEST_EVERY_MS));
    }
  };
  return Promise.all([...Array.from({ length: clients }, browse), request()]);
}

async function requestOne(
  send: (req: { method: string; path: string; body?: string }, key: string, idempotent: boolean) => Promise<Response | null>,
  count: (res: Response | null) => Promise<Response | null>,
  c: Catalog,
  stats: RetryingStats,
): Promise<void> {
  const body = JSON.stringify({ episodes: [{ guid: newGuid('cluster'), url: audioUrl, secs: 20 }] });
  const res = await count(await send({ method: 'POST', path: '/api/v1/requests', body }, c.keys[stats.jobIds.length % c.keys.length]!, false));
  if (res?.status === 200) stats.jobIds.push(((await res.json()) as { job: { id: string } }).job.id);
  else await res?.arrayBuffer();
}

let audioUrl = '';

/** Waits until every job is done; then counts failed episodes and their refunds. */
async function settle(databaseUrl: string, jobIds: string[], timeoutMs: number) {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    let open = jobIds.length;
    while (Date.now() < deadline) {
      const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE id = ANY($1::uuid[]) AND status <> 'done'`, [jobIds]);
      open = rows[0]!.n;
      if (open === 0) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const { rows: [known] } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE id = ANY($1::uuid[])`, [jobIds]);
    const { rows: eps } = await db.query<{ status: string; n: number; refunded: number }>(
      `SELECT je.status, count(*)::int AS n, count(l.id)::int AS refunded FROM job_episodes je
       LEFT JOIN ledger_entries l ON l.reference = 'refund:' || je.charge_reference
       WHERE je.job_id = ANY($1::uuid[]) GROUP BY je.status`,
      [jobIds],
    );
    return { known: known!.n, open, episodes: eps };
  } finally {
    await db.end();
  }
}

export async function runClusterBench(adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL): Promise<string[]> {
  const title = '## Several processes on one PostgreSQL: 2 API + 2 workers vs 1 API';
  if (!adminUrl) return [title, 'skipped: set BENCH_DATABASE_URL (or TEST_DATABASE_URL) to a PostgreSQL role that may create databases'];
  const database = await freshDatabase(adminUrl);
  const procs: Proc[] = [];
  let audio: AudioServer | undefined;
  let speech: SpeechApi | undefined;
  try {
    const catalog = await seed(database.url);
    const loadBefore = loadavg()[0]!;
    audio = await startAudioServer();
    audio.file('/spoken.mp3', await spokenMp3(SHORT_PASSAGE));
    audioUrl = audio.url('/spoken.mp3');
    speech = await startSpeechApi(SHORT_PASSAGE);
    const env = { DATABASE_URL: database.url, ASR_ENGINE: 'openai', ASR_URL: speech.url, OUTBOUND_ALLOW: `${audio.endpoint},${speech.endpoint}`, SHUTDOWN_GRACE_SECONDS: '20' };
    const api = () => spawnBuilt('serve', { ...env, ROLE: 'api' }, (l) => l.msg === 'search index loaded');
    const worker = () => spawnBuilt('worker', { ...env, ROLE: 'worker', WORKERS: '1' }, (l) => String(l.msg).startsWith('transcription workers started'));
    const [a1, a2, w1, w2] = await Promise.all([api(), api(), worker(), worker()]);
    procs.push(a1!, a2!, w1!, w2!);
    const urls = [a1!.url, a2!.url];
    // Warm both: JIT, pools, caches.
    await mixedLoad(urls, catalog, 3, 1);

    const jobIds: string[] = [];
    const requests = (targets: string[], stop: AbortSignal) => retryingClients(targets, catalog, 0, stop, { answered: 0, failed: 0, fiveXx: 0, retries: {}, jobIds });

    // One API process takes all the traffic (workers still running).
    let stop = new AbortController();
    let requesting = requests([a1!.url], stop.signal);
    const one = await mixedLoad([a1!.url], catalog, SECONDS, CONNECTIONS * 2);
    stop.abort();
    await requesting;

    // Both, with the same number of connections in all; the spent key raced for meanwhile.
    stop = new AbortController();
    requesting = requests(urls, stop.signal);
    const [two, exact] = await Promise.all([mixedLoad(urls, catalog, SECONDS, CONNECTIONS), new Promise((r) => setTimeout(r, (SECONDS * 1000) / 3)).then(() => exhaust(urls, catalog))]);
    stop.abort();
    await requesting;

    // Retrying clients on both; one API process SIGTERMed a third of the way in.
    const term = SECONDS / 2;
    const stats: RetryingStats = { answered: 0, failed: 0, fiveXx: 0, retries: {}, jobIds };
    stop = new AbortController();
    const clients = retryingClients(urls, catalog, 16, stop.signal, stats);
    await new Promise((r) => setTimeout(r, (term * 1000) / 3));
    const signalled = Date.now();
    const exitCode = await a2!.stop();
    const exitSeconds = (Date.now() - signalled) / 1000;
    await new Promise((r) => setTimeout(r, Math.max(0, term * 1000 - (Date.now() - signalled) - (term * 1000) / 3)));
    stop.abort();
    await clients;
    const jobs = await settle(database.url, jobIds, 600_000);

    const rows = ROUTES.map((route) => {
      const o = one.get(route)!;
      const t = two.get(route)!;
      return `| ${route} | ${fmt(o.rps)} | ${o.p99} | ${fmt(t.rps)} | ${t.p99} | ${fmt(t.rps / o.rps, 2)}× |`;
    });
    const fiveXx = [...one.values(), ...two.values()].reduce((n, r) => n + r.fiveXx, 0);
    const errors = [...one.values(), ...two.values()].reduce((n, r) => n + r.errors, 0);
    const settled = jobs.episodes.map((e) => `${e.n} ${e.status}${e.status === 'failed' ? ` (${e.refunded} refunded)` : ''}`).join(', ');
    return [
      title,
      `Built bundle, PostgreSQL ${new URL(adminUrl).host}; 5,000 synthetic shows, ${TRANSCRIPTS} ready transcripts unlocked for ${KEYS} business keys taken in turn. Workers: WORKERS=1 each, a stand-in OpenAI-compatible speech server; a transcription request every ${REQUEST_EVERY_MS / 1000} s throughout. ${SECONDS} s per phase; ${CONNECTIONS * 2} connections per route on one API process, ${CONNECTIONS} per route on each of two. autocannon runs in the bench process on the same 2 cores, which other work loaded too (load average ${fmt(loadBefore)} before the phases, ${fmt(loadavg()[0]!)} after): the figures are this machine's at that moment, not the design's ceiling.`,
      '',
      '| route | 1 API req/s | 1 API p99 ms | 2 API req/s | 2 API p99 ms (worse process) | ratio |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `5xx answers in both phases: ${fiveXx} (connection errors: ${errors}).`,
      `A free key with ${LEFT} requests left, ${LEFT * 2} requests from each process at once: ${exact.ok} answered, ${exact.refused} refused with 429, ${exact.other} other.`,
      `SIGTERM of one API process ${fmt(term / 3, 0)} s into ${fmt(term, 0)} s of 16 retrying clients on both: ${stats.answered} answered, ${stats.failed} failed, ${stats.fiveXx} 5xx; retried on ${Object.entries(stats.retries).map(([k, v]) => `${k} ×${v}`).join(', ') || 'nothing'}; the process exited ${exitCode} after ${fmt(exitSeconds)} s.`,
      `Jobs requested: ${jobIds.length}; in the database: ${jobs.known}; not done after waiting: ${jobs.open}; episodes: ${settled}.`,
    ];
  } finally {
    await Promise.all(procs.map((p) => p.stop()));
    await audio?.close();
    await speech?.close();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log((await runClusterBench()).join('\n'));
}
